/**
 * Uploads for the slideshow, with S3's presigned-POST protocol: `sign` returns
 * `{url, key, fields}`, the browser posts the fields and the file to `url`, then `resolve`
 * turns the key into a URL this service serves. Two stores speak it: real S3 (when S3_BUCKET is
 * set) and a local folder, whose upload target checks what S3 would (signature, expiry, size)
 * and also what S3 does not (the file's real type, from its first bytes).
 */
import { createHmac, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream, existsSync, statfsSync } from 'node:fs'
import { link, mkdir, open, readFile, readdir, rm, stat, statfs, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { GetObjectCommand, S3Client, type GetObjectCommandOutput } from '@aws-sdk/client-s3'
import { createPresignedPost } from '@aws-sdk/s3-presigned-post'
import busboy from 'busboy'
import type { Request } from 'express'
import type { Logger } from 'pino'
import {
  SIGNATURE_CACHE_MS,
  SLIDESHOW_MAX_IMAGES,
  STORED_EXTENSIONS,
  PHOTO_LONG_SIDE,
  PHOTO_MAX_PIXELS,
  FILENAME_PLACEHOLDER,
  UPLOAD_MAX_BYTES,
  sniffImageType,
  type UploadType,
} from '../../shared/generators/slideshow/slideshow.js'
import { HttpError, badRequest } from '../process/errors.js'
import type { MemoryBudget } from '../process/memory-budget.js'
import type { PhotoHeader } from './jobs.js'
import { MAX_INPUT_PIXELS } from './limits.js'
import { dimensionsOf, headerOf, photoHeader, type PhotoDimensions } from './photo-header.js'
import { signedByAny, type SigningKeys } from './signing.js'

/**
 * `uploads/{date}/{random}/photo-{n}.{ext}`. One signature serves every upload of its 20 minutes
 * (the generator caches it): it covers the folder, `uploads/{date}/{random}/`, and the uploader
 * names each file in it, writing the whole key into the form's `key` field. A `${filename}` left
 * in that field is replaced by the posted file's name, as S3 does; not every S3-compatible store
 * does, so the site's own uploader never relies on it. The names are the page's own
 * (`storedFileName`): a number from 1 to 10, as many as a slideshow has photos, and the extension
 * of the file's type. Nothing is ever resolved, read or served under another name, nor a file
 * whose first bytes are not the type its extension names. So the local folder keeps at most 10
 * files a signature (one a number, `receive`), and a bucket's folder holds at most one readable
 * object a number and type, whatever else a visitor posts under it (that is never read, and the
 * bucket's lifecycle rule removes it).
 */
const FILE_NAME = `photo-(${Array.from({ length: SLIDESHOW_MAX_IMAGES }, (_, i) => i + 1).join('|')})\\.(${Object.values(STORED_EXTENSIONS).join('|')})`
export const UPLOAD_KEY = new RegExp(`^uploads/\\d{4}-\\d{2}-\\d{2}/[a-f0-9]{32}/${FILE_NAME}$`)
export { FILENAME_PLACEHOLDER }
const SIGNED_KEY = /^uploads\/\d{4}-\d{2}-\d{2}\/[a-f0-9]{32}\/\$\{filename\}$/

/** The number a well-formed key (`UPLOAD_KEY`) takes in its folder, and the type its extension names. */
function nameOf(key: string): { slot: number; type: UploadType } {
  const [, slot, extension] = UPLOAD_KEY.exec(key)!
  const type = (Object.keys(STORED_EXTENSIONS) as UploadType[]).find((candidate) => STORED_EXTENSIONS[candidate] === extension)!
  return { slot: Number(slot), type }
}

/**
 * How long uploads are kept: they matter only while a visitor makes a slideshow (the page never
 * puts them in a link). The local folder drops them after this; an S3 bucket's lifecycle rule
 * (docs/giffer.md) does the same.
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
 * Where uploads are kept. Each read is one request to the store; nothing stored that is not a
 * JPEG, PNG or WebP by its first bytes, of the type its key's extension names, is ever described,
 * read or served (null, as if absent).
 */
export interface UploadStore {
  sign(): Promise<SignedUpload>
  /** The type and size of the upload under `key`. */
  describe(key: string): Promise<StoredUpload | null>
  /**
   * Its type, size and dimensions, from the file's first bytes: what drawing it will cost, before
   * it is read whole; on S3 also the object's ETag. `signal` ends the wait when the client goes away.
   */
  header(key: string, signal?: AbortSignal): Promise<PhotoHeader | null>
  /**
   * The whole upload, for drawing. With the `etag` its header gave, only that very object:
   * `UploadChanged` when another has replaced it since.
   */
  read(key: string, etag?: string): Promise<Uint8Array | null>
  /** The upload as a stream, for serving; `signal` ends the read when the client goes away. */
  open(key: string, signal: AbortSignal): Promise<{ body: Readable; upload: StoredUpload } | null>
  /** Stops background work (the local folder's clean-up). */
  close(): void
}

/** A fresh signed key: a new folder, and the file name left for the upload to fill in. */
export function newUploadKey(now = new Date()): string {
  return `uploads/${now.toISOString().slice(0, 10)}/${randomBytes(16).toString('hex')}/${FILENAME_PLACEHOLDER}`
}

function unsupportedType(name = ''): HttpError {
  return new HttpError(415, 'unsupported_type', `Unsupported file type. ${name}`.trim(), 'file')
}

function tooBig(): HttpError {
  return new HttpError(413, 'too_large', `File is too big (max ${UPLOAD_MAX_BYTES / 1024 / 1024} MB)`, 'file')
}

/**
 * A file whose name's extension is not its real type. A file is read under one name only, its
 * number with its own type's extension: `photo-3.png` never reads the JPEG kept as number 3.
 */
function wrongExtension(type: UploadType): HttpError {
  return new HttpError(415, 'wrong_extension', `The file is ${type}: its name must end in .${STORED_EXTENSIONS[type]}.`, 'file')
}

/** The upload under a key is no longer the object whose header was read: it has been replaced since. */
export class UploadChanged extends HttpError {
  constructor() {
    super(409, 'image_changed', 'The image changed after it was checked. Please upload it again.')
  }
}

/**
 * What the header of a received image says, refusing one that announces more pixels than may be decoded: a photo the local
 * folder reduces as it stores it may have as many as the page takes, any other as many as a
 * render thread decodes.
 */
async function decodableDimensions(input: string | Uint8Array, limit: number): Promise<PhotoDimensions> {
  const dimensions = await dimensionsOf(input)
  if (!dimensions) throw new HttpError(415, 'unsupported_type', 'Unsupported file type: the image cannot be read.', 'file')
  if (dimensions.width * dimensions.height > limit) {
    throw new HttpError(413, 'too_many_pixels', `The image has more than ${limit} pixels.`, 'file')
  }
  return dimensions
}

// ---------------------------------------------------------------------------------------------
// The local folder

/**
 * How much the local upload folder may hold: at most `maxBytes` in all, and never so much that
 * the disk keeps less than `minFreeBytes` free (it also holds the dashboard's database and the
 * image service's temporary files, which stop working on a full disk). Past either, new uploads
 * get 507 until the hourly sweep has made room.
 */
export interface UploadCeiling {
  maxBytes: number
  minFreeBytes: number
}

const MB = 2 ** 20
/** Unset, the folder may take a quarter of its disk, at most 2 GB… */
const DEFAULT_MAX = { share: 0.25, bytes: 2048 * MB }
/** …and leaves a tenth of it free, at most 1 GB. */
const DEFAULT_MIN_FREE = { share: 0.1, bytes: 1024 * MB }

/** Where the local upload target keeps files: `<DATA_DIR>/uploads`. */
export const uploadDir = (stateDir: string) => path.join(stateDir, 'uploads')

/** The nearest folder of `dir` that exists (the upload folder is made on the first upload). */
function existingAncestor(dir: string): string {
  let at = path.resolve(dir)
  while (!existsSync(at) && path.dirname(at) !== at) at = path.dirname(at)
  return at
}

/** The ceiling of an upload folder: what is set (UPLOADS_MAX_MB, UPLOADS_MIN_FREE_MB), else a share of its disk. */
export function uploadCeiling(dir: string, set: { maxBytes?: number; minFreeBytes?: number } = {}): UploadCeiling {
  let diskBytes = Number.POSITIVE_INFINITY
  try {
    const disk = statfsSync(existingAncestor(dir))
    diskBytes = disk.blocks * disk.bsize
  } catch {
    // No size to go by: the fixed parts of the defaults hold.
  }
  return {
    maxBytes: set.maxBytes ?? Math.min(DEFAULT_MAX.bytes, Math.floor(diskBytes * DEFAULT_MAX.share)),
    minFreeBytes: set.minFreeBytes ?? Math.min(DEFAULT_MIN_FREE.bytes, Math.floor(diskBytes * DEFAULT_MIN_FREE.share)),
  }
}

/** The ceiling in the start-up line's words. */
export function describeUploadCeiling({ maxBytes, minFreeBytes }: UploadCeiling): string {
  return `uploads at most ${Math.round(maxBytes / MB)} MB, leaving ${Math.round(minFreeBytes / MB)} MB of disk free`
}

/** How long a count of the folder's bytes is trusted before the folder is walked again (other processes may share it). */
const USAGE_RESCAN_MS = 60_000

class UploadFolderFull extends HttpError {
  constructor() {
    super(507, 'insufficient_storage', 'The upload folder is full. Please try again later.', 'file')
  }
}

interface LocalPolicy {
  /** The signed key, ending in `${filename}`: uploads go into its folder. */
  key: string
  expires: number
  maxBytes: number
}

export interface LocalStoreOptions {
  dir: string
  ceiling: UploadCeiling
  /** Where the browser posts uploads, e.g. `/giffer/uploads`. */
  uploadUrl: string
  /** Signs with the current key; accepts a previous one while a new one is rolled in. */
  keys: SigningKeys
  now: () => number
  logger: Logger
  /**
   * Makes a photo render-sized (`render/reduce-photo.ts`, in a render thread within the memory
   * budget). Unset where no image is drawn (a box too small): photos are kept as received.
   */
  reduce?: (bytes: Uint8Array, header: PhotoHeader, signal?: AbortSignal) => Promise<Uint8Array>
}

/** How often the local folder drops expired uploads, and how old a half-received file may get. */
const SWEEP_EVERY_MS = 60 * 60 * 1000
const PARTIAL_LIFETIME_MS = 60 * 60 * 1000

export class LocalUploadStore implements UploadStore {
  private readonly sweeper: NodeJS.Timeout
  /** The folder's bytes at the last walk, and what this process has added since. */
  private usage = { bytes: 0, walkedAt: Number.NEGATIVE_INFINITY, added: 0 }
  /**
   * Room held for uploads being received (the largest file each): uploads arriving together are
   * counted against the ceiling as if already there, so that none can pass the check the others passed.
   */
  private receivingBytes = 0
  private lastFullWarning = Number.NEGATIVE_INFINITY

  constructor(private readonly options: LocalStoreOptions) {
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_EVERY_MS).unref()
    setImmediate(() => void this.sweep())
  }

  close(): void {
    clearInterval(this.sweeper)
  }

  private policySignature(policy: string, secret: string): string {
    return createHmac('sha256', secret).update(`giffer upload policy v1\n${policy}`).digest('hex')
  }

  /**
   * Where the upload under a key is kept: in its signed folder, under its number alone
   * (`uploads/2026-01-02/{random}/photo-3.png` in `2026-01-02/{random}/3`), so that one file
   * holds each number whatever its extension. Its type is read from its first bytes.
   */
  private fileOf(key: string): string {
    const [, day, folder] = key.split('/')
    return path.join(this.options.dir, day!, folder!, String(nameOf(key).slot))
  }

  async sign(): Promise<SignedUpload> {
    const key = newUploadKey(new Date(this.options.now()))
    const policy: LocalPolicy = { key, expires: this.options.now() + SIGNATURE_CACHE_MS, maxBytes: UPLOAD_MAX_BYTES }
    const encoded = Buffer.from(JSON.stringify(policy)).toString('base64url')
    return { url: this.options.uploadUrl, key, fields: { key, policy: encoded, signature: this.policySignature(encoded, this.options.keys.current) } }
  }

  /**
   * Checks the signed fields that precede the file and gives the key the file goes to: the posted
   * `key` (its `${filename}` replaced by the file's name), which must lie in the signed folder.
   */
  private checkPolicy(fields: Record<string, string>, filename: string): string {
    const { policy, signature, key } = fields
    if (!policy || !signature || !key) throw new HttpError(403, 'bad_signature', 'The upload is not signed: post the fields from uploads/sign before the file.', 'policy')
    if (!signedByAny(signature, this.options.keys, (secret) => this.policySignature(policy, secret))) throw new HttpError(403, 'bad_signature', 'The upload signature does not match.', 'signature')
    let parsed: LocalPolicy
    try {
      parsed = JSON.parse(Buffer.from(policy, 'base64url').toString('utf8')) as LocalPolicy
    } catch {
      throw new HttpError(403, 'bad_signature', 'The upload policy cannot be read.', 'policy')
    }
    if (typeof parsed.key !== 'string' || !SIGNED_KEY.test(parsed.key)) throw new HttpError(403, 'bad_signature', 'The upload policy cannot be read.', 'policy')
    if (!(parsed.expires > this.options.now())) throw new HttpError(403, 'expired', 'The upload signature has expired: ask for a new one.', 'policy')
    const folder = parsed.key.slice(0, -FILENAME_PLACEHOLDER.length)
    if (!key.startsWith(folder)) throw new HttpError(403, 'bad_signature', 'The key is not in the folder that was signed.', 'key')
    const named = key.replace(FILENAME_PLACEHOLDER, () => filename)
    if (!UPLOAD_KEY.test(named)) {
      const field = key.includes(FILENAME_PLACEHOLDER) ? 'file' : 'key'
      throw badRequest(field, `needs ${field === 'file' ? 'a file name' : 'to end in a file name'} photo-1 to photo-${SLIDESHOW_MAX_IMAGES} with the extension of its type: .jpg, .png or .webp`)
    }
    return named
  }

  /**
   * The upload target: a multipart form whose fields come before the file, as with S3. The file
   * goes to a temporary name and only becomes the key once every check has passed.
   */
  async receive(req: Request, signal?: AbortSignal): Promise<string> {
    const contentType = req.headers['content-type'] ?? ''
    if (!/^multipart\/form-data/i.test(contentType)) throw new HttpError(415, 'unsupported_media_type', 'Post the upload as multipart/form-data.', 'body')
    const declared = Number(req.headers['content-length'])
    if (Number.isFinite(declared) && declared > UPLOAD_MAX_BYTES + 64 * 1024) {
      req.resume()
      throw tooBig()
    }
    let parser: busboy.Busboy
    try {
      // busboy marks a file truncated once it reaches the limit: one byte over the largest allowed.
      parser = busboy({ headers: req.headers, limits: { fileSize: UPLOAD_MAX_BYTES + 1, files: 1, fields: 20, fieldSize: 8 * 1024, parts: 22 } })
    } catch {
      throw badRequest('body', 'is not a readable multipart form')
    }
    const tmpDir = path.join(this.options.dir, 'tmp')
    await mkdir(tmpDir, { recursive: true })
    let releaseRoom: () => void
    try {
      // Room for the largest file before any of it is written.
      releaseRoom = await this.reserveRoom(UPLOAD_MAX_BYTES)
    } catch (error) {
      req.resume()
      throw error
    }
    const tmpFile = path.join(tmpDir, randomBytes(12).toString('hex'))
    const reducedFile = `${tmpFile}-reduced`
    try {
      const key = await this.readForm(req, parser, tmpFile)
      const dimensions = await decodableDimensions(tmpFile, this.options.reduce ? PHOTO_MAX_PIXELS : MAX_INPUT_PIXELS)
      const kept = await this.reduced(tmpFile, reducedFile, nameOf(key).type, dimensions, signal)
      const target = this.fileOf(key)
      await mkdir(path.dirname(target), { recursive: true })
      const { size } = await stat(kept)
      await this.keep(kept, target, nameOf(key).slot)
      this.usage.added += size
      return key
    } finally {
      releaseRoom()
      await Promise.all([rm(tmpFile, { force: true }), rm(reducedFile, { force: true })])
    }
  }

  /**
   * The file to keep: the one received, or, for a photo larger than the largest card, turned by
   * its EXIF orientation or carrying metadata (as a camera's original is), its render-sized copy
   * written to `reducedFile`. The page sends photos reduced already; clients that send originals
   * get the same, so every render of the photo reads and decodes the small one.
   */
  private async reduced(tmpFile: string, reducedFile: string, type: UploadType, photo: PhotoDimensions, signal?: AbortSignal): Promise<string> {
    const { reduce } = this.options
    if (!reduce || (Math.max(photo.width, photo.height) <= PHOTO_LONG_SIDE && !photo.turnedOrTagged)) return tmpFile
    const bytes = new Uint8Array(await readFile(tmpFile))
    const header = photoHeader({ type, size: bytes.byteLength }, photo)
    await writeFile(reducedFile, await reduce(bytes, header, signal))
    return reducedFile
  }

  /**
   * Gives the received file its number's name, unless a file has it already: a link, which never
   * replaces a file (a rename would) and of two made at once, in this process or another sharing
   * the folder, lets exactly one through. With one file a number, a signed folder can never hold
   * more than a slideshow's 10 photos.
   */
  private async keep(tmpFile: string, target: string, slot: number): Promise<void> {
    try {
      await link(tmpFile, target)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      throw new HttpError(409, 'already_uploaded', `A file numbered ${slot} was already uploaded with this signature.`, 'file')
    }
  }

  /**
   * Holds `incoming` bytes of the folder's room, with those held by uploads under way, or 507 when
   * they would pass the folder's total or the disk's free-space floor (the folder exists by now).
   * Gives back the room once the upload is over (its file, if kept, is counted from then on).
   */
  private async reserveRoom(incoming: number): Promise<() => void> {
    const { maxBytes, minFreeBytes } = this.options.ceiling
    const disk = await statfs(this.options.dir).catch(() => null)
    const free = disk ? disk.bavail * disk.bsize : Number.POSITIVE_INFINITY
    const folder = await this.folderBytes()
    // From here to the reservation nothing waits: no other upload can slip between them.
    const held = this.receivingBytes + incoming
    if (free - held >= minFreeBytes && folder + held <= maxBytes) {
      this.receivingBytes += incoming
      let released = false
      return () => {
        if (!released) this.receivingBytes -= incoming
        released = true
      }
    }
    const now = this.options.now()
    if (now - this.lastFullWarning >= USAGE_RESCAN_MS) {
      this.lastFullWarning = now
      this.options.logger.warn({ folderMb: Math.round(folder / MB), maxMb: Math.round(maxBytes / MB), freeMb: Math.round(free / MB), minFreeMb: Math.round(minFreeBytes / MB) }, 'upload folder full: new uploads get 507')
    }
    throw new UploadFolderFull()
  }

  /** The bytes under the folder: walked at most once a minute, plus what this process stored since. */
  private async folderBytes(): Promise<number> {
    const now = this.options.now()
    if (now - this.usage.walkedAt >= USAGE_RESCAN_MS) this.usage = { bytes: await folderSize(this.options.dir), walkedAt: now, added: 0 }
    return this.usage.bytes + this.usage.added
  }

  /**
   * Reads the form into `tmpFile`: the signed fields first, then the one file. Resolves with the
   * key once the file is written and its first bytes are an image.
   */
  private readForm(req: Request, parser: busboy.Busboy, tmpFile: string): Promise<string> {
    // No prototype: a field named `__proto__` is just a field.
    const fields: Record<string, string> = Object.create(null)
    return new Promise<string>((resolve, reject) => {
      let settled = false
      let fileDone: Promise<string> | null = null
      const fail = (error: unknown) => {
        if (settled) return
        settled = true
        req.unpipe(parser)
        req.resume()
        reject(error)
      }
      parser.on('field', (name, value, info) => {
        if (info.valueTruncated) return fail(badRequest(name, 'is too long'))
        fields[name] = value
      })
      parser.on('file', (_name, file, info) => {
        let key: string
        try {
          key = this.checkPolicy(fields, info.filename ?? '')
        } catch (error) {
          file.resume()
          return fail(error)
        }
        let head = Buffer.alloc(0)
        let truncated = false
        file.on('data', (chunk: Buffer) => {
          if (head.length < 16) head = Buffer.concat([head, chunk.subarray(0, 16)])
        })
        file.on('limit', () => {
          truncated = true
        })
        fileDone = pipeline(file, createWriteStream(tmpFile)).then(() => {
          if (truncated) throw tooBig()
          if (head.length === 0) throw badRequest('file', 'is empty')
          const type = sniffImageType(head)
          if (!type) throw unsupportedType(info.filename)
          if (type !== nameOf(key).type) throw wrongExtension(type)
          return key
        })
        fileDone.catch(fail)
      })
      parser.on('filesLimit', () => fail(badRequest('file', 'only one file per upload')))
      parser.on('fieldsLimit', () => fail(badRequest('body', 'has too many fields')))
      parser.on('partsLimit', () => fail(badRequest('body', 'has too many parts')))
      parser.on('error', () => fail(badRequest('body', 'is not a readable multipart form')))
      parser.on('close', () => {
        if (!fileDone) return fail(badRequest('file', 'is required'))
        fileDone.then((key) => {
          if (settled) return
          settled = true
          resolve(key)
        }, fail)
      })
      req.on('aborted', () => fail(new HttpError(400, 'aborted', 'The upload was interrupted.')))
      req.pipe(parser)
    })
  }

  /** The file's type and size, when its first bytes are the type its key names (`photo-3.png` is not the JPEG stored as number 3). */
  async describe(key: string): Promise<StoredUpload | null> {
    const file = this.fileOf(key)
    try {
      const handle = await open(file, 'r')
      try {
        const head = Buffer.alloc(16)
        await handle.read(head, 0, 16, 0)
        const type = sniffImageType(head)
        const { size } = await handle.stat()
        return type && type === nameOf(key).type ? { type, size } : null
      } finally {
        await handle.close()
      }
    } catch {
      return null
    }
  }

  async header(key: string): Promise<PhotoHeader | null> {
    const upload = await this.describe(key)
    const dimensions = upload && (await dimensionsOf(this.fileOf(key)))
    return upload && dimensions ? photoHeader(upload, dimensions) : null
  }

  /** The whole file. No ETag here: the render thread checks the bytes against the header before decoding them. */
  async read(key: string): Promise<Uint8Array | null> {
    const bytes = await readFile(this.fileOf(key)).catch(() => null)
    return bytes && sniffImageType(bytes) === nameOf(key).type ? new Uint8Array(bytes) : null
  }

  async open(key: string): Promise<{ body: Readable; upload: StoredUpload } | null> {
    const upload = await this.describe(key)
    return upload ? { body: createReadStream(this.fileOf(key)), upload } : null
  }

  /**
   * Drops the uploads of folders older than UPLOAD_LIFETIME_MS (by the time their folder was
   * made) and half-received files older than an hour. Processes sharing the folder may sweep at
   * once: removing what is gone already is no error.
   */
  async sweep(): Promise<void> {
    const now = this.options.now()
    const older = async (dir: string, ageMs: number) => {
      const names = await readdir(dir).catch(() => [] as string[])
      const old = await Promise.all(names.map(async (name) => ((await stat(path.join(dir, name)).catch(() => null))?.mtimeMs ?? now) < now - ageMs))
      return names.filter((_, i) => old[i]).map((name) => path.join(dir, name))
    }
    try {
      let removed = 0
      for (const file of await older(path.join(this.options.dir, 'tmp'), PARTIAL_LIFETIME_MS)) await rm(file, { force: true })
      for (const day of await readdir(this.options.dir).catch(() => [] as string[])) {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) continue
        const dayDir = path.join(this.options.dir, day)
        for (const folder of await older(dayDir, UPLOAD_LIFETIME_MS)) {
          await rm(folder, { recursive: true, force: true })
          removed += 1
        }
        if ((await readdir(dayDir).catch(() => [''])).length === 0) await rm(dayDir, { recursive: true, force: true })
      }
      if (removed > 0) {
        this.options.logger.info({ removed }, 'expired uploads removed')
        this.usage.walkedAt = Number.NEGATIVE_INFINITY
      }
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not remove expired uploads')
    }
  }
}

