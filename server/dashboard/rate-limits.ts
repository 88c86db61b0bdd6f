/**
 * Per-address limits on the account routes, attached to the routes themselves (so no spelling
 * of a path can go around them). IPv6 addresses count per /56, the block one customer gets.
 */
import type { RequestHandler } from 'express'
import { ipKeyGenerator, rateLimit } from 'express-rate-limit'
import { TooManyAttempts } from '../errors.js'

export interface Limit {
  /** Requests allowed per window from one address. */
  limit: number
  windowMs: number
}

export interface DashboardLimits {
  login: Limit
  register: Limit
  reset: Limit
  /** The subject line generator, which may call a paid language model. */
  subjects: Limit
}

const MINUTE = 60_000

export const DEFAULT_LIMITS: DashboardLimits = {
  login: { limit: 10, windowMs: MINUTE },
  register: { limit: 5, windowMs: 10 * MINUTE },
  reset: { limit: 5, windowMs: 10 * MINUTE },
  subjects: { limit: 20, windowMs: 10 * MINUTE },
}

/**
 * One counter per kind of account request, shared by the dashboard's routes and the forms
 * posted to the site's pages, so an address gets the stated budget once, whichever way it asks.
 */
export interface AccountLimiters {
  login: RequestHandler
  register: RequestHandler
  reset: RequestHandler
  resetConfirm: RequestHandler
}

export function accountLimiters(limits: DashboardLimits): AccountLimiters {
  return { login: limiter(limits.login), register: limiter(limits.register), reset: limiter(limits.reset), resetConfirm: limiter(limits.reset) }
}

export function limiter({ limit, windowMs }: Limit): RequestHandler {
  return rateLimit({
    windowMs,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? 'unknown', 56),
    handler: (req, res) => {
      const resetTime = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime
      const seconds = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000))
      res
        .status(429)
        .set('Retry-After', String(seconds))
        .set('Cache-Control', 'no-store')
        .json({ message: new TooManyAttempts(seconds).message })
    },
  })
}
