/**
 * The dashboard's error bodies, which the site's forms read: `{"errors": {"email": ["…"]}}` for
 * problems with a field, `{"message": "…"}` for the rest.
 */
import type { ErrorRequestHandler } from 'express'
import { ServiceBusyError } from '../errors.js'

/** Refused input: messages per field, or one message for the whole request. */
export class FieldErrors extends Error {
  override name = 'FieldErrors'
  constructor(
    readonly fields: Record<string, string>,
    message?: string,
    readonly status = 400,
  ) {
    super(message ?? Object.values(fields)[0] ?? 'Bad request')
  }

  get body(): DashboardErrorBody {
    const entries = Object.entries(this.fields)
    return entries.length ? { errors: Object.fromEntries(entries.map(([field, text]) => [field, [text]])) } : { message: this.message }
  }
}

/** Too many tries: 429 with Retry-After. */
export class TooManyAttempts extends Error {
  override name = 'TooManyAttempts'
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many attempts. Try again in ${retryAfterSeconds} ${retryAfterSeconds === 1 ? 'second' : 'seconds'}.`)
  }
}

export type DashboardErrorBody = { errors: Record<string, string[]> } | { message: string }

/** What the body parser reports, in the dashboard's own words. */
const BODY_PARSER_ERRORS: Record<string, { status: number; message: string }> = {
  'entity.parse.failed': { status: 400, message: 'The request body is not valid JSON.' },
  'entity.too.large': { status: 413, message: 'The request body is too large.' },
  'encoding.unsupported': { status: 415, message: 'The request body encoding is not supported.' },
  'charset.unsupported': { status: 415, message: 'The request body charset is not supported.' },
  'request.aborted': { status: 400, message: 'The request was aborted.' },
}

export const dashboardErrorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  if (res.headersSent) {
    res.destroy()
    return
  }
  res.set('Cache-Control', 'no-store')
  if (error instanceof FieldErrors) {
    res.status(error.status).json(error.body)
    return
  }
  if (error instanceof TooManyAttempts) {
    res.set('Retry-After', String(error.retryAfterSeconds)).status(429).json({ message: error.message })
    return
  }
  if (error instanceof ServiceBusyError) {
    res.locals.errorCode = error.code
    res.set('Retry-After', String(error.retryAfterSeconds)).status(503).json({ message: error.message })
    return
  }
  const known = typeof error?.type === 'string' ? BODY_PARSER_ERRORS[error.type] : undefined
  if (known) {
    res.status(known.status).json({ message: known.message })
    return
  }
  req.log?.error({ err: error }, 'dashboard request failed')
  res.status(500).json({ message: 'Server error' })
}
