/**
 * Outgoing mail. With SMTP_URL set, through a queue in the database to nodemailer, retried until
 * the server takes it; otherwise into the outbox table, where a developer reads it on the outbox
 * page (never shown in production unless turned on). Either way a mail leaves after the response
 * that caused it, so sending never slows or fails a form.
 */
import nodemailer, { type Transporter } from 'nodemailer'
import type { Logger } from 'pino'
import type { Database, Row } from '../dashboard/db.js'

export interface Mail {
  to: string
  subject: string
  text: string
}

export interface Mailer {
  /** Queues the mail and returns at once; failures are logged, never thrown. */
  sendLater(mail: Mail): void
  /** Resolves once every queued mail has been handed over (tests, shutdown). */
  idle(): Promise<void>
}

abstract class QueuedMailer implements Mailer {
  private readonly pending = new Set<Promise<void>>()

  constructor(protected readonly logger: Logger) {}

  protected abstract deliver(mail: Mail): Promise<void>

  sendLater(mail: Mail): void {
    const job = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.deliver(mail))
      .catch((error: unknown) => this.logger.error({ err: error, subject: mail.subject }, 'mail not sent'))
      .finally(() => this.pending.delete(job))
    this.pending.add(job)
  }

  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all(this.pending)
  }
}

/**
 * When a mail the SMTP server did not take is tried again: after 1, 2, 4 … seconds, at most 5
 * minutes apart, for a day; then it is dropped, with an error line. A mail being sent is claimed
 * for a minute, so processes sharing the database never send it twice.
 */
export const MAIL_RETRY: MailRetry = {
  firstDelayMs: 1_000,
  maxDelayMs: 5 * 60_000,
  giveUpAfterMs: 24 * 60 * 60_000,
  claimMs: 60_000,
  /** Mails handed to the server per pass, at most. */
  batch: 20,
}

export interface MailRetry {
  readonly firstDelayMs: number
  readonly maxDelayMs: number
  readonly giveUpAfterMs: number
  readonly claimMs: number
  readonly batch: number
}

export function retryDelayMs(attempts: number, retry: MailRetry = MAIL_RETRY): number {
  return Math.min(retry.maxDelayMs, retry.firstDelayMs * 2 ** Math.min(attempts - 1, 20))
}

