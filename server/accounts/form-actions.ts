/**
 * The auth forms posted without JavaScript: each page's action calls the dashboard through the
 * gateway and either redirects (signed in: 303 to the app, with the session cookie) or draws
 * the page again in the state the answer calls for, as the script would.
 */
import { parse as parseCookies } from 'cookie'
import { data, redirect, type ActionFunction } from 'react-router'
import type { AuthActionData } from '../../shared/accounts/accounts.route.js'
import { errorOf, missingFields, trackingPayload } from '../../shared/accounts/client.js'
import { destinationAfterAuth, safeNext } from '../../shared/accounts/next.js'
import type { AccountsGateway, GatewayAnswer, Visitor } from './gateway.js'

export interface AuthActionDependencies {
  accounts: AccountsGateway
  origin: string
  appOrigin: string | null
}

/** The visitor's address and the request's id, which the page handler passes along as X-Forwarded-For and X-Request-Id. */
const visitorOf = (request: Request): Visitor => ({ address: request.headers.get('x-forwarded-for') ?? undefined, requestId: request.headers.get('x-request-id') ?? undefined })

function text(form: FormData, name: string): string {
  const value = form.get(name)
  return typeof value === 'string' ? value : ''
}

/** The page again with the dashboard's answer read as the script reads it: the first field error, else the message. */
function failure(answer: Extract<GatewayAnswer<unknown>, { ok: false }>, email: string) {
  const { message: error, field } = errorOf(answer.body)
  const headers: HeadersInit = answer.retryAfter ? { 'Retry-After': String(answer.retryAfter) } : {}
  return data<AuthActionData>({ error, field, missing: [], email, done: null }, { status: answer.status, headers })
}

/** The page again, with the fields left empty marked, as the script shows it before sending; null when all are filled. */
function refuseEmpty(values: { email?: string; password?: string }, email: string) {
  const empty = missingFields(values)
  return empty && data<AuthActionData>({ error: empty.error, field: null, missing: empty.missing, email, done: null }, { status: 400 })
}

/** The sign-up's tracking payload, from the traffic cookies the site set (no script needed). */
function trackingFromCookies(request: Request, next: string | null) {
  return trackingPayload(next, { cookies: parseCookies(request.headers.get('cookie') ?? ''), page: new URL(request.url).pathname })
}

export function authActions({ accounts, origin, appOrigin }: AuthActionDependencies): Record<string, ActionFunction> {
  const signIn =
    (kind: 'login' | 'signup'): ActionFunction =>
    async ({ request }) => {
      const form = await request.formData()
      const email = text(form, 'email').trim()
      const input = { email, password: text(form, 'password') }
      const empty = refuseEmpty(input, email)
      if (empty) return empty
      const next = safeNext(new URL(request.url).searchParams.get('next'), origin, appOrigin)
      const visitor = visitorOf(request)
      const answer = kind === 'login' ? await accounts.login(input, visitor) : await accounts.register({ ...input, tracking: trackingFromCookies(request, next) }, visitor)
      if (!answer.ok) return failure(answer, email)
      const headers = new Headers()
      for (const cookie of answer.cookies) headers.append('Set-Cookie', cookie)
      return redirect(destinationAfterAuth(answer.body.login_url, next, origin), { status: 303, headers })
    }

  return {
    login: signIn('login'),
    signup: signIn('signup'),
    reset: async ({ request }) => {
      const form = await request.formData()
      const email = text(form, 'email').trim()
      const empty = refuseEmpty({ email }, email)
      if (empty) return empty
      const answer = await accounts.requestReset({ email }, visitorOf(request))
      if (!answer.ok) return failure(answer, email)
      return data<AuthActionData>({ error: null, field: null, missing: [], email, done: answer.body.message })
    },
    'reset-new': async ({ request }) => {
      const form = await request.formData()
      const password = text(form, 'password')
      const empty = refuseEmpty({ password }, '')
      if (empty) return empty
      const answer = await accounts.confirmReset({ token: text(form, 'token'), password }, visitorOf(request))
      if (!answer.ok) return failure(answer, '')
      return data<AuthActionData>({ error: null, field: null, missing: [], email: '', done: answer.body.message })
    },
  }
}
