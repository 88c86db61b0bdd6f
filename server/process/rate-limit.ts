/**
 * A per-address limit on a route: so many requests per window from one address (IPv6 counted per
 * /56, the block one customer gets), then 429 with Retry-After. Counted in this process's memory,
 * or in the store given: the shared counters (Redis) when every process must count together.
 */
import type { Request, RequestHandler, Response } from 'express'
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit'
import { TooManyAttempts } from './errors.js'

export interface Limit {
  /** Requests allowed per window from one address. */
  limit: number
  windowMs: number
}

/** How a route answers past its limit; unset: the process's one error path (`TooManyAttempts`). */
export type OverLimit = (req: Request, res: Response, retryAfterSeconds: number) => void

/** Which answers a limit counts: every one (unset), only those under 400, or only 400 and over. */
export type Counted = 'all' | 'succeeded' | 'failed'

export function perAddressLimit(limits: Limit, store?: Store, overLimit?: OverLimit, counted: Counted = 'all'): RequestHandler {
  return perKeyLimit(limits, (req) => ipKeyGenerator(req.ip ?? 'unknown', 56), store, overLimit, counted)
}

/** So many requests per window for one key of the request's (a timer's id, say), then 429 with Retry-After. */
export function perKeyLimit({ limit, windowMs }: Limit, key: (req: Request) => string, store?: Store, overLimit?: OverLimit, counted: Counted = 'all'): RequestHandler {
  return rateLimit({
    windowMs,
    limit,
    skipFailedRequests: counted === 'succeeded',
    skipSuccessfulRequests: counted === 'failed',
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    // Unset: express-rate-limit's own memory store, which is right for one process.
    ...(store ? { store } : {}),
    keyGenerator: key,
    // The image service is made on its first request (so a site that never draws starts no threads),
    // and its limits with it: on purpose, not the mistake this check looks for.
    validate: { creationStack: false },
    handler: (req, res, next) => {
      const resetTime = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime
      const seconds = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000))
      if (overLimit) overLimit(req, res, seconds)
      else next(new TooManyAttempts(seconds))
    },
  })
}
