/** How a scrolling text moves: the strip's proportions and the plan of steps and frames, pure arithmetic shared by the renderer and the memory estimate. */

/** Line height of the strip, as a multiple of the font size. */
export const STRIP_HEIGHT = 1.6
/** Space on each side of the divider, as a multiple of the font size. */
export const DIVIDER_GAP = 0.5
/** Space between repeats when there is no divider. */
export const PLAIN_GAP = 1.5
/** Columns of the canvas the strip is drawn through, a piece at a time: what drawing it costs follows the piece, not the strip. */
export const STRIP_PIECE_PX = 2048
/** Nominal motion: 2 CSS px every 40 ms (50 CSS px a second). */
const STEP_CSS_PX = 2
const FRAME_MS = 40
const MIN_FRAME_MS = 20
const MAX_FRAME_MS = 100

export interface ScrollPlan {
  /** Pattern width: a whole multiple of the step, so the loop is seamless. */
  period: number
  step: number
  frames: number
  delayMs: number
}

/**
 * How far the strip moves per frame and how many frames one period takes. The period is padded
 * up to `frames × step`; long texts take bigger steps (and proportionally longer frames, so the
 * speed stays the same) instead of more than `framesMax` frames. With a flicker pattern the
 * frame count is also a multiple of the pattern's length.
 */
export function planScroll(patternWidth: number, scale: number, framesMax: number, flickerLength: number): ScrollPlan {
  const nominal = STEP_CSS_PX * scale
  const unit = Math.max(1, flickerLength)
  const maxFrames = Math.max(unit, Math.floor(framesMax / unit) * unit)
  let frames = Math.ceil(Math.ceil(patternWidth / nominal) / unit) * unit
  let step = nominal
  if (frames > maxFrames) {
    frames = maxFrames
    step = Math.ceil(patternWidth / frames)
  }
  const delayMs = Math.min(MAX_FRAME_MS, Math.max(MIN_FRAME_MS, Math.round((FRAME_MS * step) / nominal / 10) * 10))
  return { period: frames * step, step, frames, delayMs }
}
