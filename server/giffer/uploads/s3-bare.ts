/**
 * Whether an object in the bucket is provably bare (`bare.ts`): its bytes streamed through the
 * walk once, a window at a time, never held whole; the answer kept per object (key and ETag) in
 * this process, so a photo is walked once per process however often it is served or drawn. Two
 * processes walking one object each is harmless.
 */
import type { Readable } from 'node:stream'
import { forwardReader, isBareImage } from './bare.js'
import { S3_READ_DEADLINE_MS, type Bucket } from './s3-bucket.js'
import type { UploadType } from '../../../shared/generators/slideshow/slideshow.js'

/** Answers kept, at most (the oldest go first): a key, an ETag and a boolean each. */
const KEPT_MAX = 10_000

export class BareObjects {
  private readonly known = new Map<string, boolean>()
  private readonly walking = new Map<string, Promise<boolean>>()

  constructor(private readonly bucket: Bucket) {}

  /** Whether the object under `key` of this `etag` and `size` is bare; the object as it is now when there is no ETag. */
  async of(key: string, type: UploadType, size: number, etag: string | undefined, operation: string, signal?: AbortSignal): Promise<boolean> {
    const id = `${key}\n${etag ?? ''}`
    const known = this.known.get(id)
    if (known !== undefined) return known
    let walking = this.walking.get(id)
    if (!walking) {
      // The answer is kept when the walk ends, whoever still waits for it: a request that leaves
      // early does not make the next one walk the object again.
      walking = this.walk(key, type, size, etag, operation)
        .then((bare) => {
          if (etag) this.keep(id, bare)
          return bare
        })
        .finally(() => this.walking.delete(id))
      walking.catch(() => undefined)
      this.walking.set(id, walking)
    }
    return signal ? Promise.race([walking, aborted(signal)]) : walking
  }

  private async walk(key: string, type: UploadType, size: number, etag: string | undefined, operation: string): Promise<boolean> {
    const object = await this.bucket.get(key, operation, { etag, deadlineMs: S3_READ_DEADLINE_MS })
    if (!object?.Body) return false
    const body = object.Body as Readable
    try {
      return await isBareImage(type, forwardReader(body), size)
    } catch (error) {
      throw this.bucket.unavailable(error, operation, key)
    } finally {
      body.destroy()
    }
  }

  private keep(id: string, bare: boolean): void {
    this.known.delete(id)
    this.known.set(id, bare)
    if (this.known.size > KEPT_MAX) this.known.delete(this.known.keys().next().value!)
  }
}

/** A promise that rejects with `signal`'s reason once it aborts. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason)
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true })
  })
}
