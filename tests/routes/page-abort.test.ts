import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { pino } from 'pino'
import { Writable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { createPageHandler } from '../../server/ssr/handler.js'
import { PageCache } from '../../server/ssr/page-cache.js'
import type { LoaderFor } from '../../shared/routes.js'

/** Error lines the handler logs, kept in memory. */
function memoryLogger() {
  const lines: Array<{ level: number; msg: string }> = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()))
      callback()
    },
  })
  return { logger: pino({ level: 'info' }, sink), errors: () => lines.filter((line) => line.level >= 50) }
}

/** Loaders that say when they start and then wait for the request to be aborted. */
function stalledLoaders() {
  let started!: () => void
  const loaderStarted = new Promise<void>((resolve) => (started = resolve))
  const loaderFor: LoaderFor = () => async ({ request }) => {
    started()
    await new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }))
    return {}
  }
  return { loaderFor, loaderStarted }
}

let server: http.Server | undefined
afterEach(() => server?.close())

async function serve(path: string) {
  const { loaderFor, loaderStarted } = stalledLoaders()
  const { logger, errors } = memoryLogger()
  const handler = createPageHandler({ loaderFor, client: null, cache: new PageCache(10), origin: 'http://site.test', logger })
  let settle!: (outcome: unknown) => void
  const handled = new Promise((resolve) => (settle = resolve))
  const app = express()
  app.use(async (req, res) => {
    try {
      await handler(req, res)
      settle('returned')
    } catch (error) {
      settle(error)
    }
  })
  server = app.listen(0)
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  const client = http.get({ port, path })
  client.on('error', () => {})
  await loaderStarted
  // The visitor leaves while the loaders still run.
  client.destroy()
  return { outcome: await handled, errors }
}

describe('a client that leaves while the loaders run', () => {
  it('stops the page quietly: no error thrown, nothing logged', async () => {
    const { outcome, errors } = await serve('/pricing/')
    expect(outcome).toBe('returned')
    expect(errors()).toEqual([])
  })

  it('stops a route-data request quietly as well', async () => {
    const { outcome, errors } = await serve('/pricing/?_data=pricing')
    expect(outcome).toBe('returned')
    expect(errors()).toEqual([])
  })
})