/** Bytes of the files under `dir`, at any depth (a folder that is not there holds none). */
async function folderSize(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  const sizes = await Promise.all(entries.filter((entry) => entry.isFile()).map((entry) => stat(path.join(entry.parentPath, entry.name)).then((info) => info.size, () => 0)))
  return sizes.reduce((sum, size) => sum + size, 0)
}

// ---------------------------------------------------------------------------------------------
// S3

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

/** Bytes read from the start of an object for its header: most say it in the first 64 KB, all that are found in the first MB. */
const HEADER_BYTES = 64 * 1024
const DEEP_HEADER_BYTES = 1024 * 1024

/**
 * Every wait on the store has an end: a connection it does not accept within 3 s, an answer that
 * does not begin within 5 s or stops coming for as long fails that attempt (the SDK makes up to
 * three), and the request is answered 503 `store_unavailable`.
 */
const S3_CONNECTION_TIMEOUT_MS = 3_000
const S3_REQUEST_TIMEOUT_MS = 5_000

/**
 * The whole object's size from a GET's answer (of a range: its `Content-Range`; else its
 * `Content-Length`), or null when the store gave neither.
 */
function objectSize(object: GetObjectCommandOutput): number | null {
  const size = Number(/\/(\d+)$/.exec(object.ContentRange ?? '')?.[1] ?? object.ContentLength)
  return Number.isFinite(size) && size >= 0 ? size : null
}

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

