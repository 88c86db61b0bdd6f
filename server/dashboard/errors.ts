/**
 * The dashboard's error bodies, which the site's forms read: `{"errors": {"email": ["…"]}}` for
 * problems with a field, `{"message": "…"}` for the rest.
 */
import type { ErrorRequestHandler } from 'express'
import { createErrorHandler, TooManyAttempts } from '../process/errors.js'

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

export { TooManyAttempts }

export type DashboardErrorBody = { errors: Record<string, string[]> } | { message: string }

/**
 * The dashboard's answers to every error: refused fields as `{"errors": …}`, the rest as
 * `{"message": …}` in the status the shared error path gives (4xx for a client's mistake, 429 and
 * 503 with Retry-After, 500 only for a fault of ours, and then without its cause).
 */
export const dashboardErrorHandler: ErrorRequestHandler = (error, req, res, next) => {
  res.set('Cache-Control', 'no-store')
  if (error instanceof FieldErrors && !res.headersSent) {
    res.status(error.status).json(error.body)
    return
  }
  sendDashboardError(error, req, res, next)
}

const sendDashboardError = createErrorHandler('dashboard request failed', (res, answer) => {
  res.status(answer.status).json({ message: answer.status === 500 ? 'Server error' : answer.message })
})
