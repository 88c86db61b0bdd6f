/**
 * The session check every page makes (so it stays small: it is in every page's script): is
 * someone logged in? `login_check`, remembered for 60 s in session storage.
 */

export interface AuthUser {
  id: number | string
  email?: string
}

export interface LoginCheck {
  status: string
  user?: AuthUser
}

const LOGIN_CHECK_URL = '/app/api/v2/users/login_check'
const LOGIN_CHECK_KEY = 'pl_login_check'
/** The session check is asked at most once a minute per tab. */
export const LOGIN_CHECK_CACHE_MS = 60_000
const TIMEOUT_MS = 20_000

export function storage(): Storage | null {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
}

/** Keeps an entry in the tab's storage when it can (a full or refused storage keeps nothing). */
export function remember(key: string, value: string): void {
  try {
    storage()?.setItem(key, value)
  } catch {
    // Asked again next time.
  }
}

/** The question on its way, shared by the parts of a page that ask at the same moment (the header, a preview). */
let asking: Promise<LoginCheck | null> | null = null

/** Makes the next check ask the server (after a log-in, or a message saying one happened). */
export function forgetLoginCheck(): void {
  storage()?.removeItem(LOGIN_CHECK_KEY)
  asking = null
}

export async function checkLogin(now = Date.now()): Promise<LoginCheck | null> {
  const cached = storage()?.getItem(LOGIN_CHECK_KEY)
  if (cached) {
    try {
      const { at, result } = JSON.parse(cached) as { at: number; result: LoginCheck }
      if (now - at >= 0 && now - at < LOGIN_CHECK_CACHE_MS) return result
    } catch {
      // A damaged entry is asked again.
    }
  }
  if (asking) return asking
  const question: Promise<LoginCheck | null> = askServer().then((result) => {
    // An answer to a question asked before a log-in is not kept (forgetLoginCheck dropped it).
    if (asking !== question) return result
    asking = null
    if (result) remember(LOGIN_CHECK_KEY, JSON.stringify({ at: now, result }))
    return result
  })
  asking = question
  return question
}

async function askServer(): Promise<LoginCheck | null> {
  try {
    const response = await fetch(LOGIN_CHECK_URL, { credentials: 'include', headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) })
    return response.ok ? ((await response.json()) as LoginCheck) : null
  } catch {
    return null
  }
}

export const isLoggedIn = (check: LoginCheck | null) => Boolean(check?.user)
