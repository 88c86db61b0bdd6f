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

const ORIGIN = 'https://site.example'

/** A page view as the page's script reports it. */
function visit(app: ReturnType<typeof testApp>, url: string, { referrer = '', cookie }: { referrer?: string; cookie?: string } = {}) {
  const report = request(app).post('/track/visit').set('Origin', ORIGIN).send({ url, referrer })
  return cookie ? report.set('Cookie', cookie) : report
}

/** The cookies of an answer, as a browser would send them back. */
const jarOf = (response: request.Response) =>
  Object.entries(cookiesOf(response))
    .map(([name, { value }]) => `${name}=${encodeURIComponent(value)}`)
    .join('; ')

describe('pages a shared cache may keep', () => {
  const app = testApp({}, { trackReferral: null })

  it('never set a cookie, and say how long a shared cache may keep them', async () => {
    for (const path of ['/', '/pricing/', '/p/', '/p/forms/discounts/', '/e/', '/blog/', '/login/', '/start/?next=%2Fpricing%2F', '/ai-subject-line-generator/', '/pricing/?utm_source=x&ref=partner_1']) {
      for (const attempt of ['miss', 'hit']) {
        const response = await request(app).get(path).set('Referer', 'https://www.google.com/').expect(200)
        expect(response.headers['set-cookie'], `${path} (${attempt})`).toBeUndefined()
        expect(response.headers['cache-control'], path).toBe('public, max-age=0, s-maxage=300, stale-while-revalidate=86400')
      }
    }
    const data = await request(app).get('/pricing/?_data=pricing').expect(200)
    expect(data.headers['set-cookie']).toBeUndefined()
    expect(data.headers['cache-control']).toBe('public, max-age=0, s-maxage=300, stale-while-revalidate=86400')
  })

  it('keep a page with a reset token, and a posted form, out of every cache', async () => {
    const reset = await request(app).get('/reset/new/?token=abc').expect(200)
    expect(reset.headers['cache-control']).toBe('private, no-store')
    expect(reset.headers['set-cookie']).toBeUndefined()
  })

  it('take their shared-cache lifetimes from the environment', async () => {
    const configured = testApp({ PAGE_SHARED_MAX_AGE: '60', PAGE_STALE_WHILE_REVALIDATE: '0' })
    expect((await request(configured).get('/about/').expect(200)).headers['cache-control']).toBe('public, max-age=0, s-maxage=60')
    const off = testApp({ PAGE_SHARED_MAX_AGE: '0' })
    expect((await request(off).get('/about/').expect(200)).headers['cache-control']).toBe('public, max-age=0, must-revalidate')
  })

  it('carry the no-script page-view image, and the page’s script reports the view', async () => {
    const page = await request(app).get('/faq/').expect(200)
    expect(page.text).toMatch(/<noscript><img src="\/track\/visit\.gif"[^>]*referrerPolicy="same-origin"|<noscript><img src="\/track\/visit\.gif"[^>]*referrerpolicy="same-origin"/)
  })
})

