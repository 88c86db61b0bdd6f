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

export function badRequest(field: string, message: string): HttpError {
  return new HttpError(400, 'invalid_parameter', `${field}: ${message}`, field)
}

export interface ErrorBody {
  error: { code: string; message: string; field?: string }
}

export function errorBody(code: string, message: string, field?: string): ErrorBody {
  return { error: field ? { code, message, field } : { code, message } }
}

/**
 * Turns any error thrown under a JSON mount into the body of DESIGN §3. Errors from body parsing
 * (malformed JSON, too large) arrive with a status of their own and stay 4xx.
 */
export const jsonErrorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  if (error instanceof HttpError) {
    res.status(error.status).json(errorBody(error.code, error.message, error.field))
    return
  }
  const status = typeof error?.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 500
  if (status === 500) req.log?.error({ err: error }, 'unhandled error')
  const code = status === 500 ? 'internal_error' : (error?.type ?? 'bad_request')
  const message = status === 500 ? 'Something went wrong on our side.' : String(error?.message ?? 'Bad request')
  res.status(status).json(errorBody(code, message))
}
