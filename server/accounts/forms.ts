/**
 * What a form posted to a page goes through before its action runs: the same-origin check, the
 * per-address limit of its kind, and a small urlencoded body. Pages are found by the same route
 * matching the page handler uses, so no spelling of a path (case, trailing slash) goes around.
 */
import express, { type RequestHandler } from 'express'
import { pageIdAt, type PageId } from '../../shared/pages.js'
import { sameOriginOnly } from '../dashboard/csrf.js'
import type { AccountLimiters } from './rate-limits.js'

const FORM_LIMITS: Partial<Record<PageId, keyof AccountLimiters>> = {
  login: 'login',
  signup: 'register',
  reset: 'reset',
  'reset-new': 'resetConfirm',
}

export function pageForms(options: { siteOrigin: string; appOrigin: string | null; limiters: AccountLimiters }): RequestHandler {
  const checkOrigin = sameOriginOnly(options.siteOrigin, options.appOrigin ? [options.appOrigin] : [])
  const parse = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 })
  const limiters = new Map(Object.entries(FORM_LIMITS).map(([id, kind]) => [id, options.limiters[kind]]))
  return (req, res, next) => {
    if (req.method !== 'POST') return next()
    const id = pageIdAt(req.path)
    const limit = id === undefined ? undefined : limiters.get(id)
    // Posts to other pages get their 405 from the page handler.
    if (!limit) return next()
    checkOrigin(req, res, (error?: unknown) => {
      if (error) return next(error)
      limit(req, res, (error?: unknown) => (error ? next(error) : parse(req, res, next)))
    })
  }
}
