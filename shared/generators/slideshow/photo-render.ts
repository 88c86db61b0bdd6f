/**
 * A photo prepared for sending, the same steps in the photo worker and on the page: decoded
 * upright at (or near) its size, drawn and encoded, then a small copy for its card. Nothing but
 * what the worker needs: the page's side (one photo at a time, the worker, its time limit) is
 * photo-prepare.ts.
 */
import { preparedSize, type PreparedSize } from './photo-facts.js'

/** Long side of the small copy a card shows while the photo is sent and after. */
export const THUMBNAIL_SIDE = 320

/**
 * How far a photo's preparing is. The browser reports nothing from within a decode or an encode,
 * so this is as fine as it gets: decoding, then (decoded) encoding.
 */
export type PrepareStep = 'decoding' | 'encoding'

/**
 * What the page asks of the worker, and its answers: the step reached, then the photo or what went
 * wrong. A photo whose size is not known before it is decoded (an HEIF, whose turn only its decoder
 * applies) comes without one.
 */
export interface PrepareRequest {
  id: number
  file: Blob
  size: PreparedSize | null
  quality: number
}

export interface Prepared {
  photo: Blob
  thumbnail: Blob
  width: number
  height: number
}

export type PrepareReply = { id: number; step: PrepareStep } | ({ id: number } & Prepared) | { id: number; error: 'unreadable' | 'unsupported'; message: string }

/** Thrown where the browser cannot prepare photos at all (no way to decode or encode them there). */
export class CannotPrepareHere extends Error {
  override name = 'CannotPrepareHere'
}

/** A file the browser cannot decode (HEIC in Chromium, a broken file). */
export class UnreadablePhoto extends Error {
  override name = 'UnreadablePhoto'
}

interface Surface {
  context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D
  toBlob(type: string, quality: number): Promise<Blob>
}

/** A canvas to draw on: an `OffscreenCanvas` wherever there is one (every worker that can prepare photos), else the page's. */
function surface(width: number, height: number): Surface {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height)
    const context = canvas.getContext('2d')
    if (!context) throw new CannotPrepareHere('no 2D context')
    return { context, toBlob: (type, quality) => canvas.convertToBlob({ type, quality }) }
  }
  if (typeof document === 'undefined') throw new CannotPrepareHere('no canvas')
  const canvas = document.createElement('canvas')
  canvas.width = width
  canvas.height = height
  const context = canvas.getContext('2d')
  if (!context) throw new CannotPrepareHere('no 2D context')
  return {
    context,
    toBlob: (type, quality) => new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new CannotPrepareHere('canvas not encoded'))), type, quality)),
  }
}

/**
 * The photo decoded upright at (or near) the size it is drawn at. `createImageBitmap` decodes
 * away from the page's thread and scales as it goes; a browser that does not take its options
 * decodes at full size, and the canvas scales. A file it cannot decode is unreadable.
 */
async function decode(file: Blob, size: PreparedSize | null): Promise<ImageBitmap> {
  if (typeof createImageBitmap === 'undefined') throw new CannotPrepareHere('no createImageBitmap')
  const resize: ImageBitmapOptions = size ? { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'high' } : {}
  try {
    return await createImageBitmap(file, { imageOrientation: 'from-image', ...resize })
  } catch (error) {
    // A TypeError is an option this browser does not know; anything else is the file.
    if (!(error instanceof TypeError)) throw new UnreadablePhoto()
  }
  try {
    // Without options, as the oldest supported browsers take it: upright by default (the
    // standard's default orientation is the image's own), scaled by the canvas.
    return await createImageBitmap(file)
  } catch {
    throw new UnreadablePhoto()
  }
}

/**
 * Whether every pixel drawn is opaque. Read from the reduced drawing (at most 1600 pixels a side,
 * ten megabytes to look through, a few milliseconds) rather than the original: a PNG's alpha
 * channel is often there for nothing, and such a photo is sent as a JPEG, smaller, and lighter for
 * the image service to draw.
 */
function isOpaque(surface: Surface, width: number, height: number): boolean {
  const { data } = surface.context.getImageData(0, 0, width, height)
  for (let at = 3; at < data.length; at += 4) if (data[at] !== 255) return false
  return true
}

/**
 * The steps themselves, the same in the worker and on the page: decode, draw at its size, encode;
 * then the card's copy. `signal` ends the work between steps (a decode, once started, runs to its
 * end: only ending the worker stops it).
 */
export async function renderPrepared(file: Blob, wanted: PreparedSize | null, quality: number, onStep: (step: PrepareStep) => void = () => {}, signal?: AbortSignal): Promise<Prepared> {
  const bitmap = await decode(file, wanted)
  try {
    signal?.throwIfAborted()
    onStep('encoding')
    const size = wanted ?? preparedSize({ width: bitmap.width, height: bitmap.height, alpha: true })
    const full = surface(size.width, size.height)
    full.context.imageSmoothingQuality = 'high'
    full.context.drawImage(bitmap, 0, 0, size.width, size.height)
    const type = size.type === 'image/png' && isOpaque(full, size.width, size.height) ? 'image/jpeg' : size.type
    const photo = await full.toBlob(type, quality)
    signal?.throwIfAborted()
    const scale = Math.min(1, THUMBNAIL_SIDE / Math.max(size.width, size.height))
    const small = surface(Math.max(1, Math.round(size.width * scale)), Math.max(1, Math.round(size.height * scale)))
    small.context.imageSmoothingQuality = 'high'
    small.context.drawImage(bitmap, 0, 0, small.context.canvas.width, small.context.canvas.height)
    const thumbnail = await small.toBlob(type, 0.8)
    return { photo, thumbnail, width: size.width, height: size.height }
  } finally {
    bitmap.close()
  }
}
