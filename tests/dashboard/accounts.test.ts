import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { dashboardSite, setCookies, fakeClock, freshEmail, loginCheck, ORIGIN, PASSWORD, register, sessionCookieOf } from './helpers.js'

describe('sign-up', () => {
  it('creates the account with a normalised email, answers 201 {user, login_url} and starts a session', async () => {
    const { app, db } = dashboardSite()
    const response = await request(app)
      .post('/app/api/v1/users/register')
      .set(ORIGIN)
      .send({ email: '  Mary.Smith@Example.COM ', password: PASSWORD, tracking: { context: { clone_id: 'ab12cd34' }, referral: 'partner1', redeem: 123456, cookies: {} } })
      .expect(201)
    expect(response.body).toEqual({ user: { id: expect.any(Number), email: 'mary.smith@example.com' }, login_url: '/app/', is_new: true })
    expect(response.headers['cache-control']).toBe('no-store')
    const row = db.prepare('SELECT email, password_hash, tracking FROM users').get()!
    expect(row.email).toBe('mary.smith@example.com')
    expect(String(row.password_hash)).toMatch(/^scrypt\$10\$8\$1\$[\w-]+\$[\w-]+$/)
    expect(JSON.parse(String(row.tracking))).toMatchObject({ context: { clone_id: 'ab12cd34' }, referral: 'partner1', redeem: 123456 })
    expect((await loginCheck(app, sessionCookieOf(response))).user?.email).toBe('mary.smith@example.com')
  })

  it.each([
    [{}, 'email', 'Email is required'],
    [{ email: '   ', password: PASSWORD }, 'email', 'Email is required'],
    [{ email: 'not-an-email', password: PASSWORD }, 'email', 'Enter a valid email address.'],
    [{ email: 123, password: PASSWORD }, 'email', 'Email is required'],
    [{ email: 'a@example.com' }, 'password', 'Password is required'],
    [{ email: 'a@example.com', password: 42 }, 'password', 'Password is required'],
    [{ email: 'a@example.com', password: 'short' }, 'password', 'Use at least 8 characters.'],
    [{ email: 'a@example.com', password: 'x'.repeat(60) + '🙂'.repeat(69) }, 'password', 'Use at most 128 characters.'],
    [{ email: 'a@example.com', password: 'password1' }, 'password', 'This password is one of the most common leaked passwords. Choose another.'],
    [{ email: 'mary.smith@example.com', password: 'mary.smith!!2026' }, 'password', 'The password must not contain the name part of your email.'],
  ])('refuses %j with a 400 naming %s', async (body, field, message) => {
    const { app } = dashboardSite()
    const response = await request(app).post('/app/api/v1/users/register').set(ORIGIN).send(body).expect(400)
    expect(response.body).toEqual({ errors: { [field]: [message] } })
  })

  it('counts a password in code points: 8 emoji are long enough', async () => {
    const { app } = dashboardSite()
    await request(app).post('/app/api/v1/users/register').set(ORIGIN).send({ email: freshEmail(), password: '🦊🐙🦉🐝🦋🐢🐬🦔' }).expect(201)
  })

  it('logs in when the email has an account and the password is its own; says the account exists otherwise', async () => {
    const { app } = dashboardSite()
    const { email } = await register(app)
    const again = await request(app).post('/app/api/v1/users/register').set(ORIGIN).send({ email, password: PASSWORD }).expect(200)
    expect(again.body.is_new).toBe(false)
    const other = await request(app).post('/app/api/v1/users/register').set(ORIGIN).send({ email, password: 'amber otter lantern 7' }).expect(400)
    expect(other.body.errors.email[0]).toMatch(/already exists/)
  })
})

