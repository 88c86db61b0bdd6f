import type { AddressInfo } from 'node:net'
import { createApp } from './app.js'
import { ConfigError, loadConfig } from './config.js'
import { createHttpServer } from './http-server.js'

/** How long in-flight requests get to finish after SIGTERM before their sockets are closed. */
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

  const { listener, logger, close } = createApp(config)
  const http = createHttpServer(listener, logger)
  http.server.listen(config.PORT, config.HOST, () => {
    const { port } = http.server.address() as AddressInfo
    logger.info({ url: `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}`, port }, 'site listening')
  })

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down: finishing in-flight requests')
    // 1. Stop accepting and answer what is under way; 2. let the image service finish its jobs.
    await http.close(SHUTDOWN_GRACE_MS)
    await close()
    logger.flush(() => process.exit(0))
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}

start()
