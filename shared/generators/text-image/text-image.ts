/**
 * The text-image (calligraphy) generator's rules: its settings and defaults, how the text is
 * trimmed, the query string that keeps the settings in the address, and the image service URL of
 * one font's preview. Plain functions, used by the page, its server loader and the tests alike.
 */

/** At most 3 lines of 35 characters; the excess is cut off. */
export const TEXT_MAX_LINES = 3
export const TEXT_MAX_LINE_CHARS = 35

export const TEXT_STYLE_GROUPS = [
  { value: 'calligraphy', label: 'Calligraphy' },
  { value: 'gothic', label: 'Gothic' },
  { value: 'themed', label: 'Themed' },
] as const
export type TextStyleGroup = (typeof TEXT_STYLE_GROUPS)[number]['value']

export const TEXT_ALIGNMENTS = ['left', 'center', 'right'] as const
export type TextAlignment = (typeof TEXT_ALIGNMENTS)[number]

export const TEXT_SIZE = { min: 16, max: 72, step: 2 } as const
export const TEXT_LINE_HEIGHT = { min: 0.8, max: 2.5, step: 0.1 } as const
export const TEXT_STROKE = { min: 0, max: 20, step: 1 } as const
/** The images are drawn at twice their CSS size, sharp on every screen. */
export const TEXT_SCALE = 2

/** Ready-made texts the visitor can start from. */
export const TEXT_PROMPTS = [
  'Happy Birthday',
  'Thank you',
  'With love',
  'Merry Christmas\nand Happy New Year',
  'Best wishes',
  'Congratulations!',
  'Save the date',
  'Welcome to the family',
  'Jane Smith',
  'Grand Opening',
] as const

export interface TextImageSettings {
  text: string
  group: TextStyleGroup
  align: TextAlignment
  /** `#rrggbb`. */
  color: string
  size: number
  lineHeight: number
  /** 0: no outline. */
  stroke: number
  strokeColor: string
}

export const TEXT_IMAGE_DEFAULTS: Readonly<TextImageSettings> = {
  text: 'Happy Birthday',
  group: 'calligraphy',
  align: 'center',
  color: '#1f2937',
  size: 32,
  lineHeight: 1.2,
  stroke: 0,
  strokeColor: '#ffffff',
}

/** The text as drawn: trimmed, at most 3 lines of 35 characters, the excess cut off. */
export function textLines(text: string): string[] {
  return text
    .trim()
    .split(/\r\n|\r|\n/)
    .slice(0, TEXT_MAX_LINES)
    .map((line) => [...line.trimEnd()].slice(0, TEXT_MAX_LINE_CHARS).join(''))
}

/** What the text area keeps while typing: no more than 3 lines, each cut at 35 characters. */
export function limitText(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .slice(0, TEXT_MAX_LINES)
    .map((line) => [...line].slice(0, TEXT_MAX_LINE_CHARS).join(''))
    .join('\n')
}

const clamp = (value: number, { min, max, step }: { min: number; max: number; step: number }) =>
  Math.min(max, Math.max(min, Math.round(value / step) * step))

export const snapTextSize = (value: number) => (Number.isFinite(value) ? clamp(value, TEXT_SIZE) : TEXT_IMAGE_DEFAULTS.size)
export const snapLineHeight = (value: number) => (Number.isFinite(value) ? Number(clamp(value, TEXT_LINE_HEIGHT).toFixed(1)) : TEXT_IMAGE_DEFAULTS.lineHeight)
export const snapStroke = (value: number) => (Number.isFinite(value) ? clamp(value, TEXT_STROKE) : TEXT_IMAGE_DEFAULTS.stroke)

/** The settings as the page's query string: only what differs from the defaults, colours without `#`. */
export function textImageQuery(settings: TextImageSettings): string {
  const query = new URLSearchParams()
  const defaults = TEXT_IMAGE_DEFAULTS
  if (settings.text !== defaults.text) query.set('text', settings.text)
  if (settings.group !== defaults.group) query.set('group', settings.group)
  if (settings.align !== defaults.align) query.set('align', settings.align)
  if (settings.color !== defaults.color) query.set('color', settings.color.replace('#', ''))
  if (settings.size !== defaults.size) query.set('size', String(settings.size))
  if (settings.lineHeight !== defaults.lineHeight) query.set('lineHeight', String(settings.lineHeight))
  if (settings.stroke !== defaults.stroke) query.set('stroke', String(settings.stroke))
  if (settings.stroke && settings.strokeColor !== defaults.strokeColor) query.set('strokeColor', settings.strokeColor.replace('#', ''))
  return query.toString()
}

/** Space around the text: 3 + font size / 10, rounded up; a size that is not a number counts as 32. */
export function textImagePadding(fontSize: number): number {
  const size = Number.isFinite(fontSize) ? fontSize : TEXT_IMAGE_DEFAULTS.size
  return 3 + Math.ceil(size / 10)
}

/** The image service URL of one font's preview (`GET /giffer/text/preview`). */
export function textPreviewUrl(settings: TextImageSettings, font: string): string {
  const query = new URLSearchParams({
    text: textLines(settings.text).join('\n'),
    font_weight: 'regular',
    font_size: String(settings.size),
    text_align: settings.align,
    lineheight: String(settings.lineHeight),
    color: settings.color,
    padding: String(textImagePadding(settings.size)),
    scale: String(TEXT_SCALE),
  })
  // The outline and its colour only when an outline is chosen.
  if (settings.stroke > 0) {
    query.set('stroke_width', String(settings.stroke))
    query.set('stroke', settings.strokeColor)
  }
  query.set('font', font)
  return `/giffer/text/preview?${query}`
}

/** The download's file name: a calligraphy png, named after the font. */
export function textImageFileName(fontId: string): string {
  return `calligraphy-${fontId}.png`
}
