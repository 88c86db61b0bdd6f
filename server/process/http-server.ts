import http from 'node:http'
import type { Socket } from 'node:net'
import type { Logger } from 'pino'
import { collectWhenQuiet } from './quiet-gc.js'

/**
 * Time limits that a real browser never meets but a client trickling bytes does. Node's defaults
 * let one header byte a second hold a socket for a minute or more, and the limits are only
 * checked every 30 s.
 */
export const SERVER_TIMEOUTS = {
  /** The request line and headers must arrive within this. */
  headersMs: 15_000,
  /** The whole request, body included: a 5 MB upload on a slow mobile link fits. */
  requestMs: 120_000,
  /** An idle keep-alive socket is closed after this; above the 60 s of common load balancers. */
  keepAliveMs: 65_000,
  /** How often open sockets are checked against the limits above. */
  checkEveryMs: 1_000,
} as const

const inFlight = Symbol('responses in flight')
type TrackedSocket = Socket & { [inFlight]?: Set<http.ServerResponse> }

export interface HttpServer {
  server: http.Server
  /**
   * Stops accepting, drops sockets that have no request under way (idle keep-alive ones, and
   * ones whose headers never finished arriving), and resolves once the requests in flight are
   * answered. After `graceMs` the remaining sockets are destroyed.
   */
  close(graceMs: number): Promise<void>
}

/** The scheme and authority of an absolute-form target: what comes after is its path and query. */
const ABSOLUTE_FORM_PREFIX = /^https?:\/\/[^/?#]*/i

/**
 * Turns a request line in absolute form (`GET http://host/path?q HTTP/1.1`, as sent to proxies),
 * which a server must accept, into the path and query the rest of the process reads; the host it
 * names plays no part, as links come from the configured public address. The path is taken as
 * sent, never resolved (`..`, `%2e%2e` and `\` stay as they are), so both forms of one target
 * reach the same place, whatever a filter in front decided from the raw line. False for a target
 * that is neither (`*`, another scheme, a malformed authority): such a request gets a 400.
 */
export function toOriginForm(req: http.IncomingMessage): boolean {
  const target = req.url ?? ''
  if (target.startsWith('/')) return true
  const prefix = ABSOLUTE_FORM_PREFIX.exec(target)?.[0]
  if (!prefix || !URL.canParse(prefix)) return false
  const rest = target.slice(prefix.length)
  req.url = rest.startsWith('/') ? rest : `/${rest}`
  return true
}

export function createHttpServer(handler: http.RequestListener, logger: Logger): HttpServer {
  const server = http.createServer({
    headersTimeout: SERVER_TIMEOUTS.headersMs,
    requestTimeout: SERVER_TIMEOUTS.requestMs,
    keepAliveTimeout: SERVER_TIMEOUTS.keepAliveMs,
    connectionsCheckingInterval: SERVER_TIMEOUTS.checkEveryMs,
  })
  collectWhenQuiet(server)
  const sockets = new Set<TrackedSocket>()
  let closing = false

  server.on('connection', (socket: TrackedSocket) => {
    socket[inFlight] = new Set()
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  // 'request' fires once the headers are in; the response's end makes the socket idle again.
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket as TrackedSocket
    const responses = (socket[inFlight] ??= new Set())
    responses.add(res)
    if (closing) res.setHeader('Connection', 'close')
    res.once('close', () => {
      responses.delete(res)
      if (closing && responses.size === 0) socket.destroySoon()
    })
  })
  // After the listener above: the handler may answer at once (an answer from memory, /healthz),
  // and once it has, no header (Connection: close) can be added any more.
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (toOriginForm(req)) return handler(req, res)
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('Bad request target.')
  })

  return {
    server,
    close(graceMs) {
      closing = true
      const closed = new Promise<void>((resolve) =>
        server.close((error) => {
          if (error) logger.error({ err: error }, 'server close failed')
          resolve()
        }),
      )
      for (const socket of sockets) {
        const responses = socket[inFlight]
        if (!responses?.size) socket.destroy()
        // Tell the client not to send another request on this socket.
        else for (const res of responses) if (!res.headersSent) res.setHeader('Connection', 'close')
      }
      const timer = setTimeout(() => {
        logger.warn({ sockets: sockets.size }, 'requests still running after the grace period; closing their sockets')
        for (const socket of sockets) socket.destroy()
      }, graceMs)
      timer.unref()
      return closed.finally(() => clearTimeout(timer))
    },
  }
}
