/**
 * What a photo's first bytes say of it, read in the browser before a pixel is decoded: its type,
 * its size as shown (after its EXIF orientation), whether it may be transparent, and the size it
 * is prepared to before it is sent. Decoding a photo takes four bytes a pixel, so the pixel bound
 * is checked here, from the header alone. Plain functions over bytes, tested in Node.
 */
import { PHOTO_LONG_SIDE, PHOTO_MAX_PIXELS, sniffChosenType, type ChosenType } from './slideshow.js'

/**
 * How much of a chosen photo is read to find its size, which a JPEG gives only in its frame
 * header, after all its metadata: EXIF with a thumbnail (up to 64 KB), a colour profile in several
 * 64 KB pieces, an editor's XMP, a phone's depth or gain maps. 256 KB is rarely passed; 1 MiB
 * leaves room, and costs nothing to hold: the file is on the device and only this slice is read.
 * (The image service reads stored uploads by ranges over the network, where every read costs a
 * round trip, and those are the page's prepared photos, with no metadata: it reads far less first.)
 */
export const PHOTO_SIZE_SEARCH_BYTES = 1024 * 1024

export interface PhotoFacts {
  type: ChosenType
  /** As shown: a photo turned by its EXIF orientation (5 to 8) has its sides swapped. */
  width: number
  height: number
  /** EXIF orientation, 1 to 8 (1 when none). */
  orientation: number
  /** Whether it may have transparent pixels: a PNG with alpha or a tRNS chunk, a WebP with alpha, a HEIF. */
  alpha: boolean
}

/** Size and type of a photo as it is sent. */
export interface PreparedSize {
  width: number
  height: number
  /**
   * JPEG, or PNG for a photo that may be transparent (JPEG has no transparency). Whether it is
   * is known once it is drawn: one whose every pixel is opaque is sent as a JPEG after all.
   */
  type: 'image/jpeg' | 'image/png'
}

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8)
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)

/** The orientation tag (0x0112) of an EXIF block (`Exif\0\0` then a TIFF header), or 1. */
function exifOrientation(b: Uint8Array, start: number, end: number): number {
  const tiff = start + 6
  if (end - tiff < 8) return 1
  const little = b[tiff] === 0x49 && b[tiff + 1] === 0x49
  if (!little && !(b[tiff] === 0x4d && b[tiff + 1] === 0x4d)) return 1
  const u16 = (at: number) => (little ? u16le(b, at) : u16be(b, at))
  const u32 = (at: number) => (little ? (u16le(b, at) + u16le(b, at + 2) * 65536) : u32be(b, at))
  const ifd = tiff + u32(tiff + 4)
  if (ifd + 2 > end) return 1
  const entries = Math.min(u16(ifd), 512)
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12
    if (entry + 12 > end) break
    if (u16(entry) !== 0x0112) continue
    const value = u16(entry + 8)
    return value >= 1 && value <= 8 ? value : 1
  }
  return 1
}

/** Start-of-frame markers: baseline, extended, progressive, lossless (not DHT, JPG or DAC). */
const isFrameMarker = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc

function jpegFacts(b: Uint8Array): Omit<PhotoFacts, 'type'> | null {
  let orientation = 1
  let at = 2
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null
    const marker = b[at + 1]!
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      at += 1
      continue
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2
      continue
    }
    const length = u16be(b, at + 2)
    if (length < 2) return null
    const body = at + 4
    if (marker === 0xe1 && body + 6 <= b.length && String.fromCharCode(...b.subarray(body, body + 4)) === 'Exif') {
      orientation = exifOrientation(b, body, Math.min(b.length, at + 2 + length))
    }
    if (isFrameMarker(marker)) {
      if (body + 5 > b.length) return null
      const height = u16be(b, body + 1)
      const width = u16be(b, body + 3)
      if (!width || !height) return null
      const turned = orientation >= 5
      return { width: turned ? height : width, height: turned ? width : height, orientation, alpha: false }
    }
    at += 2 + length
  }
  return null
}

