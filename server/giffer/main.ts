/**
 * The giffer on its own (`npm run giffer`, Procfile `giffer:`), for operators who scale image
 * rendering apart from the site: the same router at `/`, listening on GIFFER_PORT, and its own
 * `/metrics`.
 */
import path from 'node:path'
import express from 'express'
import helmet from 'helmet'
import { Registry } from 'prom-client'
import { z } from 'zod'
import { orExit, processEnvSchema } from '../process/env.js'
import { createLogger, requestLogger } from '../process/logger.js'
import { untrustedForwardingWarning } from '../process/proxy-trust.js'
import { metricsEndpoint, requestDurations } from '../process/metrics.js'
import { Readiness } from '../process/readiness.js'
import { loadEnvOrExit, serve } from '../process/standalone.js'
import { readBox } from '../process/box.js'
import { connectSharedCounters } from '../process/shared-counters.js'
import { logSharedState } from '../process/shared-state.js'
import { logSizing, sizeProcess } from '../process/sizing.js'
import { gifferEnvSchema, gifferOptionsFromEnv, renderSizingFromEnv, requireLastingSecret, standalonePublicUrl, uploadCeilingNote } from './config.js'
import { gifferMetrics } from './metrics.js'
import { FIRST_OPENS_FILE, SAVED_TIMERS_FILE } from './context.js'
import { createGifferRouter } from './router.js'

const env = loadEnvOrExit(
  gifferEnvSchema.extend(processEnvSchema.shape).extend({
    GIFFER_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
    /** Redis for the per-address upload limits every process must share; unset: each process counts alone. */
    REDIS_URL: z.url().optional(),
    /** The site's public address: behind the site, this service's links are PUBLIC_URL/giffer. */
    PUBLIC_URL: z.url().optional(),
  }),
)
// Links this service hands out (upload targets, files, live timers in emails) are on the public
// origin browsers reach it at, never on its own host and port.
const publicUrl = orExit(() => {
  const url = standalonePublicUrl({ ...env, port: env.GIFFER_PORT })
  requireLastingSecret(env.GIFFER_SECRET, url.href)
  return url
})
const logger = createLogger(env)
const registry = new Registry()
// Render threads, memory budget and render cache follow this process's box, sized once here and
// handed to the service; one line says what it chose.
const { sizing, budget } = sizeProcess(readBox(), 'giffer', { renders: true, ...renderSizingFromEnv(env) })
const stateDir = path.resolve(env.DATA_DIR)
logSizing(logger, sizing, uploadCeilingNote(env, stateDir))
// Per-address upload limits count across every process through Redis when it is there.
const sharedCounters = env.REDIS_URL ? connectSharedCounters(env.REDIS_URL, logger) : null
logSharedState(logger, { redisUrl: env.REDIS_URL, stateDir, drawsImages: true, s3Bucket: env.S3_BUCKET, firstOpensFile: FIRST_OPENS_FILE, savedTimersFile: SAVED_TIMERS_FILE })
const giffer = createGifferRouter(
  gifferOptionsFromEnv(env, {
    stateDir,
    publicOrigin: publicUrl.origin,
    publicPath: publicUrl.pathname.replace(/\/+$/, ''),
    siteOrigin: env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : undefined,
    logger,
    renderObserver: gifferMetrics(registry, () => giffer.stats, () => giffer.unstoredKeys),
    sizing,
    budget,
    rateLimitStore: sharedCounters ? (name) => sharedCounters.rateLimitStore(name) : undefined,
    redis: sharedCounters?.redis,
  }),
)

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', env.TRUST_PROXY)
app.use(requestLogger(logger))
app.use(untrustedForwardingWarning(app, logger))
// Liveness is the router's /healthz (with the pool's state); readiness turns 503 while draining.
const readiness = new Readiness()
app.get('/readyz', readiness.route())
// The same Prometheus text as the site's /metrics, for this service's numbers; scrapes are not counted.
app.get('/metrics', metricsEndpoint([registry], env.METRICS_TOKEN))
app.use(requestDurations(registry, () => 'giffer'))
// Images are embedded from mail clients and other origins.
app.use(helmet({ crossOriginResourcePolicy: { policy: 'cross-origin' } }))
app.use('/', giffer)

serve({
  name: 'giffer',
  app,
  port: env.GIFFER_PORT,
  host: env.HOST,
  logger,
  readiness,
  // Renders take longer than page requests: a longer grace by default.
  shutdown: { delayMs: env.SHUTDOWN_DELAY_MS, graceMs: env.SHUTDOWN_GRACE_MS ?? 20_000 },
  // The render threads stop once their jobs are done.
  close: async () => {
    await giffer.close()
    await sharedCounters?.close()
  },
  details: () => ({ pool: giffer.stats }),
})
