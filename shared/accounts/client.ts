/**
 * What the auth forms do in the browser: call the dashboard API (always same-origin, /app/…),
 * read its answers, remember the user, check the session, send the analytics event. The forms
 * posted without JavaScript (server/accounts/form-actions.ts) use the same paths, wording,
 * error reading and tracking payload, so this module stays free of browser work at load.
 */
import { trackingPayloadOf } from '../tracking/tracking.js'
import { cloneIdOf, NEXT_STORAGE_KEY } from './next.js'
import { AUTH_PATHS, type AuthFormKind } from './paths.js'
import { forgetLoginCheck, remember, storage, type AuthUser } from './session.js'

export { checkLogin, forgetLoginCheck, isLoggedIn, type AuthUser } from './session.js'

export { AUTH_PATHS, type AuthFormKind } from './paths.js'

export const SERVER_ERROR = 'Server error'

/** What the forms say themselves, before or after the dashboard answers. */
export const AUTH_TEXT = {
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
  checkEmail: 'Check your email',
} as const

/** The dashboard's paths, same-origin whether it is local or proxied. */
export const AUTH_API = {
  register: '/app/api/v1/users/register',
  login: '/app/api/v1/users/login?dual=1',
  reset: '/app/api/v1/users/password_reset?dual=1',
  resetConfirm: '/app/api/v1/users/password_reset/confirm',
  resetCheck: '/app/api/v1/users/password_reset/check',
  /** With the sign-up's tracking payload when the visitor's cookies are at hand (in the browser). */
  social: (mode: 'signup-popup' | 'signin-popup', tracking?: ReturnType<typeof trackingPayload>) =>
    `/app/api/v1/socialauth-begin/google-oauth2/?mode=${mode}${mode === 'signin-popup' ? '&dual=1' : ''}` +
    (tracking ? `&tracking=${encodeURIComponent(JSON.stringify(tracking))}` : ''),
} as const

const REQUEST_TIMEOUT_MS = 20_000

/** The body of a successful log-in or sign-up. */
export interface SignedInBody {
  user: AuthUser
  login_url: string
  is_new?: boolean
}

export type ApiAnswer<T> = { ok: true; body: T } | { ok: false; status: number; message: string; field: string | null }

/**
 * The form's fields left empty (an email of only spaces is empty too), of those given, and what
 * the form says of them: the email's message when it is one of them. Null when all are filled.
 * The script checks before sending, and the server the forms posted without it, alike.
 */
export function missingFields(values: { email?: string; password?: string }): { missing: string[]; error: string } | null {
  const missing = [values.email?.trim() === '' ? 'email' : null, values.password === '' ? 'password' : null].filter((name): name is string => name !== null)
  if (!missing.length) return null
  return { missing, error: missing.includes('email') ? AUTH_TEXT.emailRequired : AUTH_TEXT.passwordRequired }
}

/** The text the form shows for a failed call: the first field error, else the message, else 'Server error'. */
export function errorOf(body: unknown): { message: string; field: string | null } {
  if (body && typeof body === 'object') {
    const errors = (body as { errors?: unknown }).errors
    if (errors && typeof errors === 'object') {
      for (const [field, messages] of Object.entries(errors)) {
        const first = Array.isArray(messages) ? messages[0] : messages
        if (typeof first === 'string' && first) return { message: first, field }
      }
    }
    const message = (body as { message?: unknown }).message
    if (typeof message === 'string' && message) return { message, field: null }
  }
  return { message: SERVER_ERROR, field: null }
}

export async function postJson<T>(url: string, body: unknown): Promise<ApiAnswer<T>> {
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
  } catch {
    return { ok: false, status: 0, message: SERVER_ERROR, field: null }
  }
  const parsed: unknown = await response.json().catch(() => null)
  if (response.ok) return { ok: true, body: parsed as T }
  return { ok: false, status: response.status, ...errorOf(parsed) }
}

/** A `next` seen on this visit, kept so that a detour (sign-up from the log-in page) keeps it. */
export function rememberNext(next: string | null): void {
  if (next) remember(NEXT_STORAGE_KEY, next)
}

export function storedNext(): string | null {
  return storage()?.getItem(NEXT_STORAGE_KEY) ?? null
}

const USER_KEY = 'pl_user'

export function rememberUser(user: AuthUser): void {
  remember(USER_KEY, JSON.stringify(user))
  forgetLoginCheck()
}

/** After a log-out: the signed-in user and the session check's answer are forgotten in this tab. */
export function forgetUser(): void {
  storage()?.removeItem(USER_KEY)
  forgetLoginCheck()
}

/** The page's cookies by name (those the page may read). */
function pageCookies(): Record<string, string> {
  const cookies: Record<string, string> = {}
  for (const part of document.cookie ? document.cookie.split('; ') : []) {
    const equals = part.indexOf('=')
    if (equals > 0) {
      try {
        cookies[part.slice(0, equals)] = decodeURIComponent(part.slice(equals + 1))
      } catch {
        // A cookie another script wrote badly is skipped.
      }
    }
  }
  return cookies
}

/** What the tracking payload is made of: the visitor's cookies, the page and, when known, the referrer. */
export interface TrackingSource {
  cookies: Record<string, string | undefined>
  page: string
  referrer?: string | null
}

/** In the browser: the page's own cookies, address and referrer. */
const browserTrackingSource = (): TrackingSource => ({ cookies: pageCookies(), page: window.location.pathname, referrer: document.referrer || null })

/**
 * What sign-up sends along: where the visitor came from, their referral and promo code, and
 * the template a `next` leads to. From the page by default; the server passes a posted form's.
 */
export function trackingPayload(next: string | null, source: TrackingSource = browserTrackingSource()) {
  const cloneId = cloneIdOf(next)
  const { cookies, ...context } = source
  return trackingPayloadOf(cookies, { ...context, ...(cloneId ? { clone_id: cloneId } : {}) })
}

type DataLayerEvent = Record<string, unknown> & { eventCallback?: () => void; eventTimeout?: number }

/** How long a redirect may wait for the analytics tag to confirm an event. */
export const ANALYTICS_TIMEOUT_MS = 1000

/**
 * Sends signUp or signIn to the analytics tag (Google Tag Manager's dataLayer) and resolves when
 * the tag confirms it or after 1000 ms, whichever comes first; at once when no tag is loaded.
 */
export function trackAuthEvent(event: 'signUp' | 'signIn', userId: AuthUser['id'], provider = 'direct'): Promise<void> {
  const win = window as Window & { dataLayer?: DataLayerEvent[]; google_tag_manager?: unknown }
  win.dataLayer ??= []
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ANALYTICS_TIMEOUT_MS)
    const done = () => {
      clearTimeout(timer)
      resolve()
    }
    win.dataLayer!.push({ event, provider, userId, eventCallback: done, eventTimeout: ANALYTICS_TIMEOUT_MS })
    if (!win.google_tag_manager) done()
  })
}
