import type { SKRSContext2D } from '@napi-rs/canvas'
import { COUNTDOWN_MAX_SECONDS, COUNTDOWN_SIZE, countdownHeight } from '../../../shared/generators/countdown/countdown.js'
import { findFont, type FontEntry } from '../fonts.js'
import type { CountdownJob, RenderedImage } from '../jobs.js'
import { MAX_JOB_PIXELS } from '../limits.js'
import { cssFont } from './canvas-fonts.js'
import { GifWriter, colourRamp, coverageLut, cropIndex, type RgbColor } from './gif.js'
import { alphaOf, assertJobSize, mapThrough, maskCanvas } from './masks.js'
import { encodePng } from './png.js'

// Layout in CSS pixels, multiplied by the scale (the GIF's own size is the generator's COUNTDOWN_SIZE).
const MARGIN = 20
const DIGIT_SIZE_MAX = 80
const SEPARATOR_PAD = 6
const CELL_PAD = 2
const CAPTION_SIZE = 16
const CAPTION_GAP = 10
const FRAME_MS = 1000
/** Digits of hours, minutes and seconds; the days have two or three before them. */
const CLOCK_DIGITS = 6
/** From this many days on, frame 0 needs a third digit of days. */
const THREE_DIGIT_DAYS = 100
/** The end message shrinks to this size on one line before it is wrapped onto two. */
const MESSAGE_MIN_SIZE = 10
const MESSAGE_LINE_HEIGHT = 1.2

export interface CountdownParts {
  days: number
  hours: number
  minutes: number
  seconds: number
}

/** Days, hours, minutes and seconds left; days stop at 999 (23:59:59) so that three digits always fit. */
export function countdownParts(totalSeconds: number): CountdownParts {
  const s = Math.max(0, Math.min(Math.floor(totalSeconds), COUNTDOWN_MAX_SECONDS))
  return {
    days: Math.floor(s / 86_400),
    hours: Math.floor((s % 86_400) / 3_600),
    minutes: Math.floor((s % 3_600) / 60),
    seconds: s % 60,
  }
}

/**
 * How many digits the days take in the whole image: three when frame 0 shows 100 days or more,
 * so that the digits never move within a GIF (its later frames show 099, 098…), otherwise two.
 */
function dayDigitsOf(remainingSeconds: number): number {
  return countdownParts(remainingSeconds).days >= THREE_DIGIT_DAYS ? 3 : 2
}

/** The digit in each cell: the days in `dayDigits` digits, then two each of hours, minutes and seconds. */
function digitsOf(totalSeconds: number, dayDigits: number): number[] {
  const p = countdownParts(totalSeconds)
  const days = Array.from({ length: dayDigits }, (_, i) => Math.floor(p.days / 10 ** (dayDigits - 1 - i)) % 10)
  return [...days, ...[p.hours, p.minutes, p.seconds].flatMap((n) => [Math.floor(n / 10), n % 10])]
}

/** Antialiasing levels between background and text colour: at scale 2 the mail client's downscaling adds more. */
export function rampLevels(scale: number): number {
  return scale >= 2 ? 4 : 16
}

interface Box {
  x0: number
  y0: number
  x1: number
  y1: number
}

/** Where everything goes, in device pixels. */
interface CountdownLayout {
  W: number
  H: number
  hasCaptions: boolean
  digitPx: number
  /** Advance of each digit at `digitPx`. */
  advances: number[]
  /** The widest digit's advance. */
  widestDigit: number
  cellW: number
  cellH: number
  sepW: number
  /** Digits in each group: days, hours, minutes, seconds. */
  groupDigits: number[]
  /** Left edge of each group's first cell. */
  groupX: number[]
  baseline: number
  top: number
  /** Left edge of each digit cell, the days' first. */
  cellX: number[]
}

