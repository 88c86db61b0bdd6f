/**
 * Photos are prepared in the browser before they are sent: decoded with their EXIF orientation
 * applied, reduced so that their long side is `PHOTO_LONG_SIDE` (what the largest card draws),
 * and encoded again as JPEG (PNG when they may be transparent). What is sent is a tenth or less
 * of a phone's photo and carries none of its metadata (position, camera, time): only pixels go.
 *
 * The work runs in a worker (`photo.worker.ts`: `createImageBitmap` decodes and scales, an
 * `OffscreenCanvas` encodes), so the page stays responsive while ten photos are prepared; where
 * the browser has no worker for it, the same steps run on the page, with a canvas. Photos are
 * prepared one at a time, each held decoded only while it is encoded: ten phone photos decoded
 * at once would take half a gigabyte.
 */
import { HEADER_BYTES, preparedSize, readPhotoFacts, tooManyPixels, type PreparedSize } from './photo-facts.js'
import { MESSAGES, PHOTO_JPEG_QUALITY, UPLOAD_MAX_BYTES } from './slideshow.js'

/** Long side of the small copy a card shows while the photo is sent and after. */
export const THUMBNAIL_SIDE = 320
/** The longest one photo may take to prepare (a 100-megapixel photo on a slow phone takes seconds). */
export const PREPARE_TIMEOUT_MS = 60_000

export interface PreparedPhoto {
  /** What is sent: reduced, upright, without metadata. */
  photo: Blob
  /** A small copy for the card. */
  thumbnail: Blob
  width: number
  height: number
}

/** A photo that cannot be used, with the message that says why (shown under the cards). */
export class PhotoProblem extends Error {
  override name = 'PhotoProblem'
}

/** What the page asks of the worker, and its answers. */
export interface PrepareRequest {
  id: number
  file: Blob
  size: PreparedSize
  quality: number
}
export type PrepareReply = { id: number; photo: Blob; thumbnail: Blob } | { id: number; error: 'unreadable' | 'unsupported'; message: string }

/** Thrown where the browser cannot prepare photos at all (no way to decode or encode them there). */
class CannotPrepareHere extends Error {}

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
    if (!(error instanceof TypeError)) throw new PhotoProblem('unreadable')
  }
  try {
    // Without options, as the oldest supported browsers take it: upright by default (the
    // standard's default orientation is the image's own), scaled by the canvas.
    return await createImageBitmap(file)
  } catch {
    throw new PhotoProblem('unreadable')
  }
}

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

// ---------------------------------------------------------------------------------------------
// The worker, started with the first photo

/** Set by the build: the worker's script, under its hashed name. Unset when run from sources. */
declare const __PHOTO_WORKER_URL__: string | undefined
const workerUrl = typeof __PHOTO_WORKER_URL__ === 'string' ? __PHOTO_WORKER_URL__ : null

interface PendingJob {
  resolve: (reply: PrepareReply) => void
  reject: (error: unknown) => void
}

let worker: Worker | null = null
/** Whether photos are prepared on the page: no worker script, or the worker cannot prepare them. */
let onPage = workerUrl === null || typeof Worker === 'undefined'
const pending = new Map<number, PendingJob>()
let nextJob = 0

function startWorker(): Worker {
  if (worker) return worker
  const started = new Worker(workerUrl!, { name: 'photos' })
  started.onmessage = (event: MessageEvent<PrepareReply>) => {
    const job = pending.get(event.data.id)
    pending.delete(event.data.id)
    job?.resolve(event.data)
  }
  started.onerror = (event) => {
    event.preventDefault()
    stopWorker(new CannotPrepareHere('the worker failed'))
  }
  worker = started
  return started
}

/** Ends the worker (it failed, or a photo took too long) and every job it had. */
function stopWorker(reason: Error): void {
  worker?.terminate()
  worker = null
  for (const job of pending.values()) job.reject(reason)
  pending.clear()
}

