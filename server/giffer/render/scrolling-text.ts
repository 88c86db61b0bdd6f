import { findFont } from '../fonts.js'
import type { RenderedImage, ScrollingTextJob } from '../jobs.js'
import { MAX_JOB_PIXELS } from '../limits.js'
import { cssFont } from './canvas-fonts.js'
import { rampLevels } from './countdown.js'
import { GifWriter, colourRamp, coverageLut, cropIndex } from './gif.js'
import { alphaOf, assertJobSize, maskCanvas } from './masks.js'

/** Line height of the strip, as a multiple of the font size. */
const STRIP_HEIGHT = 1.6
/** Space on each side of the divider, as a multiple of the font size. */
const DIVIDER_GAP = 0.5
/** Space between repeats when there is no divider. */
const PLAIN_GAP = 1.5
/** Nominal motion: 2 CSS px every 40 ms (50 CSS px a second). */
const STEP_CSS_PX = 2
const FRAME_MS = 40
const MIN_FRAME_MS = 20
const MAX_FRAME_MS = 100

/**
 * Antialiasing levels of the strip. At scale 2 three (background, half, full) are enough: the
 * mail client's 2× downscaling blends them into finer steps. Every level more costs about a
 * tenth more bytes in a 200-frame strip, and these GIFs should stay near an email's budget.
 */
export function scrollRampLevels(scale: number): number {
  return scale >= 2 ? 3 : rampLevels(scale)
}

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

/**
 * A seamless scrolling-text GIF: text and divider repeat along a strip that moves by a fixed
 * step per frame. The strip is drawn once as coverage masks (text and divider in their own
 * colour ramps), so every frame is a window copied out of it.
 */
export function renderScrollingText(job: ScrollingTextJob): RenderedImage {
  const font = findFont(job.font)
  if (!font) throw new Error(`unknown font ${job.font}`)
  const s = job.scale
  const fontPx = job.fontSize * s
  const W = job.width * s
  const H = Math.ceil(job.fontSize * STRIP_HEIGHT) * s
  const textFont = cssFont(font, job.weight, fontPx)
  const dividerFont = cssFont(font, job.weight, fontPx, job.iconStyle)

  // 1. Measure one repeat: text, gap, divider, gap.
  const { ctx: probe } = maskCanvas(1, 1)
  probe.font = textFont
  const textW = probe.measureText(job.text).width
  const metrics = probe.measureText(job.text + job.divider)
  probe.font = dividerFont
  const dividerW = job.divider ? probe.measureText(job.divider).width : 0
  const gap = job.divider ? DIVIDER_GAP * fontPx : PLAIN_GAP * fontPx
  const patternW = Math.ceil(textW + gap + (job.divider ? dividerW + gap : 0))
  const plan = planScroll(patternW, s, job.framesMax, job.flicker.length)
  assertJobSize(W, H, plan.frames, MAX_JOB_PIXELS, 'text')

  // 2. Draw the strip: enough repeats to fill the window at every offset.
  const stripW = plan.period + W
  const baseline = Math.round(
    (H + (metrics.fontBoundingBoxAscent || fontPx * 0.8) - (metrics.fontBoundingBoxDescent || fontPx * 0.2)) / 2,
  )
  const textMask = maskCanvas(stripW, H, 'text')
  const dividerMask = maskCanvas(stripW, H, 'divider')
  textMask.ctx.font = textFont
  dividerMask.ctx.font = dividerFont
  for (let x = 0; x < stripW; x += plan.period) {
    textMask.ctx.fillText(job.text, x, baseline)
    if (job.divider) dividerMask.ctx.fillText(job.divider, x + textW + gap, baseline)
  }

  // 3. Coverage to palette indices: 0 background, then the text ramp, then the divider ramp.
  const levels = scrollRampLevels(s)
  const palette = [...colourRamp(job.background, job.color, levels), ...colourRamp(job.background, job.dividerColor, levels)]
  const { strip, inkTop, inkBottom } = stripIndex(alphaOf(textMask.ctx, stripW, H), alphaOf(dividerMask.ctx, stripW, H), stripW, H, levels)

  // 4. Flicker scales the coverage level of every ramp entry.
  const flickerLuts = job.flicker.map((opacity) => flickerLut(opacity, palette.length, levels))

  // 5. Frame 0 is the whole canvas, later frames the rows that hold ink.
  const gif = new GifWriter(W, H, palette)
  const rows = inkBottom - inkTop + 1
  for (let f = 0; f < plan.frames; f++) {
    const moved = (f * plan.step) % plan.period
    const offset = job.reverse ? (plan.period - moved) % plan.period : moved
    const top = f === 0 ? 0 : inkTop
    const height = f === 0 ? H : rows
    const index = cropIndex(strip, stripW, offset, top, W, height)
    const lut = flickerLuts.length ? flickerLuts[f % flickerLuts.length]! : null
    if (lut) for (let i = 0; i < index.length; i++) index[i] = lut[index[i]!]!
    gif.addFrame({ left: 0, top, width: W, height, index }, plan.delayMs)
  }
  const frames = gif.frameCount
  return { ok: true, body: gif.finish(), contentType: 'image/gif', width: W, height: H, frames }
}

/**
 * The strip as palette indices (where text and divider overlap, the stronger coverage wins) and
 * the rows that hold ink (row 0 alone when there is none).
 */
function stripIndex(textAlpha: Uint8Array, dividerAlpha: Uint8Array, stripW: number, H: number, levels: number) {
  const textLut = coverageLut(levels)
  const dividerLut = coverageLut(levels, levels)
  const strip = new Uint8Array(stripW * H)
  let inkTop = H
  let inkBottom = -1
  for (let y = 0; y < H; y++) {
    for (let x = 0, i = y * stripW; x < stripW; x++, i++) {
      const t = textAlpha[i]!
      const d = dividerAlpha[i]!
      if (t === 0 && d === 0) continue
      strip[i] = t >= d ? textLut[t]! : dividerLut[d]!
      if (y < inkTop) inkTop = y
      inkBottom = y
    }
  }
  if (inkBottom < 0) {
    inkTop = 0
    inkBottom = 0
  }
  return { strip, inkTop, inkBottom }
}

/** Palette index to palette index with every ramp entry's coverage level scaled by `opacity`. */
function flickerLut(opacity: number, paletteLength: number, levels: number): Uint8Array {
  const lut = new Uint8Array(paletteLength)
  for (let i = 1; i < paletteLength; i++) {
    const base = i < levels ? 0 : levels
    const level = i - base
    const scaled = Math.round(level * opacity)
    lut[i] = scaled === 0 ? 0 : base + scaled
  }
  return lut
}
