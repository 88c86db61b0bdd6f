/**
 * The generators' request shapes, as zod schemas. Numbers and booleans may arrive as JSON values
 * or as strings (query strings, form posts), but nothing else is coerced: `true` is not a font
 * size. Parsing a request with a schema (`parseRequest`) yields the plain job for a worker.
 */
import { z } from 'zod'
import { findFont, nearestWeight, type FontEntry } from './fonts.js'
import type { CountdownJob, PhotoHeader, Rgb, Rgba, ScrollingTextJob, SlideshowJob, SlideshowMode, TextPreviewJob } from './jobs.js'
import { CAPTION_MAX_LENGTH, COUNTDOWN_DURATION, DELAY_MAX_SECONDS } from '../../shared/generators/countdown/countdown.js'
import {
  SCROLL_DIVIDER_MAX,
  SCROLL_FONT_SIZE,
  SCROLL_FRAMES_MAX,
  SCROLL_TEXT_MAX,
  SCROLL_WIDTH,
  SCROLLING_TEXT_DEFAULTS,
} from '../../shared/generators/scrolling-text/scrolling-text.js'
import { ASPECT_HEIGHTS, LAYOUT_TWEAKS, NUMBER_FIELDS, SLIDESHOW_MAX_IMAGES, SLIDESHOW_WIDTH } from '../../shared/generators/slideshow/slideshow.js'
import { TEXT_IMAGE_DEFAULTS, TEXT_MAX_LINE_CHARS, TEXT_MAX_LINES, TEXT_SIZE, textImagePadding } from '../../shared/generators/text-image/text-image.js'
import { DEFAULT_SCALE, FLICKER_PATTERN_MAX, MAX_SCALE, SLIDESHOW_MIN_WIDTH } from './limits.js'

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/

