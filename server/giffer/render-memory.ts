/**
 * What a render job will take at its peak, in native memory (pixels outside V8's heap), known from
 * its parameters before it starts: the render pool admits a job only when this fits the memory
 * budget beside the jobs already running. Each figure follows what the renderer keeps at once
 * (see each renderer: photos are decoded one at a time at the size they are drawn, frames are
 * read back one at a time and let go), with room for what a collection has not yet freed.
 * `tests/giffer/render-memory.test.ts` measures the real peaks of the largest jobs against these.
 *
 * Pure arithmetic: it runs on the event loop and loads no drawing library.
 */
import { COUNTDOWN_SIZE, countdownHeight } from '../../shared/generators/countdown/countdown.js'
import type { PhotoHeader, ReducePhotoJob, RenderJob, ScrollingTextJob, SlideshowJob, TextPreviewJob } from './jobs.js'
import { MAX_CANVAS_SIDE, MAX_FRAME_PIXELS } from './limits.js'
import { gifBytesExpected } from './render/gif.js'
import { STRIP_HEIGHT, STRIP_PIECE_PX } from './render/scrolling-plan.js'
import { BAND_ROWS, slideshowLayout } from './render/slideshow-layout.js'

const MB = 2 ** 20
/** Any job: its JavaScript objects, a palette's working tables, the encoder's. */
const JOB_BASE = 8 * MB
/** What allocators and collections add over the sum of a job's buffers, measured: up to a fifth more. */
const SLACK = 1.2
/** RGBA. */
const PIXEL = 4
/** A glyph's advance is at most this many font sizes (wide capitals, emoji, icons). */
const EM_BOUND = 1.25
/** A scrolling text's GIF is kept near 800 KB; room for it and one pass over. */
const SCROLL_OUTPUT = 2 * MB

export interface RenderMemory {
  /** The job's estimated peak. */
  bytes: number
  /** What the visitor can change to make it smaller, for the answer when it can never fit. */
  reduce: string
}

/**
 * The memory sharp takes to decode one photo and cut it to its card, beside the card's pixels it
 * returns: the resident rise measured around the decode, which already holds what the allocator
 * adds. A baseline JPEG is shrunk as it loads, but what it keeps while it reduces and crops to the
 * card's shape grows with the photo: 2 to 4 MB for 1600×1200 (2 MP, as the page sends a photo),
 * up to 8 MB for 2400×1600 (4 MP), 16 MB for 4000×3000 and 25 MB for 6000×4000, the most of any
 * card shape; 6 MB and 1.1 bytes a pixel covers them all. Enlarging one to a taller card costs
 * nothing more (libvips enlarges a few rows at a time: 1600×1200 cut to 900×1600 took 2 MB beside
 * its card, 400×300 nothing). A WebP takes about a byte a pixel; a PNG three (ten PNGs of 3000×2000
 * rose 62-79 MB in a render thread's company of libraries). A progressive JPEG or an interlaced PNG is decoded whole before it is shrunk, and what
 * it is enlarged to is counted too: a 24-megapixel one took 68 and 83 MB, and ten 12-megapixel
 * progressive JPEGs up to 96 MB in all.
 */
function decodeWorkingBytes(photo: PhotoHeader, card: { width: number; height: number }): number {
  const pixels = photo.width * photo.height
  // Resident rises measured in a quiet process; in a busy one the collection that frees the pixels
  // sharp returned lags behind: the allocator's fifth on top, as for the other buffers.
  if (photo.type === 'image/jpeg' && !photo.progressive) return Math.ceil((6 * MB + pixels * 1.1) * SLACK)
  // A photo smaller than its card (a tall shape) is enlarged before it is cut: 1.5 bytes an enlarged pixel.
  const enlarge = Math.max(card.width / photo.width, card.height / photo.height)
  const enlarged = enlarge > 1 ? pixels * enlarge * enlarge * 1.5 : 0
  // Buffers decoded whole, or a byte or less a pixel: with the allocator's share on top.
  const buffers = photo.progressive ? pixels * 4 : photo.type === 'image/png' ? pixels * 3 : pixels
  return Math.ceil((buffers + enlarged) * SLACK)
}

/**
 * A slideshow's peak. The large buffers are each one allocation of their own, mapped straight
 * from the system (MALLOC_MMAP_THRESHOLD_ of 32 KB) and given back whole when freed: the cards'
 * canvases (a card no frame shows any more is freed at once) and the GIF's buffer (reserved at its
 * bound, its pages taken only as they are written). The allocator's fifth is for the rest: the
 * job's objects, the frame's smaller buffers, the file. Measured in a thread limited as the render
 * threads are, alone in its process: ten photos as the page sends them in 9:16 rose 43-46 MB
 * against 68 estimated with the next photo decoded ahead, 42-45 against 62 without; ten of
 * 2400×1600 in 4:5 40-55 against 58, in the overlay 27-41 against 42.
 */
