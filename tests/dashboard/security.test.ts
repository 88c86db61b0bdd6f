import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { missingFields } from '../../shared/accounts/client.js'
import { dashboardSite, freshEmail, ORIGIN, PASSWORD, register, SITE, sessionCookieOf, setCookies } from './helpers.js'

const REFUSED = { message: 'Cross-site request refused.' }

describe('cross-site requests', () => {
  const login = (headers: Record<string, string>) => {
    const { app } = dashboardSite()
    return request(app).post('/app/api/v1/users/login?dual=1').set(headers).send({ email: 'a@example.com', password: PASSWORD })
  }

  it.each([
    ['no Sec-Fetch-Site, Origin or Referer', {}],
    ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'Sec-Fetch-Site': 'same-site' }],
    ['Sec-Fetch-Site: cross-site even with our Origin', { 'Sec-Fetch-Site': 'cross-site', Origin: SITE }],
    ['a foreign Origin', { Origin: 'https://evil.example' }],
    ['Origin: null (a sandboxed frame)', { Origin: 'null' }],
    ['our origin as a prefix of another host', { Origin: 'https://site.example.evil.example' }],
    ['a foreign Referer', { Referer: 'https://evil.example/login/' }],
    ['an unparsable Referer', { Referer: 'not a url' }],
  ])('refuses a post with %s: 403', async (_name, headers) => {
    const response = await login(headers).expect(403)
    expect(response.body).toEqual(REFUSED)
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.headers['set-cookie']).toBeUndefined()
  })

  it.each([
    ['Sec-Fetch-Site: same-origin', { 'Sec-Fetch-Site': 'same-origin' }],
    ['our Origin', { Origin: SITE }],
    ['our Referer', { Referer: `${SITE}/login/?next=%2Fapp%2F` }],
  ])('lets a post with %s reach the route', async (_name, headers) => {
    // The route answers for itself: an unknown account is a 401, not the 403 of the check.
    const response = await login(headers).expect(401)
    expect(response.body.errors ?? response.body.message).toBeDefined()
  })

  it('accepts posts from the app origin (APP_URL) as well as the site, as browsers send them', async () => {
    const { app } = dashboardSite({ APP_URL: 'https://app.example/' })
    const login = () => request(app).post('/app/api/v1/users/login?dual=1')
    await login().set('Origin', 'https://app.example').send({ email: 'a@example.com', password: PASSWORD }).expect(401)
    // A browser on the app's origin says same-site or cross-site, and names the app as Origin.
    for (const site of ['same-site', 'cross-site']) {
      await login().set({ 'Sec-Fetch-Site': site, Origin: 'https://app.example' }).send({ email: 'a@example.com', password: PASSWORD }).expect(401)
    }
    // Those values with any other origin, or none, stay refused.
    await login().set({ 'Sec-Fetch-Site': 'same-site', Origin: 'https://other.example' }).send({}).expect(403)
    await login().set({ 'Sec-Fetch-Site': 'same-site' }).send({}).expect(403)
    await login().set({ 'Sec-Fetch-Site': 'none', Origin: 'https://app.example' }).send({}).expect(403)
  })

  it('refuses log-out from another site, so a foreign page cannot sign the visitor out', async () => {
    const { app } = dashboardSite()
    const { cookie } = await register(app)
    await request(app).post('/app/logout').set('Cookie', cookie).set('Origin', 'https://evil.example').expect(403)
    const check = await request(app).get('/app/api/v2/users/login_check').set('Cookie', cookie).expect(200)
    expect(check.body.status).toBe('ok')
  })

  it('does not check reads: GET login_check needs no Origin', async () => {
    const { app } = dashboardSite()
    await request(app).get('/app/api/v2/users/login_check').expect(200)
  })
})

