/**
 * The bucket as the S3 store reads and writes it: one GET or PUT a call, each with an end, the
 * store's faults logged and answered 503, and an object's header looked for without holding the
 * whole object. Nothing here knows the upload rules (`rules.ts`); `s3-store.ts` applies them.
 */
import { Readable } from 'node:stream'
import { GetObjectCommand, PutObjectCommand, S3Client, type GetObjectCommandOutput } from '@aws-sdk/client-s3'
import type { Logger } from 'pino'
import { sniffImageType, type UploadType } from '../../../shared/generators/slideshow/slideshow.js'
import type { MemoryBudget } from '../../process/memory-budget.js'
import { dimensionsOf, type PhotoDimensions } from '../photo-header.js'
import { StoreUnavailable, UploadChanged } from './store.js'

export interface S3StoreOptions {
  bucket: string
  region: string
  /** The store as this process reaches it; unset: AWS. */
  endpoint?: string
  /** The store as browsers reach it (where they post uploads); unset: `endpoint`. */
  publicEndpoint?: string
  forcePathStyle: boolean
  /** How long one request may wait for the store's answer, or for more of it; unset: `S3_REQUEST_TIMEOUT_MS`. */
  requestTimeoutMs?: number
}

/**
 * The first ranged read of an object for its header: JPEG, PNG and WebP say their dimensions in
 * the first 64 KiB of nearly every photo. Smaller than the browser's one read of 1 MiB
 * (`HEADER_BYTES` in shared/generators/slideshow/photo-facts.ts), which has the file on its own
 * disk: here every byte is fetched from the bucket and held on the event loop, by as many
 * requests as come at once.
 */
export const FIRST_RANGE_BYTES = 64 * 1024
/**
 * How far into an object its header is looked for when the first range did not hold it (large
 * embedded metadata before a JPEG's frame header): the first MiB, as the browser reads, its memory
 * taken from the render budget while it is looked through. A WebP is read whole (an upload is at
 * most UPLOAD_MAX_BYTES): sharp reads a WebP's header only from the whole file.
 */
const HEADER_SEARCH_BYTES = 1024 * 1024

/**
 * Every wait on the store has an end: a connection it does not accept within 3 s, an answer that
 * does not begin within 5 s or stops coming for as long fails that attempt (the SDK makes up to
 * three), and the request is answered 503 `store_unavailable`.
 */
const S3_CONNECTION_TIMEOUT_MS = 3_000
const S3_REQUEST_TIMEOUT_MS = 5_000

/** A bucket name that can be a host name label: anything else (dots included) is addressed by path. */
const DNS_BUCKET = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/

/**
 * The origin browsers post uploads to, as the AWS SDK addresses the bucket: the bucket as a host
 * name (virtual-hosted style) unless path style is asked for, the endpoint is an IP address or the
 * name cannot be a host name. The pages' Content Security Policy allows exactly this origin.
 */
