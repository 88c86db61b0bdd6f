import type { Express } from 'express'
import request from 'supertest'
import { expect } from 'vitest'
import type { AppOverrides } from '../../server/app.js'
import { testSite } from '../routes/app.js'

export const SITE = 'https://site.example'
export const ORIGIN = { Origin: SITE }
export const PASSWORD = 'violet kettle zebra 42'

/** A clock the test moves by hand. */
export function fakeClock(start = Date.UTC(2026, 10, 24, 12)) {
  let now = start
  return { now: () => now, advance: (ms: number) => (now += ms) }
}

/** The site with an in-memory dashboard; `clock` drives sessions, links and throttles. */
export function dashboardSite(env: Record<string, string> = {}, dashboard: AppOverrides['dashboard'] = {}) {
  const site = testSite(env, { dashboard })
  return { ...site, db: site.dashboard!.context.db }
}

let counter = 0
export const freshEmail = () => `person${counter++}@example.com`

/** Every Set-Cookie header of a response. */
export function setCookies(response: request.Response): string[] {
  return ([] as string[]).concat(response.headers['set-cookie'] ?? [])
}

/** The `name=value` of a Set-Cookie header, for sending back. */
export function sessionCookieOf(response: request.Response): string {
  const cookies = setCookies(response)
  const session = cookies.find((cookie) => /^(__Host-)?pl_auth=/.test(cookie))
  expect(session, 'a session cookie was set').toBeTruthy()
  return session!.split(';')[0]!
}

export async function register(app: Express, email = freshEmail(), password = PASSWORD) {
  const response = await request(app).post('/app/api/v1/users/register').set(ORIGIN).send({ email, password })
  expect(response.status, JSON.stringify(response.body)).toBe(201)
  return { email, password, cookie: sessionCookieOf(response), user: response.body.user as { id: number; email: string } }
}

export async function loginCheck(app: Express, cookie?: string) {
  const call = request(app).get('/app/api/v2/users/login_check')
  if (cookie) call.set('Cookie', cookie)
  return (await call.expect(200)).body as { status: string; user?: { id: number; email: string } }
}
