import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { RequestHandler } from 'express'
import { createProxyMiddleware, fixRequestBody } from 'http-proxy-middleware'
import type { Logger } from 'pino'
import { errorBody } from './errors.js'
import { loggableUrl } from './logger.js'

export interface UpstreamProxyOptions {
  /** The upstream origin (and optional base path), e.g. `http://giffer.internal:3001`. */
  target: string
  /** Names the upstream in logs and error messages ("giffer", "dashboard"). */
  name: string
  /** The upstream must start answering within this time, else 504. */
  timeoutMs: number
  logger: Logger
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

/**
 * Forwards a mounted path to an upstream service (`app.use('/giffer', proxy)`: the prefix is
 * already stripped). A slow upstream gets a 504 JSON body, an unreachable or failing one a 502;
 * cookies it sets are scoped to the site (no Domain, Path under the mount prefix), and its
 * redirects within its own base path stay under the prefix.
 */
export function createUpstreamProxy({ target, name, timeoutMs, logger }: UpstreamProxyOptions): RequestHandler {
  const timedOut = new WeakSet<IncomingMessage>()
  const targetUrl = new URL(target)
  const targetOrigin = targetUrl.origin
  const targetBase = targetUrl.pathname.replace(/\/+$/, '')

  /**
   * An upstream redirect to a path under the target's own base path (or anywhere, when the
   * target has none) stays under the mount prefix; a path outside it is a page of the site.
   */
  function siteLocation(location: string, prefix: string): string {
    const path = location.startsWith(`${targetOrigin}/`) ? location.slice(targetOrigin.length) : location
    if (!path.startsWith('/') || path.startsWith('//')) return location
    if (!targetBase) return `${prefix}${path}`
    if (path === targetBase || path.startsWith(`${targetBase}/`) || path.startsWith(`${targetBase}?`)) return `${prefix}${path.slice(targetBase.length)}`
    return path
  }

  const proxy = createProxyMiddleware<MountedRequest, ServerResponse>({
    target,
    changeOrigin: true,
    xfwd: true,
    cookieDomainRewrite: '',
    on: {
      proxyReq(proxyReq: ClientRequest, req: MountedRequest) {
        // The upstream's log lines carry the site's id for the request (it trusts the site's address).
        if (req.id) proxyReq.setHeader('X-Request-Id', req.id)
        // A body already parsed by the site (express.json) is written again for the upstream.
        fixRequestBody(proxyReq, req as Parameters<typeof fixRequestBody>[1])
        proxyReq.setTimeout(timeoutMs, () => {
          timedOut.add(req)
          proxyReq.destroy(new Error(`${name} did not answer within ${timeoutMs} ms`))
        })
      },
      proxyRes(proxyRes: IncomingMessage, req: MountedRequest) {
        const prefix = req.baseUrl ?? ''
        const cookies = proxyRes.headers['set-cookie']
        if (cookies) proxyRes.headers['set-cookie'] = cookies.map((cookie) => rescopeCookiePath(cookie, prefix))
        const location = proxyRes.headers.location
        if (prefix && location) proxyRes.headers.location = siteLocation(location, prefix)
      },
      error(error: Error, req: MountedRequest, res: ServerResponse | Socket) {
        const slow = timedOut.has(req)
        logger.warn({ err: error, upstream: name, url: loggableUrl(req.originalUrl ?? req.url ?? ''), timedOut: slow }, 'upstream request failed')
        if (!('setHeader' in res)) {
          res.destroy()
          return
        }
        if (res.headersSent) {
          res.destroy()
          return
        }
        const status = slow ? 504 : 502
        const body = slow
          ? errorBody('upstream_timeout', `The ${name} service took too long to answer.`)
          : errorBody('upstream_unavailable', `The ${name} service is not reachable right now.`)
        res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
        res.end(JSON.stringify(body))
      },
    },
  })
  return proxy as unknown as RequestHandler
}

/** A path of a service configured by its base URL (`http://dash.internal/app`), resolved under that base whether or not it ends in a slash. */
export function serviceUrl(base: string, path: string): URL {
  return new URL(path, base.endsWith('/') ? base : `${base}/`)
}
