import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestHandler } from 'express'
import { pino, type Logger } from 'pino'
import proxyAddr from 'proxy-addr'

/** Values that must never reach a log line. */
const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
]

/** What a log line shows in place of a value it must not carry. */
const REDACTED = '[redacted]'

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

/**
 * Logs go to stdout asynchronously: lines written while a write is under way go out together,
 * instead of a blocking system call per request. Flush the logger before the process exits.
 * JSON lines, except in development, where pino's own pretty printer makes them readable. It runs
 * in pino's transport thread and is named only here, by string, so nothing else ever loads it: it
 * is a development dependency, absent where the site is deployed.
 */
export function createLogger(config: { LOG_LEVEL: LogLevel; NODE_ENV: 'development' | 'production' | 'test' }): Logger {
  const options = { level: config.LOG_LEVEL, redact: { paths: REDACTED_PATHS, censor: REDACTED } }
  if (config.NODE_ENV === 'development') return pino({ ...options, transport: { target: 'pino-pretty', options: { destination: 1, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } })
  const destination = pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_MAX })
  const logger = pino(options, destination)
  let dropped = 0
  destination.on('drop', () => dropped++)
  setInterval(() => {
    if (dropped === 0) return
    logger.warn({ dropped }, 'log lines dropped: whatever reads standard output fell behind')
    dropped = 0
  }, DROPPED_REPORT_MS).unref()
  return logger
}

/**
 * Characters of log lines waiting for standard output. Should whatever reads it fall behind (a
 * slow log router, a full pipe), lines past this are dropped and counted, not held: at a few
 * thousand requests a second an unbounded buffer grew by tens of MB in a 256 MB box.
 */
const LOG_BUFFER_MAX = 4 * 1024 * 1024
/** How often the count of dropped lines is written, while lines are being dropped. */
const DROPPED_REPORT_MS = 10_000

/**
 * Writes an uncaught error as a fatal line, waits for the log to reach its destination, then
 * exits 1. Logs are written asynchronously: without this, a crash's own explanation would be the
 * line most likely lost.
 */
export function logFatalErrors(logger: Logger): void {
  const die = (error: unknown, origin: string) => {
    logger.fatal({ err: error, origin }, 'fatal error: the process stops')
    // However the flush goes, the process does not outlive a second.
    setTimeout(() => process.exit(1), 1_000).unref()
    logger.flush(() => process.exit(1))
  }
  process.once('uncaughtException', (error) => die(error, 'uncaughtException'))
  process.once('unhandledRejection', (reason) => die(reason, 'unhandledRejection'))
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/**
 * Query parameters whose values never reach a log, in any process: secrets (a reset link's
 * `token`, a `password`) and a person's data (a live timer's recipient key `r`, which sending
 * platforms fill with the subscriber's e-mail address, and a recipient's own date `until`). `r`
 * is also the referral code of the partner track call, hidden with the rest. Listed in lower case.
 */
const HIDDEN_PARAMETERS = new Set(['token', 'password', 'r', 'until'])

/** The first letter of each hidden name, and the `a` of an `amp;` written before one, in either case. */
const HIDDEN_NAME_START = new Set([...[...HIDDEN_PARAMETERS].map((name) => name[0]!), 'a'].flatMap((char) => [char.charCodeAt(0), char.toUpperCase().charCodeAt(0)]))

/**
 * Whether a name beginning with this character may be hidden: the first letter of one, or
 * anything but a letter or digit (an escape, a space, a stray `;` or byte-order mark before it).
 * Any other name is passed over without decoding, which keeps the common URL cheap.
 */
function mayBeHidden(code: number): boolean {
  const letter = (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a
  const digit = code >= 0x30 && code <= 0x39
  return HIDDEN_NAME_START.has(code) || !(letter || digit)
}

/**
 * Whether a query parameter's name, as written in the URL, is one of HIDDEN_PARAMETERS as the
 * server reads it: `+` as a space, percent-decoded (`%72` is `r`), in any case, with an array
 * suffix (`r[]`, `r[0]`) or stray spaces. Only %XX of ASCII is decoded: no other byte can be part
 * of an ASCII name, and a malformed escape then stays as written instead of throwing.
 */
function isHiddenName(raw: string): boolean {
  let name = raw
  if (name.includes('+')) name = name.replaceAll('+', ' ')
  if (name.includes('%')) name = name.replace(/%[0-7][0-9a-f]/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)))
  // Whatever stands before the letters (an `amp;` written in any way, a stray `;`, a byte-order
  // mark, escapes of other bytes) does not hide the name after it from the log.
  name = name.replace(/^(?:amp;|%[0-9a-f]{2}|[^a-z0-9%])+/i, '')
  const bracket = name.indexOf('[')
  if (bracket !== -1) name = name.slice(0, bracket)
  return HIDDEN_PARAMETERS.has(name.trim().toLowerCase())
}

