/**
 * Uploads in an S3 bucket. Credentials come from the AWS SDK's default chain (environment with
 * session token, profile, web identity, container or instance role). The store must accept
 * presigned POST policies; browsers post to it directly, so the bucket takes whatever they post
 * within the policy, and the rules (`rules.ts`) are applied when an upload is first used instead:
 * resolved, served or drawn. A photo they reduce is served and drawn from its copy
 * (`s3-reduced.ts`).
 */
import type { Readable } from 'node:stream'
import { createPresignedPost } from '@aws-sdk/s3-presigned-post'
import type { Logger } from 'pino'
import { SIGNATURE_CACHE_MS, UPLOAD_MAX_BYTES, sniffImageType } from '../../../shared/generators/slideshow/slideshow.js'
import { HttpError } from '../../process/errors.js'
import type { MemoryBudget } from '../../process/memory-budget.js'
import type { PhotoHeader } from '../jobs.js'
import { dimensionsOf, photoHeader } from '../photo-header.js'
import { checkedDimensions, checkedType, needsReducing, tooBig, type Reducer } from './rules.js'
import { Bucket, FIRST_RANGE_BYTES, withHead, type ObjectHeader, type S3StoreOptions } from './s3-bucket.js'
import { BareObjects } from './s3-bare.js'
import { ReducedCopies } from './s3-reduced.js'
import { UploadChanged, nameOf, newUploadKey, type PhotoToDraw, type SignedUpload, type StoredUpload, type UploadStore } from './store.js'

/** What is served and drawn for an upload: the object itself when the rules keep it as it came, else its reduced copy. */
interface Served {
  /** The key of the object served and drawn. */
  key: string
  header: PhotoHeader
  /** The upload as posted. */
  upload: StoredUpload
}

/** A refusal of the rules that says the object is no upload of the generator's (not an image, not of its name's type): nothing to serve or draw. */
function noUpload(error: unknown): null {
  if (error instanceof HttpError && error.status === 415) return null
  throw error
}

export class S3UploadStore implements UploadStore {
  private readonly bucket: Bucket
  private readonly copies: ReducedCopies
  private readonly bare: BareObjects

  /**
   * `budget`: the render memory budget, which a header looked for past the first range takes its
   * bytes from; `reduce`: makes a photo render-sized in a render thread.
   */
  constructor(private readonly options: S3StoreOptions & { logger: Logger; budget: MemoryBudget; reduce: Reducer }) {
    this.bucket = new Bucket(options)
    this.copies = new ReducedCopies(this.bucket, options.reduce)
    this.bare = new BareObjects(this.bucket)
  }

  close(): void {
    this.bucket.close()
  }

  async sign(): Promise<SignedUpload> {
    const key = newUploadKey()
    try {
      const { url, fields } = await createPresignedPost(this.bucket.signer, {
        Bucket: this.options.bucket,
        // Ending in ${filename}: the SDK signs `starts-with $key` on the folder.
        Key: key,
        Conditions: [
          ['content-length-range', 1, UPLOAD_MAX_BYTES],
          ['starts-with', '$Content-Type', 'image/'],
          ['starts-with', '$Content-Disposition', ''],
        ],
        Expires: SIGNATURE_CACHE_MS / 1000,
      })
      return { url, key, fields }
    } catch (error) {
      throw this.bucket.unavailable(error, 'sign', key)
    }
  }

  /**
   * The rules applied to an upload at its first use, with the local upload target's answers: a
   * file that is not an image or not of the type its name says (415), too big (413), announcing
   * too many pixels (413, before any memory is reserved for it); and what is served and drawn for
   * it. `known`: the original's header when the caller has read it already.
   */
  private async served(key: string, operation: string, signal?: AbortSignal, known?: ObjectHeader): Promise<Served | null> {
    const { type } = nameOf(key)
    const original = known ?? (await this.bucket.header(key, type, UPLOAD_MAX_BYTES, operation, signal))
    if (!original) return null
    checkedType(original.type, key)
    if (original.size > UPLOAD_MAX_BYTES) throw tooBig()
    const dimensions = checkedDimensions(original.dimensions)
    const upload = { type, size: original.size }
    // Kept as it came only when nothing else calls for a copy and all its bytes prove it bare:
    // metadata may follow the pixels, where its first bytes do not show it.
    const asItIs = !needsReducing(dimensions, type, true) && (await this.bare.of(key, type, original.size, original.etag, operation, signal))
    if (asItIs) return { key, header: { ...photoHeader(upload, dimensions), etag: original.etag }, upload }
    const copy = await this.copies.of({ key, ...upload, etag: original.etag, dimensions }, operation, signal)
    return { ...copy, upload }
  }

  /** The upload as posted, once it passes the rules: a photo they reduce is reduced now, at its first use. */
  async describe(key: string, signal?: AbortSignal): Promise<StoredUpload | null> {
    return (await this.served(key, 'describe', signal))?.upload ?? null
  }

  /**
   * The photo to draw: its header from one ranged read (two for one that lies further in), with
   * the ETag of the object it came from, so that the photo is read later as that object only.
   */
  async header(key: string, signal?: AbortSignal): Promise<PhotoToDraw | null> {
    const served = await this.served(key, 'header', signal).catch(noUpload)
    return served && { header: served.header, read: () => this.bucket.whole(served.key, 'read', served.header) }
  }

  /**
   * The upload as a stream: one GET, whose first bytes say whether the object may be served as it
   * is; if not (a photo the rules reduce, or one whose header lies further in), it is served from
   * what `served` gives, read as that very object.
   */
  async open(key: string, signal: AbortSignal): Promise<{ body: Readable; upload: StoredUpload } | null> {
    const object = await this.bucket.get(key, 'open', { signal })
    if (!object?.Body) return null
    const size = this.bucket.sizeOf(object, 'open', key)
    const { head, body } = await withHead(object.Body as Readable, FIRST_RANGE_BYTES)
    const type = sniffImageType(head)
    if (type !== nameOf(key).type || size <= 0 || size > UPLOAD_MAX_BYTES) {
      body.destroy()
      return null
    }
    const dimensions = await dimensionsOf(head)
    // A candidate for serving as it came; `served` decides, with the whole file's walk.
    const asItIs = dimensions !== null && !needsReducing(dimensions, type, true)
    // Not held open while a header further in is looked for, or a copy is made.
    if (!asItIs) body.destroy()
    const known = dimensions ? { type, dimensions, size, etag: object.ETag, metadata: {} } : undefined
    const served = await this.served(key, 'open', signal, known).catch((error: unknown) => {
      body.destroy()
      return noUpload(error)
    })
    if (served && asItIs && served.key === key) return { body, upload: served.upload }
    body.destroy()
    return served && this.stream(served, signal)
  }

  /** What `served` gives, as a stream of that very object. */
  private async stream(served: Served, signal: AbortSignal): Promise<{ body: Readable; upload: StoredUpload } | null> {
    const object = await this.bucket.get(served.key, 'open', { signal, etag: served.header.etag })
    if (!object?.Body) return null
    const body = object.Body as Readable
    if (this.bucket.sizeOf(object, 'open', served.key) !== served.header.size) {
      body.destroy()
      throw new UploadChanged()
    }
    return { body, upload: { type: served.upload.type, size: served.header.size } }
  }
}
