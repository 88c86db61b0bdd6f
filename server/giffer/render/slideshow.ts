import { createCanvas, ImageData, type Canvas, type SKRSContext2D } from '@napi-rs/canvas'
import sharp from 'sharp'
import { imageChanged, RenderRefused, type PhotoHeader, type RenderedImage, type Rgb, type SlideshowJob } from '../jobs.js'
import { changedSince } from '../photo-header.js'
import { BAND_ROWS, slideshowLayout, type Card, type SlideshowLayout } from './slideshow-layout.js'
import { MAX_INPUT_PIXELS, MAX_JOB_PIXELS } from '../limits.js'
import { gifBytesBound, GifWriter } from './gif.js'
import { assertJobSize } from './masks.js'
import { freeCanvas, releaseDropped } from './native-memory.js'
import type { PhotoReader } from '../photo-source.js'
import { PhotoPalette } from './photo-palette.js'

function rgb([r, g, b]: Rgb, alpha = 1): string {
  return `rgba(${r}, ${g}, ${b}, ${alpha})`
}

/** Decodes, EXIF-rotates and crops one upload to the card's shape; refuses bombs and non-images. */
async function decodeCard(bytes: Uint8Array, width: number, height: number, position: number): Promise<Canvas> {
  let raw: Buffer
  try {
    raw = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize(width, height, { fit: 'cover', position: 'centre' })
      .ensureAlpha()
      .raw()
      .toBuffer()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const tooBig = /pixel limit/i.test(message)
    throw new RenderRefused({
      status: tooBig ? 413 : 422,
      code: tooBig ? 'image_too_large' : 'image_unreadable',
      message: tooBig
        ? `Image ${position + 1} has more than ${MAX_INPUT_PIXELS} pixels.`
        : `Image ${position + 1} could not be read as a picture.`,
      field: `images.${position}`,
    })
  }
  const canvas = createCanvas(width, height)
  canvas.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(raw.buffer, raw.byteOffset, raw.byteLength), width, height), 0, 0)
  return canvas
}

function drawingContext(canvas: Canvas): SKRSContext2D {
  const ctx = canvas.getContext('2d')
  ctx.imageSmoothingEnabled = true
  ctx.imageSmoothingQuality = 'high'
  return ctx
}

/** One frame's picture, in the context's current transform: background, then each card, back to front. */
function drawFrame(ctx: SKRSContext2D, job: SlideshowJob, layout: SlideshowLayout, sourceOf: (card: Card) => Canvas): void {
  ctx.save()
  ctx.setTransform(1, 0, 0, 1, 0, 0)
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height)
  ctx.restore()
  if (job.background) {
    ctx.fillStyle = rgb(job.background)
    ctx.fillRect(0, 0, layout.width, layout.height)
  }
  for (const card of layout.cards) {
    ctx.save()
    cardPath(ctx, card, job.radius)
    ctx.clip()
    ctx.drawImage(sourceOf(card), card.x, card.y, card.width, card.height)
    if (card.dimmed && job.overlayOpacity > 0) {
      ctx.fillStyle = rgb(job.overlayColor, job.overlayOpacity)
      ctx.fillRect(card.x, card.y, card.width, card.height)
    }
    if (job.borderWidth > 0) {
      // Inside the clip, a stroke on the edge shows its inner half: draw it twice as wide.
      ctx.lineWidth = job.borderWidth * 2
      ctx.strokeStyle = rgb(job.borderColor)
      cardPath(ctx, card, job.radius)
      ctx.stroke()
    }
    ctx.restore()
  }
}

function cardPath(ctx: SKRSContext2D, card: Card, radius: number): void {
  ctx.beginPath()
  ctx.roundRect(card.x, card.y, card.width, card.height, Math.min(radius, card.width / 2, card.height / 2))
}

/**
 * The decoded photos a frame needs, drawn at the card size, held while a card of the current frame
 * shows them. Frames move on by one photo, so each photo is decoded once (a few at the wrap-around
 * twice) and the memory does not grow with the number of photos. While a frame is drawn, the one
 * photo the next frame adds is read and decoded (`prefetch`): sharp decodes on a thread of its own,
 * beside the drawing. Photos are read and decoded one at a time, never two at once.
 * Each photo's bytes are checked against the header its memory was estimated from before any of
 * its pixels is decoded: a photo replaced since then (a visitor may post another file under the
 * same name to a bucket) is refused, never decoded.
 */
class CardSources {
  private readonly held = new Map<number, Canvas>()
  private next: { index: number; card: Promise<Canvas> } | null = null

  constructor(
    private readonly readPhoto: PhotoReader,
    private readonly headers: PhotoHeader[],
    private readonly width: number,
    private readonly height: number,
  ) {}

  async forFrame(indices: number[]): Promise<Map<number, Canvas>> {
    for (const [index, canvas] of [...this.held]) {
      if (indices.includes(index)) continue
      this.held.delete(index)
      freeCanvas(canvas)
    }
    if (this.next) {
      const { index, card } = this.next
      this.next = null
      this.held.set(index, await card)
    }
    for (const index of indices) {
      if (this.held.has(index)) continue
      this.held.set(index, await this.decode(index))
      // The file's bytes and the decoded pixels have been copied into the card: let them go.
      await releaseDropped()
    }
    return this.held
  }

