import type { AddressInfo } from 'node:net'
import { createApp } from './app.js'
import { loadConfig } from './process/config.js'
import { orExit } from './process/env.js'
import { createHttpServer } from './process/http-server.js'
import { logFatalErrors } from './process/logger.js'
import { stopOnSignals } from './process/shutdown.js'
import { logSizing } from './process/sizing.js'
import { uploadCeilingNote } from './giffer/config.js'
import { FIRST_OPENS_FILE, SAVED_TIMERS_FILE } from './giffer/context.js'
import { logSharedState } from './process/shared-state.js'

/** How long in-flight requests get to finish after SIGTERM before their sockets are closed, unless SHUTDOWN_GRACE_MS says otherwise. */
const SHUTDOWN_GRACE_MS = 10_000

function start() {
  const config = orExit(() => loadConfig())

  const { listener, logger, close, readiness, sizing } = createApp(config)
  logFatalErrors(logger)
  // What the process found in its box and chose from it (server/process/sizing.ts), in one line.
  logSizing(logger, sizing, config.GIFFER_URL ? [] : uploadCeilingNote(config, config.stateDir))
  logSharedState(logger, { redisUrl: config.REDIS_URL, stateDir: config.stateDir, drawsImages: !config.GIFFER_URL, s3Bucket: config.S3_BUCKET, firstOpensFile: FIRST_OPENS_FILE, savedTimersFile: SAVED_TIMERS_FILE })
  // The start-up checks' risks, in one line (server/process/deployment-checks.ts); refusals stopped the start above.
  const warnings = config.deploymentWarnings
  if (warnings.length) logger.warn({ publicUrl: config.PUBLIC_URL, warnings }, `configuration: ${warnings.length} ${warnings.length === 1 ? 'risk' : 'risks'} for a public site`)
  const http = createHttpServer(listener, logger)
  http.server.listen(config.PORT, config.HOST, () => {
    const { port } = http.server.address() as AddressInfo
    logger.info({ url: `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}`, port }, 'site listening')
  })
  // Then the image service finishes its jobs.
  stopOnSignals({ name: 'site', http, readiness, logger, delayMs: config.SHUTDOWN_DELAY_MS, graceMs: config.SHUTDOWN_GRACE_MS ?? SHUTDOWN_GRACE_MS, close })
}

start()
