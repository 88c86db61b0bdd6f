/**
 * The scrolling-text generator's rules: its settings and defaults, the query string that keeps
 * them in the address, the image service request, and the estimate of frames and file size shown
 * before rendering. Plain functions, used by the page, its server loader and the tests alike.
 */

export const SCROLL_FONT_SIZE = { min: 16, max: 72, step: 2 } as const
export const SCROLL_TEXT_MAX = 200
export const SCROLL_DIVIDER_MAX = 8
/** The GIF: 600 CSS px wide at twice the pixels, at most 200 frames. */
export const SCROLL_WIDTH = 600
export const SCROLL_SCALE = 2
export const SCROLL_FRAMES_MAX = 200
/** A GIF in an email should stay under this; bigger ones load slowly on phones. */
export const EMAIL_GIF_BUDGET_BYTES = 400 * 1024
/** The image service draws a strip that would pass this with fewer, longer frames (same speed). */
export const SCROLL_GIF_MAX_BYTES = 800 * 1024

export const SCROLL_DIRECTIONS = ['left', 'right'] as const
export type ScrollDirection = (typeof SCROLL_DIRECTIONS)[number]

/** Flicker effects as the image service's per-frame opacity digits (1 shown, 0 hidden, 2–9 partly). */
export const FLICKER_PATTERNS = {
  none: { label: 'None', pattern: '' },
  blink: { label: 'Blink', pattern: '1111111100' },
  pulse: { label: 'Pulse', pattern: '1111198765456789' },
  neon: { label: 'Neon flicker', pattern: '11111111511111310111' },
} as const
export type FlickerEffect = keyof typeof FLICKER_PATTERNS
export const FLICKER_EFFECTS = Object.keys(FLICKER_PATTERNS) as FlickerEffect[]

/** Separators offered beside the text: characters, and Material icon code points (drawn by the icon font). */
export const SEPARATOR_PRESETS = [
  { value: '★', label: 'Star' },
  { value: '•', label: 'Dot' },
  { value: '|', label: 'Bar' },
  { value: '✦', label: 'Sparkle' },
  { value: '❤', label: 'Heart' },
  { value: '&#xe8cc;', label: 'Cart icon' },
  { value: '&#xe8f6;', label: 'Gift icon' },
  { value: '&#xe558;', label: 'Shipping icon' },
] as const

export interface ScrollingTextSettings {
  text: string
  separator: string
  font: string
  weight: number
  size: number
  /** Colours as `#rrggbb`. */
  color: string
  iconColor: string
  background: string
  direction: ScrollDirection
  flicker: FlickerEffect
}

export const SCROLLING_TEXT_DEFAULTS: Readonly<ScrollingTextSettings> = {
  text: 'Free shipping on all orders this week',
  separator: '★',
  font: 'roboto',
  weight: 700,
  size: 24,
  color: '#111827',
  iconColor: '#e11d48',
  background: '#fde68a',
  direction: 'left',
  flicker: 'none',
}

/** A font size the generator offers: within 16–72, on the 2 px steps, rounded to the nearest. */
export function snapFontSize(value: number): number {
  if (!Number.isFinite(value)) return SCROLLING_TEXT_DEFAULTS.size
  const { min, max, step } = SCROLL_FONT_SIZE
  return Math.min(max, Math.max(min, Math.round(value / step) * step))
}

/** The settings as the page's query string: only what differs from the defaults, colours without `#`. */
export function scrollingTextQuery(settings: ScrollingTextSettings): string {
  const query = new URLSearchParams()
  const defaults = SCROLLING_TEXT_DEFAULTS
  for (const key of ['text', 'separator', 'font', 'direction', 'flicker'] as const) if (settings[key] !== defaults[key]) query.set(key, settings[key])
  if (settings.weight !== defaults.weight) query.set('weight', String(settings.weight))
  if (settings.size !== defaults.size) query.set('size', String(settings.size))
  for (const key of ['color', 'iconColor', 'background'] as const) if (settings[key] !== defaults[key]) query.set(key, settings[key].replace('#', ''))
  return query.toString()
}

/** The body of `POST /giffer/scrollingtext/create`. */
export function scrollingTextRequest(settings: ScrollingTextSettings) {
  return {
    text: settings.text.trim(),
    divider: settings.separator.trim(),
    font: settings.font,
    font_weight: settings.weight,
    color: settings.color,
    divider_color: settings.iconColor,
    background: settings.background,
    reverse: settings.direction === 'right',
    font_size: settings.size,
    flicker_pattern: FLICKER_PATTERNS[settings.flicker].pattern,
    width: SCROLL_WIDTH,
    scale: SCROLL_SCALE,
    frames_max: SCROLL_FRAMES_MAX,
  }
}

/** Characters a separator shows: a character reference (`&#9733;`, `&#x2605;`) counts as one. */
export function separatorLength(separator: string): number {
  return [...separator.trim().replace(/&#(?:x[0-9a-f]{1,6}|\d{1,7});/gi, '□')].length
}

/**
 * Frames and file size before rendering. The strip moves 2 CSS px a frame and loops after one
 * repeat of text, separator and gaps, at most 200 frames and at most what fits the service's byte
 * limit; widths come from an average glyph width,
 * sizes from what the image service produces per frame at a font size (measured on its output:
 * about 2.4 KB a frame plus 45 bytes per pixel of font size, more with a flicker's fades).
 */
export function scrollingTextEstimate(settings: Pick<ScrollingTextSettings, 'text' | 'separator' | 'size' | 'flicker'>): { frames: number; bytes: number } {
  const size = snapFontSize(settings.size)
  const characters = [...settings.text.trim()].length
  const separator = separatorLength(settings.separator)
  const gaps = separator ? size + separator * size * 0.9 : size * 1.5
  const pattern = Math.max(1, characters * size * 0.52 + gaps)
  const flickerLength = FLICKER_PATTERNS[settings.flicker].pattern.length
  const unit = Math.max(1, flickerLength)
  const cap = Math.floor(SCROLL_FRAMES_MAX / unit) * unit
  const perFrame = (2400 + 45 * size) * (flickerLength ? 1.15 : 1)
  // Tall strips: as many frames as the service keeps under its byte limit (it aims a little under).
  const fitting = Math.max(unit, Math.floor((SCROLL_GIF_MAX_BYTES * 0.93) / perFrame / unit) * unit)
  const frames = Math.min(cap, fitting, Math.ceil(Math.ceil(pattern / 2) / unit) * unit)
  return { frames, bytes: Math.round(frames * perFrame) }
}