describe('rate limits', () => {
  const tight = { login: { limit: 2, windowMs: 60_000 }, register: { limit: 2, windowMs: 60_000 }, reset: { limit: 2, windowMs: 60_000 } }

  it.each([
    ['log-in', '/app/api/v1/users/login?dual=1', { email: 'a@example.com', password: PASSWORD }],
    ['sign-up', '/app/api/v1/users/register', { email: 'a@example.com', password: 'short' }],
    ['reset', '/app/api/v1/users/password_reset?dual=1', { email: 'a@example.com' }],
  ])('limits %s per address: 429 with Retry-After and a message', async (_name, path, body) => {
    const { app } = dashboardSite({}, { limits: tight })
    const from = (ip: string) => request(app).post(path).set(ORIGIN).set('X-Forwarded-For', ip).send(body)
    for (let i = 0; i < 2; i++) expect((await from('203.0.113.7')).status).not.toBe(429)
    const limited = await from('203.0.113.7').expect(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(limited.body.message).toMatch(/^Too many attempts\. Try again in \d+ seconds?\.$/)
    expect(limited.headers['cache-control']).toBe('no-store')
    // Another address is not held back.
    expect((await from('198.51.100.1')).status).not.toBe(429)
  })

  it('counts IPv6 addresses of one /56 together', async () => {
    const { app } = dashboardSite({}, { limits: tight })
    const from = (ip: string) => request(app).post('/app/api/v1/users/password_reset?dual=1').set(ORIGIN).set('X-Forwarded-For', ip).send({ email: 'a@example.com' })
    await from('2001:db8:1:100::1').expect(200)
    await from('2001:db8:1:1ff::2').expect(200)
    await from('2001:db8:1:1aa:ffff::9').expect(429)
    await from('2001:db8:1:200::1').expect(200)
  })

  it('counts the log-in page posted without JavaScript and the log-in API together, once per address', async () => {
    const { app } = dashboardSite({}, { limits: { login: { limit: 2, windowMs: 60_000 } } })
    const ip = '203.0.113.11'
    await request(app).post('/login/').set(ORIGIN).set('X-Forwarded-For', ip).type('form').send({ email: 'a@example.com', password: PASSWORD }).expect(401)
    await request(app).post('/app/api/v1/users/login?dual=1').set(ORIGIN).set('X-Forwarded-For', ip).send({ email: 'a@example.com', password: PASSWORD }).expect(401)
    await request(app).post('/app/api/v1/users/login?dual=1').set(ORIGIN).set('X-Forwarded-For', ip).send({ email: 'a@example.com', password: PASSWORD }).expect(429)
    await request(app).post('/login/').set(ORIGIN).set('X-Forwarded-For', ip).type('form').send({ email: 'a@example.com', password: PASSWORD }).expect(429)
  })

  it('limits the no-JavaScript log-in page under any spelling of its path', async () => {
    const { app } = dashboardSite({}, { limits: { login: { limit: 1, windowMs: 60_000 } } })
    const post = (path: string) => request(app).post(path).set(ORIGIN).set('X-Forwarded-For', '203.0.113.9').type('form').send({ email: 'a@example.com', password: PASSWORD })
    expect((await post('/login/')).status).toBe(401)
    for (const path of ['/login/', '/login', '/LOGIN/', '/Login']) {
      const response = await post(path)
      expect(response.status, path).toBe(429)
    }
  })
})

describe('bad bodies', () => {
  it('answers malformed JSON with 400 and a message', async () => {
    const { app } = dashboardSite()
    const response = await request(app).post('/app/api/v1/users/login?dual=1').set(ORIGIN).type('json').send('{"email": ').expect(400)
    expect(response.body).toEqual({ message: expect.stringMatching(/JSON/i) })
  })

  it('answers a body over 16 kB with 413', async () => {
    const { app } = dashboardSite()
    const response = await request(app).post('/app/api/v1/users/register').set(ORIGIN).send({ email: 'a@example.com', password: PASSWORD, tracking: { context: { page: 'x'.repeat(20_000) } } }).expect(413)
    expect(response.body.message).toBeTruthy()
  })

  it.each([
    ['an array', [1, 2, 3]],
    ['a string', 'email'],
    ['a number', 5],
  ])('answers %s as the body with a 4xx naming the field', async (_name, body) => {
    const { app } = dashboardSite()
    const response = await request(app).post('/app/api/v1/users/login?dual=1').set(ORIGIN).type('json').send(JSON.stringify(body))
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
  })

  it('answers an unknown dashboard path with a JSON 404', async () => {
    const { app } = dashboardSite()
    const response = await request(app).get('/app/api/v1/nothing-here').expect(404)
    expect(response.body).toEqual({ message: 'Not found' })
  })
})

describe('partner tracking', () => {
  it('records a referral hit', async () => {
    const { app, db } = dashboardSite()
    const response = await request(app).get('/app/api/v1/partners/track?r=partner_1&e=unique').expect(200)
    expect(response.body).toEqual({ ok: true })
    expect(db.prepare('SELECT code, is_unique FROM referral_hits').all()).toEqual([{ code: 'partner_1', is_unique: 1 }])
  })

  it.each(['', 'bad code', 'x'.repeat(65), '<script>'])('refuses the code %j with 400 naming r', async (code) => {
    const { app } = dashboardSite()
    const response = await request(app).get('/app/api/v1/partners/track').query({ r: code }).expect(400)
    expect(Object.keys(response.body.errors)).toEqual(['r'])
  })
})

describe('social sign-in stand-in', () => {
  const PATH = '/app/api/v1/socialauth-begin/google-oauth2/'

  it('shows the chooser for either mode', async () => {
    const { app } = dashboardSite()
    const signup = await request(app).get(`${PATH}?mode=signup-popup`).expect(200)
    expect(signup.text).toContain('Sign up with Google')
    const signin = await request(app).get(`${PATH}?mode=signin-popup`).expect(200)
    expect(signin.text).toContain('Log in with Google')
  })

  it('refuses another mode with 400 naming mode', async () => {
    const { app } = dashboardSite()
    const response = await request(app).get(`${PATH}?mode=redirect`).expect(400)
    expect(Object.keys(response.body.errors)).toEqual(['mode'])
  })

  it('signs in and posts signupComplete to the site origin only, with the session cookie', async () => {
    const { app } = dashboardSite()
    const email = freshEmail()
    const response = await request(app).post(`${PATH}?mode=signup-popup`).set(ORIGIN).type('form').send({ email }).expect(200)
    const json = response.text.match(/<script type="application\/json" id="social-result">(.*?)<\/script>/s)?.[1]
    expect(JSON.parse(json!)).toEqual({
      message: { type: 'signupComplete', user: { id: expect.any(Number), email }, login_url: '/app/', backend: 'google-oauth2', is_new: true },
      targetOrigin: SITE,
    })
    expect(sessionCookieOf(response)).toMatch(/pl_auth=/)
    expect(response.text).toMatch(/\/app\/static\/social-complete(-[A-Z0-9]{8})?\.js/)
  })

  it('never opens an existing account to a visitor who only types its email', async () => {
    const { app } = dashboardSite()
    const { email, cookie } = await register(app)
    const stranger = await request(app).post(`${PATH}?mode=signin-popup`).set(ORIGIN).type('form').send({ email }).expect(400)
    expect(stranger.text).toContain('This email already has an account. Log in to it first, or log in with its password.')
    expect(stranger.headers['set-cookie']).toBeUndefined()
    expect(stranger.text).not.toContain('social-result')
    // The account's own visitor, already signed in, is offered it and may choose it.
    const chooser = await request(app).get(`${PATH}?mode=signin-popup`).set('Cookie', cookie).expect(200)
    expect(chooser.text).toContain(`value="${email}"`)
    const owner = await request(app).post(`${PATH}?mode=signin-popup`).set(ORIGIN).set('Cookie', cookie).type('form').send({ email }).expect(200)
    expect(owner.text).toContain('"is_new":false')
  })

  it('keeps the tracking payload the opener sent with the account it makes, and refuses a bad one by name', async () => {
    const { app, db } = dashboardSite()
    const tracking = JSON.stringify({ context: { page: '/start/', clone_id: 'wt8mybhg' }, referral: 'partner7', redeem: 123456 })
    const chooser = await request(app).get(PATH).query({ mode: 'signup-popup', tracking }).expect(200)
    const carried = /name="tracking" value="([^"]*)"/.exec(chooser.text)?.[1]?.replaceAll('&quot;', '"')
    expect(carried).toBe(tracking)
    const email = freshEmail()
    await request(app).post(`${PATH}?mode=signup-popup`).set(ORIGIN).type('form').send({ email, tracking: carried }).expect(200)
    expect(JSON.parse(String(db.prepare('SELECT tracking FROM users WHERE email = ?').get(email)!.tracking))).toEqual(JSON.parse(tracking))
    const bad = await request(app).get(PATH).query({ mode: 'signup-popup', tracking: 'not json' }).expect(400)
    expect(Object.keys(bad.body.errors)).toEqual(['tracking'])
    await request(app).get(PATH).query({ mode: 'signup-popup', tracking: JSON.stringify({ pad: 'x'.repeat(5000) }) }).expect(400)
  })

  it('keeps an email that tries to close the script tag inert', async () => {
    const { app } = dashboardSite()
    const response = await request(app).post(`${PATH}?mode=signin-popup`).set(ORIGIN).type('form').send({ email: '</script><script>alert(1)</script>@x.com' })
    expect(response.status).toBe(400)
    expect(response.text).not.toContain('<script>alert(1)')
  })

  it('refuses a cross-site post to the stand-in', async () => {
    const { app } = dashboardSite()
    await request(app).post(`${PATH}?mode=signin-popup`).set('Origin', 'https://evil.example').type('form').send({ email: freshEmail() }).expect(403)
  })
})

