/** What the router asks a render worker to draw, already validated and normalised. */

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

export interface SlideshowJob {
  kind: 'slideshow'
  mode: SlideshowMode
  /** The uploaded files' bytes, in order. */
  images: Uint8Array[]
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
}

export type RenderJob = CountdownJob | ScrollingTextJob | TextPreviewJob | SlideshowJob

export interface RenderedImage {
  ok: true
  body: Uint8Array
  contentType: 'image/gif' | 'image/png'
  width: number
  height: number
  frames: number
  /** Set when the image is a notice instead of the requested drawing (`missing_glyphs`). */
  notice?: 'missing_glyphs'
}

/** An expected refusal (too large, undecodable): the router turns it into a 4xx. */
export interface RenderRefusal {
  ok: false
  status: 413 | 422
  code: string
  message: string
  field?: string
}

export type RenderResult = RenderedImage | RenderRefusal

export class RenderRefused extends Error {
  constructor(readonly refusal: Omit<RenderRefusal, 'ok'>) {
    super(refusal.message)
  }
}
