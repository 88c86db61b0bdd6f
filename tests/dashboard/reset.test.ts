import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import request from 'supertest'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testSite } from '../routes/app.js'
import { dashboardSite, fakeClock, freshEmail, loginCheck, ORIGIN, PASSWORD, register } from './helpers.js'

const NEW_PASSWORD = 'amber otter lantern 7'

interface ReceivedMail {
  to: string
  subject: string
  text: string
}

/** A real SMTP server on loopback that keeps what it receives. */
let smtp: SMTPServer
const inbox: ReceivedMail[] = []
let smtpUrl = ''

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1] ?? ''
        const body = raw.split(/\r?\n\r?\n/).slice(1).join('\n\n').replace(/=\r?\n/g, '').replace(/=3D/g, '=')
        inbox.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','), subject, text: body })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())))

async function mailTo(email: string, subject: RegExp, timeoutMs = 5_000): Promise<ReceivedMail> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const mail = inbox.find((candidate) => candidate.to === email && subject.test(candidate.subject))
    if (mail) return mail
    if (Date.now() > until) throw new Error(`no mail "${subject}" to ${email}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const linkIn = (mail: ReceivedMail) => /https:\/\/site\.example\/reset\/new\/\?token=([\w-]+)/.exec(mail.text)
const requestReset = (app: Parameters<typeof request>[0], email: string) =>
  request(app).post('/app/api/v1/users/password_reset?dual=1').set(ORIGIN).send({ email })
const confirm = (app: Parameters<typeof request>[0], token: string, password = NEW_PASSWORD) =>
  request(app).post('/app/api/v1/users/password_reset/confirm').set(ORIGIN).send({ token, password })

describe('password reset, mail through SMTP', () => {
  it('answers the same for a known and an unknown email, and mails a link only to the account', async () => {
    const site = dashboardSite({ SMTP_URL: smtpUrl })
    const { app } = site
    const { email } = await register(app)
    const unknown = freshEmail()
    const known = await requestReset(app, email)
    const stranger = await requestReset(app, unknown)
    expect(known.status).toBe(200)
    expect(stranger.status).toBe(known.status)
    expect(stranger.body).toEqual(known.body)
    expect(known.body.message).toMatch(/^If an account exists for this email, we have sent a link/)
    expect(stranger.headers['cache-control']).toBe(known.headers['cache-control'])
    const mail = await mailTo(email, /Reset your Poplift password/)
    expect(linkIn(mail)).toBeTruthy()
    // Every reset request has issued its link and handed its mail to the receiver by now.
    await site.dashboard!.context.accounts.idle()
    expect(inbox.some((candidate) => candidate.to === unknown)).toBe(false)
  })

  it('sets the new password, ends every session, does not log in, and sends a notice', async () => {
    const { app } = dashboardSite({ SMTP_URL: smtpUrl })
    const { email, cookie } = await register(app)
    await requestReset(app, email).expect(200)
    const token = linkIn(await mailTo(email, /Reset your Poplift password/))![1]!
    expect((await request(app).post('/app/api/v1/users/password_reset/check').set(ORIGIN).send({ token }).expect(200)).body).toEqual({ usable: true })

    const done = await confirm(app, token).expect(200)
    expect(done.body).toEqual({ message: 'Your password has been changed. Log in with the new password.' })
    expect(done.headers['set-cookie']).toBeUndefined()
    expect((await loginCheck(app, cookie)).status).toBe('anonymous')
    await mailTo(email, /Your Poplift password was changed/)

    await request(app).post('/app/api/v1/users/login?dual=1').set(ORIGIN).send({ email, password: PASSWORD }).expect(401)
    await request(app).post('/app/api/v1/users/login?dual=1').set(ORIGIN).send({ email, password: NEW_PASSWORD }).expect(200)
  })
})

describe('reset links', () => {
  /** Takes the link of the newest reset mail from the outbox (no SMTP_URL). */
  function outboxLink(db: ReturnType<typeof dashboardSite>['db'], email: string): string {
    const row = db.prepare("SELECT text FROM outbox WHERE recipient = ? AND subject LIKE 'Reset%' ORDER BY id DESC LIMIT 1").get(email)
    return /token=([\w-]+)/.exec(String(row?.text))![1]!
  }
  const settle = (site: Pick<ReturnType<typeof dashboardSite>, 'dashboard'>) => site.dashboard!.context.accounts.idle()

  it('work once, even under 20 simultaneous attempts', async () => {
    // From many addresses at once, as an attacker holding a leaked link would try.
    const site = dashboardSite({}, { limits: { reset: { limit: 100, windowMs: 60_000 } } })
    const { email } = await register(site.app)
    await requestReset(site.app, email).expect(200)
    await settle(site)
    const token = outboxLink(site.db, email)
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => confirm(site.app, token, `${NEW_PASSWORD} ${n}`)))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    for (const answer of answers.filter((candidate) => candidate.status !== 200)) {
      expect(answer.status).toBe(400)
      expect(answer.body).toEqual({ errors: { token: ['This reset link has expired or was already used. Ask for a new one.'] } })
    }
  })

  it('expire after 30 minutes', async () => {
    const clock = fakeClock()
    const site = dashboardSite({}, { now: clock.now })
    const { email } = await register(site.app)
    await requestReset(site.app, email).expect(200)
    await settle(site)
    const token = outboxLink(site.db, email)
    clock.advance(30 * 60_000 + 1)
    expect((await confirm(site.app, token)).status).toBe(400)
  })

  it('are voided by a newer request', async () => {
    const site = dashboardSite()
    const { email } = await register(site.app)
    await requestReset(site.app, email).expect(200)
    await settle(site)
    const older = outboxLink(site.db, email)
    await requestReset(site.app, email).expect(200)
    await settle(site)
    const newer = outboxLink(site.db, email)
    expect(newer).not.toBe(older)
    expect((await confirm(site.app, older)).status).toBe(400)
    expect((await confirm(site.app, newer)).status).toBe(200)
  })

  it('survive a refused password: the link still works afterwards', async () => {
    const site = dashboardSite()
    const { email } = await register(site.app)
    await requestReset(site.app, email).expect(200)
    await settle(site)
    const token = outboxLink(site.db, email)
    const refused = await confirm(site.app, token, 'password').expect(400)
    expect(refused.body).toEqual({ errors: { password: ['This password is one of the most common leaked passwords. Choose another.'] } })
    await confirm(site.app, token).expect(200)
  })

  it('answer before the account is looked up: the link is issued after the response', async () => {
    const site = dashboardSite()
    const { email } = await register(site.app)
    const tokens = () => Number(site.db.prepare('SELECT count(*) AS n FROM reset_tokens').get()!.n)
    const answer = site.dashboard!.context.accounts.requestReset({ email })
    expect(answer.message).toMatch(/^If an account exists for this email/)
    // Nothing about the account has been touched when the answer is returned.
    expect(tokens()).toBe(0)
    await settle(site)
    expect(tokens()).toBe(1)
  })

  it('are sent at most 3 times an hour per account, answered alike', async () => {
    const site = dashboardSite({}, { limits: { reset: { limit: 100, windowMs: 60_000 } } })
    const { email } = await register(site.app)
    const answers = []
    for (let n = 0; n < 5; n++) answers.push((await requestReset(site.app, email)).body)
    await settle(site)
    expect(new Set(answers.map((body) => JSON.stringify(body))).size).toBe(1)
    expect(Number(site.db.prepare("SELECT count(*) AS n FROM outbox WHERE subject LIKE 'Reset%'").get()!.n)).toBe(3)
  })

  it('asked for past the cap, cost one warning line per account an hour, however often they are asked for', async () => {
    const lines: string[] = []
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(...String(chunk).split('\n').filter(Boolean))
        callback()
      },
    })
    const clock = fakeClock()
    const site = testSite({}, { logger: pino({ level: 'info' }, sink), dashboard: { now: clock.now, limits: { reset: { limit: 1_000, windowMs: 60_000 } } } })
    const { email } = await register(site.app)
    const warnings = () => lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((entry) => entry.level === 40 && /reset mail limit/.test(entry.msg))
    for (let n = 0; n < 3 + 20; n++) await requestReset(site.app, email).expect(200)
    await settle(site)
    expect(warnings()).toHaveLength(1)
    // An hour on, the cap's window has passed: three more mails, then one more line.
    clock.advance(60 * 60_000)
    for (let n = 0; n < 3 + 20; n++) await requestReset(site.app, email).expect(200)
    await settle(site)
    expect(warnings()).toHaveLength(2)
    expect(Number(site.dashboard!.context.db.prepare("SELECT count(*) AS n FROM outbox WHERE subject LIKE 'Reset%'").get()!.n)).toBe(6)
  })

  it.each([[{}], [{ token: 'x' }], [{ token: 12 }], [{ token: 'A'.repeat(43), password: NEW_PASSWORD }]])('refuses %j with a 400 naming the token', async (body) => {
    const { app } = dashboardSite()
    const response = await request(app).post('/app/api/v1/users/password_reset/confirm').set(ORIGIN).send(body).expect(400)
    expect(Object.keys(response.body.errors)).toEqual(['token'])
  })

  it('keep no password and no token in plain text anywhere but the outbox mail', async () => {
    const site = dashboardSite()
    const { email } = await register(site.app)
    await requestReset(site.app, email).expect(200)
    await settle(site)
    const token = outboxLink(site.db, email)
    await confirm(site.app, token).expect(200)
    const tables = site.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((row) => String(row.name))
    expect(tables).toEqual(expect.arrayContaining(['users', 'sessions', 'reset_tokens', 'outbox']))
    for (const table of tables) {
      const dump = JSON.stringify(site.db.prepare(`SELECT * FROM ${table}`).all())
      expect(dump, table).not.toContain(PASSWORD)
      expect(dump, table).not.toContain(NEW_PASSWORD)
      if (table !== 'outbox') expect(dump, table).not.toContain(token)
    }
  })
})
