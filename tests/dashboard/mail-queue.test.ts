/**
 * Account mail is never lost: it waits in the database until a real SMTP server (smtp-server,
 * from npm, on a loopback port) takes it, through an outage and a restart, and it goes out
 * through servers that require STARTTLS and authentication, or implicit TLS (smtps://).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import request from 'supertest'
import { SMTPServer, type SMTPServerOptions } from 'smtp-server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MAIL_RETRY, SmtpMailer } from '../../server/accounts/mail.js'
import { openDatabase } from '../../server/dashboard/db.js'
import { freePort } from '../../scripts/lib/server-process.js'
import { dashboardSite, ORIGIN, register } from './helpers.js'

interface Received {
  to: string
  subject: string
  user?: string
  secure: boolean
}

/** A real SMTP server on `port` that keeps what it receives. */
async function startSmtp(port: number, options: SMTPServerOptions = {}) {
  const inbox: Received[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    ...options,
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
      stream.on('end', () => {
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1] ?? ''
        inbox.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','), subject, user: session.user as string | undefined, secure: session.secure })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return { inbox, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

const stops: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
})

/** How many times shorter than production the outage and its retry schedule are. */
const TIME_SCALE = 20

const resetsTo = (inbox: Received[], email: string) => inbox.filter((mail) => mail.to === email && /Reset your Poplift password/.test(mail.subject))

