import type { RequestHandler } from 'express'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

function originOf(url: string): string | null {
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

/**
 * Refuses state-changing requests from other sites (403). Browsers say where a request comes
 * from in `Sec-Fetch-Site`; where they do not, an `Origin` or, failing that, a `Referer` must
 * name one of the allowed origins. A request that says nothing at all is refused too: every
 * browser that posts a form or calls fetch sends at least one of the three. The app (APP_URL)
 * may live on another origin: its posts say `same-site` or `cross-site` and carry its Origin.
 */
export function sameOriginOnly(siteOrigin: string, otherOrigins: readonly string[] = []): RequestHandler {
  const others = new Set(otherOrigins.filter((origin) => origin !== siteOrigin))
  const allowed = new Set([siteOrigin, ...others])
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next()
    const site = req.get('sec-fetch-site')
    const origin = req.get('origin')
    const referer = req.get('referer')
    let ok: boolean
    if (site === 'same-origin') ok = true
    else if (site) ok = site !== 'none' && origin !== undefined && others.has(origin)
    else if (origin) ok = allowed.has(origin)
    else if (referer) ok = allowed.has(originOf(referer) ?? '')
    else ok = false
    if (ok) return next()
    res.status(403).set('Cache-Control', 'no-store').json({ message: 'Cross-site request refused.' })
  }
}