export function s3UploadOrigin({ bucket, region, endpoint, publicEndpoint, forcePathStyle }: S3StoreOptions): string {
  const base = new URL(publicEndpoint ?? endpoint ?? `https://s3.${region}.amazonaws.com`)
  const byPath = forcePathStyle || !DNS_BUCKET.test(bucket) || /^[\d.]+$|^\[/.test(base.hostname)
  return byPath ? base.origin : `${base.protocol}//${bucket}.${base.host}`
}

/**
 * The whole object's size from a GET's answer (of a range: its `Content-Range`; else its
 * `Content-Length`), or null when the store gave neither.
 */
function objectSize(object: GetObjectCommandOutput): number | null {
  const size = Number(/\/(\d+)$/.exec(object.ContentRange ?? '')?.[1] ?? object.ContentLength)
  return Number.isFinite(size) && size >= 0 ? size : null
}

/** What an object's first bytes say of it, with what the store says of the object. */
export interface ObjectHeader {
  /** Its type by its first bytes; null for anything but a JPEG, PNG or WebP. */
  type: UploadType | null
  /** What its header says; null when it is not of the type looked for, is over the size looked for, or its header was not found. */
  dimensions: PhotoDimensions | null
  size: number
  etag?: string
  /** Its user metadata (`x-amz-meta-*`), by lower-case name. */
  metadata: Record<string, string>
}

interface GetOptions {
  range?: string
  /** Only the object of this ETag: `UploadChanged` when another has replaced it. */
  etag?: string
  signal?: AbortSignal
  /**
   * The whole read, its answer and every byte of its body, ends within this many ms: set for the
   * reads the service makes for itself (headers, a photo to draw or reduce), whose bytes a store
   * could otherwise trickle in forever under the idle timeouts. Not for serving a file to a
   * client, whose own pace sets how long that takes.
   */
  deadlineMs?: number
}

/** How long a read the service makes for itself may take in all: a 5 MB photo at 200 KB/s. */
export const S3_READ_DEADLINE_MS = 25_000

export class Bucket {
  private readonly client: S3Client
  /** Signs for the endpoint browsers reach, which may differ from this process's. */
  readonly signer: S3Client

  /** `budget`: the render memory budget, which a header looked for past the first range takes its bytes from. */
  constructor(private readonly options: S3StoreOptions & { logger: Logger; budget: MemoryBudget }) {
    const { region, endpoint, publicEndpoint, forcePathStyle, requestTimeoutMs = S3_REQUEST_TIMEOUT_MS } = options
    // `throwOnRequestTimeout`: without it an answer that never begins is only warned about.
    const requestHandler = { connectionTimeout: S3_CONNECTION_TIMEOUT_MS, requestTimeout: requestTimeoutMs, throwOnRequestTimeout: true, socketTimeout: requestTimeoutMs }
    this.client = new S3Client({ region, endpoint, forcePathStyle, requestHandler })
    this.signer = publicEndpoint && publicEndpoint !== endpoint ? new S3Client({ region, endpoint: publicEndpoint, forcePathStyle }) : this.client
  }

  get name(): string {
    return this.options.bucket
  }

  close(): void {
    this.client.destroy()
    if (this.signer !== this.client) this.signer.destroy()
  }

  /**
   * One GET, of the whole object or of a range, and with `etag` only of the object that had it;
   * null when there is nothing under the key. A request whose client went away (`signal`) ends
   * with the signal's reason, and is no fault of the store's.
   */
  async get(key: string, operation: string, options: GetOptions = {}): Promise<GetObjectCommandOutput | null> {
    const signal = withDeadline(options.signal, options.deadlineMs)
    try {
      const command = new GetObjectCommand({ Bucket: this.options.bucket, Key: key, Range: options.range, IfMatch: options.etag })
      return await this.client.send(command, { abortSignal: signal })
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode
      // 416: an empty object has no first bytes.
      if (status === 404 || status === 416) return null
      if (status === 412) throw new UploadChanged()
      throw this.unavailable(error, operation, key)
    }
  }

  /** One PUT of a whole object with its user metadata; its ETag. */
  async put(key: string, bytes: Uint8Array, contentType: string, metadata: Record<string, string>, operation: string): Promise<string | undefined> {
    try {
      const command = new PutObjectCommand({ Bucket: this.options.bucket, Key: key, Body: bytes, ContentType: contentType, Metadata: metadata })
      return (await this.client.send(command)).ETag
    } catch (error) {
      throw this.unavailable(error, operation, key)
    }
  }

  /**
   * The whole object of this ETag and size, for drawing or reducing: `UploadChanged` when another
   * has replaced it since its header was read (a store that ignores `If-Match` still gives its
   * size), null when it is gone.
   */
  async whole(key: string, operation: string, expected: { etag?: string; size: number }): Promise<Uint8Array | null> {
    const object = await this.get(key, operation, { etag: expected.etag, deadlineMs: S3_READ_DEADLINE_MS })
    if (!object?.Body) return null
    if (this.sizeOf(object, operation, key) !== expected.size) {
      ;(object.Body as Readable).destroy()
      throw new UploadChanged()
    }
    return this.bytesOf(object, operation, key)
  }

  /** The object's size from its answer; a store that gives none is at fault (an S3-compatible one may). */
  sizeOf(object: GetObjectCommandOutput, operation: string, key: string): number {
    const size = objectSize(object)
    if (size === null) {
      ;(object.Body as Readable | undefined)?.destroy()
      throw this.unavailable(new Error('the answer gave no size (neither Content-Range nor Content-Length)'), operation, key)
    }
    return size
  }

  /** The answer's body, whole. One that breaks off (the store's time ran out) is the store's fault too. */
  async bytesOf(object: GetObjectCommandOutput, operation: string, key: string, signal?: AbortSignal): Promise<Uint8Array> {
    try {
      return await object.Body!.transformToByteArray()
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      throw this.unavailable(error, operation, key)
    }
  }

  unavailable(error: unknown, operation: string, key: string): StoreUnavailable {
    this.options.logger.error({ err: error, operation, bucket: this.options.bucket, key }, 'upload store unavailable')
    return new StoreUnavailable()
  }

  /**
   * What an object's first bytes say, for a photo of `type` and at most `maxBytes`: one ranged GET of FIRST_RANGE_BYTES
   * and, for a header that lies further in, one more of the rest of HEADER_SEARCH_BYTES (a WebP's
   * whole), whose memory is taken from the render budget while it is looked through: the main
   * thread never holds a photo for its header beyond that, nor MBs for any number of requests at
   * once. The second read asks for the same object (its ETag): bytes of one replaced since would
   * not make one header. Null when there is nothing under the key.
   */
  async header(key: string, type: UploadType, maxBytes: number, operation: string, signal?: AbortSignal): Promise<ObjectHeader | null> {
    const first = await this.range(key, operation, 0, FIRST_RANGE_BYTES, { signal })
    if (!first) return null
    const { head, ...object } = first
    const found = sniffImageType(head)
    const readable = found === type && object.size <= maxBytes
    const dimensions = readable ? await dimensionsOf(head) : null
    if (dimensions || !readable || object.size <= head.length) return { ...object, type: found, dimensions }
    const searched = type === 'image/webp' ? maxBytes : HEADER_SEARCH_BYTES
    const release = await this.options.budget.reserve(Math.min(object.size, searched), signal)
    try {
      const rest = await this.range(key, operation, head.length, searched, { signal, etag: object.etag })
      return { ...object, type: found, dimensions: rest && (await dimensionsOf(Buffer.concat([head, rest.head]))) }
    } finally {
      release()
    }
  }

  /** Bytes `from` up to `to` of an object (fewer at its end), with its whole size, ETag and user metadata. */
  private async range(key: string, operation: string, from: number, to: number, options: GetOptions): Promise<(Omit<ObjectHeader, 'type' | 'dimensions'> & { head: Uint8Array }) | null> {
    const object = await this.get(key, operation, { range: `bytes=${from}-${to - 1}`, deadlineMs: S3_READ_DEADLINE_MS, ...options })
    if (!object?.Body) return null
    const size = this.sizeOf(object, operation, key)
    return { head: await this.bytesOf(object, operation, key, options.signal), size, etag: object.ETag, metadata: object.Metadata ?? {} }
  }
}

/**
 * The first `bytes` of a stream, and a stream of the whole content again (those bytes included).
 * Destroying the returned stream destroys the source, so a read ends when its reader goes away.
 */
export async function withHead(source: Readable, bytes: number): Promise<{ head: Buffer; body: Readable }> {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  const first: Buffer[] = []
  let length = 0
  while (length < bytes) {
    const next = await chunks.next()
    if (next.done) break
    first.push(next.value)
    length += next.value.length
  }
  const body = Readable.from(
    (async function* () {
      try {
        yield* first
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value
      } finally {
        await chunks.return?.()
      }
    })(),
    { objectMode: false },
  )
  return { head: Buffer.concat(first).subarray(0, bytes), body }
}

/**
 * `outer`, and an end after `ms` when given: a signal of its own with a timer of its own (a
 * composite of AbortSignal.timeout may be collected before it fires on Node 20). The timer is not
 * cleared when the answer begins: it bounds the body's bytes too, and firing once all are read
 * aborts nothing.
 */
function withDeadline(outer: AbortSignal | undefined, ms: number | undefined): AbortSignal | undefined {
  if (ms === undefined) return outer
  const ends = new AbortController()
  const timer = setTimeout(() => ends.abort(new Error(`the store's answer did not end within ${ms} ms`)), ms)
  timer.unref()
  if (outer?.aborted) ends.abort(outer.reason)
  else outer?.addEventListener('abort', () => ends.abort(outer.reason), { once: true })
  return ends.signal
}
