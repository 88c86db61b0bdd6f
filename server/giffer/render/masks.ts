import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas'
import { MAX_CANVAS_SIDE, MAX_FRAME_PIXELS } from '../limits.js'
import { RenderRefused } from '../jobs.js'

/**
 * A canvas for drawing coverage masks: everything is drawn opaque white on transparent, and the
 * alpha channel becomes an index into a colour ramp. Flat two-colour graphics then need no
 * colour quantisation at all.
 */
export function maskCanvas(width: number, height: number, field?: string): { canvas: Canvas; ctx: SKRSContext2D } {
  const w = Math.ceil(width)
  const h = Math.ceil(height)
  if (w < 1 || h < 1 || w > MAX_CANVAS_SIDE || h > MAX_CANVAS_SIDE || w * h > MAX_FRAME_PIXELS * 8) {
    throw new RenderRefused({ status: 413, code: 'too_large', message: `The image would be ${w}×${h} pixels: too large.`, field })
  }
  const canvas = createCanvas(w, h)
  const ctx = canvas.getContext('2d')
  ctx.fillStyle = '#fff'
  ctx.strokeStyle = '#fff'
  return { canvas, ctx }
}

/** The alpha channel of a canvas, one byte a pixel. */
export function alphaOf(ctx: SKRSContext2D, width: number, height: number): Uint8Array {
  const rgba = ctx.getImageData(0, 0, width, height).data
  const alpha = new Uint8Array(width * height)
  for (let i = 0, j = 3; i < alpha.length; i++, j += 4) alpha[i] = rgba[j]!
  return alpha
}

/** Replaces each coverage byte by `lut[coverage]`, in place. */
export function mapThrough(values: Uint8Array, lut: Uint8Array): Uint8Array {
  for (let i = 0; i < values.length; i++) values[i] = lut[values[i]!]!
  return values
}

export function assertJobSize(width: number, height: number, frames: number, maxJobPixels: number, field?: string): void {
  if (width * height > MAX_FRAME_PIXELS || width * height * frames > maxJobPixels) {
    throw new RenderRefused({
      status: 413,
      code: 'too_large',
      message: `${frames} frames of ${width}×${height} pixels is more than one job may draw.`,
      field,
    })
  }
}
