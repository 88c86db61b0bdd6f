/**
 * Whether an upload is provably bare: its pixels and what a decoder needs to show them, and not a
 * byte more. Only such a file is kept and served as it came; any other is made again (reduced),
 * which drops whatever it carries. Metadata hides in many places that a decoder's metadata does
 * not report: a PNG's text chunks (before or after its pixels), an XMP packet in an `iTXt`, a
 * second JPEG with its own EXIF appended after the first one's end, a WebP's `EXIF` chunk. So the
 * whole file is walked, and anything not on the short list of what photos need means "not bare".
 * The page's own output (a canvas's JPEG, PNG or WebP) passes.
 */
import type { UploadType } from '../../../shared/generators/slideshow/slideshow.js'

/** Bytes `length` from `offset` of the file (fewer, or none, past its end). */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array>

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

/** PNG chunks a photo may carry: its header, palette and pixels, and how to show its colours. */
const PNG_KEPT = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'sBIT', 'pHYs', 'bKGD'])

async function barePng(read: ReadAt, size: number): Promise<boolean> {
  for (let at = 8; at + 12 <= size; ) {
    const head = await read(at, 8)
    if (head.length < 8) return false
    const length = ((head[0]! << 24) >>> 0) + (head[1]! << 16) + (head[2]! << 8) + head[3]!
    const type = String.fromCharCode(...head.subarray(4, 8))
    if (!PNG_KEPT.has(type)) return false
    at += 12 + length
    if (type === 'IEND') return at === size
  }
  return false
}

/** JPEG segments a photo may carry: JFIF, an ICC profile, Adobe's colour transform, and the tables and frames a decoder reads. */
function keptJpegSegment(marker: number, body: Uint8Array): boolean {
  const id = (text: string) => String.fromCharCode(...body.subarray(0, text.length)) === text
  if (marker === 0xe0) return id('JFIF\0')
  if (marker === 0xe2) return id('ICC_PROFILE\0')
  if (marker === 0xee) return id('Adobe')
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
    if (!keptJpegSegment(marker, await read(at + 4, Math.min(length - 2, 16)))) return false
    at += 2 + length
  }
  return false
}

/** WebP chunks a photo may carry; the extended header's flags must name neither EXIF, XMP nor animation. */
const WEBP_KEPT = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ICCP'])
const WEBP_EXIF_XMP_ANIMATION = 0x08 | 0x04 | 0x02

async function bareWebp(read: ReadAt, size: number): Promise<boolean> {
  const riff = await read(0, 12)
  if (riff.length < 12 || (riff[4]! | (riff[5]! << 8) | (riff[6]! << 16)) + riff[7]! * 2 ** 24 + 8 !== size) return false
  for (let at = 12; at + 8 <= size; ) {
    const head = await read(at, 9)
    const type = String.fromCharCode(...head.subarray(0, 4))
    if (!WEBP_KEPT.has(type)) return false
    if (type === 'VP8X' && (head[8]! & WEBP_EXIF_XMP_ANIMATION) !== 0) return false
    const length = head[4]! | (head[5]! << 8) | (head[6]! << 16) | (head[7]! * 2 ** 24)
    at += 8 + length + (length % 2)
    if (at === size) return true
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