/** Fits the digit cells (two or three of days, six of the clock) and three separators into the width, centred, captions below. */
function countdownLayout(job: CountdownJob, font: FontEntry, W: number, H: number, hasCaptions: boolean, dayDigits: number): CountdownLayout {
  const s = job.scale
  const { ctx: probe } = maskCanvas(1, 1)
  const measure = (size: number) => {
    probe.font = cssFont(font, job.weight, size)
    const advances = Array.from({ length: 10 }, (_, d) => probe.measureText(String(d)).width)
    return { advances, cell: Math.max(...advances), colon: probe.measureText(':').width }
  }
  let digitPx = DIGIT_SIZE_MAX * s
  let m = measure(digitPx)
  const cells = dayDigits + CLOCK_DIGITS
  const available = W - 2 * MARGIN * s
  const needed = cells * m.cell + 3 * (m.colon + 2 * SEPARATOR_PAD * s)
  if (needed > available) {
    digitPx = Math.floor((digitPx * available) / needed)
    m = measure(digitPx)
  }
  const cellW = Math.ceil(m.cell)
  const sepW = Math.ceil(m.colon + 2 * SEPARATOR_PAD * s)
  probe.font = cssFont(font, job.weight, digitPx)
  const ink = probe.measureText('0123456789:')
  const ascent = Math.ceil(ink.actualBoundingBoxAscent)
  const cellH = ascent + Math.ceil(ink.actualBoundingBoxDescent) + 2 * CELL_PAD * s
  const baseline = CELL_PAD * s + ascent

  const captionPx = CAPTION_SIZE * s
  const contentH = cellH + (hasCaptions ? CAPTION_GAP * s + Math.ceil(captionPx * 1.25) : 0)
  const top = Math.max(0, Math.floor((H - contentH) / 2))
  const groupDigits = [dayDigits, 2, 2, 2]
  const left = Math.floor((W - (cells * cellW + 3 * sepW)) / 2)
  const groupX = groupDigits.map((_, g) => left + groupDigits.slice(0, g).reduce((x, digits) => x + digits * cellW + sepW, 0))
  const cellX = groupDigits.flatMap((digits, g) => Array.from({ length: digits }, (_, i) => groupX[g]! + i * cellW))
  return { W, H, hasCaptions, digitPx, advances: m.advances, widestDigit: m.cell, cellW, cellH, sepW, groupDigits, groupX, baseline, top, cellX }
}

/** The parts that never change, separators and captions, as palette indices. */
function drawStill(job: CountdownJob, font: FontEntry, layout: CountdownLayout, lut: Uint8Array): Uint8Array {
  const s = job.scale
  const { W, H, groupDigits, groupX, sepW, cellW, cellH, top } = layout
  const still = maskCanvas(W, H)
  still.ctx.font = cssFont(font, job.weight, layout.digitPx)
  still.ctx.textAlign = 'center'
  // Each separator in the middle of the gap before the next group.
  for (let g = 1; g < 4; g++) {
    still.ctx.fillText(':', groupX[g]! - sepW / 2, top + layout.baseline)
  }
  if (layout.hasCaptions) {
    const captionPx = CAPTION_SIZE * s
    const captions = [job.captions.days, job.captions.hours, job.captions.minutes, job.captions.seconds]
    captions.forEach((caption, g) => {
      if (!caption) return
      let size = captionPx
      still.ctx.font = cssFont(font, job.weight, size)
      const width = still.ctx.measureText(caption).width
      const room = groupDigits[g]! * cellW + sepW / 2
      if (width > room) {
        size = Math.max(6 * s, Math.floor((size * room) / width))
        still.ctx.font = cssFont(font, job.weight, size)
      }
      still.ctx.fillText(caption, groupX[g]! + (groupDigits[g]! * cellW) / 2, top + cellH + CAPTION_GAP * s + Math.ceil(size * 0.95))
    })
  }
  return mapThrough(alphaOf(still.ctx, W, H), lut)
}

/** Each digit once, centred in a cell, as palette indices. */
function digitSprites(job: CountdownJob, font: FontEntry, layout: CountdownLayout, lut: Uint8Array): Uint8Array[] {
  const { cellW, cellH } = layout
  const sheet = maskCanvas(10 * cellW, cellH)
  sheet.ctx.font = cssFont(font, job.weight, layout.digitPx)
  for (let d = 0; d < 10; d++) {
    sheet.ctx.fillText(String(d), d * cellW + (cellW - (layout.advances[d] ?? layout.widestDigit)) / 2, layout.baseline)
  }
  const sheetIndex = mapThrough(alphaOf(sheet.ctx, 10 * cellW, cellH), lut)
  return Array.from({ length: 10 }, (_, d) => cropIndex(sheetIndex, 10 * cellW, d * cellW, 0, cellW, cellH))
}

