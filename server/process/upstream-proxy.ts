import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { RequestHandler } from 'express'
import { createProxyMiddleware, fixRequestBody } from 'http-proxy-middleware'
import type { Logger } from 'pino'
import { errorBody } from './errors.js'
import { WarningRuns, loggableUrl } from './logger.js'

export interface UpstreamProxyOptions<Match> {
  /** The upstream origin (and optional base path), e.g. `http://giffer.internal:3001`. */
  target: string
  /** Names the upstream in logs and error messages ("giffer", "dashboard"). */
  name: string
  /** The upstream must start answering within this time, else 504. */
  timeoutMs: number
  logger: Logger
  /** Paths whose clients must get an answer of their own shape, in time, whatever the upstream does. */
  fallback?: UpstreamFallback<Match>
  /** How often the fallback's repeated warnings are summed up in one line (WarningRuns' own interval unless set). */
  fallbackWarningIntervalMs?: number
}

/** Why the proxy answered in the upstream's place: it was slow, could not be reached, or answered 5xx or 429. */
export type UpstreamFailure = 'upstream_timeout' | 'upstream_unavailable' | 'upstream_error'

/**
 * GETs of some paths never see a 502, a 504 or the upstream's own 5xx and 429: the proxy waits
 * for the upstream's response headers `waitMs` in all (from the request's arrival, whatever the
 * idle timeout), and when it is slow, cannot be reached or answers 5xx or 429, `send` answers in
 * its place. Any other answer of the upstream (2xx, 3xx, 4xx) passes through unchanged.
 */
export interface UpstreamFallback<Match> {
  /** What `send` needs for a GET of this path (the upstream's own, without the mount prefix), or null: the usual answers. */
  matches(path: string): Match | null
  waitMs: number
  /** Writes the whole answer before it returns: the proxy then writes nothing more. */
  send(res: ServerResponse, match: Match, reason: UpstreamFailure): void
}

/** A GET the fallback covers, while it waits for the upstream. */
interface Guard<Match> {
  match: Match
  deadline: NodeJS.Timeout
  /** The request to the upstream, once it has a socket: destroyed when the fallback answers first. */
  proxyReq?: ClientRequest
  /** The fallback has answered: nothing of the upstream is written after it. */
  answered: boolean
}

type MountedRequest = IncomingMessage & { baseUrl?: string; originalUrl?: string; id?: string }

/** Cookie path on the site: the upstream's path under the mount prefix (`Path=/` → `Path=/giffer`), except for `__Host-` cookies. */
export function rescopeCookiePath(cookie: string, prefix: string): string {
  // A `__Host-` cookie must keep Path=/ (browsers refuse it otherwise); it is host-only already.
  if (!prefix || cookie.startsWith('__Host-')) return cookie
  return cookie.replace(/;\s*path=([^;]*)/i, (_match, value: string) => {
    const upstreamPath = value.trim()
    const path = upstreamPath === '' || upstreamPath === '/' ? prefix : `${prefix}${upstreamPath.startsWith('/') ? '' : '/'}${upstreamPath}`
    return `; Path=${path}`
  })
}

/** What the line of a failed upstream request says of it, its URL redacted. */
function failedRequestFields(req: MountedRequest, upstream: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { ...fields, upstream, url: loggableUrl(req.originalUrl ?? req.url ?? '') }
}

/** The upstream's origin, and its base path without the ending slash (empty when it has none). */
interface UpstreamBase {
  origin: string
  path: string
}

function upstreamBase(target: string): UpstreamBase {
  const targetUrl = new URL(target)
  return { origin: targetUrl.origin, path: targetUrl.pathname.replace(/\/+$/, '') }
}

/**
 * An upstream redirect to a path under the target's own base path (or anywhere, when the
 * target has none) stays under the mount prefix; a path outside it is a page of the site.
 */
