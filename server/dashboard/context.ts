/**
 * What every route of the local dashboard shares, made once by `createDashboardContext`.
 */
import { recordReferralHit, visitorKey } from '../tracking/referrals.js'
import path from 'node:path'
import { mkdirSync } from 'node:fs'
import type { Request, Response } from 'express'
import { parse as parseCookies } from 'cookie'
import type { Logger } from 'pino'
import type { SharedCounters } from '../process/shared-counters.js'
import type { SiteData } from '../site-data.js'
import { Accounts } from '../accounts/accounts.js'
import { databaseThrottle, sharedThrottle } from '../accounts/login-throttle.js'
import type { AiSettings } from './config.js'
import { openDatabase, type Database } from './db.js'
import { OutboxMailer, SmtpMailer, type Mailer, type MailRetry } from '../accounts/mail.js'
import { costForBudget, PasswordHasher, type ScryptCost } from '../accounts/passwords.js'
import type { MemoryBudget } from '../process/memory-budget.js'
import { accountLimiters, DEFAULT_LIMITS, type AccountLimiters, type DashboardLimits } from '../accounts/rate-limits.js'
import { sessionCookie, Sessions, type SessionUser } from '../accounts/sessions.js'

/** What the dashboard shows of the site's data: the galleries' catalogs and the subject-line phrases. */
export type DashboardData = Pick<SiteData, 'galleries' | 'subjectPhrases'>

export interface DashboardOptions {
  /** The writable folder of local state (DATA_DIR): holds dashboard.sqlite; `:memory:` as `databaseFile` keeps nothing. */
  stateDir: string
  databaseFile?: string
  /** The site's data, read once at start-up (server/site-data.ts). */
  data: DashboardData
  /** The site's public origin: reset links, the postMessage target, the allowed request origin. */
  siteOrigin: string
  /** The logged-in app (APP_URL), where a log-in leads; unset: this dashboard's own `/app/`. */
  appUrl?: string
  smtpUrl?: string
  mailFrom: string
  /** Whether the outbox page is served (never in production unless asked). */
  showOutbox: boolean
  logger: Logger
  now?: () => number
  limits?: Partial<DashboardLimits>
  /** Tests lower the scrypt cost; unset: the strongest of the equal settings the memory budget allows (server/accounts/passwords.ts). */
  scryptCost?: ScryptCost
  /** When mail the SMTP server did not take is tried again; unset: the production schedule (server/accounts/mail.ts). */
  mailRetry?: MailRetry
  /** The native memory password hashes share (in the site, with renders); unset: no limit beyond two hashes at once. */
  budget?: MemoryBudget
  /** A language model for the subject line generator; unset: the offline composer alone. */
  ai?: AiSettings
  /** Counters shared by every process (Redis); unset: this process's memory and database. */
  sharedCounters?: SharedCounters | null
}

export interface DashboardContext {
  db: Database
  accounts: Accounts
  sessions: Sessions
  mailer: Mailer
  /** The outbox, when mail is kept rather than sent. */
  outbox: OutboxMailer | null
  showOutbox: boolean
  /** The account requests' per-address counters, also used by the site's page forms. */
  limiters: AccountLimiters
  siteOrigin: string
  /** Where the app is after a log-in (`login_url`). */
  loginUrl: string
  /** Origins allowed to post to the dashboard: the site's and the app's. */
  allowedOrigins: string[]
  logger: Logger
  now: () => number
  /** The templates (previews, email views, the app home, clones) and the subject-line phrases. */
  data: DashboardData
  ai: AiSettings | undefined
  /** The counters shared with other processes (Redis), when there are any. */
  sharedCounters: SharedCounters | null
  sessionToken(req: Request): string | undefined
  /** The signed-in user of the request, renewing the session cookie when due. */
  currentUser(req: Request, res: Response): SessionUser | null
  /** Counts a referral hit from a visitor's address, once per partner and window (see tracking/referrals.ts). */
  recordReferral(code: string, unique: boolean, address: string | undefined): boolean
  close(): Promise<void>
}

export function createDashboardContext(options: DashboardOptions): DashboardContext {
  const now = options.now ?? Date.now
  const logger = options.logger.child({ module: 'dashboard' })
  const file = options.databaseFile ?? path.join(options.stateDir, 'dashboard.sqlite')
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true })
  const db = openDatabase(file)
  const sessions = new Sessions(db, sessionCookie(options.siteOrigin.startsWith('https:')), now)
  const outbox = options.smtpUrl ? null : new OutboxMailer(db, logger, now)
  const mailer = options.smtpUrl ? new SmtpMailer(db, options.smtpUrl, options.mailFrom, logger, now, options.mailRetry) : outbox!
  const hasher = new PasswordHasher(options.scryptCost ?? (options.budget ? costForBudget(options.budget.totalBytes) : undefined), { budget: options.budget, logger })
  const counters = options.sharedCounters ?? null
  const throttle = counters ? sharedThrottle(counters, databaseThrottle(db)) : databaseThrottle(db)
  const accounts = new Accounts({ db, throttle, sessions, hasher, mailer, logger, siteOrigin: options.siteOrigin, now })
  const sweeper = setInterval(() => accounts.sweep(), 60 * 60_000).unref()
  const sessionToken = (req: Request) => parseCookies(req.headers.cookie ?? '')[sessions.cookie.name]

  return {
    db,
    accounts,
    sessions,
    mailer,
    outbox,
    showOutbox: options.showOutbox,
    limiters: accountLimiters({ ...DEFAULT_LIMITS, ...options.limits }, counters),
    siteOrigin: options.siteOrigin,
    // The site's own app by path: the visitor stays on the host name they came by, where their session cookie is.
    loginUrl: options.appUrl ?? '/app/',
    allowedOrigins: [options.siteOrigin, ...(options.appUrl ? [new URL(options.appUrl).origin] : [])],
    logger,
    now,
    data: options.data,
    ai: options.ai,
    sharedCounters: counters,
    sessionToken,
    currentUser(req, res) {
      const resumed = sessions.resume(sessionToken(req))
      if (!resumed) return null
      if (resumed.renewedCookie) res.append('Set-Cookie', resumed.renewedCookie)
      return resumed.user
    },
    recordReferral(code, unique, address) {
      return recordReferralHit(db, { code, unique, visitor: visitorKey(address), now: now() })
    },
    async close() {
      clearInterval(sweeper)
      await accounts.idle()
      if (mailer instanceof SmtpMailer) await mailer.close()
      db.close()
    },
  }
}