describe('log-in', () => {
  it('answers {user, login_url} with a new session each time', async () => {
    const { app } = dashboardSite()
    const { email, cookie: first } = await register(app)
    const response = await request(app).post('/app/api/v1/users/login?dual=1').set(ORIGIN).send({ email: email.toUpperCase(), password: PASSWORD }).expect(200)
    expect(response.body).toMatchObject({ user: { email }, login_url: '/app/' })
    expect(sessionCookieOf(response)).not.toBe(first)
  })

  it('gives a wrong password and an unknown email the same status and body', async () => {
    const { app } = dashboardSite()
    const { email } = await register(app)
    const wrong = await request(app).post('/app/api/v1/users/login?dual=1').set(ORIGIN).send({ email, password: 'amber otter lantern 7' })
    const unknown = await request(app).post('/app/api/v1/users/login?dual=1').set(ORIGIN).send({ email: freshEmail(), password: 'amber otter lantern 7' })
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(wrong.body).toEqual({ message: 'Incorrect email or password.' })
    expect(unknown.body).toEqual(wrong.body)
    expect(wrong.headers['set-cookie']).toBeUndefined()
  })

  it('after 5 failures for one email makes each try wait longer (429 with Retry-After), never locks out, and forgets on success', async () => {
    const clock = fakeClock()
    // The per-address limit is tested on its own (security.test.ts).
    const { app } = dashboardSite({}, { now: clock.now, limits: { login: { limit: 100, windowMs: 60_000 } } })
    const { email } = await register(app)
    const attempt = (password: string) => request(app).post('/app/api/v1/users/login?dual=1').set(ORIGIN).send({ email, password })
    for (let n = 0; n < 5; n++) expect((await attempt('wrong password here')).status).toBe(401)
    // From the fifth failure on, each try waits: 1 s, then 2 s, 4 s… after the last failure.
    const first = await attempt(PASSWORD)
    expect(first.status).toBe(429)
    expect(first.headers['retry-after']).toBe('1')
    expect(first.body).toEqual({ message: 'Too many attempts. Try again in 1 second.' })
    clock.advance(1_000)
    expect((await attempt('wrong password here')).status).toBe(401)
    const second = await attempt(PASSWORD)
    expect(second.status).toBe(429)
    expect(second.headers['retry-after']).toBe('2')
    expect(second.body).toEqual({ message: 'Too many attempts. Try again in 2 seconds.' })
    clock.advance(2_000)
    expect((await attempt(PASSWORD)).status).toBe(200)
    // Success forgets the failures.
    for (let n = 0; n < 5; n++) expect((await attempt('wrong password here')).status).toBe(401)
  })

  it('counts passwords tried through sign-up against the same delay, so sign-up is no way around it', async () => {
    const clock = fakeClock()
    const { app } = dashboardSite({}, { now: clock.now, limits: { login: { limit: 100, windowMs: 60_000 }, register: { limit: 100, windowMs: 60_000 } } })
    const { email } = await register(app)
    const signUp = (password: string) => request(app).post('/app/api/v1/users/register').set(ORIGIN).send({ email, password })
    for (let n = 0; n < 5; n++) expect((await signUp('wrong password here')).status).toBe(400)
    const blocked = await signUp(PASSWORD)
    expect(blocked.status).toBe(429)
    expect(blocked.headers['retry-after']).toBe('1')
    // The log-in form waits as well: both paths share one count per account.
    expect((await request(app).post('/app/api/v1/users/login?dual=1').set(ORIGIN).send({ email, password: PASSWORD })).status).toBe(429)
    clock.advance(1_000)
    expect((await signUp(PASSWORD)).status).toBe(200)
  })

  it('throttles an unknown email the same way, so the delay reveals nothing', async () => {
    const clock = fakeClock()
    const { app } = dashboardSite({}, { now: clock.now })
    const email = freshEmail()
    const attempt = () => request(app).post('/app/api/v1/users/login?dual=1').set(ORIGIN).send({ email, password: 'wrong password here' })
    for (let n = 0; n < 5; n++) expect((await attempt()).status).toBe(401)
    expect((await attempt()).status).toBe(429)
  })
})

