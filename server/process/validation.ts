import type { z } from 'zod'
import { badRequest } from './errors.js'

/**
 * Parses request input (a body, a query) with a zod schema and returns the schema's output.
 * The first problem becomes a 400 `invalid_parameter` naming its field (`images.2` for a list
 * entry); a problem with the input as a whole names `whole` ('body' or 'query'). A missing
 * field reads "is required" whatever the schema's own message for a wrong type.
 */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown, whole = 'body'): z.output<S> {
  const result = schema.safeParse(input ?? {})
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  const field = issue.path.length ? issue.path.join('.') : whole
  const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message
  throw badRequest(field, message)
}
