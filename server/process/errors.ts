import type { ErrorRequestHandler, Request, Response } from 'express'

/** An error that belongs to the client: it carries the HTTP status, a code and, for bad input, the field. */
export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message)
  }
}

/** 503 with a Retry-After: a service is saturated or a job ran out of time. */
export class ServiceBusyError extends HttpError {
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(503, code, message)
  }
}

/** 429 with a Retry-After: one address or one account tried too often. */
export class TooManyAttempts extends HttpError {
  override name = 'TooManyAttempts'
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'rate_limited', `Too many attempts. Try again in ${retryAfterSeconds} ${retryAfterSeconds === 1 ? 'second' : 'seconds'}.`)
  }
}

export function badRequest(field: string, message: string): HttpError {
  return new HttpError(400, 'invalid_parameter', `${field}: ${message}`, field)
}

export interface ErrorBody {
  error: { code: string; message: string; field?: string }
}

export function errorBody(code: string, message: string, field?: string): ErrorBody {
  return { error: field ? { code, message, field } : { code, message } }
}

/** What the client is told about a failed request: status, a stable code, a message, maybe the field. */
export interface ErrorAnswer {
  status: number
  code: string
  message: string
  field?: string
  retryAfterSeconds?: number
}

/** What the body parsers (express.json, express.urlencoded) report, by the `type` they give their errors. */
const BODY_PARSER_ERRORS: Record<string, Omit<ErrorAnswer, 'field'>> = {
  'entity.parse.failed': { status: 400, code: 'invalid_json', message: 'The request body is not valid JSON.' },
  'entity.too.large': { status: 413, code: 'too_large', message: 'The request body is too large.' },
  'entity.verify.failed': { status: 403, code: 'invalid_body', message: 'The request body was refused.' },
  'parameters.too.many': { status: 413, code: 'too_many_fields', message: 'The form has too many fields.' },
  'encoding.unsupported': { status: 415, code: 'unsupported_encoding', message: 'The request body encoding is not supported.' },
  'charset.unsupported': { status: 415, code: 'unsupported_charset', message: 'The request body charset is not supported.' },
  'request.aborted': { status: 400, code: 'aborted', message: 'The request was aborted.' },
  'request.size.invalid': { status: 400, code: 'invalid_length', message: 'The request body does not match its Content-Length.' },
}

/** The fields an error from a library (body-parser, the router, serve-static) may carry. */
type ErrorLike = { status?: unknown; statusCode?: unknown; type?: unknown; code?: unknown; message?: unknown; expose?: unknown } | null | undefined

const HTTP_STATUS_TEXT: Record<number, string> = { 400: 'Bad request.', 404: 'Not found.', 405: 'Method not allowed.', 413: 'Too large.', 415: 'Unsupported media type.' }

/**
 * Every error the process can meet, as the client should hear it. HttpErrors keep what they say;
 * errors of the libraries that carry a 4xx status (malformed path encoding, a missing static
 * file, a body that does not decompress, too many form fields) keep their status with a clear
 * message; anything else is a fault of ours: 500, and the message says nothing of its cause.
 */
export function errorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof HttpError) {
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      field: error.field,
      retryAfterSeconds: error instanceof ServiceBusyError || error instanceof TooManyAttempts ? error.retryAfterSeconds : undefined,
    }
  }
  const like = error as ErrorLike
  const status = typeof like?.status === 'number' ? like.status : typeof like?.statusCode === 'number' ? like.statusCode : 500
  if (status < 400 || status >= 500) return { status: 500, code: 'internal_error', message: 'Something went wrong on our side.' }
  const known = typeof like?.type === 'string' ? BODY_PARSER_ERRORS[like.type] : undefined
  if (known) return { ...known, field: 'body' }
  const message = typeof like?.message === 'string' ? like.message : ''
  if (message.startsWith('Failed to decode param')) {
    return { status: 400, code: 'invalid_path', message: 'The path is not valid percent-encoding.', field: 'path' }
  }
  if (typeof like?.code === 'string' && /^(Z_|ERR__)/.test(like.code)) {
    return { status: 400, code: 'invalid_body', message: 'The request body could not be decompressed as its Content-Encoding says.', field: 'body' }
  }
  if (status === 404) return { status, code: 'not_found', message: 'Not found.' }
  return { status, code: 'bad_request', message: like?.expose === true && message ? message : (HTTP_STATUS_TEXT[status] ?? 'Bad request.') }
}

/**
 * Logs a failed request at the level it deserves: a fault of ours (5xx) at error level with its
 * stack; a client's mistake (4xx) is already in the request line, so only at debug level here, by
 * the code and field it was answered with. Never the client's error itself: a body parser's error
 * carries the body it refused (as `body`, and V8 quotes its start in a JSON error's message),
 * which may hold a password or a recipient's address.
 */
export function logRequestError(req: Request, answer: ErrorAnswer, error: unknown, message: string): void {
  if (answer.status >= 500 && !answer.retryAfterSeconds) req.log?.error({ err: error }, message)
  else req.log?.debug({ code: answer.code, field: answer.field }, 'client error')
}

/**
 * An error handler for one mount: turns any error into `errorAnswer`, logs it, sets
 * `res.locals.errorCode` (the request log names answers by it) and Retry-After, then lets
 * `send` write the body in the mount's own shape.
 */
export function createErrorHandler(logMessage: string, send: (res: Response, answer: ErrorAnswer, error: unknown) => void): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      res.destroy()
      return
    }
    const answer = errorAnswer(error)
    logRequestError(req, answer, error, logMessage)
    res.locals.errorCode = answer.code
    if (answer.retryAfterSeconds) res.set('Retry-After', String(answer.retryAfterSeconds))
    send(res, answer, error)
  }
}

/** The JSON mounts (the site's /api, the image service): `{"error":{"code","message","field"}}`. */
export function createJsonErrorHandler(logMessage: string): ErrorRequestHandler {
  return createErrorHandler(logMessage, (res, answer) => {
    res.status(answer.status).json(errorBody(answer.code, answer.message, answer.field))
  })
}

export const jsonErrorHandler = createJsonErrorHandler('unhandled error')

/** The last stop of the one error path: what no mount answered in its own shape, as plain text. */
export const plainTextErrorHandler = createErrorHandler('request failed', (res, answer) => {
  res.status(answer.status).type('text/plain').send(answer.status === 500 ? 'Something went wrong.' : answer.message)
})
