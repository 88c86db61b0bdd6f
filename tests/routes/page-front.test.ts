/**
 * Repeats of cached pages are answered by the server's listener before Express runs
 * (`cachedPageReplay` in server/ssr/page-cache.ts). Tested through a real server built as
 * server/main.ts builds it, with the Express app alone on a second server as the reference.
 */
import type http from 'node:http'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { send, startServedSite } from '../support/served-site.js'

const stops: (() => Promise<void>)[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  await Promise.all(stops.splice(0).map((stop) => stop()))
})

/** The served site, with a count of the requests that reached Express. */
async function startSite() {
  const started = await startServedSite()
  stops.push(started.stop)
  // Every request Express serves goes through app.handle (not in its types).
  const reachedExpress = vi.spyOn(started.site.app as unknown as { handle: (...args: unknown[]) => void }, 'handle')
  return { ...started, reachedExpress }
}

const comparable = (headers: http.IncomingHttpHeaders) => {
  const copy = { ...headers }
  for (const name of ['x-request-id', 'date', 'connection', 'keep-alive', 'transfer-encoding']) delete copy[name]
  return copy
}

/** Renders the page, then serves it once from the cache through Express, so that the next repeat can go before it. */
async function warm(port: number, path: string, headers: http.OutgoingHttpHeaders = {}) {
  await send(port, path, { headers })
  await send(port, path, { headers })
}

describe('cached pages answered before Express', () => {
  it('sends a repeat view from memory without Express: the same status, headers and bytes as the Express hit', async () => {
    const { port, expressPort, reachedExpress } = await startSite()
    await warm(port, '/pricing/')
    const reference = await send(expressPort, '/pricing/')
    reachedExpress.mockClear()
    const replayed = await send(port, '/pricing/')
    expect(reachedExpress).not.toHaveBeenCalled()
    expect(replayed.status).toBe(200)
    expect(comparable(replayed.headers)).toEqual(comparable(reference.headers))
    expect(replayed.headers['server-timing']).toBe('cache;desc="hit"')
    expect(replayed.headers['content-security-policy']).toBe(reference.headers['content-security-policy'])
    expect(replayed.body.equals(reference.body)).toBe(true)
    expect(replayed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('answers 304 on a matching ETag and no body for HEAD, as Express does', async () => {
    const { port, reachedExpress } = await startSite()
    await warm(port, '/faq/')
    const { headers } = await send(port, '/faq/')
    reachedExpress.mockClear()
    expect((await send(port, '/faq/', { headers: { 'If-None-Match': headers.etag! } })).status).toBe(304)
    const head = await send(port, '/faq/', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.body.length).toBe(0)
    expect(reachedExpress).not.toHaveBeenCalled()
  })

  it('sends the brotli or gzip form once it is made, the encoding Express would choose', async () => {
    const { port, expressPort, reachedExpress } = await startSite()
    for (const acceptEncoding of ['gzip, deflate, br', 'gzip', 'br;q=0.5, gzip', 'deflate', 'identity']) {
      await warm(port, '/blog/', { 'Accept-Encoding': acceptEncoding })
      // The encoded form is made off the request path: let it land.
      await new Promise((resolve) => setTimeout(resolve, 50))
      const reference = await send(expressPort, '/blog/', { headers: { 'Accept-Encoding': acceptEncoding } })
      reachedExpress.mockClear()
      const replayed = await send(port, '/blog/', { headers: { 'Accept-Encoding': acceptEncoding } })
      expect(reachedExpress, acceptEncoding).not.toHaveBeenCalled()
      expect(replayed.headers['content-encoding'], acceptEncoding).toBe(reference.headers['content-encoding'])
      expect(replayed.body.equals(reference.body), acceptEncoding).toBe(true)
    }
  })

  it('logs and counts each replay as the Express path does: its line, its page id, a cache hit', async () => {
    const { port, lines } = await startSite()
    await warm(port, '/pricing/')
    await send(port, '/pricing/')
    const logged = lines.filter((line) => line.msg === 'request completed')
    expect(logged).toHaveLength(3)
    expect(logged.map((line) => (line.req as { url: string }).url)).toEqual(['/pricing/', '/pricing/', '/pricing/'])
    const metrics = (await send(port, '/metrics')).body.toString()
    expect(metrics).toMatch(/^page_cache_hits_total 2$/m)
    expect(metrics).toMatch(/http_request_duration_seconds_count\{route="pricing",method="GET",status="200"\} 3/)
  })

  it('leaves to Express what the memory cannot answer alike: a first view, a posted form, a request with a body', async () => {
    const { port, reachedExpress } = await startSite()
    await warm(port, '/login/')
    reachedExpress.mockClear()
    await send(port, '/start/')
    await send(port, '/login/', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '0' } })
    expect(reachedExpress).toHaveBeenCalledTimes(2)
  })
})