/** The upload store's fault, not the visitor's: logged with its cause, answered 503. */
export class StoreUnavailable extends HttpError {
  constructor() {
    super(503, 'store_unavailable', 'The upload store is unavailable. Please try again later.')
  }
}

/**
 * Uploads in an S3 bucket. Credentials come from the AWS SDK's default chain (environment with
 * session token, profile, web identity, container or instance role). The store must accept
 * presigned POST policies; browsers post to it directly.
 */
export class S3UploadStore implements UploadStore {
  private readonly client: S3Client
  /** Signs for the endpoint browsers reach, which may differ from this process's. */
  private readonly signer: S3Client

  /** `budget`: the render memory budget, which a header looked for past the first 64 KB takes its MB from. */
  constructor(private readonly options: S3StoreOptions & { logger: Logger; budget: MemoryBudget }) {
    const { region, endpoint, publicEndpoint, forcePathStyle, requestTimeoutMs = S3_REQUEST_TIMEOUT_MS } = options
    // `throwOnRequestTimeout`: without it an answer that never begins is only warned about.
    const requestHandler = { connectionTimeout: S3_CONNECTION_TIMEOUT_MS, requestTimeout: requestTimeoutMs, throwOnRequestTimeout: true, socketTimeout: requestTimeoutMs }
    this.client = new S3Client({ region, endpoint, forcePathStyle, requestHandler })
    this.signer = publicEndpoint && publicEndpoint !== endpoint ? new S3Client({ region, endpoint: publicEndpoint, forcePathStyle }) : this.client
  }

