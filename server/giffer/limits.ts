/**
 * What the generators accept (sizes, lengths, defaults), plus the hard bounds that keep one job
 * small. The rules the pages share (shared/*.ts) are defined there once and only named here.
 */
import { CAPTION_MAX_LENGTH, COUNTDOWN_DURATION as SHARED_COUNTDOWN_DURATION, DELAY_CAPS } from '../../shared/generators/countdown/countdown.js'
import { SCROLL_DIVIDER_MAX, SCROLL_FRAMES_MAX, SCROLL_TEXT_MAX, SCROLL_WIDTH, SCROLLING_TEXT_DEFAULTS } from '../../shared/generators/scrolling-text/scrolling-text.js'
import { ACCEPTED_TYPES, LAYOUT_TWEAKS, SIGNATURE_CACHE_MS, SLIDESHOW_MAX_IMAGES as SHARED_SLIDESHOW_MAX_IMAGES, SLIDESHOW_WIDTH as SHARED_SLIDESHOW_WIDTH } from '../../shared/generators/slideshow/slideshow.js'
import { TEXT_IMAGE_DEFAULTS, TEXT_SIZE } from '../../shared/generators/text-image/text-image.js'

// Text image: up to 3 lines of 35 characters, 16–72 px, drawn at twice the size by default
export { TEXT_MAX_LINE_CHARS, TEXT_MAX_LINES, textImagePadding } from '../../shared/generators/text-image/text-image.js'
export const FONT_SIZE_MIN = TEXT_SIZE.min
export const FONT_SIZE_MAX = TEXT_SIZE.max
export const TEXT_DEFAULT_FONT_SIZE = TEXT_IMAGE_DEFAULTS.size
export const DEFAULT_SCALE = 2
export const MAX_SCALE = 2

// Scrolling text: 600 px wide, at most 200 frames, text up to 200 characters, divider up to 8
export const SCROLLING_WIDTH = SCROLL_WIDTH
export const SCROLLING_FRAMES_MAX = SCROLL_FRAMES_MAX
export const SCROLLING_DEFAULT_FONT_SIZE = SCROLLING_TEXT_DEFAULTS.size
export const SCROLLING_TEXT_MAX_CHARS = SCROLL_TEXT_MAX
export const SCROLLING_DIVIDER_MAX_CHARS = SCROLL_DIVIDER_MAX
export const FLICKER_PATTERN_MAX = 20
/** A scrolling GIF over this many bytes is drawn with fewer frames: an email's images should stay small. */
export { SCROLL_GIF_MAX_BYTES as SCROLLING_MAX_BYTES } from '../../shared/generators/scrolling-text/scrolling-text.js'

// Countdown: 120 one-second frames, at most 99 days, captions up to 16 characters
export const COUNTDOWN_DURATION = SHARED_COUNTDOWN_DURATION
export const COUNTDOWN_MAX_DAYS = DELAY_CAPS.days
export const COUNTDOWN_MAX_SECONDS = COUNTDOWN_MAX_DAYS * 86_400
export const COUNTDOWN_CAPTION_MAX_CHARS = CAPTION_MAX_LENGTH

// Slideshow: 200–900 px wide, 1–10 images, up to 5 side by side
export const SLIDESHOW_WIDTH = SHARED_SLIDESHOW_WIDTH
export const SLIDESHOW_MIN_WIDTH = 200
export const SLIDESHOW_MAX_IMAGES = SHARED_SLIDESHOW_MAX_IMAGES
export const SLIDESHOW_MAX_COUNT = 5

/** Aspect heights as a multiple of the width. */
export const ASPECT_HEIGHTS = { '4:5': 5 / 4, '3:2': 2 / 3, '1:1': 1, '9:16': 16 / 9, '16:9': 9 / 16 } as const
/** Trio layout emphasis: how much larger the front photo is. */
export const TRIO_TWEAKS = LAYOUT_TWEAKS

// Uploads: JPEG, PNG or WebP up to 5 MB, signatures valid for 20 minutes
export { UPLOAD_MAX_BYTES } from '../../shared/generators/slideshow/slideshow.js'
export const UPLOAD_SIGNATURE_TTL_SECONDS = SIGNATURE_CACHE_MS / 1000
export const UPLOAD_TYPES = ACCEPTED_TYPES
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
