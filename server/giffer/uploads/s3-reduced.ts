/**
 * The render-sized copies of photos in the bucket. Browsers post to the bucket directly, so a
 * photo the rules reduce (`rules.ts`) is reduced at its first use instead of as it arrives: once,
 * in a render thread like the local folder's, and the copy kept in the bucket and used from then on.
 *
 * A copy lives at `reduced/{date}/{random}/photo-{n}.{ext}`: under a prefix no upload signature
 * covers (a signature allows any key starting with `uploads/{date}/{random}/`), so no visitor can
 * post a "reduced copy" of their own. It names the ETag of the original it was made from (user
 * metadata `original-etag`): an original posted again under its key is reduced anew, never
 * answered with the copy of the one before.
 */
import type { UploadType } from '../../../shared/generators/slideshow/slideshow.js'
import { ServiceBusyError } from '../../process/errors.js'
import type { PhotoHeader } from '../jobs.js'
import { dimensionsOf, photoHeader, type PhotoDimensions } from '../photo-header.js'
import type { Reducer } from './rules.js'
import type { Bucket } from './s3-bucket.js'
import { UploadChanged } from './store.js'

/** Where the copy of an upload is kept. */
export const reducedKeyOf = (key: string): string => `reduced/${key.slice('uploads/'.length)}`

const ORIGINAL_ETAG = 'original-etag'

/**
 * The largest a copy may be: a PNG of the largest card's size, 1600 × 1600 pixels of four bytes,
 * with room for what the encoder adds. JPEG and WebP copies are far smaller.
 */
const REDUCED_MAX_BYTES = 12 * 2 ** 20

/**
 * Reductions under way in this process at once. Each is a render job, which the pool's own line
 * bounds as well; past this many, a first use is answered 503 `busy` before any is read.
 */
const MAX_REDUCING = 32

/** Seconds a client is told to wait when too many reductions are under way. */
const RETRY_AFTER_SECONDS = 2

/** An original the rules reduce, as its header described it. */
export interface Original {
  key: string
  type: UploadType
  size: number
  etag?: string
  dimensions: PhotoDimensions
}

/** A copy in the bucket: where it is, and its header with its own ETag. */
export interface ReducedCopy {
  key: string
  header: PhotoHeader
}

interface Reduction {
  copy: Promise<ReducedCopy>
  waiting: number
  /** Aborts once every request waiting for it has gone: the job leaves the pool's line if it has not started. */
  everyoneGone: AbortController
}

/** An ETag as metadata keeps it, without its quotes (some stores drop them from metadata). */
const bare = (etag: string | undefined): string => (etag ?? '').replaceAll('"', '')

export class ReducedCopies {
  /**
   * One reduction per original at a time in this process: the requests for it wait for that one.
   * Processes that reduce one original at the same moment both write the same copy of the same
   * original, which is harmless: the last write stays, and either is right.
   */
  private readonly reducing = new Map<string, Reduction>()

  constructor(
    private readonly bucket: Bucket,
    private readonly reduce: Reducer,
  ) {}

  /** The copy of `original`: the one in the bucket when it was made from this very original, else one made now. */
  async of(original: Original, operation: string, signal?: AbortSignal): Promise<ReducedCopy> {
    return (await this.find(original, operation, signal)) ?? (await this.joinOrMake(original, signal))
  }

  /** The copy in the bucket, when there is one of this original (by its ETag) whose header reads. */
  private async find(original: Original, operation: string, signal?: AbortSignal): Promise<ReducedCopy | null> {
    const key = reducedKeyOf(original.key)
    const copy = await this.bucket.header(key, original.type, REDUCED_MAX_BYTES, operation, signal)
    if (!copy?.dimensions || copy.metadata[ORIGINAL_ETAG] !== bare(original.etag)) return null
    return { key, header: { ...photoHeader({ type: original.type, size: copy.size }, copy.dimensions), etag: copy.etag } }
  }

  /** The reduction of this original under way, or a new one; the wait ends for everyone only when all have gone. */
  private async joinOrMake(original: Original, signal?: AbortSignal): Promise<ReducedCopy> {
    const id = `${original.key} ${bare(original.etag)}`
    let reduction = this.reducing.get(id)
    // One every requester has left is being dropped: a new request starts its own.
    if (reduction?.everyoneGone.signal.aborted) reduction = undefined
    if (!reduction) {
      if (this.reducing.size >= MAX_REDUCING) throw new ServiceBusyError('busy', 'The image service is busy. Please try again in a moment.', RETRY_AFTER_SECONDS)
      const everyoneGone = new AbortController()
      const started: Reduction = { copy: this.make(original, everyoneGone.signal), waiting: 0, everyoneGone }
      this.reducing.set(id, started)
      void started.copy
        .catch(() => undefined)
        .finally(() => {
          if (this.reducing.get(id) === started) this.reducing.delete(id)
        })
      reduction = started
    }
    const joined = reduction
    joined.waiting++
    const leave = () => {
      if (--joined.waiting === 0) joined.everyoneGone.abort()
    }
    if (signal?.aborted) leave()
    else signal?.addEventListener('abort', leave, { once: true })
    try {
      return await joined.copy
    } finally {
      signal?.removeEventListener('abort', leave)
    }
  }

  /**
   * Reduces the original in a render thread, which reads it (as that very object) only once the
   * job has its thread and memory, then keeps the copy, naming the original's ETag.
   */
  private async make(original: Original, signal: AbortSignal): Promise<ReducedCopy> {
    const read = async () => {
      const bytes = await this.bucket.whole(original.key, 'reduce', original)
      if (!bytes) throw new UploadChanged()
      return bytes
    }
    const bytes = await this.reduce(read, photoHeader(original, original.dimensions), signal)
    const dimensions = await dimensionsOf(bytes)
    if (!dimensions) throw new Error('a reduced copy has no readable header')
    const key = reducedKeyOf(original.key)
    const etag = await this.bucket.put(key, bytes, original.type, { [ORIGINAL_ETAG]: bare(original.etag) }, 'reduce')
    return { key, header: { ...photoHeader({ type: original.type, size: bytes.byteLength }, dimensions), etag } }
  }
}