describe('account mail through a queue that outlives outages', () => {
  it('keeps a reset mail while the SMTP server refuses connections for 30 s (at a twentieth of the production schedule), and delivers it once when it is back', async () => {
    const port = await freePort()
    // The production schedule (tries after 1, 2, 4, 8 and 16 s: five refusals in 30 s) a twentieth
    // as long: the same tries and the same refusals, in 1.5 s.
    const mailRetry = { ...MAIL_RETRY, firstDelayMs: MAIL_RETRY.firstDelayMs / TIME_SCALE, maxDelayMs: MAIL_RETRY.maxDelayMs / TIME_SCALE }
    const site = dashboardSite({ SMTP_URL: `smtp://127.0.0.1:${port}` }, { mailRetry })
    stops.push(() => site.close())
    const { email } = await register(site.app)
    await request(site.app).post('/app/api/v1/users/password_reset?dual=1').set(ORIGIN).send({ email }).expect(200)
    await site.dashboard!.context.accounts.idle()
    expect(Number(site.db.prepare('SELECT COUNT(*) AS n FROM mail_queue').get()?.n)).toBe(1)

    await new Promise((resolve) => setTimeout(resolve, 30_000 / TIME_SCALE))
    // Tried again and again while refused: on the shortened schedule at 0, 50, 150, 350 and 750 ms
    // (the production one would have tried twice by now).
    expect(Number(site.db.prepare('SELECT attempts FROM mail_queue').get()?.attempts)).toBeGreaterThanOrEqual(3)
    const smtp = await startSmtp(port)
    stops.push(smtp.close)
    await vi.waitFor(() => expect(resetsTo(smtp.inbox, email)).toHaveLength(1), { timeout: 20_000, interval: 100 })
    // The queue lets the mail go once the server's acceptance has reached it, just after the
    // server holds the message.
    await vi.waitFor(() => expect(Number(site.db.prepare('SELECT COUNT(*) AS n FROM mail_queue').get()?.n)).toBe(0), { timeout: 5_000, interval: 50 })
    // Delivered once: no copy follows.
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    expect(resetsTo(smtp.inbox, email)).toHaveLength(1)
  }, 70_000)

  it('keeps the mail across a restart of the process, and sends it once the server is back', async () => {
    const port = await freePort()
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mail-queue-'))
    stops.push(() => rm(dir, { recursive: true, force: true }))
    const databaseFile = path.join(dir, 'dashboard.sqlite')
    const before = dashboardSite({ SMTP_URL: `smtp://127.0.0.1:${port}` }, { databaseFile })
    const { email } = await register(before.app)
    await request(before.app).post('/app/api/v1/users/password_reset?dual=1').set(ORIGIN).send({ email }).expect(200)
    await before.dashboard!.context.accounts.idle()
    await before.close()

    const smtp = await startSmtp(port)
    stops.push(smtp.close)
    const after = dashboardSite({ SMTP_URL: `smtp://127.0.0.1:${port}` }, { databaseFile })
    stops.push(() => after.close())
    await vi.waitFor(() => expect(resetsTo(smtp.inbox, email)).toHaveLength(1), { timeout: 20_000, interval: 100 })
  }, 40_000)

  it('sends through a server that requires STARTTLS and then SMTP AUTH', async () => {
    const port = await freePort()
    const smtp = await startSmtp(port, {
      disabledCommands: [],
      authOptional: false,
      // AUTH only once the connection is encrypted (the default): the client must STARTTLS first.
      allowInsecureAuth: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'mailer' && auth.password === 's3cret pass') return callback(null, { user: 'mailer' })
        callback(new Error('Invalid username or password'))
      },
    })
    stops.push(smtp.close)
    // smtp-server's own certificate is self-signed: this relay is trusted by its address.
    const site = dashboardSite({ SMTP_URL: `smtp://mailer:s3cret%20pass@127.0.0.1:${port}/?requireTLS=true&tls.rejectUnauthorized=false` })
    stops.push(() => site.close())
    const { email } = await register(site.app)
    await request(site.app).post('/app/api/v1/users/password_reset?dual=1').set(ORIGIN).send({ email }).expect(200)
    await vi.waitFor(() => expect(resetsTo(smtp.inbox, email)).toEqual([expect.objectContaining({ user: 'mailer', secure: true })]), { timeout: 10_000, interval: 50 })
  })

  it('reports the SMTP server in /readyz, reachable once it answers (credentials and STARTTLS included), ready either way', async () => {
    const port = await freePort()
    const site = dashboardSite({ SMTP_URL: `smtp://mailer:secret@127.0.0.1:${port}/?requireTLS=true&tls.rejectUnauthorized=false` })
    stops.push(() => site.close())
    expect((await request(site.app).get('/readyz').expect(200)).body.dependencies).toEqual({ smtp: { reachable: false, optional: true } })
    const smtp = await startSmtp(port, { disabledCommands: [], authOptional: false, onAuth: (_auth, _session, callback) => callback(null, { user: 'mailer' }) })
    stops.push(smtp.close)
    await vi.waitFor(async () => expect((await request(site.app).get('/readyz').expect(200)).body.dependencies.smtp.reachable).toBe(true), { timeout: 10_000, interval: 500 })
  })

  it('sends through smtps:// (TLS from the first byte)', async () => {
    const port = await freePort()
    const smtp = await startSmtp(port, { secure: true, disabledCommands: ['STARTTLS'], authOptional: false, onAuth: (_auth, _session, callback) => callback(null, { user: 'mailer' }) })
    stops.push(smtp.close)
    const site = dashboardSite({ SMTP_URL: `smtps://mailer:secret@127.0.0.1:${port}/?tls.rejectUnauthorized=false` })
    stops.push(() => site.close())
    const { email } = await register(site.app)
    await request(site.app).post('/app/api/v1/users/password_reset?dual=1').set(ORIGIN).send({ email }).expect(200)
    await vi.waitFor(() => expect(resetsTo(smtp.inbox, email)).toEqual([expect.objectContaining({ secure: true })]), { timeout: 10_000, interval: 50 })
  })

  it('gives a mail up after a day of refusals, with an error line naming its subject, never its text', async () => {
    const port = await freePort()
    const db = openDatabase(':memory:')
    let clock = Date.now()
    const lines: Array<{ level: number; msg: string; subject?: string }> = []
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk))), done()) }))
    const mailer = new SmtpMailer(db, `smtp://127.0.0.1:${port}`, 'Poplift <no-reply@example.com>', logger, () => clock)
    stops.push(() => mailer.close())
    mailer.sendLater({ to: 'a@example.com', subject: 'Reset your Poplift password', text: 'the secret link' })
    await mailer.idle()
    expect(lines.find((line) => line.level === 40)?.msg).toBe('mail not taken by the SMTP server yet: kept in the queue')
    clock += 24 * 60 * 60_000 + 1
    await vi.waitFor(() => expect(lines.some((line) => line.level === 50)).toBe(true), { timeout: 5_000, interval: 50 })
    expect(lines.find((line) => line.level === 50)).toMatchObject({ msg: 'mail given up: the SMTP server did not take it within a day', subject: 'Reset your Poplift password' })
    expect(JSON.stringify(lines)).not.toContain('the secret link')
    expect(Number(db.prepare('SELECT COUNT(*) AS n FROM mail_queue').get()?.n)).toBe(0)
  })
})
