import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { pino } from 'pino'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDashboard, type Dashboard } from '../../server/dashboard/router.js'
import { downUpstream, type DownUpstream } from '../support/down-upstream.js'
import { projectSiteData, TEST_SCRYPT_COST, testSite } from '../routes/app.js'
import { ORIGIN, PASSWORD, SITE, freshEmail, setCookies } from './helpers.js'

function listen(app: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  return new Promise((resolve) => {
    const server = http.createServer(app)
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }))
  })
}

const close = (server: http.Server) => new Promise((resolve) => server.close(resolve))

/** The dashboard as it runs on its own: its router at /app on another port. */
let upstream: { server: http.Server; url: string; dashboard: Dashboard }
/** An upstream that never answers. */
let silent: { server: http.Server; url: string }
/** An upstream that is down. */
let down: DownUpstream
const held: http.ServerResponse[] = []
/** The visitor address and request id the dashboard read for each post it received. */
const postedFrom: Array<string | undefined> = []
const postedIds: Array<string | undefined> = []

beforeAll(async () => {
  const dashboard = createDashboard({
    stateDir: '',
    databaseFile: ':memory:',
    data: projectSiteData(),
    siteOrigin: SITE,
    mailFrom: 'Site <no-reply@site.example>',
    showOutbox: true,
    logger: pino({ level: 'silent' }),
    scryptCost: TEST_SCRYPT_COST,
  })
  const app = express()
  app.set('trust proxy', 'loopback')
  app.use((req, _res, next) => {
    if (req.method === 'POST') {
      postedFrom.push(req.ip)
      postedIds.push(req.get('x-request-id'))
    }
    next()
  })
  app.use('/app', dashboard.router)
  upstream = { ...(await listen(app)), dashboard }
  silent = await listen((_req, res) => void held.push(res))
  down = await downUpstream()
})

afterAll(async () => {
  for (const res of held) res.destroy()
  await Promise.all([close(upstream.server), close(silent.server), down.close(), upstream.dashboard.close()])
})

const proxiedSite = (dashboardUrl = `${upstream.url}/app`, env: Record<string, string> = {}) => testSite({ DASHBOARD_URL: dashboardUrl, ...env })

