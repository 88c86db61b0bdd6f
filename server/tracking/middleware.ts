import type { Request, RequestHandler, Response } from 'express'
import { parse as parseCookies, serialize, type SerializeOptions } from 'cookie'
import type { Logger } from 'pino'
import type { z } from 'zod'
import { isRouterPath } from '../../shared/pages.js'
import { sessionStateSchema, trafficStateSchema } from '../schemas/tracking.js'
import { recordPageView, SESSION_MINUTES, TRAFFIC_COOKIE_DAYS } from './traffic.js'

export const TRAFFIC_COOKIE = 'pl_traffic'
export const SESSION_COOKIE = 'pl_session'
export const REFERRAL_COOKIE = 'pl_ref'
/** A referral is remembered for 60 days. */
export const REFERRAL_COOKIE_DAYS = 60
/** The partner tracking call gives up after this long; a page never waits for it. */
const REFERRAL_CALL_TIMEOUT_MS = 3000
const DAY_SECONDS = 86_400

const REFERRAL_CODE = /^[A-Za-z0-9_-]{1,64}$/

/** A cookie's JSON, or null when it is missing or was tampered into something else. */
function readJsonCookie<T>(value: string | undefined, schema: z.ZodType<T>): T | null {
  if (!value) return null
  try {
    const parsed = schema.safeParse(JSON.parse(value))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export interface TrackingOptions {
  /** Public origin of the site: its host is "internal" as a referrer, https makes cookies Secure. */
  origin: string
  /** Tells the dashboard about a new referral; resolves or rejects, never awaited by a page. */
  trackReferral: ((code: string, signal: AbortSignal) => Promise<void>) | null
  logger: Logger
  now?: () => Date
  random?: () => number
}

/** A page view is a GET of a page this site draws, as a document or as client-navigation data. */
function isPageView(req: Request): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && isRouterPath(req.path)
}

/**
 * Sets the traffic-source cookies on every page view and the referral cookie on a first `?ref=`.
 * Cookies travel only in response headers, so cached page bodies stay the same for everyone.
 */
export function trafficCookies({ origin, trackReferral, logger, now = () => new Date(), random = Math.random }: TrackingOptions): RequestHandler {
  const siteHost = new URL(origin).hostname
  const base: SerializeOptions = { path: '/', sameSite: 'lax', secure: origin.startsWith('https:') }

  const append = (res: Response, cookie: string) => res.append('Set-Cookie', cookie)

  return (req, res, next) => {
    if (!isPageView(req)) return next()
    const cookies = parseCookies(req.headers.cookie ?? '')
    // The origin is configured, never taken from the request.
    const url = new URL(origin + req.originalUrl)
    url.searchParams.delete('_data')
    // A client-side navigation's data request carries the page as its referrer, not the landing.
    const referrer = req.query._data === undefined ? req.get('referer') : `${origin}/`

    const { traffic, session } = recordPageView({
      url,
      referrer,
      siteHost,
      now: now(),
      traffic: readJsonCookie(cookies[TRAFFIC_COOKIE], trafficStateSchema),
      session: readJsonCookie(cookies[SESSION_COOKIE], sessionStateSchema),
      random,
    })
    append(res, serialize(TRAFFIC_COOKIE, JSON.stringify(traffic), { ...base, maxAge: TRAFFIC_COOKIE_DAYS * DAY_SECONDS }))
    append(res, serialize(SESSION_COOKIE, JSON.stringify(session), { ...base, maxAge: SESSION_MINUTES * 60 }))

    const ref = url.searchParams.get('ref')
    if (ref !== null && REFERRAL_CODE.test(ref) && !cookies[REFERRAL_COOKIE]) {
      // Readable by the page: sign-up sends the referral along with the other tracking data.
      append(res, serialize(REFERRAL_COOKIE, ref, { ...base, maxAge: REFERRAL_COOKIE_DAYS * DAY_SECONDS }))
      trackReferral?.(ref, AbortSignal.timeout(REFERRAL_CALL_TIMEOUT_MS)).catch((error: unknown) => {
        logger.warn({ err: error, ref }, 'partner tracking call failed')
      })
    }
    next()
  }
}

/**
 * Tells the dashboard about a visitor's first referral: GET {dashboard}/api/v1/partners/track?r={code}&e=unique,
 * redirects refused; anything but a 2xx answer is an error.
 */
export function dashboardReferralTracker(dashboardUrl: string) {
  return async (code: string, signal: AbortSignal) => {
    const url = new URL('api/v1/partners/track', dashboardUrl.endsWith('/') ? dashboardUrl : `${dashboardUrl}/`)
    url.searchParams.set('r', code)
    url.searchParams.set('e', 'unique')
    const response = await fetch(url, { signal, redirect: 'error' })
    if (!response.ok) throw new Error(`partner tracking answered ${response.status}`)
  }
}
