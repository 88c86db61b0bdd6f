import { findFont } from '../fonts.js'
import type { RenderedImage, ScrollingTextJob } from '../jobs.js'
import { SCROLL_GIF_MAX_BYTES } from '../../../shared/generators/scrolling-text/scrolling-text.js'
import { MAX_JOB_PIXELS } from '../limits.js'
import { cssFont } from './canvas-fonts.js'
import { rampLevels } from './countdown.js'
import { GifWriter, colourRamp, coverageLut, cropIndex } from './gif.js'
import { alphaOf, assertJobSize, maskCanvas } from './masks.js'
import { freeCanvas, releaseDropped } from './native-memory.js'
import { DIVIDER_GAP, PLAIN_GAP, planScroll, STRIP_HEIGHT, STRIP_PIECE_PX, type ScrollPlan } from './scrolling-plan.js'

/**
 * Antialiasing levels of the strip. At scale 2 three (background, half, full) are enough: the
 * mail client's 2× downscaling blends them into finer steps. Every level more costs about a
 * tenth more bytes in a 200-frame strip, and these GIFs should stay near an email's budget.
 */
function scrollRampLevels(scale: number): number {
  return scale >= 2 ? 3 : rampLevels(scale)
}

/** Re-plans with fewer frames allowed (a tall strip), at most this often. */
const MAX_REPLANS = 2
/** A re-plan aims this far under the byte limit: bytes follow frames closely, not exactly. */
const REPLAN_MARGIN = 0.95
/** Room kept for the file: a little over the byte limit, which the last plan may pass. */
const SCROLL_GIF_CAPACITY = Math.ceil(SCROLL_GIF_MAX_BYTES * 1.25)
/** Frames encoded before the whole GIF's size is projected from them. */
const PROBE_FRAMES = 24

/**
 * A seamless scrolling-text GIF: text and divider repeat along a strip that moves by a fixed
 * step per frame. The strip is drawn once as coverage masks (text and divider in their own
 * colour ramps), so every frame is a window copied out of it. A GIF over the byte limit (a
 * large font makes tall frames) is drawn again with fewer, longer frames at the same speed:
 * the motion steps further but the letters stay as sharp.
 */
export async function renderScrollingText(job: ScrollingTextJob): Promise<RenderedImage> {
  const strip = measureStrip(job)
  let framesMax = job.framesMax
  for (let replans = 0; ; replans++) {
    const plan = planScroll(strip.patternW, job.scale, framesMax, job.flicker.length)
    assertJobSize(strip.W, strip.H, plan.frames, MAX_JOB_PIXELS, 'text')
    const last = replans === MAX_REPLANS || plan.frames <= job.flicker.length + 1
    const drawn = await encodeScroll(job, strip, plan, last ? Infinity : SCROLL_GIF_MAX_BYTES)
    if ('body' in drawn && (drawn.body.length <= SCROLL_GIF_MAX_BYTES || last)) {
      return { ok: true, body: drawn.body, contentType: 'image/gif', width: strip.W, height: strip.H, frames: drawn.frames }
    }
    const bytes = 'body' in drawn ? drawn.body.length : drawn.projected
    framesMax = Math.max(1, Math.floor((plan.frames * SCROLL_GIF_MAX_BYTES * REPLAN_MARGIN) / bytes))
  }
}

interface StripLayout {
  textFont: string
  dividerFont: string
  fontPx: number
  W: number
  H: number
  textW: number
  gap: number
  /** One repeat: text, gap, divider, gap. */
  patternW: number
  baseline: number
}

function measureStrip(job: ScrollingTextJob): StripLayout {
  const font = findFont(job.font)
  if (!font) throw new Error(`unknown font ${job.font}`)
  const s = job.scale
  const fontPx = job.fontSize * s
  const W = job.width * s
  const H = Math.ceil(job.fontSize * STRIP_HEIGHT) * s
  const textFont = cssFont(font, job.weight, fontPx)
  const dividerFont = cssFont(font, job.weight, fontPx, job.iconStyle)
  const { ctx: probe } = maskCanvas(1, 1)
  probe.font = textFont
  const textW = probe.measureText(job.text).width
  const metrics = probe.measureText(job.text + job.divider)
  probe.font = dividerFont
  const dividerW = job.divider ? probe.measureText(job.divider).width : 0
  const gap = job.divider ? DIVIDER_GAP * fontPx : PLAIN_GAP * fontPx
  const patternW = Math.ceil(textW + gap + (job.divider ? dividerW + gap : 0))
  const baseline = Math.round(
    (H + (metrics.fontBoundingBoxAscent || fontPx * 0.8) - (metrics.fontBoundingBoxDescent || fontPx * 0.2)) / 2,
  )
  return { textFont, dividerFont, fontPx, W, H, textW, gap, patternW, baseline }
}

/**
 * Encodes the GIF of a plan, or gives up early with the projected size when the first frames
 * show that the whole would pass `maxBytes`.
 */
