/**
 * Per-address limits on the account routes, attached to the routes themselves (so no spelling
 * of a path can go around them). IPv6 addresses count per /56, the block one customer gets.
 */
import type { RequestHandler } from 'express'
import type { SharedCounters } from '../process/shared-counters.js'
import { TooManyAttempts } from '../process/errors.js'
import { perAddressLimit, type Limit } from '../process/rate-limit.js'

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
 * posted to the site's pages, so an address gets the stated budget once, whichever way it asks;
 * and, with shared counters (Redis), whichever process it reaches.
 */
export interface AccountLimiters {
  login: RequestHandler
  register: RequestHandler
  reset: RequestHandler
  resetConfirm: RequestHandler
  resetCheck: RequestHandler
  subjects: RequestHandler
}

export function accountLimiters(limits: DashboardLimits, counters: SharedCounters | null = null): AccountLimiters {
  const make = (name: keyof AccountLimiters, limit: Limit) => limiter(limit, counters?.rateLimitStore(name))
  return {
    login: make('login', limits.login),
    register: make('register', limits.register),
    reset: make('reset', limits.reset),
    resetConfirm: make('resetConfirm', limits.reset),
    resetCheck: make('resetCheck', limits.reset),
    subjects: make('subjects', limits.subjects),
  }
}

/** The account routes answer `{message}`, which the forms show as it is. */
function limiter(limit: Limit, store?: Parameters<typeof perAddressLimit>[1]): RequestHandler {
  return perAddressLimit(limit, store, (_req, res, seconds) => {
    res.status(429).set('Retry-After', String(seconds)).set('Cache-Control', 'no-store').json({ message: new TooManyAttempts(seconds).message })
  })
}
