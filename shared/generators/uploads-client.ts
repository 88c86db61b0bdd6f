/**
 * Photo uploads to the image service, as S3's presigned POST: sign once (the signature serves
 * every file for 20 minutes), post each file with the signed fields to the signature's URL, then
 * resolve its key to the URL the slideshow request names.
 */
import { FILENAME_PLACEHOLDER, SIGNATURE_CACHE_MS, SLIDESHOW_MAX_IMAGES, sniffImageType, storedFileName, type UploadType } from './slideshow/slideshow.js'
import { GIFFER_BASE } from './giffer-client.js'

interface Signature {
  url: string
  key: string
  fields: Record<string, string>
}

/** Where an upload failed: signing is the service's fault, the other two may be the file's. */
export type UploadStage = 'sign' | 'upload' | 'resolve'

export class UploadError extends Error {
  override name = 'UploadError'
  constructor(
    message: string,
    readonly stage: UploadStage,
    readonly status?: number,
  ) {
    super(message)
  }
}

interface CachedSignature {
  signature: Promise<Signature>
  at: number
  /** Files already named under this signature: each needs a name of its own. */
  files: number
}

let cached: CachedSignature | null = null

function isSignature(value: unknown): value is Signature {
  if (!value || typeof value !== 'object') return false
  const { url, key, fields } = value as Record<string, unknown>
  return typeof url === 'string' && typeof key === 'string' && key.endsWith(FILENAME_PLACEHOLDER) && !!fields && typeof fields === 'object'
}

/** The longest a signature is waited for: it is shared by the photos asking at once, none of which may end the wait alone. */
const SIGN_TIMEOUT_MS = 30_000

async function requestSignature(): Promise<Signature> {
  let response: Response
  try {
    response = await fetch(`${GIFFER_BASE}uploads/sign`, { method: 'POST', headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(SIGN_TIMEOUT_MS) })
  } catch (error) {
    throw new UploadError(`Failed to get presign. ${error instanceof Error ? error.message : String(error)}`, 'sign')
  }
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok || !isSignature(body)) {
    const reason = (body as { error?: { message?: string } } | null)?.error?.message ?? `HTTP ${response.status}`
    throw new UploadError(`Failed to get presign. ${reason}`, 'sign', response.status)
  }
  return body
}

/**
 * The signature to use and a file name unused under it; a fresh one after 20 minutes, once it has
 * named as many files as a slideshow takes (the service keeps no more under one), or when asked.
 */
function signatureForNextFile(fresh: boolean, now: number): { signature: Promise<Signature>; sequence: number } {
  if (fresh || !cached || now - cached.at >= SIGNATURE_CACHE_MS || cached.files >= SLIDESHOW_MAX_IMAGES) {
    const entry: CachedSignature = { signature: requestSignature(), at: now, files: 0 }
    // A failed signing is not kept: the next file asks again.
    entry.signature.catch(() => {
      if (cached === entry) cached = null
    })
    cached = entry
  }
  cached.files += 1
  return { signature: cached.signature, sequence: cached.files }
}

/**
 * The type a photo is named and sent as: the one its first bytes show, since the service refuses
 * a name whose extension is not the file's real type. Only prepared photos are sent (JPEGs and
 * PNGs the browser has just encoded), so anything else is a mistake of the page's, sent nowhere.
 */
async function contentType(file: Blob): Promise<UploadType> {
  const type = sniffImageType(new Uint8Array(await file.slice(0, 12).arrayBuffer()))
  if (!type) throw new UploadError('Not a JPEG, PNG or WebP: not sent.', 'upload')
  return type
}

/** The longest one photo may take to send: 5 MB at 150 kbit/s, a weak mobile signal. */
export const UPLOAD_TIMEOUT_MS = 5 * 60_000

/** Share of the bytes sent so far, 0 to 1. */
export type UploadProgress = (sent: number) => void

/**
 * Posts a form with XMLHttpRequest, the one browser API that reports how much of a request body
 * has been sent (fetch does not).
 */
function postForm(url: string, form: FormData, signal: AbortSignal, onProgress: UploadProgress): Promise<{ status: number; statusText: string }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open('POST', url)
    request.timeout = UPLOAD_TIMEOUT_MS
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    }
    const fail = (reason: string) => () => reject(new UploadError(`Failed to upload file to S3. ${reason}`, 'upload'))
    request.onload = () => resolve({ status: request.status, statusText: request.statusText })
    request.onerror = fail('Network error')
    request.ontimeout = fail('Timed out')
    request.onabort = () => reject(signal.reason)
    if (signal.aborted) return reject(signal.reason)
    signal.addEventListener('abort', () => request.abort(), { once: true })
    request.send(form)
  })
}

/**
 * Posts one file under its own key in the signed folder. The key is written out here rather than
 * left to the store's `${filename}` replacement, which not every S3-compatible store performs.
 */
async function postFile(signature: Signature, file: Blob, name: string, type: UploadType, signal: AbortSignal, onProgress: UploadProgress): Promise<string> {
  const key = signature.key.replace(FILENAME_PLACEHOLDER, name)
  const form = new FormData()
  for (const [field, value] of Object.entries(signature.fields)) form.append(field, field === 'key' ? key : value)
  form.append('Content-Type', type)
  form.append('Content-Disposition', 'inline')
  // The file goes last: the target reads the signed fields first.
  form.append('file', file, name)
  const response = await postForm(signature.url, form, signal, onProgress)
  if (response.status < 200 || response.status > 299) throw new UploadError(`Failed to upload file to S3. Status: ${response.status} ${response.statusText}`.trim(), 'upload', response.status)
  return key
}

async function resolveKey(key: string, signal: AbortSignal): Promise<string> {
  const response = await fetch(`${GIFFER_BASE}uploads/resolve?${new URLSearchParams({ key })}`, { headers: { Accept: 'application/json' }, signal })
  const body = (await response.json().catch(() => null)) as { url?: unknown } | null
  if (!response.ok || typeof body?.url !== 'string') {
    throw new UploadError(`Couldn't resolve file URL. Status: ${response.status} ${response.statusText}`.trim(), 'resolve', response.status)
  }
  return body.url
}

/**
 * Uploads one photo and resolves to the URL the image service reads it from. A signature the
 * upload target refuses (expired, made by another server, or its folder full) is replaced once.
 */
export async function uploadImage(file: Blob, signal: AbortSignal, onProgress: UploadProgress = () => {}): Promise<string> {
  const type = await contentType(file)
  for (let attempt = 0; ; attempt++) {
    const { signature, sequence } = signatureForNextFile(attempt > 0, Date.now())
    const signed = await signature
    try {
      const key = await postFile(signed, file, storedFileName(sequence, type), type, signal, onProgress)
      return await resolveKey(key, signal)
    } catch (error) {
      if (attempt === 0 && error instanceof UploadError && error.stage === 'upload' && error.status === 403) continue
      throw error
    }
  }
}
