/**
 * A photo prepared for sending, the same steps in the photo worker and on the page: decoded
 * upright at (or near) its size, drawn and encoded, then a small copy for its card. Nothing but
 * what the worker needs: the page's side (one photo at a time, the worker, its time limit) is
 * photo-prepare.ts.
 */
import type { PreparedSize } from './photo-facts.js'

/** Long side of the small copy a card shows while the photo is sent and after. */
export const THUMBNAIL_SIDE = 320

/** What the page asks of the worker, and its answers. */
export interface PrepareRequest {
  id: number
  file: Blob
  size: PreparedSize
  quality: number
}

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
async function decode(file: Blob, size: PreparedSize): Promise<ImageBitmap> {
  if (typeof createImageBitmap === 'undefined') throw new CannotPrepareHere('no createImageBitmap')
  const options: ImageBitmapOptions = { imageOrientation: 'from-image', resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'high' }
  try {
    return await createImageBitmap(file, options)
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

export type PrepareReply = { id: number; photo: Blob; thumbnail: Blob } | { id: number; error: 'unreadable' | 'unsupported'; message: string }

/** The steps themselves, the same in the worker and on the page: decode, draw at its size, encode; then the card's copy. */
export async function renderPrepared(file: Blob, size: PreparedSize, quality: number): Promise<{ photo: Blob; thumbnail: Blob }> {
  const bitmap = await decode(file, size)
  try {
    const full = surface(size.width, size.height)
    full.context.imageSmoothingQuality = 'high'
    full.context.drawImage(bitmap, 0, 0, size.width, size.height)
    const photo = await full.toBlob(size.type, quality)
    const scale = Math.min(1, THUMBNAIL_SIDE / Math.max(size.width, size.height))
    const small = surface(Math.max(1, Math.round(size.width * scale)), Math.max(1, Math.round(size.height * scale)))
    small.context.imageSmoothingQuality = 'high'
    small.context.drawImage(bitmap, 0, 0, small.context.canvas.width, small.context.canvas.height)
    const thumbnail = await small.toBlob(size.type, 0.8)
    return { photo, thumbnail }
  } finally {
    bitmap.close()
  }
}
