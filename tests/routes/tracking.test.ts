import request from 'supertest'
import { describe, expect, it, vi } from 'vitest'
import { testApp } from './app.js'

function cookiesOf(response: request.Response): Record<string, { value: string; attributes: string }> {
  const header = (response.headers['set-cookie'] as unknown as string[] | undefined) ?? []
  return Object.fromEntries(
    header.map((line) => {
      const [pair, ...attributes] = line.split('; ')
      const [name, value] = pair!.split('=')
      return [name!, { value: decodeURIComponent(value ?? ''), attributes: attributes.join('; ') }]
    }),
  )
}

describe('traffic cookies', () => {
  const app = testApp({}, { trackReferral: null, now: () => new Date('2026-11-22T10:00:00Z') })

  it('records the first visit: source, entry point, referrer, 6-month lifetime, 30-minute session', async () => {
    const response = await request(app).get('/pricing/?utm_source=newsletter&utm_medium=email').set('Referer', 'https://mail.example/').expect(200)
    const cookies = cookiesOf(response)
    const traffic = JSON.parse(cookies.pl_traffic!.value)
    expect(traffic.first).toMatchObject({ type: 'utm', source: 'newsletter', medium: 'email' })
    expect(traffic.firstVisit).toMatchObject({ entry: '/pricing/?utm_source=newsletter&utm_medium=email', referrer: 'https://mail.example/' })
    expect(traffic.visits).toBe(1)
    expect(traffic.promo).toBeGreaterThanOrEqual(100000)
    expect(traffic.promo).toBeLessThanOrEqual(999999)
    expect(cookies.pl_traffic!.attributes).toContain(`Max-Age=${180 * 86400}`)
    expect(cookies.pl_traffic!.attributes).toContain('SameSite=Lax')
    expect(cookies.pl_traffic!.attributes).toContain('Secure')
    expect(cookies.pl_traffic!.attributes).toContain('Path=/')
    expect(JSON.parse(cookies.pl_session!.value)).toEqual({ pages: 1 })
    expect(cookies.pl_session!.attributes).toContain('Max-Age=1800')
  })

  it('counts pages seen in the visit, also on repeat visits answered from the page cache', async () => {
    const first = await request(app).get('/faq/').expect(200)
    const jar = Object.entries(cookiesOf(first)).map(([name, { value }]) => `${name}=${encodeURIComponent(value)}`).join('; ')
    const second = await request(app).get('/faq/').set('Cookie', jar).expect(200)
    expect(second.headers.etag).toBeTruthy()
    expect(JSON.parse(cookiesOf(second).pl_session!.value)).toEqual({ pages: 2 })
    expect(second.text).not.toContain('pl_session')
  })

  it('ignores cookies it cannot read, and starts afresh', async () => {
    const response = await request(app).get('/about/').set('Cookie', 'pl_traffic=%7Bbroken; pl_session={"pages":"many"}').expect(200)
    const cookies = cookiesOf(response)
    expect(JSON.parse(cookies.pl_traffic!.value).visits).toBe(1)
    expect(JSON.parse(cookies.pl_session!.value)).toEqual({ pages: 1 })
  })

  it('leaves files, the API and unknown pages alone', async () => {
    for (const path of ['/api/prices', '/robots.txt', '/healthz', '/no-such-page/']) {
      const response = await request(app).get(path)
      expect(cookiesOf(response).pl_traffic, path).toBeUndefined()
    }
  })
})

describe('referral cookie', () => {
  it('remembers ?ref= for 60 days and tells the dashboard once', async () => {
    const trackReferral = vi.fn(async () => {})
    const app = testApp({}, { trackReferral })
    const response = await request(app).get('/?ref=partner_42').expect(200)
    const ref = cookiesOf(response).pl_ref!
    expect(ref.value).toBe('partner_42')
    expect(ref.attributes).toContain(`Max-Age=${60 * 86400}`)
    expect(ref.attributes).toContain('SameSite=Lax')
    expect(trackReferral).toHaveBeenCalledTimes(1)
    expect(trackReferral).toHaveBeenCalledWith('partner_42', expect.any(AbortSignal))

    const again = await request(app).get('/?ref=partner_42').set('Cookie', 'pl_ref=partner_42').expect(200)
    expect(cookiesOf(again).pl_ref).toBeUndefined()
    expect(trackReferral).toHaveBeenCalledTimes(1)
  })

  it('ignores malformed codes, and a failing tracking call never breaks the page', async () => {
    const trackReferral = vi.fn(async () => {
      throw new Error('dashboard down')
    })
    const app = testApp({}, { trackReferral })
    const bad = await request(app).get('/?ref=%3Cscript%3E').expect(200)
    expect(cookiesOf(bad).pl_ref).toBeUndefined()
    await request(app).get('/?ref=good-code').expect(200)
    expect(trackReferral).toHaveBeenCalledTimes(1)
  })
})

describe('dashboardReferralTracker', () => {
  it('calls api/v1/partners/track?r={ref}&e=unique on the dashboard', async () => {
    const { createServer } = await import('node:http')
    const seen: string[] = []
    const upstream = createServer((req, res) => {
      seen.push(req.url ?? '')
      res.end('{}')
    }).listen(0)
    await new Promise((resolve) => upstream.once('listening', resolve))
    const { port } = upstream.address() as import('node:net').AddressInfo
    try {
      const { dashboardReferralTracker } = await import('../../server/tracking/middleware.js')
      await dashboardReferralTracker(`http://127.0.0.1:${port}/app`)('partner_42', AbortSignal.timeout(1000))
      expect(seen).toEqual(['/app/api/v1/partners/track?r=partner_42&e=unique'])
    } finally {
      upstream.close()
    }
  })
})
