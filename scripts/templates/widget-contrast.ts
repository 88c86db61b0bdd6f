/**
 * The contrast a widget template's colours give, pair by pair, as server/gallery/widget-render.ts
 * draws them, held to WCAG 2.1 AA: 4.5:1 for text, 3:1 for large text (the close button's ×,
 * 24 px) and for what is not text but must be seen (focus rings, a chosen star). Text is measured
 * on every surface it can sit on: the widget's own, and that surface where the decorative
 * pattern or background art shows through, blended as the browser blends them.
 *
 * The generator (scripts/templates/generate-widget-templates.ts) builds its palettes to pass and stops when
 * one does not; tests/unit/widget-contrast.test.ts holds every template in data/ to it.
 */
import {
  ART_BACKGROUND_OPACITY,
  ART_PANEL_TINT,
  CLOSE_OPACITY,
  COUNTDOWN_TINT,
  ERROR_COLOURS,
  PATTERN_COLOURS,
  PATTERN_OPACITY,
} from '../../server/gallery/widget-render.js'
import type { Palette, WidgetStyle, WidgetTemplate } from '../../shared/gallery/widget-schema.js'
import { contrast, mix } from '../lib/colour.js'

/** Minimum ratios of WCAG 2.1 AA. */
export const TEXT = 4.5
export const LARGE_TEXT = 3
export const NON_TEXT = 3

export interface ContrastCheck {
  theme: 'light' | 'dark'
  /** What is measured, e.g. "typed text on the field". */
  what: string
  foreground: string
  background: string
  ratio: number
  min: number
}

type Decoration = Pick<WidgetStyle, 'pattern' | 'artPlacement'>

/** The surface with each decoration over it: the colours text can sit on. */
export function textSurfaces(palette: Pick<Palette, 'bg' | 'fg' | 'accent' | 'accent2'>, style: Decoration): string[] {
  const patterned = (surface: string) => [surface, ...PATTERN_COLOURS[style.pattern].map((key) => mix(surface, palette[key], PATTERN_OPACITY))]
  const surfaces = patterned(palette.bg)
  if (style.artPlacement !== 'background') return surfaces
  // The art is drawn above the pattern, in the accents and the text colour.
  const art = [palette.accent, palette.accent2, palette.fg]
  return [...surfaces, ...surfaces.flatMap((surface) => art.map((colour) => mix(surface, colour, ART_BACKGROUND_OPACITY)))]
}

/** Where the close button sits: the text surfaces, and the art panel when the art is beside or above the text. */
function closeSurfaces(palette: Palette, style: Decoration): string[] {
  const surfaces = textSurfaces(palette, style)
  if (!['left', 'right', 'top'].includes(style.artPlacement)) return surfaces
  const panel = mix(palette.bg, palette.accent, ART_PANEL_TINT)
  return [...surfaces, panel, ...PATTERN_COLOURS[style.pattern].map((key) => mix(panel, palette[key], PATTERN_OPACITY))]
}

const TYPED = new Set(['email', 'text', 'tel', 'textarea', 'date', 'select'])
const WITH_PLACEHOLDER = new Set(['email', 'text', 'tel', 'textarea'])

/** Every pair of colours the template draws, in each of its themes, with its ratio and the minimum it needs. */
export function contrastChecks(template: Pick<WidgetTemplate, 'copy' | 'fields' | 'layout' | 'countdownMinutes' | 'style' | 'dark'>): ContrastCheck[] {
  const checks: ContrastCheck[] = []
  const themes: ['light' | 'dark', Palette][] = [['light', template.style.palette]]
  if (template.dark) themes.push(['dark', template.dark])
  for (const [theme, palette] of themes) {
    const add = (what: string, foreground: string, background: string, min: number) =>
      checks.push({ theme, what, foreground, background, ratio: contrast(foreground, background), min })
    const surfaces = textSurfaces(palette, template.style)
    for (const surface of surfaces) {
      add('text and focus rings on the surface', palette.fg, surface, TEXT)
      add('secondary text, field and choice borders', palette.muted, surface, TEXT)
      if (template.copy.kicker) add('kicker', palette.accent, surface, TEXT)
      if (template.fields.some((field) => field.type === 'rating')) add('chosen star', palette.accent, surface, NON_TEXT)
      if (template.countdownMinutes) add('countdown digits', palette.fg, mix(surface, palette.fg, COUNTDOWN_TINT), TEXT)
    }
    if (template.layout !== 'inline') {
      for (const surface of closeSurfaces(palette, template.style)) add('close button', mix(surface, palette.fg, CLOSE_OPACITY), surface, LARGE_TEXT)
    }
    add('button text and focus ring', palette.buttonText, palette.button, TEXT)
    if (template.fields.some((field) => TYPED.has(field.type))) add('typed text on the field', palette.fieldText, palette.field, TEXT)
    if (template.fields.some((field) => WITH_PLACEHOLDER.has(field.type))) add('placeholder on the field', palette.placeholder, palette.field, TEXT)
    if (template.fields.length) add('error message', ERROR_COLOURS.text, ERROR_COLOURS.background, TEXT)
  }
  return checks
}

/** The checks a template fails, one line each ("dark: typed text on the field #f0f0f0 on #ffffff 1.12 < 4.5"). */
export function contrastProblems(template: Parameters<typeof contrastChecks>[0]): string[] {
  return contrastChecks(template)
    .filter((check) => check.ratio < check.min)
    .map((check) => `${check.theme}: ${check.what} ${check.foreground} on ${check.background} ${check.ratio.toFixed(2)} < ${check.min}`)
}