function siteLocation(location: string, prefix: string, base: UpstreamBase): string {
  const path = location.startsWith(`${base.origin}/`) ? location.slice(base.origin.length) : location
  if (!path.startsWith('/') || path.startsWith('//')) return location
  if (!base.path) return `${prefix}${path}`
  if (path === base.path || path.startsWith(`${base.path}/`) || path.startsWith(`${base.path}?`)) return `${prefix}${path.slice(base.path.length)}`
  return path
}

/** The upstream's cookies and redirects, rewritten for the site under the mount prefix. */
function rewriteForSite(proxyRes: IncomingMessage, prefix: string, base: UpstreamBase): void {
  const cookies = proxyRes.headers['set-cookie']
  if (cookies) proxyRes.headers['set-cookie'] = cookies.map((cookie) => rescopeCookiePath(cookie, prefix))
  const location = proxyRes.headers.location
  if (prefix && location) proxyRes.headers.location = siteLocation(location, prefix, base)
}

/** The 504 (slow) or 502 (unreachable) JSON body of a failed upstream request, or a cut connection once headers are sent. */
function answerGatewayError(res: ServerResponse | Socket, name: string, slow: boolean): void {
  if (!('setHeader' in res) || res.headersSent) {
    res.destroy()
    return
  }
  const status = slow ? 504 : 502
  const body = slow
    ? errorBody('upstream_timeout', `The ${name} service took too long to answer.`)
    : errorBody('upstream_unavailable', `The ${name} service is not reachable right now.`)
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
  res.end(JSON.stringify(body))
}

/** The GETs a fallback covers, each with its deadline, and the fallback's answers in the upstream's place. */
class FallbackGuards<Match> {
  private readonly guards = new WeakMap<IncomingMessage, Guard<Match>>()
  /**
   * An upstream down while emails are opened fails every open, a thousand a second: the first
   * failure of a run per reason is logged as any failed upstream request, the rest are summed up.
   */
  private readonly fallbackWarnings: WarningRuns

  constructor(
    private readonly fallback: UpstreamFallback<Match>,
    private readonly name: string,
    logger: Logger,
    warningIntervalMs: number | undefined,
  ) {
    this.fallbackWarnings = new WarningRuns(logger, warningIntervalMs)
  }

  /** Starts the deadline of a GET the fallback covers. */
  guardRequest(req: MountedRequest, res: ServerResponse): void {
    if (req.method !== 'GET') return
    const url = req.url ?? '/'
    const query = url.indexOf('?')
    const match = this.fallback.matches(query === -1 ? url : url.slice(0, query))
    if (match === null) return
    const guard: Guard<Match> = {
      match,
      answered: false,
      deadline: setTimeout(() => {
        this.answerInstead(req, res, guard, 'upstream_timeout', { err: new Error(`${this.name} sent no answer within ${this.fallback.waitMs} ms`), timedOut: true })
        // Its socket goes with it: a late answer is neither waited for nor written.
        guard.proxyReq?.destroy()
      }, this.fallback.waitMs),
    }
    this.guards.set(req, guard)
    res.once('close', () => clearTimeout(guard.deadline))
  }

  /** Keeps the request to the upstream of a guarded GET, to destroy it when the fallback answers first. */
  noteUpstreamRequest(req: MountedRequest, proxyReq: ClientRequest): void {
    const guard = this.guards.get(req)
    if (guard) guard.proxyReq = proxyReq
  }

  /** The upstream has answered: true when it answered 5xx or 429 on a guarded GET and the fallback answered instead. */
  answeredInsteadOf(proxyRes: IncomingMessage, req: MountedRequest, res: ServerResponse): boolean {
    const guard = this.guards.get(req)
    if (!guard) return false
    clearTimeout(guard.deadline)
    const status = proxyRes.statusCode ?? 502
    if (status < 500 && status !== 429) return false
    this.answerInstead(req, res, guard, 'upstream_error', { status })
    // Read and dropped: the connection to the upstream stays usable.
    proxyRes.resume()
    return true
  }