function slideshowMemory(job: SlideshowJob): RenderMemory {
  const layout = slideshowLayout(job)
  const framePixels = layout.width * layout.height
  const biggest = layout.cards.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a))
  const cardPixels = biggest.width * biggest.height
  const frames = job.photos.length
  // Each card shown holds its decoded photo (a canvas), and the photo being decoded its raw pixels
  // as sharp returns them, plus one card more for the raw pixels of the one before, which a
  // collection frees (measured on a busy CPU). Decoding ahead, the photo the next frame adds is
  // decoded while a frame is drawn: its canvas too.
  const cards = (layout.cards.length + 2 + (job.decodeAhead === false ? 0 : 1)) * cardPixels * PIXEL
  // The frame drawn small for its palette, a band of it drawn and read back at a time, and two
  // frames of palette indices (the one being written, the one the encoder holds back).
  const band = layout.width * Math.min(BAND_ROWS, layout.height) * PIXEL * 2
  const frame = Math.ceil(framePixels / 16) * PIXEL * 3 + band + framePixels * 2
  const decoding = Math.max(0, ...job.photos.map((photo) => decodeWorkingBytes(photo, biggest)))
  // The file being decoded: the next one is asked for only once it has been.
  const files = Math.max(0, ...job.photos.map((photo) => photo.size))
  return {
    bytes: Math.ceil((JOB_BASE + frame + files) * SLACK + cards + gifBytesExpected(framePixels, frames) + decoding),
    reduce: 'use fewer photos or a wider shape (a lower height), or smaller photos',
  }
}

/**
 * Reducing an uploaded photo to the render size. libvips shrinks a baseline JPEG as it decodes it,
 * by the largest of 2, 4 or 8 that keeps it at least the target size, and keeps some 16 MB beside
 * the shrunk pixels: an 8000×6000 JPEG rose 26.5 MB (decoded at 2000×1500), a 4000×3000 one
 * 30 MB, a 10000×10000 one 40 MB. A WebP is shrunk as it decodes too (30 MB for 8000×6000). A
 * progressive JPEG or a PNG is decoded whole: 65 MB for a 12-megapixel progressive JPEG, 163 MB
 * for a 48-megapixel one, 64 MB for a 24-megapixel PNG.
 */
function reducePhotoMemory({ photo, longSide }: ReducePhotoJob): RenderMemory {
  const pixels = photo.width * photo.height
  const long = Math.max(photo.width, photo.height)
  const shrink = [8, 4, 2, 1].find((factor) => long / factor >= longSide) ?? 1
  const working =
    photo.type === 'image/jpeg' && !photo.progressive
      ? 16 * MB + (pixels / shrink ** 2) * 5
      : photo.type === 'image/webp'
        ? 16 * MB + pixels * 0.5
        : 20 * MB + pixels * (photo.type === 'image/png' && !photo.progressive ? 2.5 : 4)
  // The file, and what is written: a PNG at most four bytes a pixel, the others far less.
  const scale = Math.min(1, longSide / long)
  const written = photo.width * scale * photo.height * scale * (photo.type === 'image/png' ? 4 : 1)
  return { bytes: Math.ceil(JOB_BASE + working + photo.size + written), reduce: 'use a smaller photo, or a baseline JPEG rather than a progressive one' }
}

function scrollingTextMemory(job: ScrollingTextJob): RenderMemory {
  const fontPx = job.fontSize * job.scale
  const width = job.width * job.scale
  const height = Math.ceil(job.fontSize * STRIP_HEIGHT) * job.scale
  // The strip is one repeat (text, divider, gaps) plus a window; its indices are one byte a pixel.
  const repeat = ([...job.text].length + [...job.divider].length + 3) * fontPx * EM_BOUND
  const stripWidth = Math.min(MAX_CANVAS_SIDE, repeat + width)
  const strip = stripWidth * height
  // Two mask canvases of one piece, their pixels read back (alpha kept at a byte a pixel), two windows of indices.
  const pieces = 2 * Math.min(STRIP_PIECE_PX, stripWidth) * height * (2 * PIXEL + 1)
  return {
    bytes: Math.ceil((JOB_BASE + strip * 2 + pieces + 2 * width * height + SCROLL_OUTPUT) * SLACK),
    reduce: 'use a shorter text or a smaller font size',
  }
}

function textPreviewMemory(job: TextPreviewJob): RenderMemory {
  const fontPx = job.fontSize * job.scale
  const margin = 2 * (job.padding * job.scale + (job.stroke?.width ?? 0) * job.scale) + 2 * fontPx
  const chars = Math.max(1, ...job.lines.map((line) => [...line].length))
  const pixels = Math.min(MAX_FRAME_PIXELS, (chars * fontPx * EM_BOUND + margin) * (job.lines.length * fontPx * Math.max(1, job.lineHeight) + margin))
  // The canvas, its pixels read back, and the PNG encoder's rows.
  return { bytes: JOB_BASE + pixels * (PIXEL * 2 + 1), reduce: 'use a shorter text or a smaller font size' }
}

/** The estimated peak of a job and what would make it smaller. */
export function renderMemory(job: RenderJob): RenderMemory {
  switch (job.kind) {
    case 'countdown': {
      const pixels = COUNTDOWN_SIZE.width * job.scale * countdownHeight(Object.values(job.captions).some(Boolean)) * job.scale
      // The still, the digits' sprites and masks, a frame's patch, the GIF.
      return { bytes: JOB_BASE + pixels * 16, reduce: 'use a smaller scale' }
    }
    case 'scrolling-text':
      return scrollingTextMemory(job)
    case 'text-preview':
      return textPreviewMemory(job)
    case 'slideshow':
      return slideshowMemory(job)
    case 'reduce-photo':
      return reducePhotoMemory(job)
  }
}
