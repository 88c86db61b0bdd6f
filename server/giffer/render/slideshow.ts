import { createCanvas, ImageData, type Canvas, type SKRSContext2D } from '@napi-rs/canvas'
import sharp from 'sharp'
import { RenderRefused, type RenderedImage, type Rgb, type SlideshowJob } from '../jobs.js'
import { MAX_INPUT_PIXELS, MAX_JOB_PIXELS } from '../limits.js'
import { GifWriter } from './gif.js'
import { assertJobSize } from './masks.js'
import { indexPhotoFrame } from './photo-palette.js'

/** In overlay mode the front card takes this share of the width. */
const OVERLAY_FRONT_SHARE = 0.6

export interface Card {
  /** Which image, relative to the frame's current one: 0 current, -1 previous, +1 next… */
  offset: number
  x: number
  y: number
  width: number
  height: number
  /** Covered by the overlay colour (overlay mode's back cards). */
  dimmed: boolean
}

export interface SlideshowLayout {
  width: number
  height: number
  /** Back to front. */
  cards: Card[]
}

/**
 * Where the cards sit in every frame.
 * - row: `count` equal cards side by side; each frame moves on by one image (count 1 is the
 *   classic slideshow).
 * - trio: the current image in the middle, `tweak` times the size of its neighbours; with
 *   `overflow` that share of each neighbour is outside the frame (the -cut layouts).
 * - overlay: a deck: the neighbours behind the current image, dimmed by the overlay colour.
 */
export function slideshowLayout(job: Pick<SlideshowJob, 'mode' | 'width' | 'spacing' | 'count' | 'tweak' | 'overflow' | 'height'>): SlideshowLayout {
  const W = job.width
  const gap = job.spacing
  if (job.mode === 'row') {
    const count = Math.max(1, job.count)
    const cardW = Math.max(1, Math.floor((W - (count + 1) * gap) / count))
    const cardH = Math.max(1, Math.round(cardW * job.height))
    const used = count * cardW + (count - 1) * gap
    const left = Math.floor((W - used) / 2)
    const cards = Array.from({ length: count }, (_, i) => ({
      offset: i,
      x: left + i * (cardW + gap),
      y: gap,
      width: cardW,
      height: cardH,
      dimmed: false,
    }))
    return { width: W, height: cardH + 2 * gap, cards }
  }
  const tweak = Math.max(1, job.tweak)
  const visibleSide = 1 - job.overflow
  if (job.mode === 'trio') {
    const frontW = Math.floor((W - 2 * gap) / (1 + (2 * visibleSide) / tweak))
    const sideW = Math.floor(frontW / tweak)
    const frontH = Math.round(frontW * job.height)
    const sideH = Math.round(sideW * job.height)
    const H = frontH + 2 * gap
    const frontX = Math.floor((W - frontW) / 2)
    const sideY = Math.floor((H - sideH) / 2)
    return {
      width: W,
      height: H,
      cards: [
        { offset: -1, x: frontX - gap - sideW, y: sideY, width: sideW, height: sideH, dimmed: false },
        { offset: 1, x: frontX + frontW + gap, y: sideY, width: sideW, height: sideH, dimmed: false },
        { offset: 0, x: frontX, y: gap, width: frontW, height: frontH, dimmed: false },
      ],
    }
  }
  const frontW = Math.floor(W * OVERLAY_FRONT_SHARE)
  const frontH = Math.round(frontW * job.height)
  const backW = Math.floor(frontW / tweak)
  const backH = Math.round(backW * job.height)
  const H = frontH + 2 * gap
  const backY = Math.floor((H - backH) / 2)
  return {
    width: W,
    height: H,
    cards: [
      { offset: -1, x: gap - Math.round(job.overflow * backW), y: backY, width: backW, height: backH, dimmed: true },
      { offset: 1, x: W - gap - backW + Math.round(job.overflow * backW), y: backY, width: backW, height: backH, dimmed: true },
      { offset: 0, x: Math.floor((W - frontW) / 2), y: gap, width: frontW, height: frontH, dimmed: false },
    ],
  }
}

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

function cardPath(ctx: SKRSContext2D, card: Card, radius: number): void {
  ctx.beginPath()
  ctx.roundRect(card.x, card.y, card.width, card.height, Math.min(radius, card.width / 2, card.height / 2))
}

/**
 * A slideshow or collage GIF from the uploaded photos: one frame per image, each shown for
 * `delayMs`. Photos are decoded once at the largest card size they need; frames are drawn with
 * the canvas (rounded corners, borders, overlay), reduced to a palette of their own and
 * encoded with gifenc.
 */
export async function renderSlideshow(job: SlideshowJob): Promise<RenderedImage> {
  const layout = slideshowLayout(job)
  const n = job.images.length
  if (n === 0) throw new RenderRefused({ status: 422, code: 'no_images', message: 'Please upload at least one image.', field: 'images' })
  const frames = n
  assertJobSize(layout.width, layout.height, frames, MAX_JOB_PIXELS, 'images')

  const biggest = layout.cards.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a))
  const sources = await Promise.all(job.images.map((bytes, i) => decodeCard(bytes, biggest.width, biggest.height, i)))

  const canvas = createCanvas(layout.width, layout.height)
  const ctx = canvas.getContext('2d')
  ctx.imageSmoothingEnabled = true
  ctx.imageSmoothingQuality = 'high'
  let gif: GifWriter | null = null
  for (let f = 0; f < frames; f++) {
    ctx.clearRect(0, 0, layout.width, layout.height)
    if (job.background) {
      ctx.fillStyle = rgb(job.background)
      ctx.fillRect(0, 0, layout.width, layout.height)
    }
    for (const card of layout.cards) {
      const source = sources[(((f + card.offset) % n) + n) % n]!
      ctx.save()
      cardPath(ctx, card, job.radius)
      ctx.clip()
      ctx.drawImage(source, card.x, card.y, card.width, card.height)
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
    const frame = indexPhotoFrame(ctx.getImageData(0, 0, layout.width, layout.height).data, layout.width, layout.height, !job.background)
    const patch = { left: 0, top: 0, width: layout.width, height: layout.height, index: frame.index, transparentIndex: frame.transparentIndex }
    if (!gif) {
      gif = new GifWriter(layout.width, layout.height, frame.palette)
      gif.addFrame(patch, job.delayMs)
    } else {
      gif.addFrame({ ...patch, palette: frame.palette }, job.delayMs)
    }
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
