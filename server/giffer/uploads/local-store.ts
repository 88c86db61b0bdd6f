/**
 * Uploads in a local folder (`<DATA_DIR>/uploads`), behind the same presigned-POST protocol as
 * S3: this process is the upload target, and checks what S3 would (signature, expiry, size) and
 * what S3 does not (the file's real type, from its first bytes, and the rules of `rules.ts`). A
 * photo is reduced as it is stored, so what the folder keeps is what is served and drawn.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream, existsSync, statfsSync } from 'node:fs'
import { link, mkdir, open, readFile, readdir, rm, stat, statfs, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import busboy from 'busboy'
import type { Request } from 'express'
import type { Logger } from 'pino'
import { SIGNATURE_CACHE_MS, SLIDESHOW_MAX_IMAGES, UPLOAD_MAX_BYTES, sniffImageType, type UploadType } from '../../../shared/generators/slideshow/slideshow.js'
import { HttpError, badRequest } from '../../process/errors.js'
import { dimensionsOf, photoHeader } from '../photo-header.js'
import { signedByAny, type SigningKeys } from '../signing.js'
import { isBareImage } from './bare.js'
import { checkedDimensions, checkedType, reducedCopy, tooBig, type Reducer } from './rules.js'
import { FILENAME_PLACEHOLDER, SIGNED_KEY, UPLOAD_KEY, UPLOAD_LIFETIME_MS, nameOf, newUploadKey, type PhotoToDraw, type SignedUpload, type StoredUpload, type UploadStore } from './store.js'


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
  /** Makes a photo render-sized that must not be kept as it came (`rules.ts`). */
  reduce: Reducer
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
      const kept = await this.reduced(tmpFile, reducedFile, key, signal)
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
   * The file to keep: the one received, or, for a photo the rules do not let be kept as it came,
   * its render-sized copy written to `reducedFile`. The received file stays on disk while the
   * photo waits for a render thread, and is read only once the job has its thread and memory: a
   * line of photos waiting costs nothing outside the memory budget.
   */
  private async reduced(tmpFile: string, reducedFile: string, key: string, signal?: AbortSignal): Promise<string> {
    const dimensions = checkedDimensions(await dimensionsOf(tmpFile))
    const { size } = await stat(tmpFile)
    const { type } = nameOf(key)
    const bare = await bareFile(tmpFile, type, size)
    // One copy of the file, in a buffer of its own, which moves to the render thread as it is.
    const read = () => readFile(tmpFile)
    const reduced = await reducedCopy(this.options.reduce, read, { type, size }, dimensions, bare, signal)
    if (!reduced) return tmpFile
    await writeFile(reducedFile, reduced)
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
          checkedType(sniffImageType(head), key, info.filename)
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

  async header(key: string): Promise<PhotoToDraw | null> {
    const upload = await this.describe(key)
    const dimensions = upload && (await dimensionsOf(this.fileOf(key)))
    return upload && dimensions ? { header: photoHeader(upload, dimensions), read: () => this.read(key) } : null
  }

  /** The whole file. No ETag here: the render thread checks the bytes against the header before decoding them. */
  async read(key: string): Promise<Uint8Array | null> {
    const bytes = await readFile(this.fileOf(key)).catch(() => null)
    return bytes && sniffImageType(bytes) === nameOf(key).type ? bytes : null
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

/** Whether the file on disk is provably bare (`bare.ts`), read through a handle a window at a time. */
async function bareFile(file: string, type: UploadType, size: number): Promise<boolean> {
  const handle = await open(file, 'r')
  try {
    return await isBareImage(
      type,
      async (offset, length) => {
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)))
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset)
        return buffer.subarray(0, bytesRead)
      },
      size,
    )
  } finally {
    await handle.close()
  }
}