  /** Whether a photo is being read and decoded ahead of the frame that needs it. */
  get decodingAhead(): boolean {
    return this.next !== null
  }

  /** Starts reading and decoding the first photo of `indices` not held yet; `forFrame` takes it. */
  prefetch(indices: number[]): void {
    const index = indices.find((i) => !this.held.has(i))
    if (index === undefined) return
    const card = this.decode(index)
    // A failure is met by the frame that needs the photo, when it awaits it.
    card.catch(() => {})
    this.next = { index, card }
  }

  private async decode(index: number): Promise<Canvas> {
    const bytes = await this.readPhoto(index)
    if (await changedSince(this.headers[index]!, bytes)) throw new RenderRefused(imageChanged(index))
    return decodeCard(bytes, this.width, this.height, index)
  }

  /** Frees every photo still held or being decoded (the job is over, or failed). */
  async release(): Promise<void> {
    const next = this.next
    this.next = null
    if (next) await next.card.then(freeCanvas, () => {})
    for (const canvas of this.held.values()) freeCanvas(canvas)
    this.held.clear()
  }
}

/** The palette is built from the frame drawn at this fraction of its size: one pixel in 16. */
const SAMPLE_SCALE = 1 / 4

/**
 * A slideshow or collage GIF from the uploaded photos: one frame per image, each shown for
 * `delayMs`. Photos are decoded at the largest card size they need, the next frame's while a frame
 * is drawn. Each frame is drawn with the canvas (rounded corners, borders, overlay) twice: small,
 * for its palette, then band by band, each band's pixels turned into palette indices at once, so a
 * frame is never held as RGBA whole; the indices are encoded with gifenc.
 */
export async function renderSlideshow(job: SlideshowJob, readPhoto: PhotoReader): Promise<RenderedImage> {
  const layout = slideshowLayout(job)
  const n = job.photos.length
  if (n === 0) throw new RenderRefused({ status: 422, code: 'no_images', message: 'Please upload at least one image.', field: 'images' })
  const frames = n
  const { width, height } = layout
  assertJobSize(width, height, frames, MAX_JOB_PIXELS, 'images')

  const biggest = layout.cards.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a))
  const sources = new CardSources(readPhoto, job.photos, biggest.width, biggest.height)
  const imageOf = (frame: number, card: Card) => (((frame + card.offset) % n) + n) % n

  const small = { width: Math.max(1, Math.ceil(width * SAMPLE_SCALE)), height: Math.max(1, Math.ceil(height * SAMPLE_SCALE)) }
  const sampleCtx = drawingContext(createCanvas(small.width, small.height))
  const bandRows = Math.min(BAND_ROWS, height)
  const bandCtx = drawingContext(createCanvas(width, bandRows))
  // The writer holds one frame back (to lengthen it if the next is the same): two index buffers take turns.
  const indices = [new Uint8Array(width * height), new Uint8Array(width * height)]
  let gif: GifWriter | null = null
  try {
    for (let f = 0; f < frames; f++) {
      const held = await sources.forFrame(layout.cards.map((card) => imageOf(f, card)))
      if (job.decodeAhead !== false && f + 1 < frames) sources.prefetch(layout.cards.map((card) => imageOf(f + 1, card)))
      const draw = (ctx: SKRSContext2D) => drawFrame(ctx, job, layout, (card) => held.get(imageOf(f, card))!)

      sampleCtx.save()
      sampleCtx.scale(small.width / width, small.height / height)
      draw(sampleCtx)
      sampleCtx.restore()
      const palette = PhotoPalette.fromSample(sampleCtx.getImageData(0, 0, small.width, small.height).data, !job.background)

      const index = indices[f % 2]!
      for (let top = 0; top < height; top += bandRows) {
        const rows = Math.min(bandRows, height - top)
        bandCtx.save()
        bandCtx.translate(0, -top)
        draw(bandCtx)
        bandCtx.restore()
        palette.indexBand(bandCtx.getImageData(0, 0, width, rows).data, index, top * width)
        // A turn of the loop, so that the next photo's read and decode move on beside the drawing.
        if (sources.decodingAhead) await new Promise((resolve) => setImmediate(resolve))
      }

      const patch = { left: 0, top: 0, width, height, index, transparentIndex: palette.transparentIndex }
      if (!gif) {
        gif = new GifWriter(width, height, palette.palette, gifBytesBound(width * height, frames))
        gif.addFrame(patch, job.delayMs)
      } else {
        gif.addFrame({ ...patch, palette: palette.palette }, job.delayMs)
      }
      await releaseDropped()
    }
  } finally {
    await sources.release()
    freeCanvas(sampleCtx.canvas)
    freeCanvas(bandCtx.canvas)
  }
  const body = gif!.finish()
  return {
    ok: true,
    body,
    contentType: 'image/gif',
    width: layout.width,
    height: layout.height,
    frames,
  }
}
