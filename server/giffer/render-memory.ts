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

/** Bytes of one decoded sample: two for a 16-bit PNG. */
const sampleBytes = (photo: PhotoHeader) => (photo.bitDepth === 16 ? 2 : 1)

/**
 * What libvips keeps while it streams a photo through its decode, cut and resize a few rows at a
 * time (a baseline JPEG, a PNG that is not interlaced): its buffers, and a little for each pixel of
 * the photo as loaded, twice that for 16-bit samples. Resident rises, which hold what the allocator
 * adds already, measured beside the card's pixels cut to 900×1600, 720×900 and 900×600: a baseline
 * JPEG of 1600×1200 took up to 5.2 MB, of 2400×1600 8.4, of 4000×3000 14.6, of 6000×4000 23.7; a PNG
 * inflates and filters more rows at once: 1600×1200 with alpha 3.8 MB, at 16 bits 7.9, with a
 * palette 3.1, 3000×2000 12.5 and 4000×3000 22.2.
 */
function streamedBytes(photo: PhotoHeader, loadedPixels: number): number {
  const wide = Math.max(1, (photo.channels * sampleBytes(photo)) / 4)
  return photo.type === 'image/png' ? 2.5 * MB + loadedPixels * 1.75 * wide : 5 * MB + loadedPixels * wide
}

/**
 * What a decoder holds whole while it decodes, beside what it streams: a progressive JPEG every DCT
 * coefficient, two bytes a sample at each component's own resolution (3 bytes a pixel for colour
 * in 4:2:0, 6 in 4:4:4, 8 for CMYK, 2 for grey: a progressive 2400×1600 in 4:4:4 took 25 MB beside
 * its card, one in grey 7.4); an interlaced PNG its pixels; a WebP its frame as loaded, four bytes
 * a pixel (a lossless one at full size, as libwebp cannot shrink it while it decodes: 1600×1200
 * took 13.7 MB lossy, 14.5 lossless). Each is one allocation of its own, mapped from the system
 * and given back whole.
 */
function wholeDecodeBytes(photo: PhotoHeader, loadedPixels: number): number {
  const pixels = photo.width * photo.height
  if (photo.type === 'image/jpeg') return photo.progressive ? pixels * photo.samples * 2 : 0
  if (photo.type === 'image/png') return photo.progressive ? pixels * photo.channels * sampleBytes(photo) : 0
  return (photo.lossless ? pixels : loadedPixels) * 4
}

/**
 * The memory sharp takes to decode one photo and cut it to its card, beside the card's pixels it
 * returns: what it streams, and what its decoder holds whole with the allocator's fifth on top. A
 * photo smaller than its card (a tall shape) is enlarged before it is cut: one decoded whole is
 * enlarged whole, 1.5 bytes an enlarged pixel; one streamed is enlarged a few rows at a time, at
 * no cost.
 */
function decodeWorkingBytes(photo: PhotoHeader, card: { width: number; height: number }): number {
  const pixels = photo.width * photo.height
  const whole = wholeDecodeBytes(photo, pixels)
  const enlarge = Math.max(card.width / photo.width, card.height / photo.height)
  const enlarged = whole > 0 && enlarge > 1 ? pixels * enlarge * enlarge * 1.5 : 0
  return Math.ceil(streamedBytes(photo, pixels) + (whole + enlarged) * SLACK)
}