describe('clone and the app home', () => {
  it('sends an anonymous visitor to sign up with the clone as the way back', async () => {
    const { app } = dashboardSite()
    const widget = await request(app).get('/app/clone/wt8mybhg').expect(302)
    expect(widget.headers.location).toBe('/start/?next=%2Fapp%2Fclone%2Fwt8mybhg')
    const email = await request(app).get('/app/clone-email/1ovql5y3').expect(302)
    expect(email.headers.location).toBe('/start/?next=%2Fapp%2Fclone-email%2F1ovql5y3')
    // Only templates of the galleries can be taken.
    await request(app).get('/app/clone-email/ef56gh78').expect(404)
  })

  it('copies the template into a signed-in account and lists it on the app home', async () => {
    const { app } = dashboardSite()
    const { cookie } = await register(app)
    const clone = await request(app).get('/app/clone/wt8mybhg').set('Cookie', cookie).expect(302)
    expect(clone.headers.location).toBe('/app/')
    const home = await request(app).get('/app/').set('Cookie', cookie).expect(200)
    expect(home.text).toContain('wt8mybhg')
    expect(home.text).toContain('<strong>First order 10%</strong>')
    expect(home.headers['cache-control']).toBe('no-store')
  })

  it.each(['short', 'ABCDEFGH', 'ab12cd345', '..%2F..%2Fx', 'ab12cd34'])('answers the template id %j (malformed, or no such widget) with 404', async (hid) => {
    const { app } = dashboardSite()
    await request(app).get(`/app/clone/${hid}`).expect(404)
  })

  it('sends an anonymous visitor of the app home to log in', async () => {
    const { app } = dashboardSite()
    const response = await request(app).get('/app/').expect(302)
    expect(response.headers.location).toBe('/login/?next=%2Fapp%2F')
  })

  it('after a log-in goes on to the clone named in next, and nowhere outside the app', async () => {
    const { app } = dashboardSite()
    const { cookie } = await register(app)
    const onward = await request(app).get('/app/?next=%2Fapp%2Fclone%2Fab12cd34').set('Cookie', cookie).expect(302)
    expect(onward.headers.location).toBe('/app/clone/ab12cd34')
    for (const next of ['https://evil.example/app/', '//evil.example/app/', '/\\evil.example', '/pricing/']) {
      const stay = await request(app).get('/app/').query({ next }).set('Cookie', cookie)
      expect(stay.status, next).toBe(200)
    }
  })

  it('logs out with a post from the site: cookie cleared, 303 home, session gone', async () => {
    const { app } = dashboardSite()
    const { cookie } = await register(app)
    const out = await request(app).post('/app/logout').set('Cookie', cookie).set(ORIGIN).expect(303)
    expect(out.headers.location).toBe('/')
    expect(setCookies(out)[0]).toMatch(/Max-Age=0/)
    await request(app).get('/app/').set('Cookie', cookie).expect(302)
  })
})

