import { gifenc, type RgbColor } from './gif.js'

/** Every 4th pixel of every 4th row is plenty to build a palette from. */
const SAMPLE_STRIDE = 4
const ALPHA_THRESHOLD = 128

export interface IndexedFrame {
  palette: RgbColor[]
  index: Uint8Array
  transparentIndex?: number
}

/**
 * Reduces one photographic RGBA frame to a 256-colour palette. The palette is built by gifenc's
 * quantiser from a sample of the frame; each pixel is then mapped through a 15-bit colour
 * lookup table, which costs one nearest-colour search per distinct 15-bit colour rather than
 * per pixel, and smooths sensor noise so the LZW stage compresses better.
 */
export function indexPhotoFrame(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, transparent: boolean): IndexedFrame {
  const sample: number[] = []
  for (let y = 0; y < height; y += SAMPLE_STRIDE) {
    for (let x = 0; x < width; x += SAMPLE_STRIDE) {
      const i = (y * width + x) * 4
      if (transparent && rgba[i + 3]! < ALPHA_THRESHOLD) continue
      sample.push(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!, 255)
    }
  }
  const palette = sample.length ? gifenc.quantize(Uint8Array.from(sample), transparent ? 255 : 256) : [[0, 0, 0] as RgbColor]
  const transparentIndex = transparent ? palette.length : undefined
  if (transparent) palette.push([0, 0, 0])

  const lut = new Int16Array(1 << 15).fill(-1)
  const index = new Uint8Array(width * height)
  for (let i = 0, j = 0; j < index.length; i += 4, j++) {
    if (transparentIndex !== undefined && rgba[i + 3]! < ALPHA_THRESHOLD) {
      index[j] = transparentIndex
      continue
    }
    const key = ((rgba[i]! >> 3) << 10) | ((rgba[i + 1]! >> 3) << 5) | (rgba[i + 2]! >> 3)
    let value = lut[key]!
    if (value < 0) {
      value = nearest(palette, transparentIndex ?? palette.length, (rgba[i]! & 0xf8) | 4, (rgba[i + 1]! & 0xf8) | 4, (rgba[i + 2]! & 0xf8) | 4)
      lut[key] = value
    }
    index[j] = value
  }
  return transparentIndex === undefined ? { palette, index } : { palette, index, transparentIndex }
}

/** Nearest of the first `count` palette entries, with weights for the eye's sensitivity. */
function nearest(palette: RgbColor[], count: number, r: number, g: number, b: number): number {
  let best = 0
  let bestDistance = Infinity
  for (let p = 0; p < count; p++) {
    const c = palette[p]!
    const dr = c[0] - r
    const dg = c[1] - g
    const db = c[2] - b
    const distance = 2 * dr * dr + 4 * dg * dg + 3 * db * db
    if (distance < bestDistance) {
      bestDistance = distance
      best = p
    }
  }
  return best
}