/** The box (within a cell) where digit `a` and digit `b` differ; null when they look the same. Memoised. */
function spriteDiffer(sprites: Uint8Array[], cellW: number, cellH: number): (a: number, b: number) => Box | null {
  const diffBoxes = new Map<number, Box | null>()
  return (a, b) => {
    const key = a * 10 + b
    if (diffBoxes.has(key)) return diffBoxes.get(key)!
    const sa = sprites[a]!
    const sb = sprites[b]!
    let box: Box | null = null
    for (let y = 0; y < cellH; y++) {
      for (let x = 0; x < cellW; x++) {
        const i = y * cellW + x
        if (sa[i] === sb[i]) continue
        if (!box) box = { x0: x, y0: y, x1: x, y1: y }
        else {
          if (x < box.x0) box.x0 = x
          if (x > box.x1) box.x1 = x
          if (y > box.y1) box.y1 = y
        }
      }
    }
    diffBoxes.set(key, box)
    return box
  }
}

/** The end message set in lines at the size that fits, and the box its ink fills. */
interface MessageLayout {
  lines: string[]
  px: number
  /** Where each line's pen starts, from the ink box's top left: the ink of each line is centred in the box. */
  pens: { x: number; y: number }[]
  width: number
  height: number
}

/** Measures the ink of `lines` at `px`, one below the other: glyphs can reach past their advance, so ink, not advance, decides the fit. */
function typesetMessage(probe: SKRSContext2D, font: FontEntry, weight: number, lines: string[], px: number): MessageLayout {
  probe.font = cssFont(font, weight, px)
  const metrics = lines.map((line) => probe.measureText(line))
  const inkWidths = metrics.map((m) => m.actualBoundingBoxLeft + m.actualBoundingBoxRight)
  const width = Math.max(0, ...inkWidths)
  const baselines = lines.map((_, i) => i * px * MESSAGE_LINE_HEIGHT)
  const top = Math.min(...metrics.map((m, i) => baselines[i]! - m.actualBoundingBoxAscent))
  const bottom = Math.max(...metrics.map((m, i) => baselines[i]! + m.actualBoundingBoxDescent))
  const pens = metrics.map((m, i) => ({ x: (width - inkWidths[i]!) / 2 + m.actualBoundingBoxLeft, y: baselines[i]! - top }))
  return { lines, px, pens, width, height: Math.max(0, bottom - top) }
}

/** The message cut at the space that makes its longer line shortest (at the probe's current size); null when it has no space to cut at. */
function splitInTwo(probe: SKRSContext2D, text: string): string[] | null {
  const words = text.split(/ +/).filter(Boolean)
  let best: string[] | null = null
  let bestWidth = Number.POSITIVE_INFINITY
  for (let i = 1; i < words.length; i++) {
    const lines = [words.slice(0, i).join(' '), words.slice(i).join(' ')]
    const wider = Math.max(...lines.map((line) => probe.measureText(line).width))
    if (wider < bestWidth) {
      best = lines
      bestWidth = wider
    }
  }
  return best
}

/**
 * The end message at the digits' size, shrunk until it fits inside the margins; when even
 * `MESSAGE_MIN_SIZE` is too wide for one line, on two lines cut at a space, shrunk again from
 * the digits' size. It never leaves the image.
 */
