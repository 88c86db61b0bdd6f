/**
 * The site served as server/main.ts serves it (its listener, which answers some repeats before
 * Express), beside its Express app alone as the reference for what a client must see, with raw
 * HTTP to both and the site's log lines kept.
 */
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { createHttpServer } from '../../server/process/http-server.js'
import { testSite } from '../routes/app.js'

export interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  /** Header names as sent, sorted. */
  names: string[]
  body: Buffer
}

export function send(port: number, path: string, { method = 'GET', headers = {} as http.OutgoingHttpHeaders, body = '' } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, method, headers, agent: false }, async (response) => {
      const chunks: Buffer[] = []
      for await (const chunk of response) chunks.push(chunk as Buffer)
      const names = response.rawHeaders.filter((_, index) => index % 2 === 0).sort()
      resolve({ status: response.statusCode!, headers: response.headers, names, body: Buffer.concat(chunks) })
    })
    request.on('error', reject)
    request.end(body)
  })
}

export async function listen(server: http.Server): Promise<number> {
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return (server.address() as AddressInfo).port
}

/** The site as main.ts serves it (`port`), its Express app alone (`expressPort`), and its log lines; `stop` ends both. */
export async function startServedSite() {
  const lines: Record<string, unknown>[] = []
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>)
      callback()
    },
  })
  const logger = pino({ level: 'info' }, sink)
  const site = testSite({}, { logger })
  const served = createHttpServer(site.listener, logger)
  const plain = http.createServer(site.app)
  const [port, expressPort] = await Promise.all([listen(served.server), listen(plain)])
  const stop = async () => {
    await Promise.all([served.close(1000), new Promise((resolve) => plain.close(resolve))])
    await site.close()
  }
  return { site, port, expressPort, lines, stop }
}