  close(): void {
    this.client.destroy()
    if (this.signer !== this.client) this.signer.destroy()
  }

  async sign(): Promise<SignedUpload> {
    const key = newUploadKey()
    try {
      const { url, fields } = await createPresignedPost(this.signer, {
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
      throw this.unavailable(error, 'sign', key)
    }
  }

  /**
   * One GET, of the whole object or of `range`, and with `etag` only of the object that had it
   * (`UploadChanged` when another has replaced it); null when there is nothing under the key. A
   * request whose client went away (`signal`) ends with the signal's reason, and is no fault of
   * the store's.
   */
  private async get(key: string, operation: string, options: { range?: string; etag?: string; signal?: AbortSignal } = {}): Promise<GetObjectCommandOutput | null> {
    try {
      const command = new GetObjectCommand({ Bucket: this.options.bucket, Key: key, Range: options.range, IfMatch: options.etag })
      return await this.client.send(command, { abortSignal: options.signal })
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode
      // 416: an empty object has no first bytes.
      if (status === 404 || status === 416) return null
      if (status === 412) throw new UploadChanged()
      throw this.unavailable(error, operation, key)
    }
  }

  /** The object's size from its answer; a store that gives none is at fault (an S3-compatible one may). */
  private sizeOf(object: GetObjectCommandOutput, operation: string, key: string): number {
    const size = objectSize(object)
    if (size === null) {
      ;(object.Body as Readable | undefined)?.destroy()
      throw this.unavailable(new Error('the answer gave no size (neither Content-Range nor Content-Length)'), operation, key)
    }
    return size
  }

  /** The answer's body, whole. One that breaks off (the store's time ran out) is the store's fault too. */
  private async bytesOf(object: GetObjectCommandOutput, operation: string, key: string, signal?: AbortSignal): Promise<Uint8Array> {
    try {
      return await object.Body!.transformToByteArray()
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      throw this.unavailable(error, operation, key)
    }
  }

  private unavailable(error: unknown, operation: string, key: string): StoreUnavailable {
    this.options.logger.error({ err: error, operation, bucket: this.options.bucket, key }, 'upload store unavailable')
    return new StoreUnavailable()
  }

  /**
   * The bucket takes whatever the browser posts within the policy, so this is where a file that is
   * not an image, not of the type its name says, or too big, is refused, with the local upload
   * target's answers (415, 413).
   */
  async describe(key: string): Promise<StoredUpload | null> {
    const object = await this.get(key, 'describe', { range: 'bytes=0-15' })
    if (!object?.Body) return null
    const size = this.sizeOf(object, 'describe', key)
    const head = await this.bytesOf(object, 'describe', key)
    const type = sniffImageType(head)
    if (!type) throw unsupportedType()
    if (type !== nameOf(key).type) throw wrongExtension(type)
    if (size > UPLOAD_MAX_BYTES) throw tooBig()
    return { type, size }
  }

  /**
   * One ranged GET of the first 64 KB, where JPEG, PNG and WebP headers say the dimensions; for a
   * photo whose header lies further in (large embedded metadata), one more of the rest of the
   * first MB, whose memory is taken from the render budget while it is looked through: the main
   * thread never holds a whole photo for its header, nor MBs for any number of requests at once.
   * The header carries the object's ETag: the photo is read later as that object only. Null for
   * what is not an image of the type its name says, or whose header is not within its first MB.
   */
  async header(key: string, signal?: AbortSignal): Promise<PhotoHeader | null> {
    const first = await this.range(key, 0, HEADER_BYTES, { signal })
    if (!first) return null
    const { bytes: head, size, etag } = first
    if (sniffImageType(head) !== nameOf(key).type) return null
    if (size > UPLOAD_MAX_BYTES) throw tooBig()
    const header = await headerOf(head, size)
    if (header || size <= head.length) return header && { ...header, etag }
    const release = await this.options.budget.reserve(DEEP_HEADER_BYTES, signal)
    try {
      // The rest of the same object: bytes of one replaced since would not make one header.
      const rest = await this.range(key, head.length, DEEP_HEADER_BYTES, { signal, etag })
      const deep = rest && (await headerOf(Buffer.concat([head, rest.bytes]), size))
      return deep && { ...deep, etag }
    } finally {
      release()
    }
  }

  /** Bytes `from` up to `to` of an object (fewer at its end), the object's whole size and its ETag. */
  private async range(key: string, from: number, to: number, options: { etag?: string; signal?: AbortSignal }): Promise<{ bytes: Uint8Array; size: number; etag?: string } | null> {
    const object = await this.get(key, 'header', { range: `bytes=${from}-${to - 1}`, ...options })
    if (!object?.Body) return null
    const size = this.sizeOf(object, 'header', key)
    return { bytes: await this.bytesOf(object, 'header', key, options.signal), size, etag: object.ETag }
  }

  async read(key: string, etag?: string): Promise<Uint8Array | null> {
    const object = await this.get(key, 'read', { etag })
    if (!object?.Body) return null
    if (this.sizeOf(object, 'read', key) > UPLOAD_MAX_BYTES) {
      ;(object.Body as Readable).destroy()
      throw tooBig()
    }
    const bytes = await this.bytesOf(object, 'read', key)
    return sniffImageType(bytes) === nameOf(key).type ? bytes : null
  }

  async open(key: string, signal: AbortSignal): Promise<{ body: Readable; upload: StoredUpload } | null> {
    const object = await this.get(key, 'open', { signal })
    if (!object?.Body) return null
    const size = this.sizeOf(object, 'open', key)
    const { head, body } = await withHead(object.Body as Readable, 16)
    const type = sniffImageType(head)
    if (type !== nameOf(key).type || size <= 0 || size > UPLOAD_MAX_BYTES) {
      body.destroy()
      return null
    }
    return { body, upload: { type, size } }
  }
}

/**
 * The first `bytes` of a stream, and a stream of the whole content again (those bytes included).
 * Destroying the returned stream destroys the source, so a read ends when its reader goes away.
 */
async function withHead(source: Readable, bytes: number): Promise<{ head: Buffer; body: Readable }> {
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
