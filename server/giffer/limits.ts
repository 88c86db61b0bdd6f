/**
 * The image service's own bounds: what one job may ask of a worker, and the few settings only
 * the service knows. What the generators' pages and the service share (sizes, lengths, defaults,
 * upload rules) is defined once under shared/generators/<name>/ and imported from there by name.
 */

// Text image and scrolling text: drawn at twice the size by default, never more.
export const DEFAULT_SCALE = 2
export const MAX_SCALE = 2

/** Characters of a scrolling text's flicker pattern (per-frame opacity digits). */
export const FLICKER_PATTERN_MAX = 20

/** Narrowest slideshow, in pixels (the widest is the generators' `SLIDESHOW_WIDTH`). */
export const SLIDESHOW_MIN_WIDTH = 200

// Hard bounds on one job: what a worker may be asked to draw and decode.
/** Pixels of one frame. */
export const MAX_FRAME_PIXELS = 4_000_000
/** Frames × pixels of one animation. */
export const MAX_JOB_PIXELS = 64_000_000
/** Widest canvas Skia draws reliably. */
export const MAX_CANVAS_SIDE = 30_000
/**
 * A render thread's decode refuses images above this many pixels (decompression bombs). An upload
 * may have more, up to `PHOTO_MAX_PIXELS` (a phone's 48- or 50-megapixel mode): it is reduced to
 * the render size once, shrunk while it decodes, and only the reduced copy is drawn.
 */
export const MAX_INPUT_PIXELS = 40_000_000
/** Bytes of a JSON request body. */
export const JSON_BODY_LIMIT = '32kb'