describe('the site with DASHBOARD_URL', () => {
  it('runs no dashboard of its own', () => {
    expect(proxiedSite().dashboard).toBeUndefined()
  })

  it('forwards account calls with their JSON body and keeps the session cookie a host cookie of the site', async () => {
    const { app } = proxiedSite()
    const email = freshEmail()
    const response = await request(app).post('/app/api/v1/users/register').set(ORIGIN).send({ email, password: PASSWORD }).expect(201)
    expect(response.body).toMatchObject({ user: { email }, login_url: '/app/', is_new: true })
    const [cookie] = setCookies(response)
    // A __Host- cookie must keep Path=/ and carry no Domain, or browsers drop it.
    expect(cookie).toMatch(/^__Host-pl_auth=[\w-]{43}; Max-Age=604800; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
    const check = await request(app).get('/app/api/v2/users/login_check').set('Cookie', cookie!.split(';')[0]!).expect(200)
    expect(check.body).toEqual({ status: 'ok', user: { id: expect.any(Number), email } })
  })

  it('passes the dashboard’s own refusals through: a cross-site post is 403 upstream too', async () => {
    const { app } = proxiedSite()
    const response = await request(app).post('/app/api/v1/users/login?dual=1').set('Origin', 'https://evil.example').send({ email: 'a@example.com', password: PASSWORD }).expect(403)
    expect(response.body).toEqual({ message: 'Cross-site request refused.' })
  })

  it('keeps redirects of the dashboard on the site: the anonymous clone goes to sign-up', async () => {
    const { app } = proxiedSite()
    const response = await request(app).get('/app/clone/wt8mybhg').expect(302)
    expect(response.headers.location).toBe('/start/?next=%2Fapp%2Fclone%2Fwt8mybhg')
    const home = await request(app).get('/app/').expect(302)
    expect(home.headers.location).toBe('/login/?next=%2Fapp%2F')
  })

  it('keeps redirects within the dashboard’s base path under /app', async () => {
    const { app } = proxiedSite()
    const registered = await request(app).post('/app/api/v1/users/register').set(ORIGIN).send({ email: freshEmail(), password: PASSWORD }).expect(201)
    const cookie = setCookies(registered)[0]!.split(';')[0]!
    const clone = await request(app).get('/app/clone/wt8mybhg').set('Cookie', cookie).expect(302)
    expect(clone.headers.location).toBe('/app/')
  })

  it('signs in with a form posted without JavaScript, through the dashboard over HTTP', async () => {
    const { app } = proxiedSite()
    const email = freshEmail()
    await request(app).post('/app/api/v1/users/register').set(ORIGIN).send({ email, password: PASSWORD }).expect(201)
    const response = await request(app).post('/login/').set(ORIGIN).type('form').send({ email, password: PASSWORD }).expect(303)
    expect(response.headers.location).toBe('/app/')
    expect(setCookies(response)[0]).toMatch(/^__Host-pl_auth=[\w-]{43};.*Path=\/;/)
    const wrong = await request(app).post('/login/').set(ORIGIN).type('form').send({ email, password: 'not the password 1' }).expect(401)
    expect(wrong.text).toContain('Incorrect email or password')
  })

  it("tells the dashboard the visitor's address for a form posted without JavaScript, so its limits count visitors", async () => {
    const { app } = proxiedSite()
    postedFrom.length = 0
    await request(app).post('/reset/').set(ORIGIN).set('X-Forwarded-For', '203.0.113.7').type('form').send({ email: freshEmail() }).expect(200)
    expect(postedFrom).toEqual(['203.0.113.7'])
  })

  it('passes the request id on with a form posted without JavaScript, so the dashboard\'s log line carries it', async () => {
    const { app } = proxiedSite()
    postedIds.length = 0
    const answer = await request(app).post('/reset/').set(ORIGIN).set('X-Request-Id', 'edge-form-51c2').type('form').send({ email: freshEmail() }).expect(200)
    expect(answer.headers['x-request-id']).toBe('edge-form-51c2')
    expect(postedIds).toEqual(['edge-form-51c2'])
  })

  it('reports the dashboard in /readyz as reachable while it answers, and not while it is down, ready either way', async () => {
    expect((await request(proxiedSite().app).get('/readyz').expect(200)).body.dependencies).toEqual({ dashboard: { reachable: true, optional: true } })
    const unreachable = await request(proxiedSite(`${down.origin}/app`).app).get('/readyz').expect(200)
    expect(unreachable.body.dependencies).toEqual({ dashboard: { reachable: false, optional: true } })
  })

  it('answers 502 with a JSON message when the dashboard is down', async () => {
    const { app } = proxiedSite(`${down.origin}/app`)
    const response = await request(app).get('/app/api/v2/users/login_check').expect(502)
    expect(response.body.error.code).toBe('upstream_unavailable')
    expect(response.headers['cache-control']).toBe('no-store')
  })

  it('answers 504 when the dashboard does not answer within UPSTREAM_TIMEOUT_MS', async () => {
    const { app } = proxiedSite(`${silent.url}/app`, { UPSTREAM_TIMEOUT_MS: '300' })
    const started = Date.now()
    const response = await request(app).get('/app/api/v2/users/login_check').expect(504)
    expect(response.body.error.code).toBe('upstream_timeout')
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it('shows the log-in page the server error when the dashboard is down for a form post', async () => {
    const { app } = proxiedSite(`${down.origin}/app`)
    const response = await request(app).post('/login/').set(ORIGIN).type('form').send({ email: 'a@example.com', password: PASSWORD })
    expect(response.status).toBe(500)
    expect(response.headers['content-type']).toMatch(/text\/html/)
    expect(response.text).toMatch(/<title[^>]*>Something went wrong \| Poplift<\/title>/)
  })
})
