import type { ErrorRequestHandler } from 'express'

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

export function badRequest(field: string, message: string): HttpError {
  return new HttpError(400, 'invalid_parameter', `${field}: ${message}`, field)
}

export interface ErrorBody {
  error: { code: string; message: string; field?: string }
}

export function errorBody(code: string, message: string, field?: string): ErrorBody {
  return { error: field ? { code, message, field } : { code, message } }
}

interface ClientErrorAnswer {
  status: number
  code: string
  message: string
  field?: string
}

/** What the body parsers (express.json) report, by the `type` they give their errors. */
const BODY_PARSER_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  'entity.parse.failed': { status: 400, code: 'invalid_json', message: 'The request body is not valid JSON.' },
  'entity.too.large': { status: 413, code: 'too_large', message: 'The request body is too large.' },
  'encoding.unsupported': { status: 415, code: 'unsupported_encoding', message: 'The request body encoding is not supported.' },
  'charset.unsupported': { status: 415, code: 'unsupported_charset', message: 'The request body charset is not supported.' },
  'request.aborted': { status: 400, code: 'aborted', message: 'The request was aborted.' },
}

export interface JsonErrorHandlerOptions {
  /** The log message for unexpected errors, which answer 500. */
  logMessage: string
  /**
   * Errors that are not HttpErrors (from body parsing, routing):
   * - `'status'`: one carrying a 4xx `status` answers with it, its `type` as code and its own message;
   * - `'body-parser'`: only the body parser's known failures answer 4xx, with fixed codes and
   *   messages and the field `body`; anything else is a 500.
   */
  clientErrors: 'status' | 'body-parser'
}

/** The fields an error from a library may carry. */
type ErrorLike = { status?: unknown; type?: unknown; message?: unknown } | null | undefined

function clientErrorAnswer(error: ErrorLike, mode: JsonErrorHandlerOptions['clientErrors']): ClientErrorAnswer | undefined {
  if (mode === 'body-parser') {
    const known = typeof error?.type === 'string' ? BODY_PARSER_ERRORS[error.type] : undefined
    return known && { ...known, field: 'body' }
  }
  if (typeof error?.status === 'number' && error.status >= 400 && error.status < 500) {
    return { status: error.status, code: (error.type ?? 'bad_request') as string, message: String(error.message ?? 'Bad request') }
  }
  return undefined
}

/**
 * The error handler of a JSON mount: every error becomes `{"error":{"code","message","field"}}`.
 * HttpErrors keep their status (a ServiceBusyError adds Retry-After, and the request log names
 * the answer by `res.locals.errorCode`); only real bugs are 500s, and logged.
 */
export function createJsonErrorHandler(options: JsonErrorHandlerOptions): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      res.destroy()
      return
    }
    if (error instanceof ServiceBusyError) res.set('Retry-After', String(error.retryAfterSeconds))
    if (error instanceof HttpError) {
      res.locals.errorCode = error.code
      res.status(error.status).json(errorBody(error.code, error.message, error.field))
      return
    }
    const answer = clientErrorAnswer(error, options.clientErrors)
    if (answer) {
      res.status(answer.status).json(errorBody(answer.code, answer.message, answer.field))
      return
    }
    req.log?.error({ err: error }, options.logMessage)
    res.status(500).json(errorBody('internal_error', 'Something went wrong on our side.'))
  }
}

/**
 * The site's JSON mounts (/api): errors from body parsing (malformed JSON, too large) arrive
 * with a status of their own and stay 4xx.
 */
export const jsonErrorHandler = createJsonErrorHandler({ logMessage: 'unhandled error', clientErrors: 'status' })
