/** What the two galleries' JSON endpoints share: their parameter rules, paging bounds and caching. */
import type { Request, Response } from 'express'
import { z } from 'zod'
import { TEMPLATE_ID } from '../../shared/gallery/paths.js'
import { badRequest } from '../process/errors.js'
import { parseRequest } from '../process/validation.js'
import { MAX_QUERY_LENGTH } from './query.js'

/** Most templates one page holds, and how many without `limit`. */
export const MAX_GALLERY_LIMIT = 100
export const DEFAULT_GALLERY_LIMIT = 24
/** Offsets past this are refused rather than answered with an empty page. */
export const MAX_GALLERY_OFFSET = 10_000

const CACHE = 'public, max-age=300, stale-while-revalidate=3600'

export const slugParam = z.string().regex(/^[a-z0-9-]{1,40}$/, 'must be a slug of lowercase letters, digits and dashes')
export const searchParam = z.string().max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`)
const allParam = z.enum(['1', '0', 'true', 'false'], 'must be 1 or 0')
const groupsQuery = z.object({ all: allParam.optional() })

const integerParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, 'must be a whole number')
    .transform(Number)
    .refine((value) => value >= min && value <= max, `must be between ${min} and ${max}`)

export const pagingParams = {
  offset: integerParam(0, MAX_GALLERY_OFFSET).optional(),
  limit: integerParam(1, MAX_GALLERY_LIMIT).optional(),
}

/** The page a query asks for: its offset and limit, or the first page of the default size. */
export const pageOf = (query: { offset?: number; limit?: number }) => ({ offset: query.offset ?? 0, limit: query.limit ?? DEFAULT_GALLERY_LIMIT })

/** The `{hid}` of the path, or a 400 when it is not a template id. */
export function templateIdOf(req: Request): string {
  const hid = String(req.params.hid)
  if (!TEMPLATE_ID.test(hid)) throw badRequest('hid', 'must be 8 lowercase letters or digits')
  return hid
}

/** A gallery's groups route: its two answers, made once, the visible groups and (`?all=1`) all of them. */
export const groupsRoute = (answers: { visible: unknown; all: unknown }) => (req: Request, res: Response) => {
  const { all } = parseRequest(groupsQuery, req.query, 'query')
  galleryJson(res, all === '1' || all === 'true' ? answers.all : answers.visible)
}

/** What both galleries' parts of /api/openapi.json say alike: answers and the shared parameters. */
export const openApiParts = {
  errorResponse: (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }),
  json: (description: string, ref: string) => ({ description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } }),
  notModified: { description: 'Not modified: the ETag sent in If-None-Match still matches' },
  allParameter: (description: string) => ({ name: 'all', in: 'query', required: false, description, schema: { type: 'string', enum: ['1', '0', 'true', 'false'] } }),
  searchParameter: (fields: string) => ({ name: 'q', in: 'query', required: false, description: `Words that must begin words of the ${fields}.`, schema: { type: 'string', maxLength: MAX_QUERY_LENGTH } }),
  pagingParameters: [
    { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, maximum: MAX_GALLERY_OFFSET, default: 0 } },
    { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_GALLERY_LIMIT, default: DEFAULT_GALLERY_LIMIT } },
  ],
} as const

/** Public gallery JSON: cached by browsers and CDNs for a while; Express adds the ETag. */
export function galleryJson(res: Response, body: unknown) {
  res.set('Cache-Control', CACHE)
  res.json(body)
}
