/**
 * What a photo's own bytes say of it without decoding its pixels: its type, dimensions and how its
 * pixels are stored (progressive, components and their sampling, bit depth, alpha, palette,
 * lossless), which is what decoding it will cost. The upload stores read it before a slideshow's
 * memory is estimated; the render thread reads it again from the bytes it is handed, before
 * decoding them, to check that they are still the photo that was estimated. Loads sharp and
 * nothing of the stores.
 */
import { open } from 'node:fs/promises'
import sharp, { type Metadata } from 'sharp'
import { sniffImageType } from '../../shared/generators/slideshow/slideshow.js'
import type { PhotoHeader, PhotoStorage } from './jobs.js'

/** What a photo's header says, metadata only: its size as shown, and how it is stored. */
export interface PhotoDimensions extends PhotoStorage {
  /** As shown, after its EXIF orientation. */
  width: number
  height: number
  /**
   * Turned by an EXIF orientation, or carrying metadata (EXIF with its camera and GPS tags, XMP,
   * IPTC): what no upload store serves or draws (`uploads/rules.ts`, `render/reduce-photo.ts`).
   */
  turnedOrTagged: boolean
}

/** Bytes `length` from `offset` of the image (fewer, or none, past its end). */
type ReadAt = (offset: number, length: number) => Promise<Uint8Array>

/** Segments or chunks walked before the frame header is given up on: real files have a handful. */
const SEGMENTS_MAX = 256

/** A JPEG frame header's dimensions and components, and the samples a pixel of it holds. */
interface JpegFrame {
  width: number
  height: number
  components: number
  samples: number
}

/** Markers that stand alone, with no length after them: TEM, the restart markers, SOI. */
const STANDALONE = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)

/**
 * The frame header of a JPEG, walked to as a decoder walks: samples a pixel, every component
 * counted at its own resolution (its sampling factors against the largest): 1.5 for colour in
 * 4:2:0, 2 in 4:2:2, 3 in 4:4:4, 4 for CMYK, 1 for grey. A progressive JPEG keeps two bytes for
 * each while it decodes. Null when the frame header is not within reach or the walk meets what a
 * decoder would not (a scan before any frame).
 */
async function jpegFrame(read: ReadAt): Promise<JpegFrame | null> {
  let at = 2
  for (let walked = 0; walked < SEGMENTS_MAX; walked++) {
    const head = await read(at, 4)
    if (head.length < 4 || head[0] !== 0xff) return null
    const marker = head[1]!
    // A fill byte before a marker, or a marker with no length.
    if (marker === 0xff || STANDALONE(marker)) {
      at += marker === 0xff ? 1 : 2
      continue
    }
    // A scan or the end before any frame: not a photo a decoder reads this way.
    if (marker === 0xda || marker === 0xd9) return null
    // Start of frame, any kind (0xc4, 0xc8 and 0xcc are tables, not frames).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const frame = await read(at + 4, 6)
      const components = frame[5] ?? 0
      const table = await read(at + 10, 3 * components)
      if (frame.length < 6 || components === 0 || table.length < 3 * components) return null
      const factors = Array.from({ length: components }, (_, i) => ({ h: table[3 * i + 1]! >> 4, v: table[3 * i + 1]! & 15 }))
      const hMax = Math.max(...factors.map((f) => f.h))
      const vMax = Math.max(...factors.map((f) => f.v))
      if (!hMax || !vMax) return null
      const samples = factors.reduce((sum, f) => sum + (f.h * f.v) / (hMax * vMax), 0)
      return { height: (frame[1]! << 8) | frame[2]!, width: (frame[3]! << 8) | frame[4]!, components, samples }
    }
    at += 2 + ((head[2]! << 8) | head[3]!)
  }
  return null
}

/**
 * Samples a pixel of a JPEG as its decoder will hold them: the frame header's sampling when the
 * walk found the very frame the decoder reads (its dimensions and components as libvips reads
 * them), never fewer than libvips' own word on the sampling (it says 4:2:0 for any subsampled
 * colour, 4:4:4 or 4:4:4:4 for none); else the dearest, every component at full resolution.
 */
function jpegSamples(frame: JpegFrame | null, meta: Metadata, channels: number): number {
  if (!frame || frame.width !== meta.width || frame.height !== meta.height || frame.components !== channels) return channels
  const floor = channels === 1 ? 1 : meta.chromaSubsampling === '4:2:0' ? 1.5 : channels
  return Math.min(channels, Math.max(floor, frame.samples))
}