/**
 * Account mail through an SMTP server, through a queue in the database: a mail is written there
 * first and leaves it only once the server has taken it. Nothing is lost to an outage of the
 * server, a refusal, or a restart of this process (the queue is read again at start).
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter
  private running: Promise<void> | null = null
  private again = false
  private timer: NodeJS.Timeout | null = null
  private closed = false

  constructor(
    private readonly db: Database,
    smtpUrl: string,
    private readonly from: string,
    private readonly logger: Logger,
    private readonly now: () => number,
    /** The schedule of tries; tests run the same schedule on a shorter time scale. */
    private readonly retry: MailRetry = MAIL_RETRY,
  ) {
    // Time limits well under nodemailer's minutes: a silent server must not hold a send for long.
    this.transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as Parameters<typeof nodemailer.createTransport>[0])
    // What an earlier run left in the queue goes out now.
    this.wake()
  }

  sendLater(mail: Mail): void {
    const now = this.now()
    this.db.prepare('INSERT INTO mail_queue (recipient, subject, text, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?)').run(mail.to, mail.subject, mail.text, now, now)
    this.wake()
  }

  /** Resolves once the mails due now have been handed over or put back for later. */
  async idle(): Promise<void> {
    while (this.running) await this.running
  }

  /** Starts a pass over the due mails, or asks the pass under way for another one. */
  private wake(): void {
    if (this.closed) return
    if (this.running) {
      this.again = true
      return
    }
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.pass())
      .catch((error: unknown) => this.logger.error({ err: error }, 'mail queue failed'))
      .finally(() => {
        this.running = null
        if (this.again) {
          this.again = false
          this.wake()
        } else this.schedule()
      })
  }

  /** Sleeps until the next mail is due. */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.closed) return
    const next = this.db.prepare('SELECT MIN(next_attempt_at) AS at FROM mail_queue').get()?.at
    if (next === null || next === undefined) return
    this.timer = setTimeout(() => this.wake(), Math.max(0, Number(next) - this.now())).unref()
  }

  private async pass(): Promise<void> {
    const now = this.now()
    const due = this.db.prepare('SELECT id, recipient, subject, text, attempts, next_attempt_at, created_at FROM mail_queue WHERE next_attempt_at <= ? ORDER BY id LIMIT ?').all(now, this.retry.batch)
    for (const row of due) {
      // Claimed by this process, or by another one first (then left to it).
      const claimed = this.db.prepare('UPDATE mail_queue SET next_attempt_at = ? WHERE id = ? AND next_attempt_at = ?').run(now + this.retry.claimMs, row.id!, row.next_attempt_at!)
      if (Number(claimed.changes) !== 1) continue
      await this.attempt(row)
    }
  }

  private async attempt(row: Row): Promise<void> {
    const subject = String(row.subject)
    const attempts = Number(row.attempts) + 1
    try {
      await this.transport.sendMail({ from: this.from, to: String(row.recipient), subject, text: String(row.text) })
      this.db.prepare('DELETE FROM mail_queue WHERE id = ?').run(row.id!)
      this.logger.info({ subject, attempts }, 'mail sent')
    } catch (error) {
      const now = this.now()
      const reason = error instanceof Error ? error.message : String(error)
      if (now - Number(row.created_at) >= this.retry.giveUpAfterMs) {
        this.db.prepare('DELETE FROM mail_queue WHERE id = ?').run(row.id!)
        this.logger.error({ subject, attempts, reason }, 'mail given up: the SMTP server did not take it within a day')
        return
      }
      const retryInMs = retryDelayMs(attempts, this.retry)
      this.db.prepare('UPDATE mail_queue SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ?').run(attempts, now + retryInMs, reason.slice(0, 500), row.id!)
      // The first failure of a mail is worth a line; the later ones only at debug level.
      const level = attempts === 1 ? 'warn' : 'debug'
      this.logger[level]({ subject, attempts, retryInMs, reason }, 'mail not taken by the SMTP server yet: kept in the queue')
    }
  }

  /** Whether the SMTP server answers and takes the credentials (a connection and its greeting). */
  async verify(): Promise<boolean> {
    return this.transport.verify()
  }

  /** Stops sending; what is left in the queue goes out at the next start. */
  async close(): Promise<void> {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    await this.idle()
    this.transport.close()
  }
}

export interface OutboxMail extends Mail {
  id: number
  createdAt: number
}

/** Mail kept in the database instead of sent: only the subject reaches the log, never the body. */
export class OutboxMailer extends QueuedMailer {
  constructor(
    private readonly db: Database,
    logger: Logger,
    private readonly now: () => number,
  ) {
    super(logger)
  }

  protected async deliver(mail: Mail): Promise<void> {
    const row = this.db
      .prepare('INSERT INTO outbox (recipient, subject, text, created_at) VALUES (?, ?, ?, ?) RETURNING id')
      .get(mail.to, mail.subject, mail.text, this.now())
    this.logger.info({ outboxId: Number(row?.id), subject: mail.subject }, 'mail kept in the local outbox (SMTP_URL is not set)')
  }

  /** The newest mails first. */
  list(limit = 50): OutboxMail[] {
    return this.db
      .prepare('SELECT id, recipient, subject, text, created_at FROM outbox ORDER BY id DESC LIMIT ?')
      .all(limit)
      .map((row: Row) => ({ id: Number(row.id), to: String(row.recipient), subject: String(row.subject), text: String(row.text), createdAt: Number(row.created_at) }))
  }
}
