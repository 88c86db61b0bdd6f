import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { pino, type LevelWithSilent } from 'pino'
import request from 'supertest'
import { describe, expect, it, vi } from 'vitest'
import type { AppOverrides } from '../../server/app.js'
import { loggableUrl } from '../../server/process/logger.js'
import type { PriceList } from '../../server/pricing/api.js'
import { startStandalone } from '../support/standalone.js'
import { testSite } from './app.js'

/** A site whose log lines are kept in memory. */
function siteWithLog(overrides: AppOverrides = {}, env: Record<string, string> = {}, level: LevelWithSilent = 'info') {
  const lines: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split('\n').filter(Boolean))
      callback()
    },
  })
  return { ...testSite(env, { ...overrides, logger: pino({ level }, sink) }), lines }
}

describe('request log', () => {
  it('never writes a reset token or a password from the URL', async () => {
    const { app, lines } = siteWithLog()
    const token = 'Zzbs6Qr0R9B2rI_fIdxjkbZohM2eGCsEcCW3Yhky5IQ'
    await request(app).get(`/reset/new/?token=${token}`).expect(200)
    await request(app).get(`/app/api/v2/users/login_check?password=hunter2hunter2`).expect(200)
    const log = lines.join('\n')
    expect(log).toContain('/reset/new/?token=[redacted]')
    expect(log).not.toContain(token)
    expect(log).not.toContain('hunter2hunter2')
  })

  it('keeps the other parameters of a URL', () => {
    expect(loggableUrl('/x/?a=1&token=secret&b=2#f')).toBe('/x/?a=1&token=[redacted]&b=2#f')
    expect(loggableUrl('/pricing/?currency=USD')).toBe('/pricing/?currency=USD')
  })

  it('logs a client’s mistake as its request line only, never at error level or with a stack', async () => {
    const { app, lines } = siteWithLog()
    await request(app).get('/app/clone/%ff').expect(400)
    await request(app).get('/app/static/nope.js').expect(404)
    await request(app).get('/giffer/text/preview?text=Hi&font=roboto&color=__proto__').expect(400)
    await request(app).post('/app/api/v1/users/login?dual=1').set('Origin', 'https://site.example').set('Content-Type', 'application/json').set('Content-Encoding', 'br').send('{"a":1}').expect(400)
    await request(app).get('/blog/%ff/').expect(400)
    const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: unknown; res?: { statusCode: number } })
    expect(entries.filter((entry) => entry.level >= 50)).toEqual([])
    expect(entries.filter((entry) => entry.err)).toEqual([])
    expect(entries.filter((entry) => entry.msg === 'request completed').map((entry) => entry.res?.statusCode)).toEqual([400, 404, 400, 400, 400])
  })

  it('logs a fault of ours at error level: the request line, and its cause with the same request', async () => {
    const failing: PriceList = {
      features: [],
      currencies: [],
      currentCurrency: { code: 'RUB', flag: '', format: '{amount}' },
      forCurrency: () => {
        throw new Error('price service down')
      },
    }
    const { app, lines } = siteWithLog({ prices: failing })
    const response = await request(app).get('/api/prices?currency=RUB').set('User-Agent', 'logs-test').expect(500)
    const id = response.headers['x-request-id']
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    const fields = { id, method: 'GET', url: '/api/prices?currency=RUB', userAgent: 'logs-test' }
    expect(entries.filter((entry) => entry.msg === 'request completed')).toMatchObject([{ level: 50, req: fields, res: { statusCode: 500 } }])
    expect(entries.filter((entry) => entry.err)).toMatchObject([{ level: 50, req: fields, err: { message: 'price service down' } }])
  })
})

describe('proxy trust', () => {
  const warnings = (lines: string[]) => lines.map((line) => JSON.parse(line) as { level: number; msg: string; peer?: string }).filter((line) => line.level === 40)

  it('warns once per process, naming the peer and TRUST_PROXY, when X-Forwarded-For comes from a peer it does not trust', async () => {
    // The test client connects from loopback; this setting trusts only a private network.
    const { app, lines } = siteWithLog({}, { TRUST_PROXY: '10.0.0.0/8' })
    await request(app).get('/pricing/').expect(200)
    expect(warnings(lines)).toEqual([])
    await request(app).get('/pricing/').set('X-Forwarded-For', '203.0.113.7').expect(200)
    await request(app).get('/faq/').set('X-Forwarded-For', '203.0.113.8').expect(200)
    const [warning, ...more] = warnings(lines)
    expect(more).toEqual([])
    expect(warning?.peer).toMatch(/127\.0\.0\.1$/)
    expect(warning?.msg).toMatch(/^X-Forwarded-For came from .*127\.0\.0\.1, which TRUST_PROXY does not trust/)
  })

  it('says nothing when the peer is trusted (the default trusts a balancer on this machine)', async () => {
    const { app, lines } = siteWithLog()
    await request(app).get('/pricing/').set('X-Forwarded-For', '203.0.113.7').expect(200)
    expect(warnings(lines)).toEqual([])
  })
})

