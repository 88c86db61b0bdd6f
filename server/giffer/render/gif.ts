import * as gifencModule from 'gifenc'
import type { RgbColor } from 'gifenc'

export type { RgbColor }

// gifenc is CommonJS: Node's ESM loader exposes it only as `default`, esbuild also by name.
export const gifenc: typeof gifencModule =
  'GIFEncoder' in gifencModule ? gifencModule : (gifencModule as unknown as { default: typeof gifencModule }).default

/** A rectangle of palette indices to paint over the previous frame. */
export interface FramePatch {
  left: number
  top: number
  width: number
  height: number
  index: Uint8Array
  /** A local colour table for this frame; the global one otherwise. */
  palette?: RgbColor[]
  /**
   * Pixels of this index are transparent. Such a frame replaces the whole picture: the
   * canvas is cleared after it, so the next frame must be complete.
   */
  transparentIndex?: number
}

const MAX_DELAY_CS = 0xffff
const IMAGE_SEPARATOR = 0x2c
/** Bytes of the graphic control extension gifenc writes before each image descriptor. */
const GRAPHIC_CONTROL_LENGTH = 8

/**
 * Writes an animated GIF frame by frame with gifenc. Frame 0 is the full canvas; later frames
 * may be patches at an offset (gifenc writes every frame at 0,0, so the offset is written into
 * the image descriptor it just emitted). A frame with no patch extends the previous frame's
 * delay instead of adding an identical frame. The animation loops forever.
 */
export class GifWriter {
  private readonly encoder: ReturnType<typeof gifenc.GIFEncoder>
  private pending: { patch: FramePatch; delayCs: number } | null = null
  private frames = 0
  private readonly colorDepth: number

  /**
   * `capacity`: the bytes to reserve for the file. gifenc grows its buffer by an eighth at a time
   * past 1 MB, copying it each time, and the copies stay until the thread's next collection: a
   * 12 MB file left some 90 MB behind. Reserved up front (`gifBytesBound`), the pages are taken
   * only as they are written.
   */
  constructor(
    readonly width: number,
    readonly height: number,
    private readonly palette: RgbColor[],
    private readonly capacity = 64 * 1024,
  ) {
    this.encoder = gifenc.GIFEncoder({ initialCapacity: capacity, auto: false })
    this.colorDepth = codeSize(palette.length)
    this.encoder.writeHeader()
  }

  /** Adds a frame shown for `delayMs`; `patch` null means "nothing changed". */
  addFrame(patch: FramePatch | null, delayMs: number): void {
    const delayCs = Math.max(2, Math.round(delayMs / 10))
    if (!this.pending) {
      if (!patch || patch.left !== 0 || patch.top !== 0 || patch.width !== this.width || patch.height !== this.height) {
        throw new Error('the first frame must cover the whole canvas')
      }
      this.pending = { patch, delayCs }
      return
    }
    if (!patch) {
      this.pending.delayCs = Math.min(MAX_DELAY_CS, this.pending.delayCs + delayCs)
      return
    }
    this.flush()
    this.pending = { patch, delayCs }
  }

  /** Bytes written so far (the frame held back for its delay not yet among them). */
  get byteLength(): number {
    return this.encoder.bytesView().length
  }

  get frameCount(): number {
    return this.frames + (this.pending ? 1 : 0)
  }

  /** The file: the reserved buffer itself when the file fills most of it, else a copy of its length. */
  finish(): Uint8Array {
    this.flush()
    this.encoder.finish()
    return this.encoder.bytesView().length * 2 >= this.capacity ? this.encoder.bytesView() : this.encoder.bytes()
  }

  private flush(): void {
    if (!this.pending) return
    const { patch, delayCs } = this.pending
    this.pending = null
    const first = this.frames === 0
    const start = this.encoder.bytesView().length
    this.encoder.writeFrame(patch.index, patch.width, patch.height, {
      first,
      palette: first ? this.palette : patch.palette ?? null,
      repeat: 0, // loop forever
      delay: delayCs * 10,
      colorDepth: patch.palette ? codeSize(patch.palette.length) : this.colorDepth,
      transparent: patch.transparentIndex !== undefined,
      transparentIndex: patch.transparentIndex ?? 0,
      // 1 keeps what is under a patch (later frames repaint only what changed); 2 clears
      // after a frame with transparency, so that the next one does not show through it
      dispose: patch.transparentIndex !== undefined ? 2 : 1,
    })
    if (!first) this.writeOffset(start, patch.left, patch.top)
    this.frames++
  }

  private writeOffset(frameStart: number, left: number, top: number): void {
    const bytes = this.encoder.bytesView()
    const descriptor = frameStart + GRAPHIC_CONTROL_LENGTH
    if (bytes[descriptor] !== IMAGE_SEPARATOR) throw new Error('unexpected GIF frame layout')
    bytes[descriptor + 1] = left & 0xff
    bytes[descriptor + 2] = (left >> 8) & 0xff
    bytes[descriptor + 3] = top & 0xff
    bytes[descriptor + 4] = (top >> 8) & 0xff
  }
}

/**
 * The most bytes a GIF of `frames` frames of `pixels` pixels each can take: LZW writes at most one
 * code of at most 12 bits per pixel, in sub-blocks of 255 bytes, and each frame carries its own
 * control block, descriptor and colour table.
 */
export function gifBytesBound(pixels: number, frames: number): number {
  const perFrame = Math.ceil(pixels * 1.5 * (256 / 255)) + 1024
  return 1024 + frames * perFrame
}

/**
 * What such a GIF of photographs takes at most in practice: grain that no palette smooths (random
 * noise, the worst case) came to 1.23 bytes a pixel; photos to half that. The memory estimate
 * counts this; the buffer is reserved to the bound, whose unwritten pages cost nothing.
 */
export function gifBytesExpected(pixels: number, frames: number): number {
  return 1024 + frames * (Math.ceil(pixels * 1.3) + 1024)
}

/** LZW code size for a palette: a 16-colour GIF codes pixels in 4 bits, not 8. */
function codeSize(paletteLength: number): number {
  return Math.max(2, Math.ceil(Math.log2(Math.max(2, paletteLength))))
}

/** `levels` colours blending `from` into `to`; index 0 is `from`. */
export function colourRamp(from: RgbColor, to: RgbColor, levels: number): RgbColor[] {
  const ramp: RgbColor[] = []
  for (let i = 0; i < levels; i++) {
    const t = i / (levels - 1)
    ramp.push([
      Math.round(from[0] + (to[0] - from[0]) * t),
      Math.round(from[1] + (to[1] - from[1]) * t),
      Math.round(from[2] + (to[2] - from[2]) * t),
    ])
  }
  return ramp
}

/** Maps 8-bit coverage (alpha) to a ramp index: `lut[alpha]`. */
export function coverageLut(levels: number, base = 0): Uint8Array {
  const lut = new Uint8Array(256)
  for (let a = 0; a < 256; a++) lut[a] = a === 0 ? 0 : base + Math.round((a * (levels - 1)) / 255)
  return lut
}

/** Copies a `width`×`height` rectangle at (left, top) out of a row-major index image, into `into` when given (at least that size). */
export function cropIndex(
  source: Uint8Array,
  sourceWidth: number,
  left: number,
  top: number,
  width: number,
  height: number,
  into?: Uint8Array,
): Uint8Array {
  const out = into ? into.subarray(0, width * height) : new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    const from = (top + y) * sourceWidth + left
    out.set(source.subarray(from, from + width), y * width)
  }
  return out
}
