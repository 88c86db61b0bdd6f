/**
 * Photos are prepared in the browser before they are sent: decoded with their EXIF orientation
 * applied, reduced so that their long side is `PHOTO_LONG_SIDE` (what the largest card draws),
 * and encoded again as JPEG (PNG when they may be transparent). What is sent is a tenth or less
 * of a phone's photo and carries none of its metadata (position, camera, time): only pixels go.
 *
 * The work (`photo-render.ts`) runs in a worker (`photo.worker.ts`: `createImageBitmap` decodes
 * and scales, an `OffscreenCanvas` encodes), so the page stays responsive while ten photos are prepared; where
 * the browser has no worker for it, the same steps run on the page, with a canvas. Photos are
 * prepared one at a time, each held decoded only while it is encoded: ten phone photos decoded
 * at once would take half a gigabyte.
 */
import { HEADER_BYTES, preparedSize, readPhotoFacts, tooManyPixels, type PreparedSize } from './photo-facts.js'
import { CannotPrepareHere, renderPrepared, UnreadablePhoto, type PrepareReply, type PrepareRequest } from './photo-render.js'
import { MESSAGES, PHOTO_JPEG_QUALITY, UPLOAD_MAX_BYTES } from './slideshow.js'

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
function stopWorker(reason: unknown): void {
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
        reject(reply.error === 'unreadable' ? new UnreadablePhoto() : new CannotPrepareHere(reply.message))
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
      const reason = new DOMException('The photo took too long to prepare.', 'TimeoutError')
      stopWorker(reason)
      stop(reason)
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
      if (error instanceof UnreadablePhoto) throw new PhotoProblem(`${MESSAGES.unsupportedType} ${file.name}`)
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