/** A subscriber's address as a sending platform's merge tag puts it in a live timer's `r=`. */
const RECIPIENT = 'anna+shop@example.com'
const DAY_MS = 86_400_000
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
/** A recipient's own date, as a per-recipient timer gets it in `until=`. */
const UNTIL = isoSeconds(Date.now() + 100 * DAY_MS)

/** Every piece of the recipient's data that no log line may carry, plain or encoded. */
const RECIPIENT_PIECES = ['anna', 'shop', 'example.com', 'anna%2B', '%40example', UNTIL, encodeURIComponent(UNTIL), UNTIL.slice(0, 10)]

function expectNoRecipientData(lines: string[]) {
  const log = lines.join('\n')
  for (const piece of RECIPIENT_PIECES) expect(log, `a log line carries "${piece}"`).not.toContain(piece)
}

/** The URLs of the request lines of paths starting with `prefix`. */
const requestLines = (lines: string[], prefix: string) =>
  lines
    .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string } })
    .filter((line) => line.msg?.startsWith('request ') && line.req?.url?.startsWith(prefix))
    .map((line) => line.req!.url!)

/** A live timer of each kind that takes a recipient's data, minted by `post`: `/countdown/live.gif?…` without the open parameter. */
async function recipientTimers(post: (path: string, body: object) => Promise<{ url: string }>) {
  const now = Date.now()
  const pathOf = async (body: object) => {
    const url = new URL((await post('countdown/live-url', body)).url)
    return url.pathname.slice(url.pathname.indexOf('/countdown/')) + url.search.replace(/&(r|until)=$/, '')
  }
  return { evergreen: await pathOf({ kind: 'evergreen', for: 86_400 }), perRecipient: await pathOf({ kind: 'per-recipient', from: isoSeconds(now), to: isoSeconds(now + 300 * DAY_MS) }) }
}

/** Opens of those timers with the recipient's data in every spelling a platform or a hand might give it. */
function recipientOpens({ evergreen, perRecipient }: { evergreen: string; perRecipient: string }): string[] {
  const key = encodeURIComponent(RECIPIENT)
  return [`${evergreen}&r=${key}`, `${evergreen}&r=${RECIPIENT}`, `${evergreen}&%72=${key}`, `${evergreen}&r=${key}&r=${key}`, `${perRecipient}&until=${encodeURIComponent(UNTIL)}`]
}

const GIFFER_ENV = { GIFFER_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'debug', GIFFER_WORKERS: '1', PUBLIC_URL: 'https://site.example', GIFFER_SECRET: 'secret-of-the-test-deployment' }

