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

  /** Writes the palette index of each RGBA pixel of a band into `index`, from `at` on. */
  indexBand(rgba: Uint8Array | Uint8ClampedArray, index: Uint8Array, at: number): void {
    const count = this.transparentIndex ?? this.palette.length
    for (let i = 0, j = at; i < rgba.length; i += 4, j++) {
      if (this.transparentIndex !== undefined && rgba[i + 3]! < ALPHA_THRESHOLD) {
        index[j] = this.transparentIndex
        continue
      }
      const key = ((rgba[i]! >> 3) << 10) | ((rgba[i + 1]! >> 3) << 5) | (rgba[i + 2]! >> 3)
      let value = this.lut[key]!
      if (value < 0) {
        value = nearest(this.palette, count, (rgba[i]! & 0xf8) | 4, (rgba[i + 1]! & 0xf8) | 4, (rgba[i + 2]! & 0xf8) | 4)
        this.lut[key] = value
      }
      index[j] = value
    }
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
