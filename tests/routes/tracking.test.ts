import request from 'supertest'
import { describe, expect, it, vi } from 'vitest'
import { testApp, testSite } from './app.js'

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

describe('entry points kept in the traffic cookie', () => {
  const TOKEN = 'Zzbs6Qr0R9B2rI_fIdxjkbZohM2eGCsEcCW3Yhky5IQ'

  it('keeps the path and the campaign parameters of a landing, never a token, next or anything else', async () => {
    const app = testApp({}, { trackReferral: null })
    const response = await request(app)
      .get(`/reset/new/?token=${TOKEN}&utm_source=mail&utm_campaign=reset&next=%2Fpricing%2F&email=a%40b.c&ref=partner_1`)
      .set('Referer', 'https://mail.example/inbox?secret=1#x')
      .expect(200)
    const traffic = JSON.parse(cookiesOf(response).pl_traffic!.value)
    expect(traffic.firstVisit).toMatchObject({ entry: '/reset/new/?utm_source=mail&utm_campaign=reset&ref=partner_1', referrer: 'https://mail.example/inbox' })
    expect(JSON.stringify(cookiesOf(response))).not.toContain(TOKEN)
  })

  it('leaves no reset token in any cookie or in the account a sign-up then creates', async () => {
    const site = testSite({}, { trackReferral: null })
    const landing = await request(site.app).get(`/reset/new/?token=${TOKEN}`).expect(200)
    const cookies = cookiesOf(landing)
    expect(JSON.stringify(cookies)).not.toContain(TOKEN)
    // The sign-up form sends the traffic cookies along as they are (see trackingPayload).
    await request(site.app)
      .post('/app/api/v1/users/register')
      .set('Origin', 'https://site.example')
      .send({ email: 'token-check@example.com', password: 'correct horse battery staple', tracking: { context: { page: '/start/' }, cookies: { pl_traffic: cookies.pl_traffic!.value, pl_session: cookies.pl_session!.value } } })
      .expect(201)
    const row = site.dashboard!.context.db.prepare('SELECT tracking FROM users').get() as { tracking: string }
    expect(row.tracking).toContain('/reset/new/')
    expect(row.tracking).not.toContain(TOKEN)
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
