/**
 * What a photo's own bytes say of it without decoding its pixels: its type, dimensions and whether
 * it is progressive. The upload stores read it before a slideshow's memory is estimated; the render
 * thread reads it again from the bytes it is handed, before decoding them, to check that they are
 * still the photo that was estimated. Loads sharp and nothing of the stores.
 */
import sharp from 'sharp'
import { sniffImageType } from '../../shared/generators/slideshow/slideshow.js'
import type { PhotoHeader } from './jobs.js'

/** What a photo's header says, metadata only: its size as shown, and how it is stored. */
export interface PhotoDimensions {
  /** As shown, after its EXIF orientation. */
  width: number
  height: number
  /** Progressive or interlaced: decoded whole rather than a few rows at a time. */
  progressive: boolean
  /**
   * Turned by an EXIF orientation, or carrying metadata (EXIF with its camera and GPS tags, XMP,
   * IPTC): what the local upload folder does not keep (`render/reduce-photo.ts`).
   */
  turnedOrTagged: boolean
}

/**
 * The dimensions an image's header gives (as shown, after its EXIF orientation), whether it is
 * progressive or interlaced, and whether it is turned or tagged, or null when the bytes given do
 * not reach them. sharp's metadata only: no pixel is decoded.
 */
export async function dimensionsOf(input: string | Uint8Array): Promise<PhotoDimensions | null> {
  try {
    const meta = await sharp(input, { limitInputPixels: false }).metadata()
    const width = meta.autoOrient?.width ?? meta.width
    const height = meta.autoOrient?.height ?? meta.height
    const turnedOrTagged = (meta.orientation ?? 1) !== 1 || Boolean(meta.exif || meta.xmp || meta.iptc)
    return width && height ? { width, height, progressive: Boolean(meta.isProgressive), turnedOrTagged } : null
  } catch {
    return null
  }
}

/** The header of a stored file, from its type and size and what its bytes said. */
export function photoHeader(stored: { type: PhotoHeader['type']; size: number }, dimensions: PhotoDimensions): PhotoHeader {
  return { type: stored.type, size: stored.size, width: dimensions.width, height: dimensions.height, progressive: dimensions.progressive }
}

/** What an image's first bytes say of it (type and dimensions), or null when they do not say it all; `size` is the whole file's. */
export async function headerOf(head: Uint8Array, size = head.byteLength): Promise<PhotoHeader | null> {
  const type = sniffImageType(head)
  const dimensions = type && (await dimensionsOf(head))
  return type && dimensions ? photoHeader({ type, size }, dimensions) : null
}

/**
 * Whether `bytes` are no longer the photo `header` described: another type, other dimensions,
 * progressive where it was not (or the reverse), more bytes, or no header to read at all. What
 * drawing them costs was estimated from the header; bytes that differ from it may cost far more.
 */
export async function changedSince(header: PhotoHeader, bytes: Uint8Array): Promise<boolean> {
  if (bytes.byteLength > header.size) return true
  const now = await headerOf(bytes)
  return !now || now.type !== header.type || now.width !== header.width || now.height !== header.height || now.progressive !== header.progressive
}