/** Whether a WebP is lossless: its image chunk is 'VP8L' rather than 'VP8 '. Null when it is not within reach. */
async function webpLossless(read: ReadAt): Promise<boolean | null> {
  let at = 12
  for (let walked = 0; walked < SEGMENTS_MAX; walked++) {
    const chunk = await read(at, 8)
    if (chunk.length < 8) return null
    const tag = String.fromCharCode(...chunk.subarray(0, 4))
    if (tag === 'VP8L') return true
    if (tag === 'VP8 ') return false
    const size = chunk[4]! | (chunk[5]! << 8) | (chunk[6]! << 16) | (chunk[7]! * 2 ** 24)
    at += 8 + size + (size % 2)
  }
  return null
}

/**
 * What sharp's metadata leaves out, from the bytes themselves: a JPEG's sampling and whether a
 * WebP is lossless. Where the bytes do not reach them, the dearer answer: every component at full
 * resolution, lossless.
 */
async function storageDetails(input: string | Uint8Array, meta: Metadata, channels: number): Promise<{ samples: number; lossless: boolean }> {
  const { format } = meta
  if (format !== 'jpeg' && format !== 'webp') return { samples: channels, lossless: format === 'png' }
  const handle = typeof input === 'string' ? await open(input, 'r') : null
  const read: ReadAt = handle
    ? async (offset, length) => {
        const buffer = Buffer.alloc(length)
        const { bytesRead } = await handle.read(buffer, 0, length, offset)
        return buffer.subarray(0, bytesRead)
      }
    : async (offset, length) => (input as Uint8Array).subarray(offset, offset + length)
  try {
    if (format === 'jpeg') return { samples: jpegSamples(await jpegFrame(read), meta, channels), lossless: false }
    return { samples: channels, lossless: (await webpLossless(read)) ?? true }
  } finally {
    await handle?.close()
  }
}

/**
 * The dimensions an image's header gives (as shown, after its EXIF orientation), how its pixels
 * are stored, and whether it is turned or tagged, or null when the bytes given do not reach them.
 * sharp's metadata and a walk over the headers: no pixel is decoded.
 */
export async function dimensionsOf(input: string | Uint8Array): Promise<PhotoDimensions | null> {
  try {
    const meta = await sharp(input, { limitInputPixels: false }).metadata()
    const width = meta.autoOrient?.width ?? meta.width
    const height = meta.autoOrient?.height ?? meta.height
    if (!width || !height) return null
    const turnedOrTagged = (meta.orientation ?? 1) !== 1 || Boolean(meta.exif || meta.xmp || meta.iptc)
    const channels = meta.channels ?? 4
    const { samples, lossless } = await storageDetails(input, meta, channels)
    return {
      width,
      height,
      progressive: Boolean(meta.isProgressive),
      channels,
      samples,
      bitDepth: meta.depth === 'ushort' || (meta.bitsPerSample ?? 8) > 8 ? 16 : 8,
      alpha: Boolean(meta.hasAlpha),
      palette: Boolean(meta.isPalette),
      lossless,
      turnedOrTagged,
    }
  } catch {
    return null
  }
}

/** The header of a stored file, from its type and size and what its bytes said. */
export function photoHeader(stored: { type: PhotoHeader['type']; size: number }, dimensions: PhotoDimensions): PhotoHeader {
  const { width, height, progressive, channels, samples, bitDepth, alpha, palette, lossless } = dimensions
  return { type: stored.type, size: stored.size, width, height, progressive, channels, samples, bitDepth, alpha, palette, lossless }
}

/** What an image's first bytes say of it (type and dimensions), or null when they do not say it all; `size` is the whole file's. */
export async function headerOf(head: Uint8Array, size = head.byteLength): Promise<PhotoHeader | null> {
  const type = sniffImageType(head)
  const dimensions = type && (await dimensionsOf(head))
  return type && dimensions ? photoHeader({ type, size }, dimensions) : null
}

/** What of a header decides what drawing the photo costs: bytes that differ in any of it are another photo. */
const COSTED: (keyof PhotoHeader)[] = ['type', 'width', 'height', 'progressive', 'channels', 'samples', 'bitDepth', 'alpha', 'palette', 'lossless']

/**
 * Whether `bytes` are no longer the photo `header` described: another type, other dimensions,
 * stored otherwise (progressive where it was not, more components or samples, deeper, with alpha,
 * lossless...), more bytes, or no header to read at all. What drawing them costs was estimated
 * from the header; bytes that differ from it may cost far more.
 */
export async function changedSince(header: PhotoHeader, bytes: Uint8Array): Promise<boolean> {
  if (bytes.byteLength > header.size) return true
  const now = await headerOf(bytes)
  return !now || COSTED.some((field) => now[field] !== header[field])
}
