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
  const missing = issue.code === 'invalid_type' && valueAt(input ?? {}, issue.path) === undefined
  throw badRequest(field, missing ? 'is required' : issue.message)
}

/** The value at a path of the input as given (zod's issues do not carry it), or undefined where there is none. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let at = input
  for (const step of path) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, step)) return undefined
    at = (at as Record<PropertyKey, unknown>)[step]
  }
  return at
}