  /** The upstream request failed: true when the fallback has answered or answers now, and nothing else is to be written or logged. */
  handledFailure(error: Error, req: MountedRequest, res: ServerResponse | Socket, slow: boolean): boolean {
    const guard = this.guards.get(req)
    // The fallback has answered: this is the upstream request it cut short, already logged.
    if (guard?.answered) return true
    if (!guard || !('setHeader' in res) || res.headersSent) return false
    this.answerInstead(req, res, guard, slow ? 'upstream_timeout' : 'upstream_unavailable', { err: error, timedOut: slow })
    return true
  }

  /** The fallback answers in the upstream's place, once. */
  private answerInstead(req: MountedRequest, res: ServerResponse, guard: Guard<Match>, reason: UpstreamFailure, fields: Record<string, unknown>): void {
    clearTimeout(guard.deadline)
    guard.answered = true
    this.fallbackWarnings.note(reason, () => ({
      first: { fields: failedRequestFields(req, this.name, { ...fields, fallback: reason }), message: 'upstream request failed' },
      repeated: { fields: { fallback: reason, upstream: this.name }, message: 'upstream requests failed: answered by the fallback' },
    }))
    this.fallback.send(res, guard.match, reason)
  }
}

/**
 * Forwards a mounted path to an upstream service (`app.use('/giffer', proxy)`: the prefix is
 * already stripped). A slow upstream gets a 504 JSON body, an unreachable or failing one a 502,
 * except on the paths of `fallback`; cookies it sets are scoped to the site (no Domain, Path
 * under the mount prefix), and its redirects within its own base path stay under the prefix.
 */
export function createUpstreamProxy<Match>({ target, name, timeoutMs, logger, fallback, fallbackWarningIntervalMs }: UpstreamProxyOptions<Match>): RequestHandler {
  const timedOut = new WeakSet<IncomingMessage>()
  const guards = fallback ? new FallbackGuards(fallback, name, logger, fallbackWarningIntervalMs) : undefined
  const base = upstreamBase(target)

  const proxy = createProxyMiddleware<MountedRequest, ServerResponse>({
    target,
    changeOrigin: true,
    xfwd: true,
    cookieDomainRewrite: '',
    on: {
      proxyReq(proxyReq: ClientRequest, req: MountedRequest) {
        guards?.noteUpstreamRequest(req, proxyReq)
        // The upstream's log lines carry the site's id for the request (it trusts the site's address).
        if (req.id) proxyReq.setHeader('X-Request-Id', req.id)
        // A body already parsed by the site (express.json) is written again for the upstream.
        fixRequestBody(proxyReq, req as Parameters<typeof fixRequestBody>[1])
        proxyReq.setTimeout(timeoutMs, () => {
          timedOut.add(req)
          proxyReq.destroy(new Error(`${name} did not answer within ${timeoutMs} ms`))
        })
      },
      proxyRes(proxyRes: IncomingMessage, req: MountedRequest, res: ServerResponse) {
        if (guards?.answeredInsteadOf(proxyRes, req, res)) return
        rewriteForSite(proxyRes, req.baseUrl ?? '', base)
      },
      error(error: Error, req: MountedRequest, res: ServerResponse | Socket) {
        const slow = timedOut.has(req)
        if (guards?.handledFailure(error, req, res, slow)) return
        logger.warn(failedRequestFields(req, name, { err: error, timedOut: slow }), 'upstream request failed')
        answerGatewayError(res, name, slow)
      },
    },
  }) as unknown as RequestHandler
  if (!guards) return proxy
  return (req, res, next) => {
    guards.guardRequest(req, res)
    proxy(req, res, next)
  }
}

/** A path of a service configured by its base URL (`http://dash.internal/app`), resolved under that base whether or not it ends in a slash. */
export function serviceUrl(base: string, path: string): URL {
  return new URL(path, base.endsWith('/') ? base : `${base}/`)
}