/**
 * Where a query parameter's name begins, past any `amp;` written before it: email editors often
 * escape the `&` of an image URL twice (`&amp;r=`), and the image service reads such a name as
 * the name after it. Only a name that begins with an `a` is looked at again.
 */
function nameStart(url: string, at: number): number {
  let start = at
  while ((url.charCodeAt(start) | 0x20) === 0x61 && url.slice(start, start + 4).toLowerCase() === 'amp;') start += 4
  return start
}

/**
 * A request URL fit for the log: the value of each hidden parameter replaced whole, as written,
 * up to the next `&` (`r=[redacted]`), so no encoding of it, valid or not, reaches the line. A `#`
 * does not end a value: a value read past it is hidden too. Nor does an `&` before a part without
 * `=`: an address holding an unencoded `&` (`r=anna&co@x.com`) would otherwise leave its tail in
 * the line, and the parameters these services read all carry a `=`. Every request goes through
 * this, so a URL without a query costs one search, and one without hidden parameters is returned
 * as given.
 */
export function loggableUrl(url: string): string {
  const query = url.indexOf('?')
  if (query === -1) return url
  let kept = ''
  let copied = 0
  let hiding = false
  let start = query + 1
  while (start < url.length) {
    let end = url.indexOf('&', start)
    if (end === -1) end = url.length
    if (hiding) {
      const equals = url.indexOf('=', start)
      if (equals === -1 || equals > end) {
        copied = end
        start = end + 1
        continue
      }
      hiding = false
    }
    const name = nameStart(url, start)
    if (mayBeHidden(url.charCodeAt(name))) {
      const equals = url.indexOf('=', name)
      if (equals !== -1 && equals < end && isHiddenName(url.slice(name, equals))) {
        kept += url.slice(copied, equals + 1) + REDACTED
        copied = end
        hiding = true
      }
    }
    start = end + 1
  }
  return copied === 0 ? url : kept + url.slice(copied)
}

/** How often a run of repeated warnings is summed up in one line, unless said otherwise. */
const WARNING_RUN_INTERVAL_MS = 10_000

/** A log line: its fields and its message. */
export interface WarningLine {
  fields: Record<string, unknown>
  message: string
}

/**
 * Warnings that come by the thousand when something goes wrong at full traffic (a burst of
 * refusals, an upstream down while emails are opened). The first of a run of each kind is written
 * in full; the rest are counted and written as one line per interval, with the count and the
 * interval in seconds, so a burst costs a few lines instead of thousands. A kind that did not
 * repeat within an interval ends its run: its next warning is written in full again.
 */
export class WarningRuns {
  /** Each kind's warnings since the last summary, and the line that sums them up; present while its run lasts. */
  private readonly runs = new Map<string, { count: number; repeated: WarningLine }>()
  private timer: NodeJS.Timeout | null = null

  constructor(
    private readonly logger: Logger,
    private readonly intervalMs = WARNING_RUN_INTERVAL_MS,
  ) {}

  /** A warning of `kind`: `lines` says what the first of a run writes and what the summary of the others carries, called only when a run starts. */
  note(kind: string, lines: () => { first: WarningLine; repeated: WarningLine }): void {
    const run = this.runs.get(kind)
    if (run === undefined) {
      const { first, repeated } = lines()
      this.logger.warn(first.fields, first.message)
      this.runs.set(kind, { count: 0, repeated })
    } else {
      run.count++
    }
    this.timer ??= setTimeout(() => this.summarise(), this.intervalMs).unref()
  }

  /** Writes one line per kind that repeated; a kind that did not repeat ends its run. */
  private summarise(): void {
    this.timer = null
    for (const [kind, run] of this.runs) {
      if (run.count === 0) {
        this.runs.delete(kind)
        continue
      }
      this.logger.warn({ ...run.repeated.fields, count: run.count, intervalSeconds: this.intervalMs / 1000 }, run.repeated.message)
      run.count = 0
    }
    if (this.runs.size > 0) this.timer = setTimeout(() => this.summarise(), this.intervalMs).unref()
  }
}

/**
 * Answers carrying Retry-After are refusals on purpose, not faults: a 503 is a service shedding
 * load (a full render queue), a 429 a rate limit (one address or account tried too often). They
 * are logged as WarningRuns, one kind per status and code, instead of thousands of stack traces.
 */
export class BackPressureLog {
  private readonly runs: WarningRuns

  constructor(logger: Logger, intervalMs = WARNING_RUN_INTERVAL_MS) {
    this.runs = new WarningRuns(logger, intervalMs)
  }

  note(status: number, code: string, path: string): void {
    this.runs.note(`${status} ${code}`, () => ({
      first: { fields: { status, code, path }, message: `${refusalOf(status)}: answered with Retry-After` },
      repeated: { fields: { status, code }, message: `${refusalOf(status)}: more answers with Retry-After` },
    }))
  }
}

