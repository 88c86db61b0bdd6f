/**
 * What the services that can run on their own (the image service, the dashboard) share: the
 * environment read once or the process stops naming the bad variable, and a server that on
 * SIGTERM stops accepting, lets requests in flight finish, closes the service, exits 0.
 */
import type { RequestListener } from 'node:http'
import type { Logger } from 'pino'
import type { z } from 'zod'
import { ConfigError, parseEnv } from './env.js'
import { createHttpServer } from './http-server.js'

export function loadEnvOrExit<S extends z.ZodType>(schema: S): z.output<S> {
  try {
    return parseEnv(schema, process.env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(error.message)
    process.exit(1)
  }
}

export interface StandaloneService {
  /** Names the service in its log lines ("giffer listening"). */
  name: string
  app: RequestListener
  port: number
  host: string
  logger: Logger
  /** How long requests in flight get after SIGTERM before their sockets are closed. */
  graceMs: number
  /** Runs once the server has stopped: let jobs finish, close files. */
  close(): Promise<void>
  /** More to say in the "listening" line. */
  details?: () => Record<string, unknown>
}

export function serve({ name, app, port, host, logger, graceMs, close, details }: StandaloneService): void {
  const http = createHttpServer(app, logger)
  http.server.listen(port, host, () => {
    const address = http.server.address()
    const actual = typeof address === 'object' && address ? address.port : port
    logger.info({ port: actual, host, ...details?.() }, `${name} listening`)
  })

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, `${name} stopping: finishing requests in flight`)
    // 1. Stop accepting; requests in flight finish. 2. Then the service's own work.
    await http.close(graceMs)
    await close()
    logger.info(`${name} stopped`)
    logger.flush(() => process.exit(0))
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}