async function encodeScroll(job: ScrollingTextJob, layout: StripLayout, plan: ScrollPlan, maxBytes: number): Promise<{ body: Uint8Array; frames: number } | { projected: number }> {
  const { W, H } = layout
  // 1. The strip as palette indices: 0 background, then the text ramp, then the divider ramp.
  const stripW = plan.period + W
  const levels = scrollRampLevels(job.scale)
  const palette = [...colourRamp(job.background, job.color, levels), ...colourRamp(job.background, job.dividerColor, levels)]
  const { strip, inkTop, inkBottom } = await drawStrip(job, layout, plan.period, stripW, levels)

  // 2. Flicker scales the coverage level of every ramp entry.
  const flickerLuts = job.flicker.map((opacity) => flickerLut(opacity, palette.length, levels))

  // 3. Frame 0 is the whole canvas, later frames the rows that hold ink. The writer holds one
  // frame back (to lengthen it when the next is the same), so two buffers take turns.
  const gif = new GifWriter(W, H, palette, SCROLL_GIF_CAPACITY)
  const rows = inkBottom - inkTop + 1
  const windows = [new Uint8Array(W * rows), new Uint8Array(W * rows)]
  let firstBytes = 0
  for (let f = 0; f < plan.frames; f++) {
    const moved = (f * plan.step) % plan.period
    const offset = job.reverse ? (plan.period - moved) % plan.period : moved
    const top = f === 0 ? 0 : inkTop
    const height = f === 0 ? H : rows
    const index = cropIndex(strip, stripW, offset, top, W, height, f === 0 ? undefined : windows[f % 2])
    const lut = flickerLuts.length ? flickerLuts[f % flickerLuts.length]! : null
    if (lut) for (let i = 0; i < index.length; i++) index[i] = lut[index[i]!]!
    gif.addFrame({ left: 0, top, width: W, height, index }, plan.delayMs)
    // Written so far: the header and frame 0 once frame 1 is added, frames 1 to f - 1 by frame f.
    if (f === 1) firstBytes = gif.byteLength
    if (f === PROBE_FRAMES && plan.frames > 2 * PROBE_FRAMES) {
      const projected = firstBytes + ((gif.byteLength - firstBytes) / (PROBE_FRAMES - 1)) * (plan.frames - 1)
      if (projected > maxBytes) return { projected }
    }
  }
  const frames = gif.frameCount
  return { body: gif.finish(), frames }
}

/**
 * Draws the strip through a canvas of at most STRIP_PIECE_PX columns, a piece at a time (each
 * repeat that reaches into the piece drawn at its offset), and turns the coverage of text and
 * divider into palette indices: where they overlap the stronger wins. Only the pieces' pixels
 * cost four bytes each, so a long line at a large size costs its one byte a pixel of indices.
 */
async function drawStrip(job: ScrollingTextJob, layout: StripLayout, period: number, stripW: number, levels: number) {
  const { H, textW, gap, baseline, fontPx } = layout
  const pieceW = Math.min(STRIP_PIECE_PX, stripW)
  const text = maskCanvas(pieceW, H, 'text')
  const divider = maskCanvas(pieceW, H, 'divider')
  const textLut = coverageLut(levels)
  const dividerLut = coverageLut(levels, levels)
  const strip = new Uint8Array(stripW * H)
  let inkTop = H
  let inkBottom = -1
  // Glyphs may reach past their advance (swashes, italics): repeats that start this far outside a piece are drawn too.
  const reach = 2 * fontPx
  for (let left = 0; left < stripW; left += pieceW) {
    const width = Math.min(pieceW, stripW - left)
    for (const { ctx, font } of [{ ctx: text.ctx, font: layout.textFont }, { ctx: divider.ctx, font: layout.dividerFont }]) {
      ctx.clearRect(0, 0, pieceW, H)
      ctx.font = font
    }
    for (let x = 0; x < stripW; x += period) {
      if (x + period + reach < left || x - reach > left + width) continue
      text.ctx.fillText(job.text, x - left, baseline)
      if (job.divider) divider.ctx.fillText(job.divider, x - left + textW + gap, baseline)
    }
    const textAlpha = alphaOf(text.ctx, width, H)
    const dividerAlpha = alphaOf(divider.ctx, width, H)
    for (let y = 0; y < H; y++) {
      for (let x = 0, i = y * width, at = y * stripW + left; x < width; x++, i++, at++) {
        const t = textAlpha[i]!
        const d = dividerAlpha[i]!
        if (t === 0 && d === 0) continue
        strip[at] = t >= d ? textLut[t]! : dividerLut[d]!
        if (y < inkTop) inkTop = y
        if (y > inkBottom) inkBottom = y
      }
    }
    await releaseDropped()
  }
  // A plan that came out too large is drawn again with fewer frames: its masks must not wait for a collection.
  freeCanvas(text.canvas)
  freeCanvas(divider.canvas)
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
