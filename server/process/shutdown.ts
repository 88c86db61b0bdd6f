/**
 * How every process stops. On SIGTERM (a deploy, a scale-down): it turns unready at once
 * (`/readyz` answers 503) and keeps serving for SHUTDOWN_DELAY_MS, long enough for a router or
 * Kubernetes to notice and send new requests elsewhere; then it stops accepting, lets requests
 * in flight finish for up to SHUTDOWN_GRACE_MS, closes its own work and exits 0. Ctrl-C (SIGINT)
 * skips the delay: nobody routes to a developer's terminal.
 */
import type { Logger } from 'pino'
import type { HttpServer } from './http-server.js'
import type { Readiness } from './readiness.js'

export interface Shutdown {
  /** Names the process in its log lines ("giffer draining"). */
  name: string
  http: HttpServer
  readiness: Readiness
  logger: Logger
  delayMs: number
  graceMs: number
  /** Runs once the server has stopped: let jobs finish, close files and connections. */
  close(): Promise<void>
}

export function stopOnSignals({ name, http, readiness, logger, delayMs, graceMs, close }: Shutdown): void {
  let stopping = false
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    readiness.drain()
    if (signal === 'SIGTERM' && delayMs > 0) {
      logger.info({ signal, delayMs }, `${name} draining: not ready, still serving`)
      await new Promise((resolve) => setTimeout(resolve, delayMs))
    }
    logger.info({ signal, graceMs }, `${name} stopping: finishing requests in flight`)
    // 1. Stop accepting and answer what is under way; 2. the process's own work.
    await http.close(graceMs)
    await close()
    logger.info(`${name} stopped`)
    logger.flush(() => process.exit(0))
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}
