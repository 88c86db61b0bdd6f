import { Writable } from 'node:stream'
import { pino } from 'pino'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import type { AppOverrides } from '../../server/app.js'
import { loggableUrl } from '../../server/process/logger.js'
import type { PriceList } from '../../server/pricing/api.js'
import { testSite } from './app.js'

/** A site whose log lines are kept in memory. */
function siteWithLog(overrides: AppOverrides = {}, env: Record<string, string> = {}) {
  const lines: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split('\n').filter(Boolean))
      callback()
    },
  })
  const { app } = testSite(env, { ...overrides, logger: pino({ level: 'info' }, sink) })
  return { app, lines }
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