function pngFacts(b: Uint8Array): Omit<PhotoFacts, 'type'> | null {
  if (b.length < 33 || String.fromCharCode(...b.subarray(12, 16)) !== 'IHDR') return null
  const width = u32be(b, 16)
  const height = u32be(b, 20)
  const colourType = b[25]!
  // Colour types 4 and 6 carry alpha; any other may have a tRNS chunk before its pixels.
  let alpha = colourType === 4 || colourType === 6
  for (let at = 33; !alpha && at + 8 <= b.length; ) {
    const type = String.fromCharCode(...b.subarray(at + 4, at + 8))
    if (type === 'tRNS') alpha = true
    if (type === 'IDAT' || type === 'IEND') break
    at += 12 + u32be(b, at)
  }
  return width && height ? { width, height, orientation: 1, alpha } : null
}

function webpFacts(b: Uint8Array): Omit<PhotoFacts, 'type'> | null {
  if (b.length < 30) return null
  const chunk = String.fromCharCode(...b.subarray(12, 16))
  if (chunk === 'VP8X') {
    return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1, orientation: 1, alpha: (b[20]! & 0x10) !== 0 }
  }
  if (chunk === 'VP8L' && b[20] === 0x2f) {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, orientation: 1, alpha: ((bits >>> 28) & 1) === 1 }
  }
  if (chunk === 'VP8 ' && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff, orientation: 1, alpha: false }
  }
  return null
}

/**
 * An HEIF photo's size, for the pixel bound only: the largest of its images' `ispe` (spatial
 * extent) properties, which is the whole picture's (an iPhone's HEIC also holds its 512-pixel tiles
 * and a thumbnail). Its turn (`irot`) is left to the browser's decoder, which applies it: the size
 * it is sent at is taken from the decoded picture (photo-render.ts).
 */
function heifFacts(b: Uint8Array): Omit<PhotoFacts, 'type'> | null {
  let width = 0
  let height = 0
  for (let at = 4; at + 16 <= b.length; at++) {
    // `ispe`: a full box (version and flags), then width and height.
    if (b[at] !== 0x69 || b[at + 1] !== 0x73 || b[at + 2] !== 0x70 || b[at + 3] !== 0x65) continue
    const w = u32be(b, at + 8)
    const h = u32be(b, at + 12)
    if (w * h > width * height) [width, height] = [w, h]
  }
  // It may hold an alpha plane: the decoded pixels say whether it is transparent.
  return width && height ? { width, height, orientation: 1, alpha: true } : null
}

const FACTS = { 'image/jpeg': jpegFacts, 'image/png': pngFacts, 'image/webp': webpFacts, 'image/heif': heifFacts } as const satisfies Record<ChosenType, unknown>

/** The photo's facts from its first bytes (`PHOTO_SIZE_SEARCH_BYTES` are enough), or null when they are not a JPEG, PNG, WebP or HEIF whose size they give. */
export function readPhotoFacts(head: Uint8Array): PhotoFacts | null {
  const type = sniffChosenType(head)
  const facts = type ? FACTS[type](head) : null
  return type && facts ? { type, ...facts } : null
}

export function tooManyPixels(facts: Pick<PhotoFacts, 'width' | 'height'>): boolean {
  return facts.width * facts.height > PHOTO_MAX_PIXELS
}

/** The size a photo is sent at: its long side at most `PHOTO_LONG_SIDE`, never enlarged. */
export function preparedSize(facts: Pick<PhotoFacts, 'width' | 'height' | 'alpha'>): PreparedSize {
  const scale = Math.min(1, PHOTO_LONG_SIDE / Math.max(facts.width, facts.height))
  return {
    width: Math.max(1, Math.round(facts.width * scale)),
    height: Math.max(1, Math.round(facts.height * scale)),
    type: facts.alpha ? 'image/png' : 'image/jpeg',
  }
}