function inWorker(file: Blob, size: PreparedSize, signal: AbortSignal): Promise<{ photo: Blob; thumbnail: Blob }> {
  const id = ++nextJob
  return new Promise((resolve, reject) => {
    pending.set(id, {
      resolve: (reply) => {
        if ('photo' in reply) return resolve(reply)
        reject(reply.error === 'unreadable' ? new PhotoProblem('unreadable') : new CannotPrepareHere(reply.message))
      },
      reject,
    })
    const request: PrepareRequest = { id, file, size, quality: PHOTO_JPEG_QUALITY }
    startWorker().postMessage(request)
    signal.addEventListener('abort', () => pending.get(id)?.reject(signal.reason), { once: true })
  })
}

async function prepareOne(file: Blob, size: PreparedSize, signal: AbortSignal): Promise<{ photo: Blob; thumbnail: Blob }> {
  if (!onPage) {
    try {
      return await inWorker(file, size, signal)
    } catch (error) {
      if (!(error instanceof CannotPrepareHere)) throw error
      // This browser's workers cannot decode or encode: the page does it from now on.
      onPage = true
    }
  }
  return renderPrepared(file, size, PHOTO_JPEG_QUALITY)
}

/** Photos are prepared one after another: each waits for the one before. */
let line: Promise<unknown> = Promise.resolve()

/** Runs `work` with a signal that aborts with `outer` or after PREPARE_TIMEOUT_MS, whichever comes first. */
function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, outer: AbortSignal): Promise<T> {
  const inner = new AbortController()
  return new Promise<T>((resolve, reject) => {
    const stop = (reason: unknown) => {
      inner.abort(reason)
      reject(reason)
    }
    const onAbort = () => stop(outer.reason)
    const timer = setTimeout(() => {
      // A photo that takes too long holds the worker: it is ended, and the next photo starts a fresh one.
      stopWorker(new PhotoProblem(MESSAGES.uploadFailed))
      stop(new DOMException('The photo took too long to prepare.', 'TimeoutError'))
    }, PREPARE_TIMEOUT_MS)
    if (outer.aborted) return onAbort()
    outer.addEventListener('abort', onAbort, { once: true })
    work(inner.signal)
      .then(resolve, reject)
      .finally(() => {
        clearTimeout(timer)
        outer.removeEventListener('abort', onAbort)
      })
  })
}

/**
 * Prepares a chosen file for sending, or throws a `PhotoProblem` whose message says why it cannot
 * be used: not a JPEG, PNG or WebP the browser can decode ('Unsupported file type.' and its name),
 * more pixels than a phone should decode, or still too big once reduced. A browser that can
 * prepare no photo at all sends the file as it is, within the image service's own limit.
 */
export function preparePhoto(file: File, signal: AbortSignal): Promise<PreparedPhoto> {
  const turn = line.then(async () => {
    signal.throwIfAborted()
    const facts = readPhotoFacts(new Uint8Array(await file.slice(0, HEADER_BYTES).arrayBuffer()))
    if (!facts) throw new PhotoProblem(`${MESSAGES.unsupportedType} ${file.name}`)
    if (tooManyPixels(facts)) throw new PhotoProblem(`${MESSAGES.tooManyPixels} ${file.name}`)
    const size = preparedSize(facts)
    let prepared: { photo: Blob; thumbnail: Blob }
    try {
      prepared = await withTimeout((inner) => prepareOne(file, size, inner), signal)
    } catch (error) {
      if (error instanceof PhotoProblem && error.message === 'unreadable') throw new PhotoProblem(`${MESSAGES.unsupportedType} ${file.name}`)
      if (!(error instanceof CannotPrepareHere)) throw error
      if (file.size > UPLOAD_MAX_BYTES) throw new PhotoProblem(MESSAGES.tooBig)
      prepared = { photo: file, thumbnail: file }
    }
    if (prepared.photo.size > UPLOAD_MAX_BYTES) throw new PhotoProblem(MESSAGES.tooBig)
    return { ...prepared, width: size.width, height: size.height }
  })
  line = turn.catch(() => undefined)
  return turn
}
