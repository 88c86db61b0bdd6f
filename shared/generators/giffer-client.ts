/**
 * Calls to the image service from the generator pages. Errors become `GeneratorError`s that
 * carry the message and, when the service named one, the field at fault.
 */

/** The image service, on the site's own origin (served in-process or proxied). */
export const GIFFER_BASE = '/giffer/'

/** The lead of the error block every generator shows in its result area. */
export const GENERIC_FAILURE = 'Something went wrong. Please try again.'
export const NO_IMAGE = 'Image was not generated'

export class GeneratorError extends Error {
  override name = 'GeneratorError'
  constructor(
    message: string,
    /** The request field the service named (`days`, `images.2`). */
    readonly field?: string,
  ) {
    super(message)
  }
}

/** `{"error":{"message","field"}}` from the service, else "HTTP {status}". */
export async function failureOf(response: Response): Promise<GeneratorError> {
  try {
    const body = (await response.json()) as { error?: { message?: unknown; field?: unknown } }
    const { message, field } = body.error ?? {}
    if (typeof message === 'string' && message) return new GeneratorError(message, typeof field === 'string' ? field : undefined)
  } catch {
    // Not JSON: a proxy's page or an empty body.
  }
  return new GeneratorError(`HTTP ${response.status}`)
}

async function postJson(path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  const response = await fetch(GIFFER_BASE + path, {
    method: 'POST',
    headers: { Accept: 'application/json, image/*', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  })
  if (!response.ok) throw await failureOf(response)
  return response
}

/** POSTs a request the service answers with an image; an empty answer is an error. */
export async function postForImage(path: string, body: unknown, signal?: AbortSignal): Promise<Blob> {
  const blob = await (await postJson(path, body, signal)).blob()
  if (blob.size === 0 || !blob.type.startsWith('image/')) throw new GeneratorError(NO_IMAGE)
  return blob
}

export async function postForJson<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  return (await (await postJson(path, body, signal)).json()) as T
}

/** What to show beside a field: the service's message without the field name it starts with. */
export function fieldMessage(error: GeneratorError): string {
  return error.field && error.message.startsWith(`${error.field}: `) ? error.message.slice(error.field.length + 2) : error.message
}

export function asGeneratorError(error: unknown): GeneratorError {
  if (error instanceof GeneratorError) return error
  return new GeneratorError(error instanceof Error && error.message ? error.message : String(error))
}
