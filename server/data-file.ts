/**
 * Reading the site's data files: JSON checked against its schema, and one way of saying what is
 * wrong, naming the file and its first problems, so that a bad file stops the start clearly.
 */
import fs from 'node:fs'
import type { z } from 'zod'

type ErrorClass = new (message: string) => Error

/** A data file that is missing, malformed or fails its checks (for readers without an error class of their own). */
export class DataFileError extends Error {
  override name = 'DataFileError'
}

/** The value, checked; otherwise an error of the given class naming the file and up to 5 issues. */
export function checkDataWith<S extends z.ZodType>(schema: S, value: unknown, file: string, Failure: ErrorClass): z.output<S> {
  const result = schema.safeParse(value)
  if (!result.success) {
    const issues = result.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    throw new Failure(`${file}: ${issues.join('; ')}`)
  }
  return result.data
}

/** A JSON data file, parsed and checked; an unreadable or malformed file is named as well. */
export function readDataFile<S extends z.ZodType>(file: string, schema: S, Failure: ErrorClass, read = (name: string) => fs.readFileSync(name, 'utf8')): z.output<S> {
  let raw: unknown
  try {
    raw = JSON.parse(read(file))
  } catch (error) {
    if (error instanceof Failure) throw error
    throw new Failure(`${file}: ${(error as Error).message}`)
  }
  return checkDataWith(schema, raw, file, Failure)
}
