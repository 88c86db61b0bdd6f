/**
 * Outgoing mail. With SMTP_URL set, through nodemailer; otherwise into the outbox table, where a
 * developer reads it on the outbox page (never shown in production unless turned on). Either
 * way a mail leaves after the response that caused it, so sending never slows or fails a form.
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

export class SmtpMailer extends QueuedMailer {
  private readonly transport: Transporter

  constructor(
    smtpUrl: string,
    private readonly from: string,
    logger: Logger,
  ) {
    super(logger)
    this.transport = nodemailer.createTransport(smtpUrl)
  }

  protected async deliver(mail: Mail): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text })
    this.logger.info({ subject: mail.subject }, 'mail sent')
  }

  /** Whether the SMTP server answers and takes the credentials (a connection and its greeting). */
  async verify(): Promise<boolean> {
    return this.transport.verify()
  }

  async close(): Promise<void> {
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