const refusalOf = (status: number) => (status === 429 ? 'rate limited' : 'shedding load')

function isBackPressure(res: ServerResponse): boolean {
  return (res.statusCode === 503 || res.statusCode === 429) && res.hasHeader('Retry-After')
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request's id, also sent back as X-Request-Id. */
      id: string
      /** A logger whose lines carry this request's id, method and URL. */
      log: Logger
    }
  }
}

/** A request as the log sees it: as Express holds it, or as it reached the server (answered before Express). */
type LoggedRequest = IncomingMessage & { originalUrl?: string }

/**
 * A recipient opening an email or clicking in it: a live timer's image (signed, `live.gif`, or
 * saved, `t/{id}.gif`) or a saved timer's link (`t/{id}/go`), under any mount path. Their lines
 * keep neither the address nor the User-Agent, which together would say who read which email when.
 */
const EMAIL_OPEN_PATH = /\/countdown\/(?:live\.(?:gif|png)|t\/[^/?]{1,64}(?:\.(?:gif|png)|\/go))\/?$/i

/**
 * What a log line says of a request: never its headers (cookies, authorization), only these.
 * `remoteAddress` is the visitor's, as `trust proxy` reads it (`req.ip`), not the balancer's; an
 * email's open has neither it nor its User-Agent.
 */
function requestFields(req: LoggedRequest, id: string, remoteAddress: string | undefined) {
  const url = req.originalUrl ?? req.url ?? ''
  const line = { id, method: req.method, url: loggableUrl(url) }
  return EMAIL_OPEN_PATH.test(url.split('?')[0]!) ? line : { ...line, remoteAddress, userAgent: req.headers['user-agent'] }
}

/** Which peers' forwarding headers a process believes: Express's compiled `trust proxy` setting. */
export type TrustProxy = (address: string, hop: number) => boolean

/**
 * A request's id: an incoming X-Request-Id when a trusted proxy sent it (the site to the image
 * service or the dashboard, a balancer to the site) and it is well-formed, else a new one. One id
 * then follows a request through every process it reaches.
 */
export function requestIdOf(req: IncomingMessage, trust: TrustProxy): string {
  const incoming = req.headers['x-request-id']
  if (typeof incoming !== 'string' || !REQUEST_ID.test(incoming)) return randomUUID()
  return trust(req.socket.remoteAddress ?? '', 0) ? incoming : randomUUID()
}

/** The visitor's address, as Express's `req.ip` gives it, for requests answered before Express. */
export const clientAddress = (req: IncomingMessage, trust: TrustProxy): string => proxyAddr(req, trust)

/** Writes the line of a request with this id when its response ends (or is cut short). */
export type RequestLog = (req: LoggedRequest, res: ServerResponse, id: string, remoteAddress: string | undefined) => void

/** What requestLogger writes for each request, for answers sent before Express too (server/process/answer-memory.ts). */
export function requestLog(logger: Logger, backPressure = new BackPressureLog(logger)): RequestLog {
  return (req, res, id, remoteAddress) => {
    const started = Date.now()
    const ended = () => {
      res.off('finish', ended)
      res.off('close', ended)
      if (isBackPressure(res)) {
        const code = (res as { locals?: { errorCode?: string } }).locals?.errorCode ?? (res.statusCode === 429 ? 'rate_limited' : 'busy')
        backPressure.note(res.statusCode, code, (req.originalUrl ?? req.url ?? '').split('?')[0]!)
        return
      }
      const line = { req: requestFields(req, id, remoteAddress), res: { statusCode: res.statusCode }, responseTime: Date.now() - started }
      const message = res.writableFinished ? 'request completed' : 'request aborted'
      if (res.statusCode >= 500) logger.error(line, message)
      else logger.info(line, message)
    }
    res.on('finish', ended)
    res.on('close', ended)
  }
}

/**
 * One short line per request, when it ends: its id, method, URL, address, status and time in
 * milliseconds. Load-shedding and rate-limit answers go to a BackPressureLog instead (an error
 * handler may name their code in `res.locals.errorCode`); 5xx are logged at error level, their
 * cause where it was handled.
 *
 * Written here rather than with pino-http: that builds a child logger for every request, one of
 * the larger costs of a small answer. Here `req.log` is made only when a handler uses it.
 */
export function requestLogger(logger: Logger, log = requestLog(logger)): RequestHandler {
  return (req, res, next) => {
    req.id = requestIdOf(req, req.app.get('trust proxy fn') as TrustProxy)
    res.setHeader('X-Request-Id', req.id)
    log(req, res, req.id, req.ip)
    let child: Logger | undefined
    Object.defineProperty(req, 'log', { configurable: true, enumerable: false, get: () => (child ??= logger.child({ req: requestFields(req, req.id, req.ip) })) })
    next()
  }
}
