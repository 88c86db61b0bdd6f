/**
 * Whether an upload is provably bare: its pixels and what a decoder needs to show them, in chunks
 * and segments of their own fixed sizes, where no text fits (what is coded as pixels cannot be
 * ruled out without decoding them, and carries nothing a camera or an editor writes). Only such a file is kept and served as it came; any other is made again (reduced),
 * which drops whatever it carries. Metadata hides in many places that a decoder's metadata does
 * not report: a PNG's text chunks (before or after its pixels), an XMP packet in an `iTXt`, a
 * second JPEG with its own EXIF appended after the first one's end, a WebP's `EXIF` chunk. So the
 * whole file is walked, and anything not on the short list of what photos need means "not bare".
 * The page's own output (a canvas's JPEG, PNG or WebP) passes.
 */
import type { UploadType } from '../../../shared/generators/slideshow/slideshow.js'

/** Bytes `length` from `offset` of the file (fewer, or none, past its end). */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array>

/** The largest colour profile kept: browsers' canvases embed sRGB in a few hundred bytes. */
const ICC_MAX_BYTES = 4096

/** Bytes read at a time while a file is walked. */
const WINDOW = 64 * 1024

/** Reads through windows of WINDOW bytes, so that a walk of many small steps costs few reads. */
function windowed(read: ReadAt): (offset: number, length: number) => Promise<Uint8Array> {
  let start = -1
  let bytes: Uint8Array = new Uint8Array(0)
  return async (offset, length) => {
    if (offset < start || offset + length > start + bytes.length) {
      start = offset
      bytes = await read(offset, Math.max(length, WINDOW))
    }
    return bytes.subarray(offset - start, offset - start + length)
  }
}

/**
 * PNG chunks a photo may carry, each with the lengths it may have: its header, palette and pixels,
 * transparency and how to show its colours, all of a fixed size or made of pixels' values, where
 * no text fits, and a colour profile (`iCCP`) of the size a browser's canvas writes (a few hundred
 * bytes for sRGB), whose name and data are free but leave no room for more than a word or two.
 */
const PNG_KEPT: Readonly<Record<string, (length: number) => boolean>> = {
  IHDR: (n) => n === 13,
  PLTE: (n) => n > 0 && n <= 768 && n % 3 === 0,
  IDAT: () => true,
  IEND: (n) => n === 0,
  tRNS: (n) => n <= 256,
  gAMA: (n) => n === 4,
  cHRM: (n) => n === 32,
  sRGB: (n) => n === 1,
  sBIT: (n) => n >= 1 && n <= 4,
  pHYs: (n) => n === 9,
  bKGD: (n) => n === 1 || n === 2 || n === 6,
  iCCP: (n) => n <= ICC_MAX_BYTES,
}

async function barePng(read: ReadAt, size: number): Promise<boolean> {
  for (let at = 8; at + 12 <= size; ) {
    const head = await read(at, 8)
    if (head.length < 8) return false
    const length = ((head[0]! << 24) >>> 0) + (head[1]! << 16) + (head[2]! << 8) + head[3]!
    const type = String.fromCharCode(...head.subarray(4, 8))
    if (!Object.hasOwn(PNG_KEPT, type) || !PNG_KEPT[type]!(length)) return false
    at += 12 + length
    if (type === 'IEND') return at === size
  }
  return false
}

/**
 * JPEG segments a photo may carry: JFIF without a thumbnail and Adobe's colour transform, each of
 * its fixed length, a colour profile in one segment of the size a browser's canvas writes, and
 * the tables and frames a decoder reads (whose bytes it reads as such, so nothing else fits).
 */
function keptJpegSegment(marker: number, length: number, body: Uint8Array): boolean {
  const id = (text: string) => String.fromCharCode(...body.subarray(0, text.length)) === text
  if (marker === 0xe0) return length === 16 && id('JFIF\0')
  if (marker === 0xee) return length === 14 && id('Adobe')
  if (marker === 0xe2) return length <= ICC_MAX_BYTES && id('ICC_PROFILE\0')
  // DQT, DHT, DAC, DRI, DNL, and every start of frame.
  return marker === 0xdb || marker === 0xc4 || marker === 0xcc || marker === 0xdd || marker === 0xdc || (marker >= 0xc0 && marker <= 0xcf)
}

