/**
 * Photos are prepared in the browser before they are sent: decoded with their EXIF orientation
 * applied, reduced so that their long side is `PHOTO_LONG_SIDE` (what the largest card draws),
 * and encoded again as JPEG (PNG when they are transparent). What is sent is a tenth or less
 * of a phone's photo and carries none of its metadata (position, camera, time): only pixels go.
 *
 * The work (`photo-render.ts`) runs in a worker (`photo.worker.ts`: `createImageBitmap` decodes
 * and scales, an `OffscreenCanvas` encodes), so the page stays responsive while ten photos are
 * prepared; where the browser has no worker for it, the same steps run on the page, with a
 * canvas. Photos are prepared one at a time, each held decoded only while it is encoded: ten
 * phone photos decoded at once would take half a gigabyte. A photo no longer wanted (its card
 * removed, or too slow) ends the worker: a decode cannot be stopped any other way, and the next
 * photo must not start beside it.
 */
import { PHOTO_SIZE_SEARCH_BYTES, preparedSize, readPhotoFacts, tooManyPixels, type PreparedSize } from './photo-facts.js'
import { CannotPrepareHere, renderPrepared, UnreadablePhoto, type Prepared, type PrepareReply, type PrepareRequest, type PrepareStep } from './photo-render.js'
import { heicMessage, MESSAGES, PHOTO_JPEG_QUALITY, sniffChosenType, UPLOAD_MAX_BYTES } from './slideshow.js'

export type { PrepareStep } from './photo-render.js'

/** The longest one photo may take to prepare (a 100-megapixel photo on a slow phone takes seconds). */
export const PREPARE_TIMEOUT_MS = 60_000

/** What is sent (reduced, upright, without metadata), a small copy for the card, and its size. */
export type PreparedPhoto = Prepared

/** A photo that cannot be used, with the message that says why (shown under the cards). */
export class PhotoProblem extends Error {
  override name = 'PhotoProblem'
}

/**
 * Set by the browser tests before the page's scripts, to learn how many photos were ever being
 * decoded at once (the worker's jobs not yet answered nor ended with it). Unset for visitors.
 */
interface DecodeProbe {
  most: number
}
const decodeProbe = () => (globalThis as { __photoDecodeProbe?: DecodeProbe }).__photoDecodeProbe

interface Job {
  resolve: (prepared: Prepared) => void
  reject: (error: unknown) => void
  onStep: (step: PrepareStep) => void
}

