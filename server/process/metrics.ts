/**
 * `GET /metrics`: a process's numbers in Prometheus' text format, for operators to scrape. The
 * pieces every service uses: prom-client's process metrics, request durations, the endpoint.
 * What the site counts besides is in site-metrics.ts, the image service's in giffer/metrics.ts.
 *
 * Each app has its own Registry, so two apps in one process (tests) keep separate counts; the
 * process metrics are one Registry per process, made on first use, because they describe the
 * process whichever app asks.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestHandler } from 'express'
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client'

let processRegistry: Registry | undefined

/**
 * Gauges of prom-client's defaults whose `_total` suffix Prometheus keeps for counters
 * (`promtool check metrics` flags them); the same numbers, per type, are in the families of the
 * same name without the suffix.
 */
const MISNAMED_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']

/** prom-client's defaults (`process_*`, `nodejs_*`: CPU, RSS, heap, event-loop delay, GC), once per process. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry()
    collectDefaultMetrics({ register: processRegistry })
    for (const name of MISNAMED_DEFAULTS) processRegistry.removeSingleMetric(name)
  }
  return processRegistry
}

/** Request durations from a millisecond (a cached page) to the 10 s a slow render may take. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** Methods named in the `method` label; any other is counted as `other`. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * Statuses named in the `status` label: those the processes send. Any other (an upstream's
 * teapot, a status from a library) is counted by its class, `4xx`, so that no answer can add series.
 */
const KNOWN_STATUSES = new Set([200, 201, 204, 206, 301, 302, 303, 304, 400, 401, 403, 404, 405, 408, 409, 413, 415, 416, 429, 500, 502, 503, 504])

/** The `status` label of an answer: its code when known, else its class. */
export const statusLabel = (status: number): string => (KNOWN_STATUSES.has(status) ? String(status) : `${Math.min(5, Math.max(1, Math.floor(status / 100)))}xx`)

/** Counts one request when its response is handed to the socket; see requestTimer. */
export type RequestCount = (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) => void

/**
 * Counts each request it is given, on `finish`: one clock reading at each end and one
 * observation. `routeOf` must map any path to one of a fixed set of names, so that a crawler or a
 * path fuzzer cannot grow the number of series. For answers sent before Express too
 * (server/process/answer-memory.ts), which must be counted as Express would count them.
 */
export function requestTimer(registry: Registry, routeOf: (pathname: string) => string): RequestCount {
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request reaching the app to its response handed to the socket, by route, method and status; _count is the number of requests.',
    labelNames: ['route', 'method', 'status'],
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  })
  return (req, res) => {
    const started = process.hrtime.bigint()
    res.on('finish', () => {
      // Express's mounts rewrite req.url on the way; originalUrl is the URL as it came.
      const url = req.originalUrl ?? req.url ?? ''
      const query = url.indexOf('?')
      const pathname = query === -1 ? url : url.slice(0, query)
      durations.observe(
        { route: routeOf(pathname), method: req.method && KNOWN_METHODS.has(req.method) ? req.method : 'other', status: statusLabel(res.statusCode) },
        Number(process.hrtime.bigint() - started) / 1e9,
      )
    })
  }
}

/** A RequestCount as middleware: counts every request that passes it. */
export function countEach(count: RequestCount): RequestHandler {
  return (req, res, next) => {
    count(req, res)
    next()
  }
}

/** requestTimer as middleware. */
export function requestDurations(registry: Registry, routeOf: (pathname: string) => string): RequestHandler {
  return countEach(requestTimer(registry, routeOf))
}

const sha256 = (text: string) => createHash('sha256').update(text).digest()

/**
 * Serves the process metrics and the given registries. With a token, only
 * `Authorization: Bearer <token>` gets them (401 otherwise); both sides are hashed first, so the
 * comparison takes the same time whatever was sent. The answer is never stored and sets no cookie.
 */
export function metricsEndpoint(registries: Registry[], token: string | undefined): RequestHandler {
  const expected = token === undefined ? null : sha256(token)
  const served = [processMetrics(), ...registries]
  return async (req, res, next) => {
    res.set('Cache-Control', 'no-store')
    if (expected) {
      const presented = /^Bearer +(\S+) *$/i.exec(req.get('authorization') ?? '')?.[1] ?? ''
      if (!timingSafeEqual(sha256(presented), expected)) {
        res.status(401).set('WWW-Authenticate', 'Bearer realm="metrics"').type('text/plain').send('A valid bearer token is required.')
        return
      }
    }
    try {
      const texts = await Promise.all(served.map((registry) => registry.metrics()))
      res.type(Registry.PROMETHEUS_CONTENT_TYPE).send(texts.filter((text) => text.trim() !== '').join('\n'))
    } catch (error) {
      next(error)
    }
  }
}