/** Where the entropy-coded data from `at` ends: at the next marker that is neither a stuffed 0xff nor a restart. */
async function scanEnd(read: ReadAt, at: number, size: number): Promise<number> {
  for (let from = at; from + 1 < size; ) {
    // One byte more than a window, to see what follows a 0xff at its end.
    const block = await read(from, WINDOW + 1)
    if (block.length < 2) return size
    for (let i = block.indexOf(0xff); i !== -1 && i + 1 < block.length; i = block.indexOf(0xff, i + 1)) {
      const next = block[i + 1]!
      if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) return from + i
    }
    from += block.length - 1
  }
  return size
}

async function bareJpeg(read: ReadAt, size: number): Promise<boolean> {
  for (let at = 2; at + 2 <= size; ) {
    const head = await read(at, 4)
    if (head[0] !== 0xff) return false
    const marker = head[1]!
    if (marker === 0xff) {
      at++
      continue
    }
    // The end of the image must be the end of the file: nothing appended.
    if (marker === 0xd9) return at + 2 === size
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) return false
    const length = (head[2]! << 8) | head[3]!
    if (length < 2) return false
    if (marker === 0xda) {
      at = await scanEnd(read, at + 2 + length, size)
      continue
    }
    if (!keptJpegSegment(marker, length, await read(at + 4, Math.min(length - 2, 16)))) return false
    at += 2 + length
  }
  return false
}

/**
 * A WebP's chunks: one image (`VP8 ` or `VP8L`) alone, or after an extended header (`VP8X`, 10
 * bytes) whose flags name no colour profile, EXIF, XMP or animation, with at most an alpha chunk.
 */
const WEBP_NOT_BARE_FLAGS = 0x20 | 0x08 | 0x04 | 0x02

async function bareWebp(read: ReadAt, size: number): Promise<boolean> {
  const riff = await read(0, 12)
  if (riff.length < 12 || (riff[4]! | (riff[5]! << 8) | (riff[6]! << 16)) + riff[7]! * 2 ** 24 + 8 !== size) return false
  let images = 0
  for (let at = 12, first = true; at + 8 <= size; first = false) {
    const head = await read(at, 9)
    const type = String.fromCharCode(...head.subarray(0, 4))
    const length = head[4]! | (head[5]! << 8) | (head[6]! << 16) | (head[7]! * 2 ** 24)
    if (type === 'VP8X') {
      if (!first || length !== 10 || (head[8]! & WEBP_NOT_BARE_FLAGS) !== 0) return false
    } else if (type === 'VP8 ' || type === 'VP8L') {
      images += 1
    } else if (type !== 'ALPH' || images > 0) {
      return false
    }
    if (images > 1) return false
    at += 8 + length + (length % 2)
    if (at === size) return images === 1
  }
  return false
}

/** Whether the file of `size` bytes is provably bare (see above). */
export function isBareImage(type: UploadType, read: ReadAt, size: number): Promise<boolean> {
  const at = windowed(read)
  if (type === 'image/png') return barePng(at, size)
  if (type === 'image/jpeg') return bareJpeg(at, size)
  return bareWebp(at, size)
}

/**
 * A reader of a stream's bytes for a walk that only moves forward (as `isBareImage`'s do): it
 * holds the bytes from the last offset asked for to the furthest read, a window or so, never the
 * file; bytes skipped over are read and let go.
 */
export function forwardReader(chunks: AsyncIterable<Uint8Array>): ReadAt {
  const source = chunks[Symbol.asyncIterator]()
  let start = 0
  let held: Uint8Array = new Uint8Array(0)
  let ended = false
  const dropBefore = (offset: number) => {
    const drop = Math.min(held.length, offset - start)
    held = held.subarray(drop)
    start += drop
  }
  return async (offset, length) => {
    if (offset < start) throw new Error('a forward reader cannot go back')
    dropBefore(offset)
    while (start + held.length < offset + length && !ended) {
      const next = await source.next()
      if (next.done) ended = true
      else held = held.length === 0 ? next.value : Buffer.concat([held, next.value])
      dropBefore(offset)
    }
    return start === offset ? held.subarray(0, length) : new Uint8Array(0)
  }
}
