/**
 * Traffic-source tracking, as both sides see it: the cookies the server sets and the page reads
 * back (sign-up sends them along), and the small requests through which a page reports its view.
 * Pages themselves never set cookies, so shared caches can keep them.
 */

export const TRAFFIC_COOKIE = 'pl_traffic'
export const SESSION_COOKIE = 'pl_session'
export const REFERRAL_COOKIE = 'pl_ref'

/** A page view, reported by the page's script: `POST {url, referrer}` as JSON, answered 204 with the cookies. */
export const VISIT_BEACON_PATH = '/track/visit'
/** The same for a page seen without JavaScript: an image the page holds in `<noscript>`. */
export const VISIT_PIXEL_PATH = '/track/visit.gif'

/** Longest landing URL or referrer a report may carry. */
export const VISIT_URL_MAX = 2048

export interface VisitReport {
  /** The page viewed: its path and query, as in the address bar. */
  url: string
  /** Where the visitor came from: `document.referrer` for a landing, the previous page for a client navigation. */
  referrer: string
}

/** What sign-up sends along: where the visitor came from, their referral and promo code. */
export interface TrackingPayload {
  context: { page: string; referrer?: string | null; clone_id?: string }
  referral: string | null
  redeem: number | null
  cookies: { pl_traffic: string | null; pl_session: string | null; pl_ref: string | null }
}

/**
 * The sign-up's tracking payload from the traffic cookies, the same in the browser (from
 * `document.cookie`) and on the server (a form posted without scripts, from its Cookie header).
 */
export function trackingPayloadOf(cookies: Record<string, string | undefined>, context: TrackingPayload['context']): TrackingPayload {
  const traffic = cookies[TRAFFIC_COOKIE] ?? null
  let redeem: number | null = null
  try {
    redeem = traffic ? ((JSON.parse(traffic) as { promo?: number }).promo ?? null) : null
  } catch {
    redeem = null
  }
  const referral = cookies[REFERRAL_COOKIE] ?? null
  return {
    context,
    referral,
    redeem,
    cookies: { pl_traffic: traffic, pl_session: cookies[SESSION_COOKIE] ?? null, pl_ref: referral },
  }
}

/** Reports a page view; never throws, never delays the page. */
export function reportVisit(report: VisitReport): void {
  try {
    void fetch(VISIT_BEACON_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(report),
      credentials: 'same-origin',
      keepalive: true,
    }).catch(() => undefined)
  } catch {
    // An old browser without fetch: the view goes uncounted.
  }
}