/** A number given as a JSON number or a decimal string, within [min, max]. */
function number(min: number, max: number, options: { int?: boolean } = {}) {
  const kind = options.int ? 'a whole number' : 'a number'
  return z
    .union([z.number(), z.string().trim().regex(DECIMAL).transform(Number)], { error: `must be ${kind}` })
    .pipe(
      z
        .number({ error: `must be ${kind}` })
        .refine((n) => Number.isFinite(n), `must be ${kind}`)
        .refine((n) => !options.int || Number.isInteger(n), `must be ${kind}`)
        .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`),
    )
}

/** A whole number given as a JSON number or a decimal string, within [min, max]. */
export const wholeNumber = (min: number, max: number) => number(min, max, { int: true })

const boolean = z.union(
  [
    z.boolean(),
    z.literal(1).transform(() => true),
    z.literal(0).transform(() => false),
    z.enum(['true', 'false', '1', '0', 'on', 'off', '']).transform((v) => v === 'true' || v === '1' || v === 'on'),
  ],
  { error: 'must be true or false' },
)

/** A Map, not an object: a name such as `__proto__` or `constructor` must find nothing. */
const NAMED_COLOURS = new Map([
  ['black', '000000'],
  ['white', 'ffffff'],
])

function parseHex(value: string): Rgba | null {
  const named = NAMED_COLOURS.get(value.toLowerCase())
  const hex = (named ?? value.replace(/^#/, '')).toLowerCase()
  if (!/^([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/.test(hex)) return null
  const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex
  const byte = (i: number) => parseInt(full.slice(i, i + 2), 16)
  return [byte(0), byte(2), byte(4), full.length === 8 ? Math.round((byte(6) / 255) * 1000) / 1000 : 1]
}

/** An opaque colour: `#rgb`, `#rrggbb` (the # is optional), `black` or `white`. */
const colour = z
  .string({ error: 'must be a colour like #ff0000' })
  .trim()
  .transform((value, ctx): Rgb => {
    const rgba = parseHex(value)
    if (!rgba || rgba[3] !== 1) {
      ctx.addIssue({ code: 'custom', message: 'must be a colour like #ff0000' })
      return z.NEVER
    }
    return [rgba[0], rgba[1], rgba[2]]
  })

/** A colour that may be translucent: also `#rrggbbaa`. */
const colourWithAlpha = z
  .string({ error: 'must be a colour like #ff0000' })
  .trim()
  .transform((value, ctx): Rgba => {
    const rgba = parseHex(value)
    if (!rgba) {
      ctx.addIssue({ code: 'custom', message: 'must be a colour like #ff0000 or #ff000080' })
      return z.NEVER
    }
    return rgba
  })

const font = z
  .string({ error: 'must be a font id from the font list' })
  .trim()
  .max(80)
  .transform((value, ctx): FontEntry => {
    const entry = findFont(value)
    if (!entry) {
      ctx.addIssue({ code: 'custom', message: `unknown font "${value.slice(0, 40)}": pick an id from GET fonts` })
      return z.NEVER
    }
    return entry
  })

const WEIGHT_NAMES: Record<string, number> = {
  thin: 100,
  light: 300,
  regular: 400,
  normal: 400,
  medium: 500,
  semibold: 600,
  bold: 700,
  extrabold: 800,
  black: 900,
}

/** 100–900 in steps of 100, or a name (`regular`, `bold`…). */
const fontWeight = z.union(
  [
    z.enum(Object.keys(WEIGHT_NAMES) as [string, ...string[]]).transform((name) => WEIGHT_NAMES[name]!),
    number(100, 900, { int: true }).refine((n) => n % 100 === 0, 'must be a multiple of 100'),
  ],
  { error: 'must be 100–900 or regular, bold…' },
)

const scale = number(1, MAX_SCALE, { int: true }).default(DEFAULT_SCALE)
const fontSize = (range: { min: number; max: number }, fallback: number) => number(range.min, range.max).default(fallback)

/** `&#9733;` and `&#x2605;` become ★; anything else stays as written. */
export function decodeCharacterReferences(value: string): string {
  return value.replace(/&#(x[0-9a-f]{1,6}|[0-9]{1,7});/gi, (ref, code: string) => {
    const point = code[0] === 'x' || code[0] === 'X' ? parseInt(code.slice(1), 16) : parseInt(code, 10)
    const valid = point > 0 && point <= 0x10ffff && (point < 0xd800 || point > 0xdfff)
    return valid ? String.fromCodePoint(point) : ref
  })
}

/**
 * `1` shows the text, `0` hides it, `2`–`9` show it at 20–90 %; one character per frame,
 * repeated. Empty: no flicker.
 */
export function parseFlickerPattern(pattern: string): number[] {
  return [...pattern].map((c) => {
    const d = Number(c)
    return d <= 1 ? d : d / 10
  })
}

const scrollingTextFields = z.object({
  text: z.string({ error: 'is required' }).trim().min(1, 'is required').max(SCROLL_TEXT_MAX, `must be at most ${SCROLL_TEXT_MAX} characters`),
  divider: z
    .string({ error: 'must be text' })
    .max(200)
    .default('')
    .transform((value) => decodeCharacterReferences(value))
    .refine((value) => [...value].length <= SCROLL_DIVIDER_MAX, `must be at most ${SCROLL_DIVIDER_MAX} characters`),
  icon_style: z.enum(['filled', 'outlined'], { error: 'must be filled or outlined' }).default('filled'),
  font: font.default(() => findFont('roboto')!),
  font_weight: fontWeight.default(700),
  color: colour.default([0, 0, 0]),
  divider_color: colour.optional(),
  background: colour.default([255, 255, 255]),
  reverse: boolean.default(false),
  font_size: fontSize(SCROLL_FONT_SIZE, SCROLLING_TEXT_DEFAULTS.size),
  flicker_pattern: z
    .string({ error: 'must be a string of digits' })
    .trim()
    .max(FLICKER_PATTERN_MAX, `must be at most ${FLICKER_PATTERN_MAX} characters`)
    .regex(/^[0-9]*$/, 'must be digits: 1 shown, 0 hidden, 2–9 dimmed')
    .default(''),
  width: number(100, SCROLL_WIDTH, { int: true }).default(SCROLL_WIDTH),
  scale,
  frames_max: number(1, SCROLL_FRAMES_MAX, { int: true }).default(SCROLL_FRAMES_MAX),
})

export const scrollingTextSchema = scrollingTextFields.transform(
  (input): ScrollingTextJob => ({
    kind: 'scrolling-text',
    text: input.text,
    divider: input.divider,
    iconStyle: input.icon_style,
    font: input.font.id,
    weight: nearestWeight(input.font, input.font_weight),
    color: input.color,
    dividerColor: input.divider_color ?? input.color,
    background: input.background,
    reverse: input.reverse,
    fontSize: input.font_size,
    flicker: parseFlickerPattern(input.flicker_pattern),
    width: input.width,
    scale: input.scale,
    framesMax: input.frames_max,
  }),
)

const countdownFields = z.object({
  delay: number(0, DELAY_MAX_SECONDS, { int: true }),
  font: font.default(() => findFont('roboto')!),
  font_weight: fontWeight.default(700),
  color: colour.default([0, 0, 0]),
  background: colour.default([255, 255, 255]),
  ...captionFields(),
  duration: number(1, COUNTDOWN_DURATION, { int: true }).default(COUNTDOWN_DURATION),
  style: z.enum(['solid'], { error: 'must be solid' }).default('solid'),
  scale,
})

function captionFields() {
  const caption = z
    .string({ error: 'must be text' })
    .trim()
    .max(CAPTION_MAX_LENGTH, `must be at most ${CAPTION_MAX_LENGTH} characters`)
    .default('')
  return { days: caption, hours: caption, minutes: caption, seconds: caption }
}

/** The countdown style a live timer carries in its URL (the start time comes from `until`). */
export const liveStyleSchema = countdownFields.omit({ delay: true, style: true })
export type CountdownStyle = z.output<typeof liveStyleSchema>

/** A number written in a URL, moved to the nearest whole number in [min, max] (a multiple of `step`); undefined when it is no number. */
const nearestWhole = (min: number, max: number, step = 1) => (raw: string | undefined) => {
  const n = Number(raw)
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n / step) * step)) : undefined
}

