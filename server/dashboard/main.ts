/**
 * The local dashboard on its own (`npm run dashboard`, Procfile `dashboard:`): the same router at
 * `/app`, listening on DASHBOARD_PORT. Point the site's DASHBOARD_URL at `http://host:port/app`.
 */
import path from 'node:path'
import express from 'express'
import helmet from 'helmet'
import { z } from 'zod'
import { ConfigError, parseEnv, processEnvSchema } from '../env.js'
import { createHttpServer } from '../http-server.js'
import { createLogger, requestLogger } from '../logger.js'
import { dashboardEnvSchema } from './config.js'
import { createDashboard } from './router.js'

const SHUTDOWN_GRACE_MS = 10_000

const standaloneEnvSchema = processEnvSchema.extend(dashboardEnvSchema.shape).extend({
  DASHBOARD_PORT: z.coerce.number().int().min(0).max(65535).default(3002),
  /** The site's public origin: reset links point there, and only it may post here. */
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  APP_URL: z.url().optional(),
})

function loadEnv() {
  try {
    return parseEnv(standaloneEnvSchema, process.env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(error.message)
    process.exit(1)
  }
}

const env = loadEnv()
const logger = createLogger(env)
const dashboard = createDashboard({
  dataDir: path.resolve(env.DATA_DIR),
  siteOrigin: new URL(env.PUBLIC_URL).origin,
  appUrl: env.APP_URL,
  smtpUrl: env.SMTP_URL,
  mailFrom: env.MAIL_FROM,
  showOutbox: env.NODE_ENV !== 'production' || env.DASHBOARD_OUTBOX,
  logger,
})

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', env.TRUST_PROXY)
app.use(requestLogger(logger))
app.use(helmet())
app.use('/app', dashboard.router)

const http = createHttpServer(app, logger)
http.server.listen(env.DASHBOARD_PORT, env.HOST, () => {
  const address = http.server.address()
  const port = typeof address === 'object' && address ? address.port : env.DASHBOARD_PORT
  logger.info({ port, host: env.HOST }, 'dashboard listening')
})

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  logger.info({ signal }, 'dashboard stopping: finishing requests in flight')
  await http.close(SHUTDOWN_GRACE_MS)
  await dashboard.close()
  logger.info('dashboard stopped')
  logger.flush(() => process.exit(0))
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