function messageLayout(text: string, job: CountdownJob, font: FontEntry, layout: CountdownLayout): MessageLayout {
  const s = job.scale
  const roomW = layout.W - 2 * MARGIN * s
  const roomH = layout.H - 2 * MARGIN * s
  const { ctx: probe } = maskCanvas(1, 1)
  const fit = (lines: string[]) => {
    let px = layout.digitPx
    for (;;) {
      const typeset = typesetMessage(probe, font, job.weight, lines, px)
      const over = Math.max(typeset.width / roomW, typeset.height / roomH)
      if (over <= 1 || px <= 1) return typeset
      // Ink does not scale exactly with the size (hinting): shrink at least a pixel each time.
      px = Math.max(1, Math.min(px - 1, Math.floor(px / over)))
    }
  }
  const oneLine = fit([text])
  if (oneLine.px >= MESSAGE_MIN_SIZE * s) return oneLine
  const twoLines = splitInTwo(probe, text)
  return twoLines ? fit(twoLines) : oneLine
}

/** The end message centred on the background, as palette indices written over all of `into` (one frame). */
function drawMessage(message: MessageLayout, job: CountdownJob, font: FontEntry, layout: CountdownLayout, lut: Uint8Array, into: Uint8Array): Uint8Array {
  const { W, H } = layout
  // Room for antialiasing just outside the measured ink.
  const pad = CELL_PAD * job.scale
  const w = Math.ceil(message.width) + 2 * pad
  const h = Math.ceil(message.height) + 2 * pad
  // Only the message's box is drawn on a canvas, not the whole frame.
  const mask = maskCanvas(w, h)
  mask.ctx.font = cssFont(font, job.weight, message.px)
  message.lines.forEach((line, i) => mask.ctx.fillText(line, pad + message.pens[i]!.x, pad + message.pens[i]!.y))
  const box = mapThrough(alphaOf(mask.ctx, w, h), lut)
  into.fill(0)
  const left = Math.floor((W - w) / 2)
  const top = Math.floor((H - h) / 2)
  for (let y = 0; y < h; y++) into.set(box.subarray(y * w, (y + 1) * w), (top + y) * W + left)
  return into
}

/**
 * A countdown GIF: one frame a second starting at `remainingSeconds`, frame 0 showing the real
 * starting time (Outlook shows only the first frame), its days in two digits or, from 100 days,
 * three (up to 999 days 23:59:59, the most it draws). Each digit is drawn once per job; a
 * frame repaints only the pixels that differ from the frame before, and frames that do not
 * change (after zero) are merged into the previous one. With an end message, the message takes
 * the place of zero: alone once time is up, or as the last frame drawn.
 */
export async function renderCountdown(job: CountdownJob): Promise<RenderedImage> {
  const font = findFont(job.font)
  if (!font) throw new Error(`unknown font ${job.font}`)
  const s = job.scale
  const hasCaptions = Object.values(job.captions).some((caption) => caption.length > 0)
  // The same size with or without digits, so the email's layout does not move when time is up.
  const W = COUNTDOWN_SIZE.width * s
  const H = countdownHeight(hasCaptions) * s
  const frames = Math.max(1, job.frames)
  assertJobSize(W, H, frames, MAX_JOB_PIXELS)

  const dayDigits = dayDigitsOf(job.remainingSeconds)
  const layout = countdownLayout(job, font, W, H, hasCaptions, dayDigits)
  const levels = rampLevels(s)
  const palette: RgbColor[] = colourRamp(job.background, job.color, levels)
  const lut = coverageLut(levels)
  const message = job.endMessage ? messageLayout(job.endMessage, job, font, layout) : null
  if (message && job.remainingSeconds <= 0) {
    // Time is up: no digit is drawn at all.
    return singleFrame(job.format, drawMessage(message, job, font, layout, lut, new Uint8Array(W * H)), palette, W, H)
  }
  const current = drawStill(job, font, layout, lut)
  const sprites = digitSprites(job, font, layout, lut)
  const paint = (cell: number, digit: number) => {
    const sprite = sprites[digit]!
    const x = layout.cellX[cell]!
    for (let y = 0; y < layout.cellH; y++) current.set(sprite.subarray(y * layout.cellW, (y + 1) * layout.cellW), (layout.top + y) * W + x)
  }

  // Frame 0 shows the starting time in full.
  const shown = digitsOf(job.remainingSeconds, dayDigits)
  shown.forEach((digit, cell) => paint(cell, digit))
  if (job.format === 'png') return pngOf(current, palette, W, H)

  const gif = new GifWriter(W, H, palette)
  gif.addFrame({ left: 0, top: 0, width: W, height: H, index: current.slice() }, FRAME_MS)
  const paintMessage = message ? () => drawMessage(message, job, font, layout, lut, current) : null
  addLaterFrames(gif, job, layout, { current, shown, paint, paintMessage, spriteDiff: spriteDiffer(sprites, layout.cellW, layout.cellH) }, frames)
  const frameCount = gif.frameCount
  return { ok: true, body: gif.finish(), contentType: 'image/gif', width: W, height: H, frames: frameCount }
}

