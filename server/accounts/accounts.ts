/**
 * Accounts: sign-up, log-in, password reset. Pure service code (no HTTP): the routes in
 * routes/users.ts turn its answers into responses, and the site's own form handling can call it
 * directly when the dashboard runs in the same process.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { Logger } from 'pino'
import { AUTH_PATHS, AUTH_TEXT } from '../../shared/accounts/client.js'
import { transaction, type Database } from '../dashboard/db.js'
import { FieldErrors, TooManyAttempts } from '../dashboard/errors.js'
import type { LoginThrottleStore } from './login-throttle.js'
import type { Mailer } from './mail.js'
import type { PasswordHasher } from './passwords.js'
import { checkPassword } from './password-policy.js'
import { hashToken, type SessionUser, type Sessions } from './sessions.js'

const MINUTE = 60_000
/** A reset link works for 30 minutes, once. */
export const RESET_TOKEN_LIFETIME_MS = 30 * MINUTE
/** Reset mails one account may receive per hour; requests past it are answered alike, unsent. */
export const RESET_MAILS_PER_HOUR = 3
const RESET_MAIL_WINDOW_MS = 60 * MINUTE
/** Failed log-ins for one email before each further try must wait (1 s, 2 s, 4 s… up to 5 min). */
const FREE_FAILURES = 5
const MAX_LOGIN_DELAY_S = 300

export const MESSAGES = {
  emailRequired: AUTH_TEXT.emailRequired,
  emailInvalid: 'Enter a valid email address.',
  passwordRequired: AUTH_TEXT.passwordRequired,
  wrongCredentials: 'Incorrect email or password.',
  emailTaken: 'An account with this email already exists. Log in, or reset the password if you forgot it.',
  socialEmailTaken: 'This email already has an account. Log in to it first, or log in with its password.',
  resetSent: 'If an account exists for this email, we have sent a link to reset its password. It works for 30 minutes.',
  resetLinkInvalid: 'This reset link has expired or was already used. Ask for a new one.',
  passwordChanged: 'Your password has been changed. Log in with the new password.',
} as const

/**
 * No character of Unicode's categories C (controls, format and bidi marks, private use,
 * unassigned, lone surrogates) or Z (spaces, line and paragraph separators) anywhere: mailers
 * drop controls silently, so `a\0b@…` would be mailed to `ab@…`, someone else's mailbox, and the
 * invisible ones make look-alike accounts (`admin\u200b@…`) or addresses shown reversed.
 */