describe('traffic cookies, set by the page-view report', () => {
  const app = testApp({}, { trackReferral: null, now: () => new Date('2026-11-22T10:00:00Z') })

  it('records the first visit: source, entry point, referrer, 6-month lifetime, 30-minute session', async () => {
    const response = await visit(app, '/pricing/?utm_source=newsletter&utm_medium=email', { referrer: 'https://mail.example/' }).expect(204)
    expect(response.headers['cache-control']).toBe('no-store')
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
    expect(cookies.pl_traffic!.attributes).not.toContain('HttpOnly')
    expect(JSON.parse(cookies.pl_session!.value)).toEqual({ pages: 1 })
    expect(cookies.pl_session!.attributes).toContain('Max-Age=1800')
  })

  it('classifies a search engine referrer as organic', async () => {
    const response = await visit(app, '/blog/', { referrer: 'https://www.google.com/' }).expect(204)
    expect(JSON.parse(cookiesOf(response).pl_traffic!.value).first).toMatchObject({ type: 'organic', source: 'google', medium: 'organic' })
  })

  it('counts pages seen in the visit', async () => {
    const first = await visit(app, '/faq/').expect(204)
    const second = await visit(app, '/faq/', { referrer: `${ORIGIN}/faq/`, cookie: jarOf(first) }).expect(204)
    expect(JSON.parse(cookiesOf(second).pl_session!.value)).toEqual({ pages: 2 })
    expect(JSON.parse(cookiesOf(second).pl_traffic!.value).visits).toBe(1)
  })

  it('ignores cookies it cannot read, and starts afresh', async () => {
    const response = await visit(app, '/about/', { cookie: 'pl_traffic=%7Bbroken; pl_session={"pages":"many"}' }).expect(204)
    const cookies = cookiesOf(response)
    expect(JSON.parse(cookies.pl_traffic!.value).visits).toBe(1)
    expect(JSON.parse(cookies.pl_session!.value)).toEqual({ pages: 1 })
  })

  it('counts only pages of the site, and refuses reports from other sites or of other hosts', async () => {
    for (const url of ['/api/prices', '/robots.txt', '/no-such-page/']) {
      expect(cookiesOf(await visit(app, url).expect(204)).pl_traffic, url).toBeUndefined()
    }
    for (const url of ['//evil.example/', 'https://evil.example/', '/\\evil.example/', '']) {
      const refused = await visit(app, url).expect(400)
      expect(refused.body.error.field).toBe('url')
    }
    await request(app).post('/track/visit').set('Origin', 'https://evil.example').send({ url: '/' }).expect(403)
    await request(app).post('/track/visit').set('Origin', ORIGIN).set('Content-Type', 'application/json').send('{"url":').expect(400)
  })

  it('counts a page seen without scripts through its image, named by the Referer it sends', async () => {
    const response = await request(app).get('/track/visit.gif').set('Referer', `${ORIGIN}/pricing/?utm_source=print&token=secret`).expect(200)
    expect(response.headers['content-type']).toBe('image/gif')
    expect(response.headers['cache-control']).toBe('no-store')
    const traffic = JSON.parse(cookiesOf(response).pl_traffic!.value)
    expect(traffic.first).toMatchObject({ type: 'utm', source: 'print' })
    expect(traffic.firstVisit.entry).toBe('/pricing/?utm_source=print')
    // Another site's page, or none: the image, and no cookie.
    for (const referer of ['https://evil.example/pricing/', '']) {
      const other = await request(app).get('/track/visit.gif').set('Referer', referer).expect(200)
      expect(other.headers['set-cookie']).toBeUndefined()
    }
  })
})