describe('outbox page', () => {
  it('is served outside production', async () => {
    const { app } = dashboardSite()
    const response = await request(app).get('/app/outbox/').expect(200)
    expect(response.text).toContain('Outbox')
    expect(response.headers['referrer-policy']).toBe('no-referrer')
  })

  it('does not exist in production unless turned on', async () => {
    await request(dashboardSite({ NODE_ENV: 'production' }).app).get('/app/outbox/').expect(404)
    await request(dashboardSite({ NODE_ENV: 'production', DASHBOARD_OUTBOX: 'true' }).app).get('/app/outbox/').expect(200)
  })

  it('does not exist when mail goes out through SMTP', async () => {
    await request(dashboardSite({ SMTP_URL: 'smtp://127.0.0.1:2525' }).app).get('/app/outbox/').expect(404)
  })
})

describe('forms posted without JavaScript', () => {
  it('refuses a log-in form from another site', async () => {
    const { app } = dashboardSite()
    const response = await request(app).post('/login/').set('Origin', 'https://evil.example').type('form').send({ email: 'a@example.com', password: PASSWORD }).expect(403)
    expect(response.body).toEqual(REFUSED)
  })

  it('draws the page again with the message when a field is empty', async () => {
    const { app } = dashboardSite()
    const response = await request(app).post('/login/').set(ORIGIN).type('form').send({ email: '', password: '' }).expect(400)
    expect(response.headers['content-type']).toMatch(/text\/html/)
    expect(response.text).toContain('Email is required')
    expect(response.headers['cache-control']).toMatch(/no-store/)
  })

  it('marks the empty fields as the script does: an email of spaces is empty, a password is not trimmed', async () => {
    const { app } = dashboardSite()
    const invalid = (html: string) => [...html.matchAll(/<input[^>]*name="(\w+)"[^>]*aria-invalid="true"|<input[^>]*aria-invalid="true"[^>]*name="(\w+)"/g)].map((match) => match[1] ?? match[2])
    const both = await request(app).post('/login/').set(ORIGIN).type('form').send({ email: '', password: '' }).expect(400)
    expect(both.text).toContain('Email is required')
    expect(both.text).not.toContain('Password is required')
    expect(invalid(both.text)).toEqual(['email', 'password'])
    const spaces = await request(app).post('/login/').set(ORIGIN).type('form').send({ email: '   ', password: ' ' }).expect(400)
    expect(spaces.text).toContain('Email is required')
    expect(invalid(spaces.text)).toEqual(['email'])
    const noPassword = await request(app).post('/start/').set(ORIGIN).type('form').send({ email: 'a@example.com', password: '' }).expect(400)
    expect(noPassword.text).toContain('Password is required')
    expect(invalid(noPassword.text)).toEqual(['password'])
    const reset = await request(app).post('/reset/').set(ORIGIN).type('form').send({ email: ' ' }).expect(400)
    expect(invalid(reset.text)).toEqual(['email'])
    const newPassword = await request(app).post('/reset/new/').set(ORIGIN).type('form').send({ token: 'x', password: '' }).expect(400)
    expect(newPassword.text).toContain('Password is required')
    // The script checks the email as typed, spaces and all, by the same rule.
    expect(missingFields({ email: '  ', password: 'x' })).toEqual({ missing: ['email'], error: 'Email is required' })
    expect(missingFields({ email: 'a@example.com' })).toBeNull()
  })

  it('signs in: 303 to the app with the session cookie', async () => {
    const { app } = dashboardSite()
    const { email } = await register(app)
    const response = await request(app).post('/login/').set(ORIGIN).type('form').send({ email, password: PASSWORD }).expect(303)
    expect(response.headers.location).toBe('/app/')
    expect(sessionCookieOf(response)).toMatch(/pl_auth=/)
  })

  it('signs in and goes on to a clone named in next', async () => {
    const { app } = dashboardSite()
    const { email } = await register(app)
    const response = await request(app).post('/login/?next=%2Fapp%2Fclone%2Fab12cd34').set(ORIGIN).type('form').send({ email, password: PASSWORD }).expect(303)
    expect(response.headers.location).toContain('clone%2Fab12cd34')
  })

  it('ignores a next that leaves the site', async () => {
    const { app } = dashboardSite()
    const { email } = await register(app)
    const response = await request(app).post('/login/?next=https%3A%2F%2Fevil.example%2F').set(ORIGIN).type('form').send({ email, password: PASSWORD }).expect(303)
    expect(response.headers.location).toBe('/app/')
  })
})
