/**
 * Where a visitor came from, kept in first-party cookies the way sourcebuster.js does: the source
 * of the first visit and of the current one, entry points, referrers, visit and page counts.
 * Plain functions of the request's URL, referrer, cookies and time; the middleware applies them.
 */
import type { SessionState, TrafficSource, TrafficState, Visit } from './schema.js'

/** Lifetime of the traffic cookies: six months, counted as 30-day months. */
export const TRAFFIC_COOKIE_DAYS = 6 * 30
/** A visit ends after 30 minutes without a page view. */
export const SESSION_MINUTES = 30
export const PROMO_CODE_RANGE = { min: 100_000, max: 999_999 }
export const DIRECT = { source: '(direct)', medium: '(none)' }

/** Hosts whose referrals count as organic search, by the label that names the engine. */
const SEARCH_ENGINES: { pattern: RegExp; source: string }[] = [
  { pattern: /(^|\.)google\./, source: 'google' },
  { pattern: /(^|\.)bing\.com$/, source: 'bing' },
  { pattern: /(^|\.)yahoo\./, source: 'yahoo' },
  { pattern: /(^|\.)yandex\./, source: 'yandex' },
  { pattern: /(^|\.)ya\.ru$/, source: 'yandex' },
  { pattern: /(^|\.)aol\./, source: 'aol' },
  { pattern: /(^|\.)ask\.com$/, source: 'ask' },
  { pattern: /(^|\.)duckduckgo\.com$/, source: 'duckduckgo' },
  { pattern: /(^|\.)baidu\.com$/, source: 'baidu' },
  { pattern: /(^|\.)ecosia\.org$/, source: 'ecosia' },
  { pattern: /(^|\.)search\.brave\.com$/, source: 'brave' },
  { pattern: /(^|\.)naver\.com$/, source: 'naver' },
  { pattern: /(^|\.)seznam\.cz$/, source: 'seznam' },
]

/** Longest value kept from a URL parameter or referrer: cookies stay small whatever the input. */
const MAX_VALUE = 200
const clip = (value: string | null | undefined) => (value ?? '').slice(0, MAX_VALUE)

/** Classifies a landing: UTM tags first, then an ad click id, then the referrer, else direct. */
export function classifyLanding(url: URL, referrer: string | undefined, siteHost: string): TrafficSource {
  const params = url.searchParams
  const utm = (name: string) => clip(params.get(`utm_${name}`))
  if (params.has('utm_source') || params.has('utm_medium') || params.has('utm_campaign')) {
    return { type: 'utm', source: utm('source') || '(none)', medium: utm('medium') || '(none)', campaign: utm('campaign') || '(none)', content: utm('content'), term: utm('term') }
  }
  if (params.has('gclid')) return { type: 'utm', source: 'google', medium: 'cpc', campaign: '(none)', content: '', term: '' }
  if (params.has('yclid')) return { type: 'utm', source: 'yandex', medium: 'cpc', campaign: '(none)', content: '', term: '' }

  const referrerHost = hostOf(referrer)
  if (referrerHost && referrerHost !== siteHost) {
    const engine = SEARCH_ENGINES.find(({ pattern }) => pattern.test(referrerHost))
    if (engine) return { type: 'organic', source: engine.source, medium: 'organic', campaign: '(none)', content: '', term: '' }
    return { type: 'referral', source: clip(referrerHost.replace(/^www\./, '')), medium: 'referral', campaign: '(none)', content: '', term: '' }
  }
  return { type: 'typein', ...DIRECT, campaign: '(none)', content: '', term: '' }
}

function hostOf(referrer: string | undefined): string | null {
  if (!referrer) return null
  try {
    const url = new URL(referrer)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.toLowerCase() : null
  } catch {
    return null
  }
}

/** The parameters of an entry URL that say where a visit came from; nothing else is kept. */
const CAMPAIGN_PARAMETER = /^(utm_[a-z]+|ref|gclid|yclid)$/

/**
 * The entry point as it is remembered: the path and the campaign parameters only. A landing URL
 * may carry a secret (a password-reset token, a `next` address): none of that is ever stored.
 */
export function entryPoint(url: URL): string {
  const kept = new URLSearchParams()
  for (const [name, value] of url.searchParams) if (CAMPAIGN_PARAMETER.test(name)) kept.append(name, value)
  const query = kept.toString()
  return clip(url.pathname + (query ? `?${query}` : ''))
}

/** A referrer as it is remembered: its origin and path, never its query or fragment. */
export function referrerPoint(referrer: string | undefined): string {
  if (!referrer) return ''
  try {
    const url = new URL(referrer)
    return url.protocol === 'http:' || url.protocol === 'https:' ? clip(url.origin + url.pathname) : ''
  } catch {
    return ''
  }
}

export interface PageView {
  url: URL
  referrer: string | undefined
  siteHost: string
  now: Date
  traffic: TrafficState | null
  session: SessionState | null
  random: () => number
}

/**
 * The traffic and session state after one page view. A new visit starts when there is no live
 * session; it takes the landing's source unless that is a plain direct visit, which keeps the
 * last known source (as sourcebuster.js does). UTM tags always win, even mid-session.
 */
export function recordPageView({ url, referrer, siteHost, now, traffic, session, random }: PageView): { traffic: TrafficState; session: SessionState } {
  const landing = classifyLanding(url, referrer, siteHost)
  const visit: Visit = { entry: entryPoint(url), referrer: referrerPoint(referrer), at: now.toISOString() }
  if (!traffic) {
    const promo = PROMO_CODE_RANGE.min + Math.floor(random() * (PROMO_CODE_RANGE.max - PROMO_CODE_RANGE.min + 1))
    return { traffic: { first: landing, firstVisit: visit, current: landing, currentVisit: visit, visits: 1, promo }, session: { pages: 1 } }
  }
  const isNewVisit = session === null
  const replacesSource = landing.type === 'utm' || (isNewVisit && landing.type !== 'typein')
  return {
    traffic: {
      ...traffic,
      current: replacesSource ? landing : traffic.current,
      currentVisit: isNewVisit ? visit : traffic.currentVisit,
      visits: traffic.visits + (isNewVisit ? 1 : 0),
    },
    session: { pages: (session?.pages ?? 0) + 1 },
  }
}
