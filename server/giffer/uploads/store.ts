/**
 * Uploads for the slideshow, with S3's presigned-POST protocol: `sign` returns
 * `{url, key, fields}`, the browser posts the fields and the file to `url`, then `resolve`
 * turns the key into a URL this service serves. Two stores speak it: real S3 (when S3_BUCKET is
 * set, `s3-store.ts`) and a local folder (`local-store.ts`), whose upload target checks what S3
 * would (signature, expiry, size) and also what S3 does not. Whichever keeps them, an upload
 * meets the same rules (`rules.ts`). This module holds what both share: the interface, the keys
 * and the errors.
 */
import { randomBytes } from 'node:crypto'
import type { Readable } from 'node:stream'
import { FILENAME_PLACEHOLDER, SLIDESHOW_MAX_IMAGES, STORED_EXTENSIONS, type UploadType } from '../../../shared/generators/slideshow/slideshow.js'
import { HttpError } from '../../process/errors.js'
import type { PhotoHeader } from '../jobs.js'

/**
 * `uploads/{date}/{random}/photo-{n}.{ext}`. One signature serves every upload of its 20 minutes
 * (the generator caches it): it covers the folder, `uploads/{date}/{random}/`, and the uploader
 * names each file in it, writing the whole key into the form's `key` field. A `${filename}` left
 * in that field is replaced by the posted file's name, as S3 does; not every S3-compatible store
 * does, so the site's own uploader never relies on it. The names are the page's own
 * (`storedFileName`): a number from 1 to 10, as many as a slideshow has photos, and the extension
 * of the file's type. Nothing is ever resolved, read or served under another name, nor a file
 * whose first bytes are not the type its extension names. So the local folder keeps at most 10
 * files a signature (one a number), and a bucket's folder holds at most one readable object a
 * number and type, whatever else a visitor posts under it (that is never read, and the bucket's
 * lifecycle rule removes it).
 */
const FILE_NAME = `photo-(${Array.from({ length: SLIDESHOW_MAX_IMAGES }, (_, i) => i + 1).join('|')})\\.(${Object.values(STORED_EXTENSIONS).join('|')})`
export const UPLOAD_KEY = new RegExp(`^uploads/\\d{4}-\\d{2}-\\d{2}/[a-f0-9]{32}/${FILE_NAME}$`)
export { FILENAME_PLACEHOLDER }
/** A key as signed: its folder, and the file name left for the uploader to fill in. */
export const SIGNED_KEY = /^uploads\/\d{4}-\d{2}-\d{2}\/[a-f0-9]{32}\/\$\{filename\}$/

/** The number a well-formed key (`UPLOAD_KEY`) takes in its folder, and the type its extension names. */
export function nameOf(key: string): { slot: number; type: UploadType } {
  const [, slot, extension] = UPLOAD_KEY.exec(key)!
  const type = (Object.keys(STORED_EXTENSIONS) as UploadType[]).find((candidate) => STORED_EXTENSIONS[candidate] === extension)!
  return { slot: Number(slot), type }
}

/** A fresh signed key: a new folder, and the file name left for the upload to fill in. */
export function newUploadKey(now = new Date()): string {
  return `uploads/${now.toISOString().slice(0, 10)}/${randomBytes(16).toString('hex')}/${FILENAME_PLACEHOLDER}`
}

/**
 * How long uploads are kept: they matter only while a visitor makes a slideshow (the page never
 * puts them in a link). The local folder drops them after this; an S3 bucket's lifecycle rule
 * (docs/giffer.md) does the same, for the uploads and the copies made of them.
 */
export const UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000

export interface SignedUpload {
  url: string
  key: string
  fields: Record<string, string>
}

export interface StoredUpload {
  type: UploadType
  size: number
}

/**
 * A photo as a slideshow draws it: what its header says (on S3 with the ETag of the object it was
 * read from), and its bytes, read only when the render thread asks for them, as that very object.
 */
export interface PhotoToDraw {
  header: PhotoHeader
  /** The whole photo; `UploadChanged` when another object has replaced it since its header was read, null when it is gone. */
  read(): Promise<Uint8Array | null>
}

/**
 * Where uploads are kept. Each read is one request to the store; nothing stored that is not a
 * JPEG, PNG or WebP by its first bytes, of the type its key's extension names, is ever described,
 * read or served (null, as if absent). What is served or drawn is always render-sized, upright and
 * without metadata (`rules.ts`): the local folder reduces a photo as it stores it, the bucket
 * (which browsers post to directly) at its first use.
 */
export interface UploadStore {
  sign(): Promise<SignedUpload>
  /** The type and size of the upload under `key`; `signal` ends the wait when the client goes away. */
  describe(key: string, signal?: AbortSignal): Promise<StoredUpload | null>
  /**
   * The photo to draw, its header read from the file's first bytes: what drawing it will cost,
   * before it is read whole. `signal` ends the wait when the client goes away.
   */
  header(key: string, signal?: AbortSignal): Promise<PhotoToDraw | null>
  /** The upload as a stream, for serving; `signal` ends the read when the client goes away. */
  open(key: string, signal: AbortSignal): Promise<{ body: Readable; upload: StoredUpload } | null>
  /** Stops background work (the local folder's clean-up, the bucket's connections). */
  close(): void
}

/** The upload under a key is no longer the object whose header was read: it has been replaced since. */
export class UploadChanged extends HttpError {
  constructor() {
    super(409, 'image_changed', 'The image changed after it was checked. Please upload it again.')
  }
}

/** The upload store's fault, not the visitor's: logged with its cause, answered 503. */
export class StoreUnavailable extends HttpError {
  constructor() {
    super(503, 'store_unavailable', 'The upload store is unavailable. Please try again later.')
  }
}

/**
 * The upload key behind a URL, if and only if the URL is one of this service's own upload
 * URLs: the same origin (or a relative URL), the uploads path, a well-formed key, nothing else.
 * Nothing is ever fetched from the URL, so other hosts, loopback addresses, `file:` and
 * redirects cannot be reached through it.
 */
export function uploadKeyFromUrl(value: string, publicPath: string, ownOrigins: string[]): string | null {
  let url: URL
  const base = 'http://giffer.invalid'
  try {
    url = new URL(value, base)
  } catch {
    return null
  }
  const relative = url.origin === base && !/^[a-z][a-z0-9+.-]*:/i.test(value) && !value.startsWith('//')
  if (!relative && !ownOrigins.includes(url.origin)) return null
  if (url.username || url.password || url.search || url.hash) return null
  const prefix = `${publicPath}/`
  if (!url.pathname.startsWith(prefix)) return null
  const key = url.pathname.slice(prefix.length)
  return UPLOAD_KEY.test(key) ? key : null
}
