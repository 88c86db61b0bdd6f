import type { ErrorRequestHandler } from 'express'
import { HttpError, errorBody } from '../errors.js'

/** 503 with a Retry-After: the pool is saturated or a job ran out of time. */
export class ServiceBusyError extends HttpError {
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(503, code, message)
  }
}

const BODY_PARSER_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  'entity.parse.failed': { status: 400, code: 'invalid_json', message: 'The request body is not valid JSON.' },
  'entity.too.large': { status: 413, code: 'too_large', message: 'The request body is too large.' },
  'encoding.unsupported': { status: 415, code: 'unsupported_encoding', message: 'The request body encoding is not supported.' },
  'charset.unsupported': { status: 415, code: 'unsupported_charset', message: 'The request body charset is not supported.' },
  'request.aborted': { status: 400, code: 'aborted', message: 'The request was aborted.' },
}

/** Every giffer error as `{"error":{"code","message","field"}}`; only real bugs are 500s, and logged. */
export const gifferErrorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  if (res.headersSent) {
    res.destroy()
    return
  }
  if (error instanceof ServiceBusyError) res.set('Retry-After', String(error.retryAfterSeconds))
  if (error instanceof HttpError) {
    // The request log names load-shedding answers by their code.
    res.locals.errorCode = error.code
    res.status(error.status).json(errorBody(error.code, error.message, error.field))
    return
  }
  const known = typeof error?.type === 'string' ? BODY_PARSER_ERRORS[error.type] : undefined
  if (known) {
    res.status(known.status).json(errorBody(known.code, known.message, 'body'))
    return
  }
  req.log?.error({ err: error }, 'giffer error')
  res.status(500).json(errorBody('internal_error', 'Something went wrong on our side.'))
}