describe('entry points kept in the traffic cookie', () => {
  const TOKEN = 'Zzbs6Qr0R9B2rI_fIdxjkbZohM2eGCsEcCW3Yhky5IQ'

  it('keeps the path and the campaign parameters of a landing, never a token, next or anything else', async () => {
    const app = testApp({}, { trackReferral: null })
    const response = await visit(app, `/reset/new/?token=${TOKEN}&utm_source=mail&utm_campaign=reset&next=%2Fpricing%2F&email=a%40b.c&ref=partner_1`, {
      referrer: 'https://mail.example/inbox?secret=1#x',
    }).expect(204)
    const traffic = JSON.parse(cookiesOf(response).pl_traffic!.value)
    expect(traffic.firstVisit).toMatchObject({ entry: '/reset/new/?utm_source=mail&utm_campaign=reset&ref=partner_1', referrer: 'https://mail.example/inbox' })
    expect(JSON.stringify(cookiesOf(response))).not.toContain(TOKEN)
  })

  it('leaves no reset token in any cookie or in the account a sign-up then creates', async () => {
    const site = testSite({}, { trackReferral: null })
    const page = await request(site.app).get(`/reset/new/?token=${TOKEN}`).expect(200)
    expect(page.headers['set-cookie']).toBeUndefined()
    const landing = await visit(site.app, `/reset/new/?token=${TOKEN}`).expect(204)
    const cookies = cookiesOf(landing)
    expect(JSON.stringify(cookies)).not.toContain(TOKEN)
    // The sign-up form sends the traffic cookies along as they are (see trackingPayload).
    await request(site.app)
      .post('/app/api/v1/users/register')
      .set('Origin', ORIGIN)
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
    const page = await request(app).get('/?ref=partner_42').expect(200)
    expect(page.headers['set-cookie']).toBeUndefined()
    expect(trackReferral).not.toHaveBeenCalled()
    const response = await visit(app, '/?ref=partner_42').expect(204)
    const ref = cookiesOf(response).pl_ref!
    expect(ref.value).toBe('partner_42')
    expect(ref.attributes).toContain(`Max-Age=${60 * 86400}`)
    expect(ref.attributes).toContain('SameSite=Lax')
    expect(trackReferral).toHaveBeenCalledTimes(1)
    expect(trackReferral).toHaveBeenCalledWith('partner_42', expect.any(String), expect.any(AbortSignal))

    const again = await visit(app, '/?ref=partner_42', { cookie: 'pl_ref=partner_42' }).expect(204)
    expect(cookiesOf(again).pl_ref).toBeUndefined()
    expect(trackReferral).toHaveBeenCalledTimes(1)
  })

  it('ignores malformed codes, and a failing tracking call never breaks the report', async () => {
    const trackReferral = vi.fn(async () => {
      throw new Error('dashboard down')
    })
    const app = testApp({}, { trackReferral })
    const bad = await visit(app, '/?ref=%3Cscript%3E').expect(204)
    expect(cookiesOf(bad).pl_ref).toBeUndefined()
    await visit(app, '/?ref=good-code').expect(204)
    expect(trackReferral).toHaveBeenCalledTimes(1)
  })
})

describe('dashboardReferralTracker', () => {
  it('calls api/v1/partners/track?r={ref}&e=unique on the dashboard, naming the visitor in X-Forwarded-For', async () => {
    const { createServer } = await import('node:http')
    const seen: string[] = []
    const upstream = createServer((req, res) => {
      seen.push(req.url ?? '', String(req.headers['x-forwarded-for']))
      res.end('{}')
    }).listen(0)
    await new Promise((resolve) => upstream.once('listening', resolve))
    const { port } = upstream.address() as import('node:net').AddressInfo
    try {
      const { dashboardReferralTracker } = await import('../../server/tracking/middleware.js')
      await dashboardReferralTracker(`http://127.0.0.1:${port}/app`)('partner_42', '203.0.113.7', AbortSignal.timeout(1000))
      expect(seen).toEqual(['/app/api/v1/partners/track?r=partner_42&e=unique', '203.0.113.7'])
    } finally {
      upstream.close()
    }
  })
})

describe('referral counts', () => {
  const hits = (site: ReturnType<typeof testSite>) => site.dashboard!.context.db.prepare('SELECT code FROM referral_hits').all() as { code: string }[]

  it('count a visitor once per partner, however often the pixel is asked with the same ?ref=', async () => {
    const site = testSite()
    for (let i = 0; i < 5; i++) {
      await request(site.app).get('/track/visit.gif').set('Referer', 'https://site.example/?ref=x1').expect(200)
    }
    await request(site.app).get('/track/visit.gif').set('Referer', 'https://site.example/pricing/?ref=x2').expect(200)
    expect(hits(site).map((hit) => hit.code)).toEqual(['x1', 'x2'])
  })

  it('count a visitor once per partner through the dashboard\'s own tracking endpoint too, and at most 10 partners an hour per address', async () => {
    const site = testSite()
    for (let i = 0; i < 3; i++) await request(site.app).get('/app/api/v1/partners/track?r=x1&e=unique').expect(200)
    for (let i = 2; i <= 20; i++) await request(site.app).get(`/app/api/v1/partners/track?r=x${i}&e=unique`).expect(200)
    expect(hits(site)).toHaveLength(10)
  })
})
