import { describe, expect, it } from 'vitest'
import { contrast } from '../../scripts/lib/colour.js'
import { contrastChecks, contrastProblems, textSurfaces } from '../../scripts/templates/widget-contrast.js'
import { loadWidgetCatalog } from '../../server/gallery/widget-catalog.js'
import { PATTERN_COLOURS, WIDGET_BASE_CSS } from '../../server/gallery/widget-render.js'
import { contentDir } from '../../server/project-root.js'

const catalog = loadWidgetCatalog(contentDir)

describe('the colours of every widget template meet WCAG 2.1 AA', () => {
  it('reads everywhere it draws text, in every theme: no template fails a check', () => {
    const failing = catalog.templates.map((template) => ({ id: template.id, problems: contrastProblems(template) })).filter((entry) => entry.problems.length)
    expect(failing).toEqual([])
  })

  it('measures what matters in each template: typed text and placeholders of its fields, its button, its error messages, dark versions too', () => {
    const checks = catalog.templates.flatMap((template) => contrastChecks(template).map((check) => ({ ...check, id: template.id })))
    const themesOf = (what: string) => new Set(checks.filter((check) => check.what === what).map((check) => `${check.id}/${check.theme}`)).size
    const withFields = catalog.templates.filter((template) => template.fields.some((field) => !['rating', 'choice', 'checkbox'].includes(field.type)))
    const palettesOf = (templates: readonly { dark?: unknown }[]) => templates.reduce((count, template) => count + (template.dark ? 2 : 1), 0)
    expect(themesOf('typed text on the field')).toBe(palettesOf(withFields))
    expect(themesOf('button text and focus ring')).toBe(palettesOf(catalog.templates))
    expect(themesOf('error message')).toBe(palettesOf(catalog.templates.filter((template) => template.fields.length)))
    expect(Math.min(...checks.filter((check) => check.what === 'typed text on the field').map((check) => check.ratio))).toBeGreaterThanOrEqual(4.5)
  })

  it('gives typed text a colour of its own where the field is light on a dark surface', () => {
    const vivid = catalog.templates.filter((template) => contrast(template.style.palette.fg, template.style.palette.field) < 4.5)
    expect(vivid.length).toBeGreaterThan(20)
    for (const template of vivid) expect(contrast(template.style.palette.fieldText, template.style.palette.field)).toBeGreaterThanOrEqual(7)
  })

  it('counts the pattern and the background art as surfaces text sits on', () => {
    const palette = { bg: '#ffffff', fg: '#000000', accent: '#ff0000', accent2: '#00ff00' }
    expect(textSurfaces(palette, { pattern: 'none', artPlacement: 'top' })).toEqual(['#ffffff'])
    expect(textSurfaces(palette, { pattern: 'stripes', artPlacement: 'top' })).toEqual(['#ffffff', '#ffdede'])
    expect(textSurfaces(palette, { pattern: 'none', artPlacement: 'background' })).toHaveLength(4)
  })

  it('knows which colours each pattern is drawn in, as the widget styles draw it', () => {
    for (const [pattern, colours] of Object.entries(PATTERN_COLOURS)) {
      const rule = new RegExp(`\\.plw--pattern-${pattern}\\{([^}]*)\\}`).exec(WIDGET_BASE_CSS)?.[1] ?? ''
      const drawn = new Set([...rule.matchAll(/var\(--plw-(fg|accent2|accent)\)/g)].map((match) => match[1]))
      expect([...drawn].sort(), pattern).toEqual([...colours].sort())
    }
  })

  it('fails a palette whose typed text melts into the field', () => {
    const template = catalog.templates.find((candidate) => candidate.fields.some((field) => field.type === 'email'))!
    const broken = { ...template, style: { ...template.style, palette: { ...template.style.palette, fieldText: template.style.palette.field } } }
    expect(contrastProblems(broken)).toContainEqual(expect.stringMatching(/^light: typed text on the field .* 1\.00 < 4\.5$/))
  })
})
