/**
 * Repeats of the galleries' JSON are answered by the server's listener before Express runs
 * (server/process/answer-memory.ts). Tested through a real server built as server/main.ts builds it, with
 * the Express app itself on a second server as the reference for what a client must see.
 */
import http from 'node:http'
import zlib from 'node:zlib'
import express from 'express'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AnswerMemory } from '../../server/process/answer-memory.js'
import { listen, send, startServedSite } from '../support/served-site.js'
import { projectSiteData } from './app.js'

const catalog = projectSiteData().galleries.catalogs.widgets
/** A gallery page of about 6 KB: above compression's threshold. */
const URL = '/api/widgets?group=forms'

const stops: (() => Promise<void>)[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  await Promise.all(stops.splice(0).map((stop) => stop()))
})

async function startSite() {
  const started = await startServedSite()
  stops.push(started.stop)
  return started
}

/** Headers that differ between two answers by nature: the request's id, the clock, and how the body is framed. */
function comparable(headers: http.IncomingHttpHeaders, ...framing: string[]) {
  const copy = { ...headers }
  for (const name of ['x-request-id', 'date', ...framing]) delete copy[name]
  return copy
}

describe('answers kept in memory, sent before Express', () => {
  it('answers a repeat from memory: the catalog is not asked again, same bytes and headers but the request id', async () => {
    const { port } = await startSite()
    const queried = vi.spyOn(catalog, 'query')
    const first = await send(port, URL)
    const second = await send(port, URL)
    expect(queried).toHaveBeenCalledTimes(1)
    expect(second.status).toBe(200)
    expect(second.body.equals(first.body)).toBe(true)
    expect(comparable(second.headers)).toEqual(comparable(first.headers))
    // Spelled as Express spelled them (Content-Security-Policy, Access-Control-Allow-Origin, ETag…).
    expect(second.names).toEqual(first.names)
    expect(second.headers['content-security-policy']).toContain("default-src 'self'")
    expect(second.headers['access-control-allow-origin']).toBe('*')
    expect(second.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=3600')
    expect(second.headers.vary).toBe('Accept-Encoding')
    expect(second.headers.etag).toMatch(/^W\/"/)
    expect(second.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id'])
  })

  it('answers 304 to a matching If-None-Match with the same headers and no body, 200 when the client says no-cache', async () => {
    const { port } = await startSite()
    const queried = vi.spyOn(catalog, 'query')
    const first = await send(port, URL)
    const etag = first.headers.etag!
    for (const ifNoneMatch of [etag, etag.slice(2), `"other", ${etag}`, '*']) {
      const notModified = await send(port, URL, { headers: { 'If-None-Match': ifNoneMatch } })
      expect(notModified.status, ifNoneMatch).toBe(304)
      expect(notModified.body.length).toBe(0)
      expect(comparable(notModified.headers)).toEqual(comparable(first.headers, 'content-length'))
    }
    expect((await send(port, URL, { headers: { 'If-None-Match': '"other"' } })).status).toBe(200)
    expect((await send(port, URL, { headers: { 'If-None-Match': etag, 'Cache-Control': 'no-cache' } })).status).toBe(200)
    expect(queried).toHaveBeenCalledTimes(1)
  })

  it('answers HEAD with the headers of a GET and no body', async () => {
    const { port, expressPort } = await startSite()
    const queried = vi.spyOn(catalog, 'query')
    const get = await send(port, URL)
    const head = await send(port, URL, { method: 'HEAD' })
    expect(queried).toHaveBeenCalledTimes(1)
    expect(head.status).toBe(200)
    expect(head.body.length).toBe(0)
    expect(head.headers['content-length']).toBe(String(get.body.length))
    // What Express answers to HEAD, even to a client that takes gzip: never compressed.
    const expressHead = await send(expressPort, URL, { method: 'HEAD', headers: { 'Accept-Encoding': 'gzip' } })
    const replayedHead = await send(port, URL, { method: 'HEAD', headers: { 'Accept-Encoding': 'gzip' } })
    expect(comparable(replayedHead.headers)).toEqual(comparable(expressHead.headers))
  })

  it('sends gzip and brotli as compression would, decoding to the same JSON, compressed once', async () => {
    const { port } = await startSite()
    const queried = vi.spyOn(catalog, 'query')
    const gzipSync = vi.spyOn(zlib, 'gzipSync')
    const plain = await send(port, URL)
    for (const [acceptEncoding, encoding, decode, limit] of [
      ['gzip', 'gzip', zlib.gunzipSync, 20],
      ['gzip, deflate, br', 'br', zlib.brotliDecompressSync, 21],
    ] as const) {
      // A URL not kept yet, which Express compresses itself.
      const viaExpress = await send(port, `${URL}&limit=${limit}`, { headers: { 'Accept-Encoding': acceptEncoding } })
      const [fromMemory, again] = [await send(port, URL, { headers: { 'Accept-Encoding': acceptEncoding } }), await send(port, URL, { headers: { 'Accept-Encoding': acceptEncoding } })]
      expect(fromMemory.headers['content-encoding'], acceptEncoding).toBe(encoding)
      expect(viaExpress.headers['content-encoding'], acceptEncoding).toBe(encoding)
      expect(JSON.parse(decode(fromMemory.body).toString())).toEqual(JSON.parse(plain.body.toString()))
      expect(again.body.equals(fromMemory.body)).toBe(true)
      expect(fromMemory.headers['content-length']).toBe(String(fromMemory.body.length))
      // Express streams its compressed answers (chunked); from memory the length is known.
      expect(comparable(fromMemory.headers, 'content-length', 'etag')).toEqual(comparable(viaExpress.headers, 'transfer-encoding', 'etag'))
    }
    // The kept URL once, and each URL that Express compressed itself.
    expect(queried).toHaveBeenCalledTimes(3)
    expect(gzipSync).toHaveBeenCalledTimes(1)
  })

  it('chooses the encoding the Express path chooses, for any Accept-Encoding', async () => {
    const { port, expressPort } = await startSite()
    await send(port, URL)
    const headers = ['', 'gzip', 'br', 'deflate', 'identity', '*', 'gzip, deflate, br, zstd', 'deflate, gzip', 'br;q=0.5, gzip', 'gzip;q=0.5, br;q=0.5', 'BR', 'x-gzip, gzip;q=0.1',
      'gzip;q=0, br;q=0', 'identity;q=0', '*;q=0', 'gzip;q=0, *', 'gzip;q=abc, br', 'br;q=0.1, identity;q=0.5', 'deflate;q=0.9, gzip;q=0.9', 'zstd', ';;,', 'gzip;level=1;q=0.2, deflate;q=0.1']
    for (const acceptEncoding of headers) {
      const [fromMemory, viaExpress] = await Promise.all([send(port, URL, { headers: { 'Accept-Encoding': acceptEncoding } }), send(expressPort, URL, { headers: { 'Accept-Encoding': acceptEncoding } })])
      expect(fromMemory.headers['content-encoding'], acceptEncoding).toBe(viaExpress.headers['content-encoding'])
    }
  })

  it('gives each answer from memory a request id, echoing a well-formed incoming one', async () => {
    const { port } = await startSite()
    const queried = vi.spyOn(catalog, 'query')
    await send(port, URL)
    expect((await send(port, URL, { headers: { 'X-Request-Id': 'abc-123' } })).headers['x-request-id']).toBe('abc-123')
    const rejected = (await send(port, URL, { headers: { 'X-Request-Id': 'bad id <script>' } })).headers['x-request-id']
    expect(rejected).toMatch(/^[0-9a-f-]{36}$/)
    expect(queried).toHaveBeenCalledTimes(1)
  })

  it('writes one request line per answer from memory, with the fields of the Express path', async () => {
    const { port, lines } = await startSite()
    const queried = vi.spyOn(catalog, 'query')
    const first = await send(port, URL, { headers: { 'User-Agent': 'memory-test' } })
    const second = await send(port, URL, { headers: { 'User-Agent': 'memory-test' } })
    expect(queried).toHaveBeenCalledTimes(1)
    const lineOf = (id: unknown) => lines.filter((line) => (line.req as { id?: string } | undefined)?.id === id)
    await vi.waitFor(() => expect(lineOf(second.headers['x-request-id'])).toHaveLength(1))
    const [expressLine] = lineOf(first.headers['x-request-id'])
    const [memoryLine] = lineOf(second.headers['x-request-id'])
    expect(Object.keys(memoryLine!).sort()).toEqual(Object.keys(expressLine!).sort())
    expect(memoryLine).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { id: second.headers['x-request-id'], method: 'GET', url: URL, remoteAddress: '127.0.0.1', userAgent: 'memory-test' },
      res: { statusCode: 200 },
    })
    expect(Object.keys(memoryLine!.req as object)).toEqual(Object.keys(expressLine!.req as object))
  })

  it('counts answers from memory in the request metrics, under the route Express counts them', async () => {
    const { port } = await startSite()
    const queried = vi.spyOn(catalog, 'query')
    await send(port, URL)
    await send(port, URL)
    await send(port, URL, { method: 'HEAD' })
    await send(port, URL, { headers: { 'If-None-Match': '*' } })
    expect(queried).toHaveBeenCalledTimes(1)
    const text = (await send(port, '/metrics')).body.toString()
    const count = (method: string, status: number) => Number(new RegExp(`^http_request_duration_seconds_count\\{route="api",method="${method}",status="${status}"\\} (\\d+)$`, 'm').exec(text)?.[1])
    expect(count('GET', 200)).toBe(2)
    expect(count('HEAD', 200)).toBe(1)
    expect(count('GET', 304)).toBe(1)
  })

  it('leaves to Express what it does not keep: other methods, a request body, long URLs, errors', async () => {
    const { port } = await startSite()
    const queried = vi.spyOn(catalog, 'query')
    await send(port, URL)
    expect((await send(port, URL, { method: 'POST' })).status).toBe(404)
    await send(port, URL, { headers: { 'Content-Type': 'text/plain', 'Content-Length': 2 }, body: 'hi' })
    expect(queried).toHaveBeenCalledTimes(2)
    const long = `${URL}&q=${'x'.repeat(90)}&${'a=1&'.repeat(110)}`
    await send(port, long)
    await send(port, long)
    expect(queried).toHaveBeenCalledTimes(4)
    const bad = await send(port, '/api/widgets?group=nope')
    expect(bad.status).toBe(400)
    const again = await send(port, '/api/widgets?group=nope')
    expect(again.status).toBe(400)
    expect(again.body.equals(bad.body)).toBe(true)
  })

  it('never keeps an answer that sets a cookie', async () => {
    const memory = new AnswerMemory()
    const app = express()
    app.use(memory.record())
    app.get('/personal', (_req, res) => {
      res.cookie('visitor', 'v1').json({ hello: 'visitor' })
    })
    app.get('/public', (_req, res) => {
      res.json({ hello: 'everyone' })
    })
    const server = http.createServer(app)
    const port = await listen(server)
    stops.push(() => new Promise((resolve) => server.close(() => resolve())))
    await send(port, '/personal')
    await send(port, '/public')
    const asked = (url: string) => ({ method: 'GET', url, headers: {} }) as http.IncomingMessage
    expect(memory.match(asked('/personal'))).toBeUndefined()
    expect(memory.match(asked('/public'))).toBeDefined()
  })
})