describe('a recipient’s data in the logs', () => {
  it('is in no line of the site, its own image service and its dashboard', async () => {
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'recipient-logs-'))
    const site = siteWithLog({}, { DATA_DIR: stateDir }, 'debug')
    try {
      const timers = await recipientTimers(async (path, body) => (await request(site.app).post(`/giffer/${path}`).send(body).expect(200)).body as { url: string })
      for (const open of recipientOpens(timers)) expect((await request(site.app).get(`/giffer${open}`)).status, open).toBe(200)
      await request(site.app).get(`/app/api/v1/partners/track?r=${encodeURIComponent(RECIPIENT)}&e=unique`)
      // A body that does not parse is a client's mistake: the parser's error quotes the body, the log line does not.
      const broken = `{"url":"https://site.example/giffer${recipientOpens(timers)[0]}","until":"${UNTIL}"`
      await request(site.app).post('/giffer/countdown/live-url').set('Content-Type', 'application/json').send(broken).expect(400)
      expect(site.lines.some((line) => line.includes('"msg":"client error"'))).toBe(true)
      expect(requestLines(site.lines, '/giffer/countdown/live.')).toHaveLength(5)
      expect(requestLines(site.lines, '/app/api/v1/partners/track')).toEqual(['/app/api/v1/partners/track?r=[redacted]&e=unique'])
      expectNoRecipientData(site.lines)
    } finally {
      await site.close()
      await rm(stateDir, { recursive: true, force: true })
    }
  }, 30_000)

  it('is in no line of the image service on its own, nor of the site’s proxy in front of it, up or down', async () => {
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'recipient-logs-'))
    const giffer = await startStandalone('server/giffer/main.ts', 'giffer', { ...GIFFER_ENV, DATA_DIR: stateDir })
    const origin = `http://127.0.0.1:${giffer.port}`
    const site = siteWithLog({}, { GIFFER_URL: origin }, 'debug')
    try {
      const timers = await recipientTimers(async (path, body) => (await fetch(`${origin}/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<{ url: string }>)
      const opens = recipientOpens(timers)
      for (const open of opens) expect((await fetch(`${origin}${open}`)).status, open).toBe(200)
      for (const open of opens) expect((await request(site.app).get(`/giffer${open}`)).status, open).toBe(200)
      // Its lines are written asynchronously: all of them are in before it is stopped.
      await vi.waitFor(() => expect(requestLines(giffer.logged, '/countdown/live.')).toHaveLength(10), { timeout: 5_000 })
      giffer.child.kill('SIGKILL')
      await once(giffer.child, 'exit')
      for (const open of opens) expect((await request(site.app).get(`/giffer${open}`)).headers['x-giffer-undrawn'], open).toBe('upstream_unavailable')

      const warnings = site.lines.map((line) => JSON.parse(line) as { msg: string; url?: string; fallback?: string }).filter((line) => line.msg === 'upstream request failed')
      // The first failure of the run is written whole; the others are summed up a while later.
      expect(warnings).toHaveLength(1)
      for (const warning of warnings) expect(warning).toMatchObject({ fallback: 'upstream_unavailable', url: expect.stringMatching(/\[redacted\]$/) })
      expect(requestLines(site.lines, '/giffer/countdown/live.')).toHaveLength(10)
      expectNoRecipientData(giffer.logged)
      expectNoRecipientData(site.lines)
    } finally {
      giffer.child.kill('SIGKILL')
      await site.close()
      await rm(stateDir, { recursive: true, force: true })
    }
  }, 40_000)

  it('is in no line of a saved timer\u2019s whole run: no edit key, recipient key, address or User-Agent of an open', async () => {
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'recipient-logs-'))
    const site = siteWithLog({}, { DATA_DIR: stateDir }, 'debug')
    // The opens come from a mail proxy of their own (the site trusts the balancer on this machine).
    const open = { 'User-Agent': 'Mozilla/5.0 (via ggpht.com GoogleImageProxy) reader-agent-7731', 'X-Forwarded-For': '203.0.113.77' }
    try {
      const saved = (await request(site.app).post('/giffer/countdown/timers').send({ kind: 'evergreen', for: 3600, link: 'https://shop.example/sale' }).expect(201)).body as { id: string; url: string; link_url: string; edit_key: string }
      const image = new URL(saved.url)
      const go = new URL(saved.link_url)
      expect((await request(site.app).get(`${image.pathname}${image.search}${encodeURIComponent(RECIPIENT)}`).set(open)).status).toBe(200)
      expect((await request(site.app).get(`${image.pathname.replace('.gif', '.png')}?r=${RECIPIENT}`).set(open)).status).toBe(200)
      expect((await request(site.app).get(`${go.pathname}${go.search}${encodeURIComponent(RECIPIENT)}`).set(open)).status).toBe(302)
      const auth = { Authorization: `Bearer ${saved.edit_key}` }
      await request(site.app).patch(`/giffer/countdown/timers/${saved.id}`).set(auth).send({ for: 7200 }).expect(200)
      await request(site.app).get(`/giffer/countdown/timers/${saved.id}/stats`).set(auth).expect(200)
      await request(site.app).get(`/giffer/countdown/timers/${saved.id}`).set({ Authorization: 'Bearer wrong-key-wrong-key' }).expect(401)
      await request(site.app).delete(`/giffer/countdown/timers/${saved.id}`).set(auth).expect(204)
      expect(requestLines(site.lines, '/giffer/countdown/t/')).toHaveLength(3)
      const log = site.lines.join('\n')
      for (const secret of [saved.edit_key, 'wrong-key-wrong-key', '203.0.113.77', 'reader-agent-7731', 'GoogleImageProxy']) expect(log, `a log line carries "${secret}"`).not.toContain(secret)
      expectNoRecipientData(site.lines)
    } finally {
      await site.close()
      await rm(stateDir, { recursive: true, force: true })
    }
  }, 30_000)

  it('is in no line of the dashboard on its own', async () => {
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'recipient-logs-'))
    const dashboard = await startStandalone('server/dashboard/main.ts', 'dashboard', { DASHBOARD_PORT: '0', HOST: '127.0.0.1', DATA_DIR: stateDir, LOG_LEVEL: 'debug', PUBLIC_URL: 'https://site.example' })
    try {
      const track = `http://127.0.0.1:${dashboard.port}/app/api/v1/partners/track`
      await fetch(`${track}?r=${encodeURIComponent(RECIPIENT)}&e=unique`)
      await fetch(`${track}?e=unique&%72=${RECIPIENT}`)
      await vi.waitFor(() => expect(requestLines(dashboard.logged, '/app/api/v1/partners/track')).toEqual(['/app/api/v1/partners/track?r=[redacted]&e=unique', '/app/api/v1/partners/track?e=unique&%72=[redacted]']), { timeout: 5_000 })
      expectNoRecipientData(dashboard.logged)
    } finally {
      dashboard.child.kill('SIGKILL')
      await rm(stateDir, { recursive: true, force: true })
    }
  }, 30_000)
})