describe('sessions', () => {
  it('login_check answers {status, user} with a session and {status} without', async () => {
    const { app } = dashboardSite()
    const { cookie, user } = await register(app)
    expect(await loginCheck(app, cookie)).toEqual({ status: 'ok', user })
    expect(await loginCheck(app)).toEqual({ status: 'anonymous' })
    expect(await loginCheck(app, 'pl_auth=forged-token-value')).toEqual({ status: 'anonymous' })
  })

  it('sets the cookie HttpOnly, SameSite=Lax and __Host- with Secure behind https, plain on http', async () => {
    const https = await request(dashboardSite().app).post('/app/api/v1/users/register').set(ORIGIN).send({ email: freshEmail(), password: PASSWORD })
    const cookie = setCookies(https)[0]
    expect(cookie).toMatch(/^__Host-pl_auth=[\w-]{43}; Max-Age=604800; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
    const plain = await request(dashboardSite({ PUBLIC_URL: 'http://localhost:3000' }).app)
      .post('/app/api/v1/users/register')
      .set('Origin', 'http://localhost:3000')
      .send({ email: freshEmail(), password: PASSWORD })
    expect(setCookies(plain)[0]).toMatch(/^pl_auth=[\w-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/)
  })

  it('stores only the token\'s hash', async () => {
    const { app, db } = dashboardSite()
    const { cookie } = await register(app)
    const token = cookie.split('=')[1]!
    const stored = db.prepare('SELECT token_hash FROM sessions').all().map((row) => String(row.token_hash))
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatch(/^[0-9a-f]{64}$/)
    expect(stored[0]).not.toContain(token)
  })

  it('ends after 7 days unused, is renewed when used, and never lives past 30 days', async () => {
    const clock = fakeClock()
    const DAY = 86_400_000
    const { app } = dashboardSite({}, { now: clock.now })
    const { cookie } = await register(app)
    clock.advance(6 * DAY)
    const renewed = await request(app).get('/app/api/v2/users/login_check').set('Cookie', cookie).expect(200)
    expect(renewed.body.status).toBe('ok')
    expect(setCookies(renewed)[0]).toMatch(/Max-Age=604800/)
    for (const step of [6, 6, 6, 5]) {
      clock.advance(step * DAY)
      expect((await loginCheck(app, cookie)).status).toBe('ok')
    }
    // Day 29 was the last: 30 days after the log-in it ends, used or not.
    clock.advance(DAY)
    expect((await loginCheck(app, cookie)).status).toBe('anonymous')

    const { cookie: idle } = await register(app)
    clock.advance(7 * DAY + 1)
    expect((await loginCheck(app, idle)).status).toBe('anonymous')
  })

  it('log-out ends the session and clears the cookie', async () => {
    const { app } = dashboardSite()
    const { cookie } = await register(app)
    const out = await request(app).post('/app/api/v1/users/logout').set(ORIGIN).set('Cookie', cookie).expect(204)
    expect(setCookies(out)[0]).toMatch(/^__Host-pl_auth=; Max-Age=0; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
    expect((await loginCheck(app, cookie)).status).toBe('anonymous')
  })
})

describe('an email with a control, format, private-use, unassigned or separator character', () => {
  // One or more of each of Unicode's categories C and Z, between two letters of the name part.
  const CHARACTERS: [string, string][] = [
    ['Cc', '\u0000'],
    ['Cc', '\u001b'],
    ['Cc', '\u0085'],
    ['Cf', '\u202e'], // right-to-left override
    ['Cf', '\u200b'], // zero-width space
    ['Cf', '\u00ad'], // soft hyphen
    ['Co', '\ue000'],
    ['Co', '\u{f0000}'],
    ['Cn', '\u0378'],
    ['Cn', '\uffff'],
    ['Cs', '\ud800'],
    ['Zs', '\u00a0'],
    ['Zs', '\u3000'],
    ['Zs', '\u1680'],
    ['Zl', '\u2028'],
    ['Zp', '\u2029'],
  ]
  const INVALID = 'Enter a valid email address.'
  const email = (character: string) => `a${character}b@example.com`
  const named = (category: string, character: string) => `${category} U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
  const roomy = { limit: 1_000, windowMs: 60_000 }

  it.each([
    ['sign-up', '/app/api/v1/users/register', true],
    ['log-in', '/app/api/v1/users/login?dual=1', true],
    ['reset', '/app/api/v1/users/password_reset?dual=1', false],
  ])('refuses each on the %s API with 400 naming email, and stores and mails nothing', async (_name, path, withPassword) => {
    const { app, db } = dashboardSite({}, { limits: { login: roomy, register: roomy, reset: roomy } })
    for (const [category, character] of CHARACTERS) {
      const response = await request(app).post(path).set(ORIGIN).send({ email: email(character), ...(withPassword ? { password: PASSWORD } : {}) })
      expect(response.status, named(category, character)).toBe(400)
      expect(response.body, named(category, character)).toEqual({ errors: { email: [INVALID] } })
    }
    expect(db.prepare('SELECT count(*) AS n FROM users').get()!.n).toBe(0)
    expect(db.prepare('SELECT count(*) AS n FROM outbox').get()!.n).toBe(0)
  })

  it.each([
    ['sign-up', '/start/', true],
    ['log-in', '/login/', true],
    ['reset', '/reset/', false],
  ])('refuses each on the %s form posted without JavaScript with 400 and the same message', async (_name, path, withPassword) => {
    const { app, db } = dashboardSite({}, { limits: { login: roomy, register: roomy, reset: roomy } })
    // A form is posted as UTF-8, which cannot carry a lone surrogate: that one arrives only as JSON.
    for (const [category, character] of CHARACTERS.filter(([category]) => category !== 'Cs')) {
      const response = await request(app).post(path).set(ORIGIN).type('form').send({ email: email(character), ...(withPassword ? { password: PASSWORD } : {}) })
      expect(response.status, named(category, character)).toBe(400)
      expect(response.text, named(category, character)).toContain(INVALID)
    }
    expect(db.prepare('SELECT count(*) AS n FROM users').get()!.n).toBe(0)
    expect(db.prepare('SELECT count(*) AS n FROM outbox').get()!.n).toBe(0)
  })

  it('refuses each on the social sign-in stand-in with 400 and the same message', async () => {
    const { app, db } = dashboardSite({}, { limits: { register: roomy } })
    for (const [category, character] of CHARACTERS.filter(([category]) => category !== 'Cs')) {
      const response = await request(app).post('/app/api/v1/socialauth-begin/google-oauth2/?mode=signup-popup').set(ORIGIN).type('form').send({ email: email(character) })
      expect(response.status, named(category, character)).toBe(400)
      expect(response.text, named(category, character)).toContain(INVALID)
    }
    expect(db.prepare('SELECT count(*) AS n FROM users').get()!.n).toBe(0)
  })
})