/** One line of photos being prepared, with the worker that prepares them. */
export class PhotoPreparer {
  private worker: Worker | null = null
  /** Whether photos are prepared on the page: no worker to be had, or the worker cannot prepare them. */
  private onPage: boolean
  /** Jobs handed to the running worker: left only when it answers, or when it is ended. */
  private readonly running = new Map<number, Job>()
  private nextJob = 0
  /** Each photo waits for the one before it to be over: prepared, failed, or its worker ended. */
  private line: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly makeWorker: (() => Worker) | null,
    private readonly timeoutMs = PREPARE_TIMEOUT_MS,
  ) {
    this.onPage = makeWorker === null
  }

  /**
   * Prepares a chosen file for sending, or throws a `PhotoProblem` whose message says why it
   * cannot be used. `onStep` hears when its turn comes (decoding) and when it is decoded (encoding).
   */
  prepare(file: File, signal: AbortSignal, onStep: (step: PrepareStep) => void = () => {}): Promise<PreparedPhoto> {
    const turn = this.line.then(() => this.prepareNow(file, signal, onStep))
    this.line = turn.catch(() => undefined)
    return turn
  }

  /**
   * Not a JPEG, PNG, WebP or HEIF ('Unsupported file type.' and its name), one the browser cannot
   * decode, more pixels than a phone should decode, or still too big once reduced: each has its
   * message. A browser that cannot prepare photos at all sends nothing. It could send a file that
   * is already small, upright and bare as it is, but proving a file bare takes all of it (a PNG's
   * text chunks may follow its pixels, some phones append data after a JPEG's end) and every
   * browser the site supports can prepare photos: refusing costs nothing, a wrong proof would send
   * a visitor's location.
   */
  private async prepareNow(file: File, signal: AbortSignal, onStep: (step: PrepareStep) => void): Promise<PreparedPhoto> {
    signal.throwIfAborted()
    const head = new Uint8Array(await file.slice(0, PHOTO_SIZE_SEARCH_BYTES).arrayBuffer())
    const facts = readPhotoFacts(head)
    if (!facts) throw new PhotoProblem(sniffChosenType(head) ? `${MESSAGES.unreadable} ${file.name}` : `${MESSAGES.unsupportedType} ${file.name}`)
    if (tooManyPixels(facts)) throw new PhotoProblem(`${MESSAGES.tooManyPixels} ${file.name}`)
    // An HEIF's turn is applied by its decoder only: its size is taken from the decoded picture.
    const size = facts.type === 'image/heif' ? null : preparedSize(facts)
    let prepared: Prepared
    try {
      onStep('decoding')
      prepared = await this.withTimeout((inner) => this.prepareOne(file, size, inner, onStep), signal)
    } catch (error) {
      if (error instanceof UnreadablePhoto) throw new PhotoProblem(facts.type === 'image/heif' ? heicMessage(file.name) : `${MESSAGES.unreadable} ${file.name}`)
      if (error instanceof CannotPrepareHere) throw new PhotoProblem(MESSAGES.cannotPrepare)
      throw error
    }
    if (prepared.photo.size > UPLOAD_MAX_BYTES) throw new PhotoProblem(MESSAGES.tooBig)
    return prepared
  }

  /**
   * Runs `work` with a signal that aborts with `outer` or after the time limit, whichever comes
   * first, and settles only once the work is over. Its timer is cleared however it ends: a timer
   * left behind would end the worker under a later photo.
   */
  private async withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, outer: AbortSignal): Promise<T> {
    outer.throwIfAborted()
    const inner = new AbortController()
    const onAbort = () => inner.abort(outer.reason)
    outer.addEventListener('abort', onAbort, { once: true })
    const timer = setTimeout(() => inner.abort(new DOMException('The photo took too long to prepare.', 'TimeoutError')), this.timeoutMs)
    try {
      return await work(inner.signal)
    } finally {
      clearTimeout(timer)
      outer.removeEventListener('abort', onAbort)
    }
  }

  private async prepareOne(file: Blob, size: PreparedSize | null, signal: AbortSignal, onStep: (step: PrepareStep) => void): Promise<Prepared> {
    if (!this.onPage) {
      try {
        return await this.inWorker(file, size, signal, onStep)
      } catch (error) {
        if (!(error instanceof CannotPrepareHere)) throw error
        // This browser's workers cannot decode or encode: the page does it from now on.
        this.onPage = true
      }
    }
    return renderPrepared(file, size, PHOTO_JPEG_QUALITY, onStep, signal)
  }

  private inWorker(file: Blob, size: PreparedSize | null, signal: AbortSignal, onStep: (step: PrepareStep) => void): Promise<Prepared> {
    signal.throwIfAborted()
    const id = ++this.nextJob
    const worker = this.startWorker()
    return new Promise<Prepared>((resolve, reject) => {
      this.running.set(id, { resolve, reject, onStep })
      const probe = decodeProbe()
      if (probe) probe.most = Math.max(probe.most, this.running.size)
      const request: PrepareRequest = { id, file, size, quality: PHOTO_JPEG_QUALITY }
      worker.postMessage(request)
      signal.addEventListener('abort', () => this.stopWorker(signal.reason), { once: true })
    })
  }

  private startWorker(): Worker {
    if (this.worker) return this.worker
    const started = this.makeWorker!()
    started.onmessage = (event: MessageEvent<PrepareReply>) => {
      const reply = event.data
      const job = this.running.get(reply.id)
      if (!job) return
      if ('step' in reply) return job.onStep(reply.step)
      this.running.delete(reply.id)
      if ('photo' in reply) return job.resolve({ photo: reply.photo, thumbnail: reply.thumbnail, width: reply.width, height: reply.height })
      job.reject(reply.error === 'unreadable' ? new UnreadablePhoto() : new CannotPrepareHere(reply.message))
    }
    started.onerror = (event) => {
      event.preventDefault()
      this.stopWorker(new CannotPrepareHere('the worker failed'))
    }
    this.worker = started
    return started
  }

  /** Ends the worker (it failed, or its photo is no longer wanted) and every job it had; the next photo starts a fresh one. */
  private stopWorker(reason: unknown): void {
    this.worker?.terminate()
    this.worker = null
    for (const job of this.running.values()) job.reject(reason)
    this.running.clear()
  }
}

/** Set by the build: the worker's script, under its hashed name. Unset when run from sources. */
declare const __PHOTO_WORKER_URL__: string | undefined
const workerUrl = typeof __PHOTO_WORKER_URL__ === 'string' ? __PHOTO_WORKER_URL__ : null

/** The page's one line of photos. */
const preparer = new PhotoPreparer(workerUrl !== null && typeof Worker !== 'undefined' ? () => new Worker(workerUrl, { name: 'photos' }) : null)

export function preparePhoto(file: File, signal: AbortSignal, onStep?: (step: PrepareStep) => void): Promise<PreparedPhoto> {
  return preparer.prepare(file, signal, onStep)
}
