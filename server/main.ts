import type { AddressInfo } from 'node:net'
import { createApp } from './app.js'
import { ConfigError, loadConfig } from './config.js'

/** How long in-flight requests get to finish after SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000

function start() {
  let config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }

  const { app, logger, close } = createApp(config)
  const server = app.listen(config.PORT, config.HOST, () => {
    const { port } = server.address() as AddressInfo
    logger.info({ url: `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}`, port }, 'site listening')
  })
  server.keepAliveTimeout = 65_000

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down: finishing in-flight requests')
    // Stop accepting; idle keep-alive sockets close now, busy ones after their response.
    server.close((error) => {
      if (error) logger.error({ err: error }, 'close failed')
      close().finally(() => logger.flush(() => process.exit(error ? 1 : 0)))
    })
    server.closeIdleConnections()
    setTimeout(() => {
      logger.warn('requests still running after the grace period; exiting')
      logger.flush(() => process.exit(0))
    }, SHUTDOWN_GRACE_MS).unref()
  }
  process.once('SIGTERM', () => shutdown('SIGTERM'))
  process.once('SIGINT', () => shutdown('SIGINT'))
}

start()