/**
 * A slideshow's peak. The large buffers are each one allocation of their own, mapped straight
 * from the system (MALLOC_MMAP_THRESHOLD_ of 32 KB) and given back whole when freed: the cards'
 * canvases (a card no frame shows any more is freed at once), the file being decoded and the GIF's
 * buffer (reserved at its bound, its pages taken only as they are written). The allocator's fifth
 * is for the rest: the job's objects, the frame's smaller buffers. A photo is decoded before the
 * frame that first shows it is written, so while the last one is decoded the GIF holds a frame
 * less than at the end, when nothing is being decoded any more: the peak is one or the other.
 * Measured in a thread limited as the render threads are, alone in its process: ten photos as the
 * page sends them (square, portrait and landscape JPEGs, a PNG with alpha, a detailed JPEG of
 * 4.5 MB) in 9:16 rose 36 MB without decoding ahead and 45 with, against 58 and 68 estimated; ten
 * noisy PNGs of 3000×2000 (18 MB files) 69 against 88.
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
  // While a photo is decoded: its file (the next one is asked for only once it has been) and what
  // its decoder holds. Decoding ahead, the file before may outlive the young collections that run
  // between frames (it was in use through one), and wait for a full one: two files.
  const files = job.decodeAhead === false ? 1 : 2
  const decoding = Math.max(0, ...job.photos.map((photo) => decodeWorkingBytes(photo, biggest) + photo.size * files))
  const gif = gifBytesExpected(framePixels, frames)
  const lastFrame = gif - gifBytesExpected(framePixels, frames - 1)
  return {
    bytes: Math.ceil((JOB_BASE + frame) * SLACK + cards + gif - lastFrame + Math.max(decoding, lastFrame)),
    reduce: 'use fewer photos or a wider shape (a lower height), or smaller photos',
  }
}

/** What to change in a photo too large to reduce here: advice that fits its type. */
function reduceAdvice(photo: PhotoHeader): string {
  if (photo.type === 'image/jpeg') return photo.progressive ? 'use a smaller photo, or a baseline JPEG rather than a progressive one' : 'use a smaller photo'
  if (photo.type === 'image/webp' && photo.lossless) return 'use a smaller photo, or save it as JPEG or as a lossy WebP'
  return 'use a smaller photo, or save it as JPEG'
}

/**
 * Reducing an uploaded photo to the render size, read in order and never held whole where its
 * decoder allows (`render/reduce-photo.ts`). libvips shrinks a JPEG or a lossy WebP as it decodes
 * it, by the largest of 2, 4 or 8 that keeps it at least the target size; a JPEG streams with
 * about a byte a sample of it as loaded (its rows and the chroma it upsamples), a PNG as in a
 * slideshow. A progressive JPEG keeps its coefficients, a lossless WebP its full frame. Measured in
 * a render thread: a baseline JPEG of 8000×6000 took 17 MB beside its file, a PNG of 4000×3000
 * 20 MB, a lossy WebP of 4000×3000 33 MB and a lossless one 54; progressive JPEGs of 4000×3000
 * 62 MB in 4:2:0 and 39 in grey, of 24 megapixels in 4:4:4 150 MB, a CMYK one of 50 megapixels
 * 402 MB. What is written: a JPEG's coefficients for its optimised coding and its bytes, four bytes
 * a pixel; a PNG or WebP its rows and its growing buffer, three bytes a sample; then a copy.
 */
function reducePhotoMemory({ photo, longSide }: ReducePhotoJob): RenderMemory {
  const long = Math.max(photo.width, photo.height)
  const shrinks = photo.type === 'image/jpeg' || (photo.type === 'image/webp' && !photo.lossless)
  const shrink = shrinks ? ([8, 4, 2].find((factor) => long / factor >= longSide) ?? 1) : 1
  const loaded = (photo.width * photo.height) / shrink ** 2
  const streamed = photo.type === 'image/jpeg' ? 5 * MB + loaded * photo.channels : streamedBytes(photo, loaded)
  const scale = Math.min(1, longSide / long)
  const out = photo.width * scale * photo.height * scale
  // Written at eight bits a sample, whatever the photo's depth.
  const written = photo.type === 'image/jpeg' ? out * 4 : out * Math.min(4, photo.channels) * 3
  return {
    bytes: Math.ceil(JOB_BASE + streamed + wholeDecodeBytes(photo, loaded) * SLACK + photo.size + written),
    reduce: reduceAdvice(photo),
  }
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