/** What each style value that no longer passes is read as: the nearest value that does, or (undefined) the default. */
const NEAREST_STYLE: Record<keyof CountdownStyle, (raw: string | undefined) => unknown> = {
  font: () => undefined,
  font_weight: nearestWhole(100, 900, 100),
  color: () => undefined,
  background: () => undefined,
  days: (raw) => [...(raw ?? '').trim()].slice(0, CAPTION_MAX_LENGTH).join(''),
  hours: (raw) => [...(raw ?? '').trim()].slice(0, CAPTION_MAX_LENGTH).join(''),
  minutes: (raw) => [...(raw ?? '').trim()].slice(0, CAPTION_MAX_LENGTH).join(''),
  seconds: (raw) => [...(raw ?? '').trim()].slice(0, CAPTION_MAX_LENGTH).join(''),
  duration: nearestWhole(1, COUNTDOWN_DURATION),
  scale: nearestWhole(1, MAX_SCALE),
}

/**
 * A live timer's style from its signed URL, never refused. Every value passed when the URL was
 * signed; a timer already in people's inboxes must go on drawing when a later release renames a
 * font or tightens a limit, so a value that no longer passes is read as the nearest one that does
 * (a size clamped into its range, a caption cut to its length), or as the default (an unknown
 * font or colour).
 */
export function readLiveStyle(params: Record<string, string | undefined>): CountdownStyle {
  const shape: Record<string, z.ZodType> = liveStyleSchema.shape
  const passing: Record<string, unknown> = {}
  for (const [name, nearest] of Object.entries(NEAREST_STYLE)) {
    const raw = params[name]
    if (shape[name]!.safeParse(raw).success) passing[name] = raw
    else if (shape[name]!.safeParse(nearest(raw)).success) passing[name] = nearest(raw)
  }
  // Each value now passes on its own (or is left to its default), so the whole does.
  return liveStyleSchema.parse(passing)
}

/** When a countdown starts and how it is drawn; the rest of the job is its style. */
export interface CountdownTiming {
  /** Seconds left at frame 0. */
  remainingSeconds: number
  /** How many one-second frames to draw. */
  frames: number
  format: CountdownJob['format']
}

/** The one place a countdown job is made: for `countdown/create` and for the live timer. */
export function countdownJob(style: CountdownStyle, timing: CountdownTiming): CountdownJob {
  return {
    kind: 'countdown',
    remainingSeconds: timing.remainingSeconds,
    frames: timing.frames,
    font: style.font.id,
    weight: nearestWeight(style.font, style.font_weight),
    color: style.color,
    background: style.background,
    captions: { days: style.days, hours: style.hours, minutes: style.minutes, seconds: style.seconds },
    scale: style.scale,
    format: timing.format,
  }
}

/** `countdown/create`: a GIF of `duration` frames counting down from `delay` seconds. */
export const countdownSchema = countdownFields.transform(
  (input): CountdownJob => countdownJob(input, { remainingSeconds: input.delay, frames: input.duration, format: 'gif' }),
)

