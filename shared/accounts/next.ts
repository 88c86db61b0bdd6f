/**
 * Where a visitor goes after logging in or signing up: the `next` of the URL, else the one kept
 * in session storage. Only the site's own pages and the app's origin are accepted, so a link to
 * /login/?next=… can never send a visitor to someone else's site.
 */
import { TEMPLATE_ID_SOURCE } from '../gallery/paths.js'

/** The session-storage key of a `next` seen earlier in the visit. */
export const NEXT_STORAGE_KEY = 'pl_next'

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/
/** Backslashes and encoded slashes: browsers and client routers read them as path separators. */
const DISGUISED_SLASH = /\\|%2f|%5c/i

/**
 * A safe target from a raw `next` (already decoded once, as URLSearchParams gives it), or null.
 * Same-site targets come back as path + query + hash; app targets as absolute URLs.
 */
export function safeNext(raw: string | null | undefined, siteOrigin: string, appOrigin?: string | null): string | null {
  if (!raw || raw.length > 2000) return null
  const value = raw.trim()
  if (CONTROL_CHARACTERS.test(value) || DISGUISED_SLASH.test(value)) return null
  // A path of this site, or a full http(s) URL; never a bare scheme (`https:host`, `javascript:`).
  if (!value.startsWith('/') && !/^https?:\/\//i.test(value)) return null
  let url: URL
  try {
    url = new URL(value, siteOrigin)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  if (url.username || url.password) return null
  if (url.origin === new URL(siteOrigin).origin) {
    // A relative target must be a path: `//host` and `https:host` resolve elsewhere and fail above.
    return `${url.pathname}${url.search}${url.hash}`
  }
  if (appOrigin && url.origin === new URL(appOrigin).origin) return url.href
  return null
}

/**
 * Where to go after success: straight to `next` when it is on the app's own host, otherwise to
 * `login_url` with `next` appended (the app sends the visitor on from there).
 */
export function destinationAfterAuth(loginUrl: string, next: string | null, siteOrigin: string): string {
  if (!next) return loginUrl
  const login = new URL(loginUrl, siteOrigin)
  const target = new URL(next, siteOrigin)
  if (target.origin === login.origin && target.origin !== new URL(siteOrigin).origin) return target.href
  login.searchParams.set('next', next)
  return login.origin === new URL(siteOrigin).origin ? `${login.pathname}${login.search}${login.hash}` : login.href
}

const CLONE_PATH = new RegExp(`/clone(?:-email)?/(${TEMPLATE_ID_SOURCE})(?:[/?#]|$)`)

/** The clone id a `next` leads to (`/app/clone/ab12cd34`), for the sign-up's tracking context. */
export function cloneIdOf(next: string | null): string | null {
  return next?.match(CLONE_PATH)?.[1] ?? null
}
