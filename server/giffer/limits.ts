/** What the generators accept (sizes, lengths, defaults), plus the hard bounds that keep one job small. */

// Text image: up to 3 lines of 35 characters, 16–72 px, drawn at twice the size by default
export const TEXT_MAX_LINES = 3
export const TEXT_MAX_LINE_CHARS = 35
export const FONT_SIZE_MIN = 16
export const FONT_SIZE_MAX = 72
export const TEXT_DEFAULT_FONT_SIZE = 32
export const DEFAULT_SCALE = 2
export const MAX_SCALE = 2

export { textImagePadding } from '../../shared/text-image.js'

// Scrolling text: 600 px wide, at most 200 frames, text up to 200 characters, divider up to 8
export const SCROLLING_WIDTH = 600
export const SCROLLING_FRAMES_MAX = 200
export const SCROLLING_DEFAULT_FONT_SIZE = 24
export const SCROLLING_TEXT_MAX_CHARS = 200
export const SCROLLING_DIVIDER_MAX_CHARS = 8
export const FLICKER_PATTERN_MAX = 20
/** A scrolling GIF over this many bytes is drawn with fewer frames: an email's images should stay small. */
export { SCROLL_GIF_MAX_BYTES as SCROLLING_MAX_BYTES } from '../../shared/scrolling-text.js'

// Countdown: 120 one-second frames, at most 99 days, captions up to 16 characters
export const COUNTDOWN_DURATION = 120
export const COUNTDOWN_MAX_DAYS = 99
export const COUNTDOWN_MAX_SECONDS = COUNTDOWN_MAX_DAYS * 86_400
export const COUNTDOWN_CAPTION_MAX_CHARS = 16

// Slideshow: 200–900 px wide, 1–10 images, up to 5 side by side
export const SLIDESHOW_WIDTH = 900
export const SLIDESHOW_MIN_WIDTH = 200
export const SLIDESHOW_MAX_IMAGES = 10
export const SLIDESHOW_MAX_COUNT = 5

/** Aspect heights as a multiple of the width. */
export const ASPECT_HEIGHTS = { '4:5': 5 / 4, '3:2': 2 / 3, '1:1': 1, '9:16': 16 / 9, '16:9': 9 / 16 } as const
/** Trio layout emphasis: how much larger the front photo is. */
export const TRIO_TWEAKS = { soft: 1.1, focus: 1.3, hero: 1.5 } as const

// Uploads: JPEG, PNG or WebP up to 5 MB, signatures valid for 20 minutes
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024
export const UPLOAD_SIGNATURE_TTL_SECONDS = 20 * 60
export const UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const
export type UploadType = (typeof UPLOAD_TYPES)[number]

// Hard bounds on one job: what a worker may be asked to draw and decode.
/** Pixels of one frame. */
export const MAX_FRAME_PIXELS = 4_000_000
/** Frames × pixels of one animation. */
export const MAX_JOB_PIXELS = 64_000_000
/** Widest canvas Skia draws reliably. */
export const MAX_CANVAS_SIDE = 30_000
/** Decoding refuses images above this many pixels (decompression bombs). */
export const MAX_INPUT_PIXELS = 40_000_000
/** Bytes of a JSON request body. */
export const JSON_BODY_LIMIT = '32kb'