/** Up to 3 lines of 35 characters; the excess is cut off, as the generator form does. */
export function textLines(text: string): string[] {
  const lines = text
    .trim()
    .split(/\r\n|\r|\n/)
    .slice(0, TEXT_MAX_LINES)
    .map((line) => [...line.trimEnd()].slice(0, TEXT_MAX_LINE_CHARS).join(''))
  return lines
}

const textPreviewFields = z.object({
  text: z
    .string({ error: 'is required' })
    .max(2000, 'is too long')
    .transform(textLines)
    .refine((lines) => lines.some((line) => line.trim().length > 0), 'is required'),
  font,
  font_weight: fontWeight.default(400),
  font_size: fontSize(TEXT_SIZE, TEXT_IMAGE_DEFAULTS.size),
  text_align: z.enum(['left', 'center', 'right'], { error: 'must be left, center or right' }).default('center'),
  lineheight: number(0.5, 3).default(1.2),
  color: colourWithAlpha.default([0, 0, 0, 1]),
  padding: number(0, 100).optional(),
  scale,
  stroke_width: number(0, 20).default(0),
  stroke: colourWithAlpha.default([255, 255, 255, 1]),
})

export const textPreviewSchema = textPreviewFields.transform(
  (input): TextPreviewJob => ({
    kind: 'text-preview',
    lines: input.text,
    font: input.font.id,
    weight: nearestWeight(input.font, input.font_weight),
    fontSize: input.font_size,
    align: input.text_align,
    lineHeight: input.lineheight,
    color: input.color,
    padding: input.padding ?? textImagePadding(input.font_size),
    scale: input.scale,
    stroke: input.stroke_width > 0 ? { width: input.stroke_width, color: input.stroke } : null,
  }),
)

const aspect = z.union(
  [
    z.enum(Object.keys(ASPECT_HEIGHTS) as [keyof typeof ASPECT_HEIGHTS]).transform((key) => ASPECT_HEIGHTS[key]),
    number(0.25, 4),
  ],
  { error: 'must be a height/width ratio (0.25–4) or 4:5, 3:2, 1:1, 9:16, 16:9' },
)

const tweak = z.union(
  [z.enum(Object.keys(LAYOUT_TWEAKS) as [keyof typeof LAYOUT_TWEAKS]).transform((key) => LAYOUT_TWEAKS[key]), number(1, 2)],
  { error: 'must be 1–2 or soft, focus, hero' },
)

const slideshowFields = z.object({
  images: z
    .array(z.string({ error: 'must be an upload URL' }).max(2048), { error: 'must be a list of upload URLs' })
    .min(1, 'Please upload at least one image.')
    .max(SLIDESHOW_MAX_IMAGES, `must hold at most ${SLIDESHOW_MAX_IMAGES} images`),
  delay: number(100, 10_000, { int: true }).default(1500),
  radius: number(0, 200).default(0),
  width: number(SLIDESHOW_MIN_WIDTH, SLIDESHOW_WIDTH, { int: true }).default(SLIDESHOW_WIDTH),
  background: z
    .union([z.literal('transparent').transform(() => null), colour], { error: 'must be a colour or transparent' })
    .default([255, 255, 255]),
  border_width: number(0, 50).default(0),
  border_color: colour.default([0, 0, 0]),
  spacing: number(0, 100).default(0),
  count: number(1, NUMBER_FIELDS.columns.max, { int: true }).default(1),
  tweak: tweak.default(LAYOUT_TWEAKS.focus),
  overflow: number(0, 0.9).default(0),
  height: aspect.default(1),
  overlay_color: colour.default([0, 0, 0]),
  overlay_opacity: number(0, 1).default(0.5),
})

/**
 * A slideshow request: the upload URLs, and the job for a layout once the files behind them are
 * read. `count` applies to the row only; trio and overlay always show 3 photos, and the row
 * never lets photos overflow the frame.
 */
export const slideshowSchema = slideshowFields.transform(({ images: urls, ...style }) => ({
  urls,
  job: (mode: SlideshowMode, photos: PhotoHeader[]): SlideshowJob => ({
    kind: 'slideshow',
    mode,
    photos,
    delayMs: style.delay,
    radius: style.radius,
    width: style.width,
    background: style.background,
    borderWidth: style.border_width,
    borderColor: style.border_color,
    spacing: style.spacing,
    count: mode === 'row' ? style.count : 3,
    tweak: style.tweak,
    overflow: mode === 'row' ? 0 : style.overflow,
    height: style.height,
    overlayColor: style.overlay_color,
    overlayOpacity: style.overlay_opacity,
  }),
}))