interface Painter {
  /** The picture as palette indices, updated by `paint`. */
  current: Uint8Array
  /** The digit each cell shows. */
  shown: number[]
  paint(cell: number, digit: number): void
  /** Replaces the whole picture by the end message; null without one. */
  paintMessage: (() => void) | null
  spriteDiff(a: number, b: number): Box | null
}

/** Frames 1…: each repaints the bounding box of what changed; an unchanged frame lengthens the one before. */
function addLaterFrames(gif: GifWriter, job: CountdownJob, layout: CountdownLayout, painter: Painter, frames: number): void {
  const { cellX, W, H, top } = layout
  const dayDigits = layout.groupDigits[0]!
  let shown = painter.shown
  for (let t = 1; t < frames; t++) {
    if (painter.paintMessage && job.remainingSeconds - t === 0) {
      painter.paintMessage()
      // Nothing is painted after this frame, so the picture itself can be its patch.
      gif.addFrame({ left: 0, top: 0, width: W, height: H, index: painter.current }, FRAME_MS)
      // The message stays for the rest of the GIF, as zero does without one.
      for (let rest = t + 1; rest < frames; rest++) gif.addFrame(null, FRAME_MS)
      return
    }
    const next = digitsOf(job.remainingSeconds - t, dayDigits)
    let box: Box | null = null
    for (let cell = 0; cell < cellX.length; cell++) {
      const before = shown[cell]!
      const after = next[cell]!
      if (before === after) continue
      const d = painter.spriteDiff(before, after)
      painter.paint(cell, after)
      if (!d) continue
      const x0 = cellX[cell]! + d.x0
      const x1 = cellX[cell]! + d.x1
      box = box
        ? { x0: Math.min(box.x0, x0), y0: Math.min(box.y0, d.y0), x1: Math.max(box.x1, x1), y1: Math.max(box.y1, d.y1) }
        : { x0, y0: d.y0, x1, y1: d.y1 }
    }
    shown = next
    if (!box) {
      gif.addFrame(null, FRAME_MS)
      continue
    }
    const width = box.x1 - box.x0 + 1
    const height = box.y1 - box.y0 + 1
    const patchTop = top + box.y0
    gif.addFrame({ left: box.x0, top: patchTop, width, height, index: cropIndex(painter.current, W, box.x0, patchTop, width, height) }, FRAME_MS)
  }
}

/** One picture as the job's format asks: a PNG, or a GIF of a single frame. */
async function singleFrame(format: CountdownJob['format'], index: Uint8Array, palette: RgbColor[], width: number, height: number): Promise<RenderedImage> {
  if (format === 'png') return pngOf(index, palette, width, height)
  const gif = new GifWriter(width, height, palette)
  gif.addFrame({ left: 0, top: 0, width, height, index }, FRAME_MS)
  return { ok: true, body: gif.finish(), contentType: 'image/gif', width, height, frames: 1 }
}

async function pngOf(index: Uint8Array, palette: RgbColor[], width: number, height: number): Promise<RenderedImage> {
  const rgba = new Uint8Array(width * height * 4)
  for (let i = 0, j = 0; i < index.length; i++, j += 4) {
    const colour = palette[index[i]!]!
    rgba[j] = colour[0]
    rgba[j + 1] = colour[1]
    rgba[j + 2] = colour[2]
    rgba[j + 3] = 255
  }
  return { ok: true, body: await encodePng(rgba, width, height), contentType: 'image/png', width, height, frames: 1 }
}