const EMAIL = /^[^\p{C}\p{Z}@<>()[\]\\,;:"]+@[^\p{C}\p{Z}@<>()[\]\\,;:"]+\.[^\p{C}\p{Z}@<>()[\]\\,;:"]+$/u

/** The one spelling an email is stored and looked up under. */
export function normaliseEmail(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new FieldErrors({ email: MESSAGES.emailRequired })
  const email = raw.normalize('NFKC').trim().toLowerCase()
  if (email.length > 254 || !EMAIL.test(email)) throw new FieldErrors({ email: MESSAGES.emailInvalid })
  return email
}

/** Failed attempts are counted per email, stored only as its hash. */
function throttleKeyOf(email: string): string {
  return createHash('sha256').update(email).digest('hex')
}

function requirePassword(raw: unknown): string {
  if (typeof raw !== 'string' || raw === '') throw new FieldErrors({ password: MESSAGES.passwordRequired })
  return raw
}

export interface AccountsOptions {
  db: Database
  /** Where failed log-ins per email are counted. */
  throttle: LoginThrottleStore
  sessions: Sessions
  hasher: PasswordHasher
  mailer: Mailer
  logger: Logger
  /** The site's public origin: reset links are built from it, never from a request's Host. */
  siteOrigin: string
  now: () => number
}

export interface SignedIn {
  user: SessionUser
  /** Set-Cookie value of the new session. */
  cookie: string
  isNew: boolean
}

export class Accounts {
  /** Reset requests answered whose link is still being issued. */
  private readonly pendingResets = new Set<Promise<void>>()
  /**
   * When the mail cap's warning was last written for each account: a client asking again and
   * again gets one line per account per window, not one per request.
   */
  private readonly resetCapWarnedAt = new Map<number, number>()

  constructor(private readonly options: AccountsOptions) {}

  private get db() {
    return this.options.db
  }

  private findByEmail(email: string) {
    return this.db.prepare('SELECT id, email, password_hash FROM users WHERE email = ?').get(email)
  }

  /**
   * A new account and its first session. An email that already has an account logs in when the
   * password is that account's; otherwise the form says the account exists.
   */
  async register(input: { email: unknown; password: unknown; tracking?: unknown }): Promise<SignedIn> {
    const email = normaliseEmail(input.email)
    const password = requirePassword(input.password)
    const existing = this.findByEmail(email)
    if (existing) {
      // A password tried here counts against the account like a log-in does, so sign-up is no
      // way around the growing delay.
      const throttleKey = throttleKeyOf(email)
      await this.checkThrottle(throttleKey)
      const matches = existing.password_hash ? await this.options.hasher.verify(password, String(existing.password_hash)) : false
      if (!matches) {
        await this.noteFailure(throttleKey)
        throw new FieldErrors({ email: MESSAGES.emailTaken })
      }
      await this.clearThrottle(throttleKey)
      return this.signIn({ id: Number(existing.id), email }, false)
    }
    const problem = checkPassword(password, email)
    if (problem) throw new FieldErrors({ password: problem })
    const hash = await this.options.hasher.hash(password)
    const tracking = input.tracking === undefined ? null : JSON.stringify(input.tracking)
    const at = this.options.now()
    const row = this.db
      .prepare('INSERT INTO users (email, password_hash, tracking, created_at, password_changed_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING RETURNING id')
      .get(email, hash, tracking, at, at)
    // Two sign-ups with one email at the same moment: the second is told the account exists.
    if (!row) throw new FieldErrors({ email: MESSAGES.emailTaken })
    this.options.logger.info({ userId: Number(row.id) }, 'account created')
    return this.signIn({ id: Number(row.id), email }, true)
  }

  /**
   * An account made or found through a social provider (no password). The local stand-in cannot
   * prove who owns an email, so an existing account is entered only by a visitor who already
   * holds its session (as a provider's account chooser offers only the accounts signed in);
   * any other email makes a new account.
   */
  socialSignIn(input: { email: unknown; provider: string; tracking: string | null }, current: SessionUser | null): SignedIn {
    const email = normaliseEmail(input.email)
    const existing = this.findByEmail(email)
    if (existing) {
      if (current?.id !== Number(existing.id)) throw new FieldErrors({ email: MESSAGES.socialEmailTaken })
      return this.signIn({ id: Number(existing.id), email }, false)
    }
    const row = this.db
      .prepare('INSERT INTO users (email, social_provider, tracking, created_at) VALUES (?, ?, ?, ?) RETURNING id')
      .get(email, input.provider, input.tracking, this.options.now())
    return this.signIn({ id: Number(row!.id), email }, true)
  }

  async login(input: { email: unknown; password: unknown }): Promise<SignedIn> {
    const email = normaliseEmail(input.email)
    const password = requirePassword(input.password)
    const throttleKey = throttleKeyOf(email)
    await this.checkThrottle(throttleKey)
    const user = this.findByEmail(email)
    // An unknown email costs one hash too, so the answer's timing does not tell it apart.
    const matches = user?.password_hash ? await this.options.hasher.verify(password, String(user.password_hash)) : (await this.options.hasher.verifyDummy(password), false)
    if (!user || !matches) {
      await this.noteFailure(throttleKey)
      throw new FieldErrors({}, MESSAGES.wrongCredentials, 401)
    }
    await this.clearThrottle(throttleKey)
    if (this.options.hasher.needsRehash(String(user.password_hash))) {
      const hash = await this.options.hasher.hash(password)
      this.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hash, Number(user.id))
    }
    return this.signIn({ id: Number(user.id), email }, false)
  }

  private signIn(user: SessionUser, isNew: boolean): SignedIn {
    return { user, cookie: this.options.sessions.create(user.id), isNew }
  }

  /** Consecutive failures for one email make each further try wait longer; no hard lock-out. */
  private async checkThrottle(key: string): Promise<void> {
    const failed = await this.options.throttle.read(key)
    if (!failed || failed.failures < FREE_FAILURES) return
    const delayMs = Math.min(MAX_LOGIN_DELAY_S, 2 ** (failed.failures - FREE_FAILURES)) * 1000
    const waitMs = failed.lastFailedAt + delayMs - this.options.now()
    if (waitMs > 0) throw new TooManyAttempts(Math.ceil(waitMs / 1000))
  }

  private clearThrottle(key: string): Promise<void> {
    return this.options.throttle.clear(key)
  }

  private noteFailure(key: string): Promise<void> {
    return this.options.throttle.noteFailure(key, this.options.now())
  }

  /**
   * Answers a reset request. The answer is made before the email is even looked up, and the
   * link is issued and mailed after it (`issueResetLink`), so neither the body nor the time of
   * the answer tells whether the account exists.
   */
  requestReset(input: { email: unknown }): { message: string } {
    const email = normaliseEmail(input.email)
    const at = this.options.now()
    const work: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.issueResetLink(email, at))
      .catch((error: unknown) => this.options.logger.error({ err: error }, 'reset link not issued'))
      .finally(() => this.pendingResets.delete(work))
    this.pendingResets.add(work)
    return { message: MESSAGES.resetSent }
  }

  /** Resolves once every reset request made so far has issued its link and handed its mail over. */
  async idle(): Promise<void> {
    while (this.pendingResets.size) await Promise.all(this.pendingResets)
    await this.options.mailer.idle()
  }

  /** A new single-use link for the email's account, if it has one, voiding older links. */
  private issueResetLink(email: string, at: number): void {
    const user = this.findByEmail(email)
    if (!user) return
    const userId = Number(user.id)
    const recent = Number(this.db.prepare('SELECT count(*) AS n FROM reset_tokens WHERE user_id = ? AND created_at > ?').get(userId, at - RESET_MAIL_WINDOW_MS)?.n ?? 0)
    if (recent >= RESET_MAILS_PER_HOUR) {
      const warnedAt = this.resetCapWarnedAt.get(userId)
      if (warnedAt === undefined || at - warnedAt >= RESET_MAIL_WINDOW_MS) {
        this.resetCapWarnedAt.set(userId, at)
        this.options.logger.warn({ userId }, 'reset mail limit reached; request answered but not sent')
      }
      return
    }
    const token = randomBytes(32).toString('base64url')
    transaction(this.db, () => {
      // A new link voids the older ones.
      this.db.prepare('UPDATE reset_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL').run(at, userId)
      this.db.prepare('INSERT INTO reset_tokens (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(hashToken(token), userId, at, at + RESET_TOKEN_LIFETIME_MS)
    })
    const link = `${this.options.siteOrigin}${AUTH_PATHS['new-password']}?token=${token}`
    this.options.mailer.sendLater({
      to: email,
      subject: 'Reset your Poplift password',
      text:
        `Someone asked to reset the password of the Poplift account for ${email}.\n\n` +
        `To choose a new password, open this link within 30 minutes:\n${link}\n\n` +
        `If it was not you, ignore this mail: your password stays as it is.`,
    })
  }

  /** Whether a reset link can still be used (the new-password page asks before showing its form). */
  resetTokenUsable(token: unknown): boolean {
    return this.usableToken(token) !== null
  }

  private usableToken(token: unknown): { userId: number; email: string } | null {
    if (typeof token !== 'string' || token.length < 20 || token.length > 100) return null
    const row = this.db
      .prepare('SELECT t.user_id, u.email FROM reset_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ? AND t.used_at IS NULL AND t.expires_at > ?')
      .get(hashToken(token), this.options.now())
    return row ? { userId: Number(row.user_id), email: String(row.email) } : null
  }

  /**
   * Sets a new password through a reset link. The password is checked before the link is used,
   * so a refused password does not burn it; then, in one transaction, the link is consumed (only
   * one of any number of simultaneous tries can), the password written and every session of the
   * account ended. The visitor is not logged in: they log in with the new password.
   */
  async confirmReset(input: { token: unknown; password: unknown }): Promise<{ message: string }> {
    const holder = this.usableToken(input.token)
    if (!holder) throw new FieldErrors({ token: MESSAGES.resetLinkInvalid })
    const password = requirePassword(input.password)
    const problem = checkPassword(password, holder.email)
    if (problem) throw new FieldErrors({ password: problem })
    const hash = await this.options.hasher.hash(password)
    const at = this.options.now()
    const changed = transaction(this.db, () => {
      const consumed = this.db
        .prepare('UPDATE reset_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?')
        .run(at, hashToken(input.token as string), at)
      if (Number(consumed.changes) !== 1) return false
      this.db.prepare('UPDATE users SET password_hash = ?, password_changed_at = ? WHERE id = ?').run(hash, at, holder.userId)
      this.db.prepare('UPDATE reset_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL').run(at, holder.userId)
      this.options.sessions.endAll(holder.userId)
      return true
    })
    if (!changed) throw new FieldErrors({ token: MESSAGES.resetLinkInvalid })
    this.options.logger.info({ userId: holder.userId }, 'password reset; every session ended')
    this.options.mailer.sendLater({
      to: holder.email,
      subject: 'Your Poplift password was changed',
      text:
        `The password of the Poplift account for ${holder.email} was changed, and every device signed in to it was signed out.\n\n` +
        `If you did not do this, reset the password now at ${this.options.siteOrigin}/reset/ and write to support.`,
    })
    return { message: MESSAGES.passwordChanged }
  }

  /** Deletes what has expired: sessions, old reset links, stale throttles, past mail-cap warnings. */
  sweep(): void {
    const at = this.options.now()
    this.options.sessions.sweep()
    this.db.prepare('DELETE FROM reset_tokens WHERE created_at < ?').run(at - 24 * 60 * MINUTE)
    this.db.prepare('DELETE FROM login_throttle WHERE last_failed_at < ?').run(at - 24 * 60 * MINUTE)
    for (const [userId, warnedAt] of this.resetCapWarnedAt) if (at - warnedAt >= RESET_MAIL_WINDOW_MS) this.resetCapWarnedAt.delete(userId)
  }
}
