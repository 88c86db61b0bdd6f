/**
 * Uploads for the slideshow, with S3's presigned-POST protocol: `sign` returns
 * `{url, key, fields}`, the browser posts the fields and the file to `url`, then `resolve`
 * turns the key into a URL this service serves. Two stores speak it: real S3 (when S3_BUCKET is
 * set) and a local folder, whose upload target checks what S3 would (signature, expiry, size)
 * and also what S3 does not (the file's real type, from its first bytes).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { createPresignedPost } from '@aws-sdk/s3-presigned-post'
import busboy from 'busboy'
import type { Request } from 'express'
import sharp from 'sharp'
import { SIGNATURE_CACHE_MS, UPLOAD_MAX_BYTES, type UploadType } from '../../shared/generators/slideshow/slideshow.js'
import { HttpError, badRequest } from '../errors.js'
import { MAX_INPUT_PIXELS } from './limits.js'

/**
 * `uploads/{date}/{random}/{file name}`. One signature serves every upload of its 20 minutes (the
 * generator caches it): the signed key ends in `${filename}`, which the upload target replaces
 * by the name of the file posted, as S3 does. File names are letters, digits, `.`, `_`, `-`.
 */
export const UPLOAD_KEY = /^uploads\/\d{4}-\d{2}-\d{2}\/[a-f0-9]{32}\/[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/
export const FILENAME_PLACEHOLDER = '${filename}'
const SIGNED_KEY = /^uploads\/\d{4}-\d{2}-\d{2}\/[a-f0-9]{32}\/\$\{filename\}$/

/** The real type of an image from its first bytes, whatever the upload claimed. */
export function sniffImageType(head: Uint8Array): UploadType | null {
  const starts = (bytes: number[], at = 0) => bytes.every((b, i) => head[at + i] === b)
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp'
  return null
}

export interface SignedUpload {
  url: string
  key: string
  fields: Record<string, string>
}

export interface StoredUpload {
  type: UploadType
  size: number
}

export interface UploadStore {
  sign(): Promise<SignedUpload>
  describe(key: string): Promise<StoredUpload | null>
  read(key: string): Promise<Uint8Array>
  open(key: string): Promise<{ body: Readable; upload: StoredUpload } | null>
}

/** A fresh signed key: a new folder, and the file name left for the upload to fill in. */
export function newUploadKey(now = new Date()): string {
  return `uploads/${now.toISOString().slice(0, 10)}/${randomBytes(16).toString('hex')}/${FILENAME_PLACEHOLDER}`
}

function unsupportedType(name = 'file'): HttpError {
  return new HttpError(415, 'unsupported_type', `Unsupported file type. ${name}`.trim(), 'file')
}

function tooBig(): HttpError {
  return new HttpError(413, 'too_large', `File is too big (max ${UPLOAD_MAX_BYTES / 1024 / 1024} MB)`, 'file')
}

/** Refuses images whose header announces more pixels than a worker may decode. */
async function assertDecodableSize(input: string | Uint8Array): Promise<void> {
  let pixels: number
  try {
    const meta = await sharp(input, { limitInputPixels: false }).metadata()
    pixels = (meta.width ?? 0) * (meta.height ?? 0)
  } catch {
    throw new HttpError(415, 'unsupported_type', 'Unsupported file type: the image cannot be read.', 'file')
  }
  if (pixels === 0) throw new HttpError(415, 'unsupported_type', 'Unsupported file type: the image cannot be read.', 'file')
  if (pixels > MAX_INPUT_PIXELS) {
    throw new HttpError(413, 'too_many_pixels', `The image has more than ${MAX_INPUT_PIXELS} pixels.`, 'file')
  }
}

// ---------------------------------------------------------------------------------------------
// The local folder

interface LocalPolicy {
  key: string
  expires: number
  maxBytes: number
}

export interface LocalStoreOptions {
  dir: string
  /** Where the browser posts uploads, e.g. `/giffer/uploads`. */
  uploadUrl: string
  secret: string
  now: () => number
}

export class LocalUploadStore implements UploadStore {
  constructor(private readonly options: LocalStoreOptions) {}

  private policySignature(policy: string): string {
    return createHmac('sha256', this.options.secret).update(`giffer upload policy v1\n${policy}`).digest('hex')
  }

  private fileOf(key: string): string {
    return path.join(this.options.dir, ...key.split('/').slice(1))
  }

  async sign(): Promise<SignedUpload> {
    const key = newUploadKey(new Date(this.options.now()))
    const policy: LocalPolicy = { key, expires: this.options.now() + SIGNATURE_CACHE_MS, maxBytes: UPLOAD_MAX_BYTES }
    const encoded = Buffer.from(JSON.stringify(policy)).toString('base64url')
    return { url: this.options.uploadUrl, key, fields: { key, policy: encoded, signature: this.policySignature(encoded) } }
  }

  /** Checks the signed fields that precede the file; returns the signed key (ending in `${filename}`). */
  private checkPolicy(fields: Record<string, string>): string {
    const { policy, signature, key } = fields
    if (!policy || !signature || !key) throw new HttpError(403, 'bad_signature', 'The upload is not signed: post the fields from uploads/sign before the file.', 'policy')
    const expected = Buffer.from(this.policySignature(policy))
    const given = Buffer.from(signature)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new HttpError(403, 'bad_signature', 'The upload signature does not match.', 'signature')
    }
    let parsed: LocalPolicy
    try {
      parsed = JSON.parse(Buffer.from(policy, 'base64url').toString('utf8')) as LocalPolicy
    } catch {
      throw new HttpError(403, 'bad_signature', 'The upload policy cannot be read.', 'policy')
    }
    if (parsed.key !== key || !SIGNED_KEY.test(key)) throw new HttpError(403, 'bad_signature', 'The key is not the one that was signed.', 'key')
    if (!(parsed.expires > this.options.now())) throw new HttpError(403, 'expired', 'The upload signature has expired: ask for a new one.', 'policy')
    return key
  }

  /**
   * The upload target: a multipart form whose fields come before the file, as with S3. The file
   * goes to a temporary name and only becomes the key once every check has passed.
   */
  async receive(req: Request): Promise<string> {
    const contentType = req.headers['content-type'] ?? ''
    if (!/^multipart\/form-data/i.test(contentType)) throw new HttpError(415, 'unsupported_media_type', 'Post the upload as multipart/form-data.', 'body')
    const declared = Number(req.headers['content-length'])
    if (Number.isFinite(declared) && declared > UPLOAD_MAX_BYTES + 64 * 1024) {
      req.resume()
      throw tooBig()
    }
    let parser: busboy.Busboy
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 20, fieldSize: 8 * 1024, parts: 22 } })
    } catch {
      throw badRequest('body', 'is not a readable multipart form')
    }
    const tmpDir = path.join(this.options.dir, 'tmp')
    await mkdir(tmpDir, { recursive: true })
    const tmpFile = path.join(tmpDir, randomBytes(12).toString('hex'))
    try {
      const key = await this.readForm(req, parser, tmpFile)
      await assertDecodableSize(tmpFile)
      const target = this.fileOf(key)
      await mkdir(path.dirname(target), { recursive: true })
      if (await stat(target).then(() => true, () => false)) throw new HttpError(409, 'already_uploaded', 'A file of this name was already uploaded with this signature.', 'file')
      await rename(tmpFile, target)
      return key
    } finally {
      await rm(tmpFile, { force: true })
    }
  }

  /**
   * Reads the form into `tmpFile`: the signed fields first, then the one file, whose name fills
   * in the key. Resolves with the key once the file is written and its first bytes are an image.
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
          key = this.checkPolicy(fields).replace(FILENAME_PLACEHOLDER, info.filename ?? '')
          if (!UPLOAD_KEY.test(key)) throw badRequest('file', 'needs a file name of letters, digits, ".", "_" or "-" (at most 100)')
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
          if (!sniffImageType(head)) throw unsupportedType(info.filename)
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

  async describe(key: string): Promise<StoredUpload | null> {
    const file = this.fileOf(key)
    try {
      const handle = await open(file, 'r')
      try {
        const head = Buffer.alloc(16)
        await handle.read(head, 0, 16, 0)
        const type = sniffImageType(head)
        const { size } = await handle.stat()
        return type ? { type, size } : null
      } finally {
        await handle.close()
      }
    } catch {
      return null
    }
  }

  async read(key: string): Promise<Uint8Array> {
    return new Uint8Array(await readFile(this.fileOf(key)))
  }

  async open(key: string): Promise<{ body: Readable; upload: StoredUpload } | null> {
    const upload = await this.describe(key)
    return upload ? { body: createReadStream(this.fileOf(key)), upload } : null
  }
}

// ---------------------------------------------------------------------------------------------
// S3

export interface S3StoreOptions {
  bucket: string
  region: string
  endpoint?: string
  forcePathStyle: boolean
  credentials?: { accessKeyId: string; secretAccessKey: string }
}

export class S3UploadStore implements UploadStore {
  private readonly client: S3Client

  constructor(private readonly options: S3StoreOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
    })
  }

  async sign(): Promise<SignedUpload> {
    const key = newUploadKey()
    const { url, fields } = await createPresignedPost(this.client, {
      Bucket: this.options.bucket,
      Key: key,
      Conditions: [
        ['starts-with', '$key', key.slice(0, -FILENAME_PLACEHOLDER.length)],
        ['content-length-range', 1, UPLOAD_MAX_BYTES],
        ['starts-with', '$Content-Type', 'image/'],
        ['starts-with', '$Content-Disposition', ''],
      ],
      Expires: SIGNATURE_CACHE_MS / 1000,
    })
    return { url, key, fields }
  }

  private async head(key: string): Promise<Uint8Array | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key, Range: 'bytes=0-15' }))
      return object.Body ? await object.Body.transformToByteArray() : null
    } catch {
      return null
    }
  }

  async describe(key: string): Promise<StoredUpload | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }))
      const size = head.ContentLength ?? 0
      const first = size > 0 && size <= UPLOAD_MAX_BYTES ? await this.head(key) : null
      const type = first ? sniffImageType(first) : null
      return type ? { type, size } : null
    } catch {
      return null
    }
  }

  async read(key: string): Promise<Uint8Array> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }))
    if ((object.ContentLength ?? 0) > UPLOAD_MAX_BYTES || !object.Body) throw tooBig()
    return object.Body.transformToByteArray()
  }

  async open(key: string): Promise<{ body: Readable; upload: StoredUpload } | null> {
    const upload = await this.describe(key)
    if (!upload) return null
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }))
    return object.Body ? { body: object.Body as Readable, upload } : null
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
