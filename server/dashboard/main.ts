/**
 * The local dashboard on its own (`npm run dashboard`, Procfile `dashboard:`): the same router at
 * `/app`, listening on DASHBOARD_PORT. Point the site's DASHBOARD_URL at `http://host:port/app`.
 */
import path from 'node:path'
import express from 'express'
import { readBox } from '../process/box.js'
import { logSizing, sizeProcess } from '../process/sizing.js'
import helmet from 'helmet'
import { z } from 'zod'
import { ConfigError, orExit, processEnvSchema } from '../process/env.js'
import { createLogger, requestLogger } from '../process/logger.js'
import { untrustedForwardingWarning } from '../process/proxy-trust.js'
import { liveness, Readiness } from '../process/readiness.js'
import { loadEnvOrExit, serve } from '../process/standalone.js'
import { dashboardEnvSchema, dashboardSettings, requireAiModel } from './config.js'
import { contentDir as projectContentDir } from '../project-root.js'
import { connectSharedCounters, redisDependency } from '../process/shared-counters.js'
import { loadSiteData } from '../site-data.js'
import { createDashboard } from './router.js'

const env = loadEnvOrExit(
  processEnvSchema.extend(dashboardEnvSchema.shape).extend({
    DASHBOARD_PORT: z.coerce.number().int().min(0).max(65535).default(3002),
    /** The site's public origin: reset links point there, and only it may post here. */
    PUBLIC_URL: z.url().optional(),
    APP_URL: z.url().optional(),
  }).superRefine(requireAiModel),
)
// Reset links in mails point at the site: in production its address must be given, never guessed.
const publicUrl = orExit(() => {
  if (env.PUBLIC_URL) return env.PUBLIC_URL
  if (env.NODE_ENV !== 'production') return 'http://localhost:3000'
  throw new ConfigError("PUBLIC_URL: set it to the site's public address: reset links in account mail point there, and only it may post here.")
})
const logger = createLogger(env)
// Password hashes take their scrypt memory from what this process's box can spare.
const { sizing, budget } = sizeProcess(readBox(), 'dashboard', { renders: false })
logSizing(logger, sizing)
const sharedCounters = env.REDIS_URL ? connectSharedCounters(env.REDIS_URL, logger) : null
const dashboard = createDashboard({
  ...dashboardSettings(env, { stateDir: path.resolve(env.DATA_DIR), siteOrigin: new URL(publicUrl).origin }),
  // The project's own templates and phrases (the previews, email views, app home and clones show them).
  data: loadSiteData(projectContentDir),
  sharedCounters,
  budget,
  logger,
})

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', env.TRUST_PROXY)
app.use(requestLogger(logger))
app.use(untrustedForwardingWarning(app, logger))
// Liveness and readiness for the platform's probes (server/process/readiness.ts).
const readiness = new Readiness([...(sharedCounters ? [redisDependency(sharedCounters)] : []), ...dashboard.dependencies])
app.get('/healthz', liveness)
app.get('/readyz', readiness.route())
app.use(helmet())
app.use('/app', dashboard.router)

serve({
  name: 'dashboard',
  app,
  port: env.DASHBOARD_PORT,
  host: env.HOST,
  logger,
  readiness,
  shutdown: { delayMs: env.SHUTDOWN_DELAY_MS, graceMs: env.SHUTDOWN_GRACE_MS ?? 10_000 },
  close: async () => {
    await dashboard.close()
    await sharedCounters?.close()
  },
})
