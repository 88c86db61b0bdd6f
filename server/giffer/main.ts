/**
 * The giffer on its own (`npm run giffer`, Procfile `giffer:`), for operators who scale image
 * rendering apart from the site: the same router at `/`, listening on GIFFER_PORT.
 */
import path from 'node:path'
import express from 'express'
import helmet from 'helmet'
import { z } from 'zod'
import { ConfigError, parseEnv, processEnvSchema } from '../env.js'
import { gifferEnvSchema, gifferOptionsFromEnv } from './config.js'
import { createHttpServer } from '../http-server.js'
import { createLogger, requestLogger } from '../logger.js'
import { createGifferRouter } from './router.js'

const SHUTDOWN_GRACE_MS = 20_000

const standaloneEnvSchema = gifferEnvSchema.extend(processEnvSchema.shape).extend({
  GIFFER_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
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
const giffer = createGifferRouter(
  gifferOptionsFromEnv(env, { dataDir: path.resolve(env.DATA_DIR), publicPath: '', logger }),
)

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', env.TRUST_PROXY)
app.use(requestLogger(logger))
// Images are embedded from mail clients and other origins.
app.use(helmet({ crossOriginResourcePolicy: { policy: 'cross-origin' } }))
app.use('/', giffer)

const http = createHttpServer(app, logger)
http.server.listen(env.GIFFER_PORT, env.HOST, () => {
  const address = http.server.address()
  const port = typeof address === 'object' && address ? address.port : env.GIFFER_PORT
  logger.info({ port, host: env.HOST, pool: giffer.stats }, 'giffer listening')
})

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  logger.info({ signal }, 'giffer stopping: finishing requests in flight')
  // 1. Stop accepting; requests in flight finish. 2. Then the workers, once their jobs are done.
  await http.close(SHUTDOWN_GRACE_MS)
  await giffer.close()
  logger.info('giffer stopped')
  logger.flush(() => process.exit(0))
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
