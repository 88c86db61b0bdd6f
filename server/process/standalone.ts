/**
 * What the services that can run on their own (the image service, the dashboard) share: the
 * environment read once or the process stops naming the bad variable, and a server that on
 * SIGTERM drains as every process does (server/process/shutdown.ts).
 */
import type { RequestListener } from 'node:http'
import type { Logger } from 'pino'
import type { z } from 'zod'
import { orExit, parseEnv } from './env.js'
import { createHttpServer } from './http-server.js'
import { logFatalErrors } from './logger.js'
import type { Readiness } from './readiness.js'
import { stopOnSignals } from './shutdown.js'

export function loadEnvOrExit<S extends z.ZodType>(schema: S): z.output<S> {
  return orExit(() => parseEnv(schema, process.env))
}

export interface StandaloneService {
  /** Names the service in its log lines ("giffer listening"). */
  name: string
  app: RequestListener
  port: number
  host: string
  logger: Logger
  /** Turned unready on SIGTERM; the app answers `/readyz` from it. */
  readiness: Readiness
  /** SHUTDOWN_DELAY_MS and SHUTDOWN_GRACE_MS, the latter defaulting to the service's own. */
  shutdown: { delayMs: number; graceMs: number }
  /** Runs once the server has stopped: let jobs finish, close files. */
  close(): Promise<void>
  /** More to say in the "listening" line. */
  details?: () => Record<string, unknown>
}

export function serve({ name, app, port, host, logger, readiness, shutdown, close, details }: StandaloneService): void {
  logFatalErrors(logger)
  const http = createHttpServer(app, logger)
  http.server.listen(port, host, () => {
    const address = http.server.address()
    const actual = typeof address === 'object' && address ? address.port : port
    logger.info({ port: actual, host, ...details?.() }, `${name} listening`)
  })
  stopOnSignals({ name, http, readiness, logger, ...shutdown, close })
}
