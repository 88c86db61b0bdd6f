import express, { type Request, type Response } from 'express'
import { parse as parseCookies, serialize, type SerializeOptions } from 'cookie'
import type { Logger } from 'pino'
import { z } from 'zod'
import { isRouterPath } from '../../shared/pages.js'
import { REFERRAL_COOKIE, SESSION_COOKIE, TRAFFIC_COOKIE, VISIT_BEACON_PATH, VISIT_PIXEL_PATH, VISIT_URL_MAX } from '../../shared/tracking/tracking.js'
import { sameOriginOnly } from '../dashboard/csrf.js'
import { jsonErrorHandler } from '../process/errors.js'
import { parseRequest } from '../process/validation.js'
import { sessionStateSchema, trafficStateSchema } from './schema.js'
import { recordPageView, SESSION_MINUTES, TRAFFIC_COOKIE_DAYS } from './traffic.js'
import { serviceUrl } from '../process/upstream-proxy.js'

/** A referral is remembered for 60 days. */
export const REFERRAL_COOKIE_DAYS = 60
/** The partner tracking call gives up after this long; a page never waits for it. */
const REFERRAL_CALL_TIMEOUT_MS = 3000
const DAY_SECONDS = 86_400

const REFERRAL_CODE = /^[A-Za-z0-9_-]{1,64}$/

/** A transparent 1×1 GIF: the answer to the no-script page-view image. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')

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
  /** Tells the dashboard of a visitor's first referral; `address` is the visitor's, as `trust proxy` reads it. */
  trackReferral: ((code: string, address: string | undefined, signal: AbortSignal) => Promise<void>) | null
  logger: Logger
  now?: () => Date
  random?: () => number
}

const reportSchema = z.object({
  url: z.string().max(VISIT_URL_MAX).regex(/^\/(?![/\\])/, 'must be a path of this site'),
  referrer: z.string().max(VISIT_URL_MAX).default(''),
})

/**
 * The page-view reports that set the traffic-source cookies (and the referral cookie on a first
 * `?ref=`): `POST /track/visit` from the page's script, `GET /track/visit.gif` from its
 * `<noscript>` image, which names the page in its Referer (the image asks for that). Pages carry
 * no cookies, so a shared cache may keep them; these answers are never kept.
 */
export function visitTracking({ origin, trackReferral, logger, now = () => new Date(), random = Math.random }: TrackingOptions): express.Router {
  const siteHost = new URL(origin).hostname
  const base: SerializeOptions = { path: '/', sameSite: 'lax', secure: origin.startsWith('https:') }
  const router = express.Router()

  /** Sets the cookies of one page view; a path that is no page of the site counts for nothing. */
  function recordView(req: Request, res: Response, pagePath: string, referrer: string | undefined) {
    res.set('Cache-Control', 'no-store')
    // The origin is configured, never taken from the request.
    const url = new URL(origin + pagePath)
    if (url.origin !== origin || !isRouterPath(url.pathname)) return
    const cookies = parseCookies(req.headers.cookie ?? '')
    const { traffic, session } = recordPageView({
      url,
      referrer,
      siteHost,
      now: now(),
      traffic: readJsonCookie(cookies[TRAFFIC_COOKIE], trafficStateSchema),
      session: readJsonCookie(cookies[SESSION_COOKIE], sessionStateSchema),
      random,
    })
    res.append('Set-Cookie', serialize(TRAFFIC_COOKIE, JSON.stringify(traffic), { ...base, maxAge: TRAFFIC_COOKIE_DAYS * DAY_SECONDS }))
    res.append('Set-Cookie', serialize(SESSION_COOKIE, JSON.stringify(session), { ...base, maxAge: SESSION_MINUTES * 60 }))

    const ref = url.searchParams.get('ref')
    if (ref !== null && REFERRAL_CODE.test(ref) && !cookies[REFERRAL_COOKIE]) {
      // Readable by the page: sign-up sends the referral along with the other tracking data.
      res.append('Set-Cookie', serialize(REFERRAL_COOKIE, ref, { ...base, maxAge: REFERRAL_COOKIE_DAYS * DAY_SECONDS }))
      trackReferral?.(ref, req.ip, AbortSignal.timeout(REFERRAL_CALL_TIMEOUT_MS)).catch((error: unknown) => {
        logger.warn({ err: error, ref }, 'partner tracking call failed')
      })
    }
  }

  router.post(
    VISIT_BEACON_PATH,
    sameOriginOnly(origin),
    express.json({ limit: '8kb', type: ['application/json', 'text/plain'] }),
    (req, res) => {
      const report = parseRequest(reportSchema, req.body ?? {}, 'body')
      recordView(req, res, report.url, report.referrer || undefined)
      res.status(204).end()
    },
  )

  router.get(VISIT_PIXEL_PATH, (req, res) => {
    const page = req.get('referer')
    const pagePath = page?.startsWith(`${origin}/`) ? page.slice(origin.length) : null
    // Without scripts the landing's own referrer is out of reach: the visit counts as direct
    // unless its address carries campaign parameters.
    if (pagePath !== null && pagePath.length <= VISIT_URL_MAX) recordView(req, res, pagePath, undefined)
    res.set('Cache-Control', 'no-store').type('gif').send(PIXEL)
  })
  router.use(jsonErrorHandler)

  return router
}

/**
 * Tells the dashboard about a visitor's first referral: GET {dashboard}/api/v1/partners/track?r={code}&e=unique,
 * naming the visitor's address in X-Forwarded-For (the dashboard counts a visitor once, and must
 * trust the site's address for it), redirects refused; anything but a 2xx answer is an error.
 */
export function dashboardReferralTracker(dashboardUrl: string) {
  return async (code: string, address: string | undefined, signal: AbortSignal) => {
    const url = serviceUrl(dashboardUrl, 'api/v1/partners/track')
    url.searchParams.set('r', code)
    url.searchParams.set('e', 'unique')
    const response = await fetch(url, { signal, redirect: 'error', headers: address ? { 'X-Forwarded-For': address } : {} })
    if (!response.ok) throw new Error(`partner tracking answered ${response.status}`)
  }
}
