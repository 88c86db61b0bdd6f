import { gifenc, type RgbColor } from './gif.js'

const ALPHA_THRESHOLD = 128

/**
 * A photographic frame reduced to 256 colours, a band of rows at a time: the palette is built by
 * gifenc's quantiser from a sample of the frame (`fromSample`), then each band's pixels are mapped
 * through a 15-bit colour lookup table (`indexBand`), which costs one nearest-colour search per
 * distinct 15-bit colour rather than per pixel, and smooths sensor noise so the LZW stage
 * compresses better. Only a band's pixels are ever held as RGBA, never the whole frame's.
 */
export class PhotoPalette {
  readonly palette: RgbColor[]
  readonly transparentIndex: number | undefined
  private readonly lut = new Int16Array(1 << 15).fill(-1)

  private constructor(palette: RgbColor[], transparent: boolean) {
    this.transparentIndex = transparent ? palette.length : undefined
    this.palette = transparent ? [...palette, [0, 0, 0]] : palette
  }

  /** From RGBA pixels of the whole frame, drawn small: every pixel of them is the sample. */
  static fromSample(rgba: Uint8Array | Uint8ClampedArray, transparent: boolean): PhotoPalette {
    const sample = new Uint8Array(rgba.length)
    let taken = 0
    for (let i = 0; i < rgba.length; i += 4) {
      if (transparent && rgba[i + 3]! < ALPHA_THRESHOLD) continue
      sample[taken++] = rgba[i]!
      sample[taken++] = rgba[i + 1]!
      sample[taken++] = rgba[i + 2]!
      sample[taken++] = 255
    }
    const palette = taken ? gifenc.quantize(sample.subarray(0, taken), transparent ? 255 : 256) : [[0, 0, 0] as RgbColor]
    return new PhotoPalette(palette, transparent)
  }

  /**
   * Writes the palette index of each RGBA pixel of a band into `index`, from `at` on. Each pixel is
   * read as one 32-bit word (R in its low byte: Node runs little-endian here) and its 15-bit key
   * cut from that word.
   */
  indexBand(rgba: Uint8Array | Uint8ClampedArray, index: Uint8Array, at: number): void {
    const pixels = new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.byteLength >> 2)
    const transparentIndex = this.transparentIndex
    for (let i = 0, j = at; i < pixels.length; i++, j++) {
      const pixel = pixels[i]!
      if (transparentIndex !== undefined && pixel >>> 24 < ALPHA_THRESHOLD) {
        index[j] = transparentIndex
        continue
      }
      const key = ((pixel & 0xf8) << 7) | ((pixel >>> 6) & 0x3e0) | ((pixel >>> 19) & 0x1f)
      let value = this.lut[key]!
      if (value < 0) value = this.lookUp(key)
      index[j] = value
    }
  }

  /** The nearest palette entry to the centre of a 15-bit colour's cell, remembered in the table. */
  private lookUp(key: number): number {
    const count = this.transparentIndex ?? this.palette.length
    const value = nearest(this.palette, count, ((key >> 7) & 0xf8) | 4, ((key >> 2) & 0xf8) | 4, ((key << 3) & 0xf8) | 4)
    this.lut[key] = value
    return value
  }
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
