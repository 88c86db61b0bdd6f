/**
 * The site's way to the dashboard's account calls, for the forms posted without JavaScript:
 * straight into the local dashboard when it runs in this process, or over HTTP to DASHBOARD_URL.
 * Either way the answer has the shape of the dashboard's JSON.
 */
import { AUTH_API, SERVER_ERROR } from '../../shared/accounts/client.js'
import { ServiceBusyError } from '../process/errors.js'
import { rescopeCookiePath, serviceUrl } from '../process/upstream-proxy.js'
import type { DashboardContext } from '../dashboard/context.js'
import { FieldErrors, TooManyAttempts, type DashboardErrorBody } from '../dashboard/errors.js'

export interface SignedInAnswer {
  user: { id: number | string; email?: string }
  login_url: string
  is_new?: boolean
}

export type GatewayAnswer<T> =
  | { ok: true; body: T; cookies: string[] }
  | { ok: false; status: number; body: DashboardErrorBody; retryAfter?: number }

/** The visitor's address (as the site's `trust proxy` setting reads it), for the dashboard's per-address limits. */
/** Who a form's call is for: the visitor's address (as `trust proxy` reads it) and the request's id, passed on to a remote dashboard. */
export interface Visitor {
  address?: string
  requestId?: string
}

export interface AccountsGateway {
  register(input: { email: string; password: string; tracking?: unknown }, visitor: Visitor): Promise<GatewayAnswer<SignedInAnswer>>
  login(input: { email: string; password: string }, visitor: Visitor): Promise<GatewayAnswer<SignedInAnswer>>
  requestReset(input: { email: string }, visitor: Visitor): Promise<GatewayAnswer<{ message: string }>>
  confirmReset(input: { token: string; password: string }, visitor: Visitor): Promise<GatewayAnswer<{ message: string }>>
  resetTokenUsable(token: string): Promise<boolean>
}

async function answer<T>(work: () => Promise<{ body: T; cookies?: string[] }>): Promise<GatewayAnswer<T>> {
  try {
    const { body, cookies = [] } = await work()
    return { ok: true, body, cookies }
  } catch (error) {
    if (error instanceof FieldErrors) return { ok: false, status: error.status, body: error.body }
    if (error instanceof TooManyAttempts) return { ok: false, status: 429, body: { message: error.message }, retryAfter: error.retryAfterSeconds }
    if (error instanceof ServiceBusyError) return { ok: false, status: 503, body: { message: error.message }, retryAfter: error.retryAfterSeconds }
    throw error
  }
}

export function localGateway(context: DashboardContext): AccountsGateway {
  const { accounts, loginUrl } = context
  const signedIn = async (work: Promise<{ user: SignedInAnswer['user']; cookie: string; isNew: boolean }>) => {
    const result = await work
    return { body: { user: result.user, login_url: loginUrl, is_new: result.isNew }, cookies: [result.cookie] }
  }
  return {
    register: (input) => answer(() => signedIn(accounts.register(input))),
    login: (input) => answer(() => signedIn(accounts.login(input))),
    requestReset: (input) => answer(async () => ({ body: accounts.requestReset(input) })),
    confirmReset: (input) => answer(async () => ({ body: await accounts.confirmReset(input) })),
    resetTokenUsable: async (token) => accounts.resetTokenUsable(token),
  }
}

/** An account call's path under the dashboard's own address: the browser's (`AUTH_API`) without the site's `/app/`. */
const dashboardPath = (sitePath: string) => sitePath.replace(/^\/app\//, '')

export function remoteGateway(dashboardUrl: string, siteOrigin: string, timeoutMs: number): AccountsGateway {
  async function post<T>(path: string, body: unknown, visitor: Visitor = {}): Promise<GatewayAnswer<T>> {
    // The dashboard accepts posts from the site's own origin only, and counts its per-address
    // limits by the visitor's address (it trusts the site's X-Forwarded-For), not the site's; its
    // log lines carry the site's request id.
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json', Origin: siteOrigin }
    if (visitor.address) headers['X-Forwarded-For'] = visitor.address
    if (visitor.requestId) headers['X-Request-Id'] = visitor.requestId
    const response = await fetch(serviceUrl(dashboardUrl, path), {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    })
    const parsed = (await response.json().catch(() => ({ message: SERVER_ERROR }))) as T & DashboardErrorBody
    if (response.ok) {
      // As through the proxy: the site's cookies, scoped under /app.
      const cookies = response.headers.getSetCookie().map((cookie) => rescopeCookiePath(cookie.replace(/;\s*domain=[^;]*/i, ''), '/app'))
      return { ok: true, body: parsed, cookies }
    }
    const retryAfter = Number(response.headers.get('retry-after')) || undefined
    return { ok: false, status: response.status, body: parsed, retryAfter }
  }
  return {
    register: (input, visitor) => post(dashboardPath(AUTH_API.register), input, visitor),
    login: (input, visitor) => post(dashboardPath(AUTH_API.login), input, visitor),
    requestReset: (input, visitor) => post(dashboardPath(AUTH_API.reset), input, visitor),
    confirmReset: (input, visitor) => post(dashboardPath(AUTH_API.resetConfirm), input, visitor),
    resetTokenUsable: async (token) => {
      const result = await post<{ usable?: boolean }>(dashboardPath(AUTH_API.resetCheck), { token })
      return result.ok && result.body.usable === true
    },
  }
}
