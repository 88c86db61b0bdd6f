/** What the router asks a render worker to draw, already validated and normalised. */
import type { MessagePort } from 'node:worker_threads'

export type Rgb = [number, number, number]
/** Red, green, blue 0–255 and alpha 0–1. */
export type Rgba = [number, number, number, number]

export interface CountdownCaptions {
  days: string
  hours: string
  minutes: string
  seconds: string
}

export interface CountdownJob {
  kind: 'countdown'
  /** Seconds left at frame 0. */
  remainingSeconds: number
  /** How many one-second frames to draw. */
  frames: number
  font: string
  weight: number
  color: Rgb
  background: Rgb
  /** All empty when captions are off. */
  captions: CountdownCaptions
  scale: number
  /** Also return frame 0 as a PNG (for the live timer's Outlook twin). */
  format: 'gif' | 'png'
  /**
   * Drawn instead of the digits once the time left is zero: alone when `remainingSeconds` is 0,
   * or as the frame that would show zero when the countdown reaches it within the GIF (the GIF
   * then ends there).
   */
  endMessage?: string
}

export interface ScrollingTextJob {
  kind: 'scrolling-text'
  text: string
  divider: string
  iconStyle: 'filled' | 'outlined'
  font: string
  weight: number
  color: Rgb
  dividerColor: Rgb
  background: Rgb
  reverse: boolean
  fontSize: number
  /** Opacity per frame, repeated; empty when there is no flicker. */
  flicker: number[]
  width: number
  scale: number
  framesMax: number
}

export interface TextPreviewJob {
  kind: 'text-preview'
  lines: string[]
  font: string
  weight: number
  fontSize: number
  align: 'left' | 'center' | 'right'
  lineHeight: number
  color: Rgba
  padding: number
  scale: number
  stroke: { width: number; color: Rgba } | null
}

export type SlideshowMode = 'row' | 'trio' | 'overlay'

/** How a photo's pixels are stored, as its header says: what decoding them costs follows from it. */
export interface PhotoStorage {
  /** A progressive JPEG or interlaced PNG, which is decoded whole rather than a few rows at a time. */
  progressive: boolean
  /** Channels as decoded: 1 grey, 2 grey and alpha, 3 colour, 4 colour and alpha (or a JPEG's CMYK). */
  channels: number
  /**
   * Samples a pixel as stored, each component at its own resolution: a JPEG's colour in 4:2:0 is
   * 1.5 (its two chroma components at a quarter), in 4:4:4 3, CMYK 4; other types their channels.
   */
  samples: number
  /** Bits a sample: 16 for a 16-bit PNG, else 8. */
  bitDepth: 8 | 16
  alpha: boolean
  /** A PNG of palette indices. */
  palette: boolean
  /** Compressed without loss: a PNG, or a WebP of the 'VP8L' kind rather than 'VP8 '. */
  lossless: boolean
}

/** An uploaded photo as its header describes it, read before its pixels are: what drawing it will cost is known in advance. */
export interface PhotoHeader extends PhotoStorage {
  type: 'image/jpeg' | 'image/png' | 'image/webp'
  /** Bytes of the file. */
  size: number
  width: number
  height: number
  /** The S3 object's ETag when its header was read: the photo is read only as that very object. */
  etag?: string
}

export interface SlideshowJob {
  kind: 'slideshow'
  mode: SlideshowMode
  /** The uploaded photos, in order; the worker asks for each one's bytes when a frame first needs it. */
  photos: PhotoHeader[]
  /** Where the worker asks for the photos' bytes (server/giffer/photo-source.ts); set when the job goes to a thread. */
  photoSource?: MessagePort
  delayMs: number
  radius: number
  width: number
  /** null: transparent. */
  background: Rgb | null
  borderWidth: number
  borderColor: Rgb
  spacing: number
  count: number
  tweak: number
  overflow: number
  /** Card height as a multiple of its width. */
  height: number
  overlayColor: Rgb
  overlayOpacity: number
  /**
   * Whether the photo the next frame adds is decoded while a frame is drawn (faster, one photo
   * more in memory); unset is yes. The route turns it off for a job that fits the memory budget
   * only without it.
   */
  decodeAhead?: boolean
}

/**
 * An uploaded photo made render-sized once, as the local folder stores it or at its first use in
 * a bucket: turned upright by its EXIF orientation, its long side at most `longSide`, encoded
 * again in its own type without metadata.
 */
export interface ReducePhotoJob {
  kind: 'reduce-photo'
  photo: PhotoHeader
  longSide: number
  /** Where the worker asks for the photo's bytes; set when the job goes to a thread. */
  photoSource?: MessagePort
}

export type RenderJob = CountdownJob | ScrollingTextJob | TextPreviewJob | SlideshowJob | ReducePhotoJob

/**
 * The first task of every render thread, before any job: its answer says the thread has loaded
 * the worker's modules. A thread stopped while it loads them (an ES module required from a
 * worker) can abort the whole process, so no job, and so no job's time limit, reaches a thread
 * before this has come back.
 */
export const WARM_UP = { kind: 'warm-up' } as const
export type WarmUp = typeof WARM_UP

export interface RenderedImage {
  ok: true
  body: Uint8Array
  contentType: 'image/gif' | 'image/png' | 'image/jpeg' | 'image/webp'
  width: number
  height: number
  frames: number
  /** Set when the image is a notice instead of the requested drawing (`missing_glyphs`). */
  notice?: 'missing_glyphs'
}

/** An expected refusal (too large, undecodable): the router turns it into a 4xx. */
export interface RenderRefusal {
  ok: false
  /**
   * 413 too large, 422 unreadable, 409 a photo replaced since its header was read; 400 or 503 when
   * a photo could not be read from the store.
   */
  status: 400 | 409 | 413 | 422 | 503
  code: string
  message: string
  field?: string
}

export type RenderResult = RenderedImage | RenderRefusal

/**
 * The refusal of a photo that is not the one its header described: replaced after the header was
 * read and the render's memory estimated from it. Nothing of it is decoded.
 */
export function imageChanged(position: number): Omit<RenderRefusal, 'ok'> {
  return { status: 409, code: 'image_changed', message: `Image ${position + 1} changed after it was checked. Please upload it again.`, field: `images.${position}` }
}

export class RenderRefused extends Error {
  constructor(readonly refusal: Omit<RenderRefusal, 'ok'>) {
    super(refusal.message)
  }
}
