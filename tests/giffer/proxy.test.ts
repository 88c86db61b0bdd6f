import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import express from 'express'
import { pino } from 'pino'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { LIVE_PROXY_WAIT_MS, TRANSPARENT_PIXEL, liveImageFormat, sendUndrawnPixel } from '../../server/giffer/live/pixel.js'
import { createUpstreamProxy, rescopeCookiePath } from '../../server/process/upstream-proxy.js'
import { testApp } from '../routes/app.js'
import { downUpstream } from '../support/down-upstream.js'

/** A throwaway upstream on a free loopback port. */
function listen(handler: http.RequestListener): Promise<{ server: http.Server; origin: string }> {
  return new Promise((resolve) => {
    const server = http.createServer(handler)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({ server, origin: `http://127.0.0.1:${port}` })
    })
  })
}

function siteWith(target: string, timeoutMs = 2_000) {
  const app = express()
  // the site parses JSON before its mounts: the proxy must still forward the body
  app.use(express.json())
  app.use('/giffer', createUpstreamProxy({ target, name: 'giffer', timeoutMs, logger: pino({ level: 'silent' }) }))
  return app
}

let upstream: { server: http.Server; origin: string }
const hanging = new Set<http.ServerResponse>()

beforeAll(async () => {
  upstream = await listen((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      if (req.url === '/slow') {
        hanging.add(res)
        return
      }
      if (req.url === '/cookies') {
        res.setHeader('Set-Cookie', ['sid=abc; Domain=upstream.internal; Path=/; HttpOnly; SameSite=Lax', 'pref=dark; Path=/account', 'plain=1'])
        res.end('ok')
        return
      }
      if (req.url?.startsWith('/redirect')) {
        const to = new URL(req.url, 'http://x').searchParams.get('to') ?? '/'
        res.writeHead(302, { Location: to })
        res.end()
        return
      }
      if (req.url === '/image') {
        res.writeHead(200, { 'Content-Type': 'image/gif' })
        res.end(Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x00, 0xff]))
        return
      }
      res.writeHead(201, { 'Content-Type': 'application/json', 'X-Upstream': 'yes' })
      res.end(JSON.stringify({ method: req.method, url: req.url, host: req.headers.host, forwardedFor: req.headers['x-forwarded-for'], body }))
    })
  })
})

afterAll(async () => {
  for (const res of hanging) res.destroy()
  await new Promise((resolve) => upstream.server.close(resolve))
})

describe('upstream proxy', () => {
  it('passes requests through with the mount prefix stripped, status, headers and body intact', async () => {
    const res = await request(siteWith(upstream.origin)).get('/giffer/countdown/create?x=1')
    expect(res.status).toBe(201)
    expect(res.headers['x-upstream']).toBe('yes')
    expect(res.body.url).toBe('/countdown/create?x=1')
    expect(res.body.host).toBe(new URL(upstream.origin).host)
    expect(res.body.forwardedFor).toBeTruthy()
  })

  it('forwards a JSON body that the site has already parsed', async () => {
    const res = await request(siteWith(upstream.origin)).post('/giffer/countdown/create').send({ delay: 60, font: 'roboto' })
    expect(res.status).toBe(201)
    expect(JSON.parse(res.body.body)).toEqual({ delay: 60, font: 'roboto' })
  })

  it('passes binary bodies through untouched', async () => {
    const res = await request(siteWith(upstream.origin))
      .get('/giffer/image')
      .buffer(true)
      .parse((stream, done) => {
        const chunks: Buffer[] = []
        stream.on('data', (c: Buffer) => chunks.push(c))
        stream.on('end', () => done(null, Buffer.concat(chunks)))
      })
    expect(res.headers['content-type']).toBe('image/gif')
    expect([...(res.body as Buffer)]).toEqual([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x00, 0xff])
  })

  it('answers 502 upstream_unavailable JSON when the upstream is down', async () => {
    const down = await downUpstream()
    onTestFinished(() => down.close())
    const res = await request(siteWith(down.origin)).get('/giffer/fonts')
    expect(res.status).toBe(502)
    expect(res.headers['content-type']).toMatch(/application\/json/)
    expect(res.body.error.code).toBe('upstream_unavailable')
    expect(res.body.error.message).toContain('giffer')
  })

  it('answers 504 upstream_timeout JSON when the upstream does not answer in time', async () => {
    const started = Date.now()
    const res = await request(siteWith(upstream.origin, 300)).get('/giffer/slow')
    expect(res.status).toBe(504)
    expect(res.body.error.code).toBe('upstream_timeout')
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it('re-scopes upstream cookies to the site: no Domain, Path under the mount prefix', async () => {
    const res = await request(siteWith(upstream.origin)).get('/giffer/cookies')
    const cookies = res.headers['set-cookie'] as unknown as string[]
    expect(cookies).toHaveLength(3)
    expect(cookies[0]).toBe('sid=abc; Path=/giffer; HttpOnly; SameSite=Lax')
    expect(cookies[1]).toBe('pref=dark; Path=/giffer/account')
    expect(cookies[2]).toBe('plain=1')
  })

  it('keeps redirects to the upstream root under the prefix, and leaves other sites alone', async () => {
    const site = siteWith(upstream.origin)
    expect((await request(site).get('/giffer/redirect?to=/login')).headers.location).toBe('/giffer/login')
    expect((await request(site).get(`/giffer/redirect?to=${encodeURIComponent(`${upstream.origin}/app/home`)}`)).headers.location).toBe('/giffer/app/home')
    expect((await request(site).get('/giffer/redirect?to=https://accounts.example/x')).headers.location).toBe('https://accounts.example/x')
  })
})

/** Reads an answer's body as bytes, whatever its type. */
function binary(req: request.Test) {
  return req.buffer(true).parse((stream, done) => {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', () => done(null, Buffer.concat(chunks)))
  })
}

describe('live timers through the site’s proxy', () => {
  /** The image service as a test needs it: `?answer=` says what it does with a request. */
  let giffer: { server: http.Server; origin: string }
  /** Requests the image service never answers, and those of them whose connection the site has closed. */
  const unanswered = new Set<http.ServerResponse>()
  const closedByTheSite: string[] = []
  const DRAWN = Buffer.from('GIF89a drawn by the image service')

  beforeAll(async () => {
    giffer = await listen((req, res) => {
      switch (new URL(req.url ?? '/', 'http://giffer').searchParams.get('answer')) {
        case 'never':
          unanswered.add(res)
          res.on('close', () => closedByTheSite.push(req.url ?? ''))
          return
        case 'busy':
          res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '5' })
          res.end('{"error":{"code":"busy","message":"Busy."}}')
          return
        case 'limited':
          res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '5' })
          res.end('{"error":{"code":"rate_limited","message":"Too many."}}')
          return
        case 'forbidden':
          res.writeHead(403, { 'Content-Type': 'application/json' })
          res.end('{"error":{"code":"bad_signature","message":"This timer link is not valid.","field":"sig"}}')
          return
        case 'unchanged':
          res.writeHead(304, { ETag: '"drawn"' })
          res.end()
          return
        default:
          res.writeHead(200, { 'Content-Type': 'image/gif', 'Cache-Control': 'public, max-age=10' })
          res.end(DRAWN)
      }
    })
  })

  afterAll(async () => {
    for (const res of unanswered) res.destroy()
    await new Promise((resolve) => giffer.server.close(resolve))
  })

  /** A GET through the site's app, timed; the body as bytes. */
  async function open(site: ReturnType<typeof testApp>, path: string) {
    const started = Date.now()
    const res = await binary(request(site).get(path))
    return { res, elapsedMs: Date.now() - started }
  }

  const expectPixel = (res: { status: number; headers: Record<string, unknown>; body: unknown }, format: 'gif' | 'png', reason: string) => {
    expect(res.status).toBe(200)
    expect(res.headers).toMatchObject({ 'content-type': `image/${format}`, 'cache-control': 'no-store', 'x-giffer-undrawn': reason })
    expect((res.body as Buffer).equals(TRANSPARENT_PIXEL[format])).toBe(true)
  }

  /** The site's app on a loopback port, reached as a mail proxy does: over connections kept open from one image to the next. */
  async function mailProxyOf(site: ReturnType<typeof testApp>) {
    const server = http.createServer(site)
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 })
    const get = (path: string) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; reusedSocket: boolean; elapsedMs: number }>((resolve, reject) => {
        const started = Date.now()
        const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), reusedSocket: req.reusedSocket, elapsedMs: Date.now() - started }))
          res.on('error', reject)
        })
        req.on('error', reject)
      })
    return {
      get,
      close: async () => {
        agent.destroy()
        server.closeAllConnections()
        await new Promise((resolve) => server.close(resolve))
      },
    }
  }

  it('answers the pixel of the format asked, not to be kept, within 3 s when the image service never answers, and closes its connection', async () => {
    const warnings: Record<string, unknown>[] = []
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        for (const line of String(chunk).split('\n').filter(Boolean)) warnings.push(JSON.parse(line) as Record<string, unknown>)
        callback()
      },
    })
    const mailProxy = await mailProxyOf(testApp({ GIFFER_URL: giffer.origin }, { logger: pino({ level: 'warn' }, sink) }))
    try {
      const [gif, png] = await Promise.all([mailProxy.get('/giffer/countdown/live.gif?sig=abc&answer=never&r=1'), mailProxy.get('/giffer/countdown/live.png?sig=abc&answer=never&r=2')])
      expectPixel(gif, 'gif', 'upstream_timeout')
      expectPixel(png, 'png', 'upstream_timeout')
      for (const { elapsedMs } of [gif, png]) {
        // The deadline of 2.8 s, not the proxy's 15 s: the image service was given its time, and no more.
        expect(elapsedMs).toBeGreaterThanOrEqual(2_700)
        expect(elapsedMs).toBeLessThan(3_000)
      }
      // The image service's late answer has nowhere to go: its connection is gone.
      await vi.waitFor(() => expect(closedByTheSite.sort()).toEqual(['/countdown/live.gif?sig=abc&answer=never&r=1', '/countdown/live.png?sig=abc&answer=never&r=2']), { timeout: 1_000 })
      // The mail proxy's own connections stay open for its next images.
      const next = await Promise.all([mailProxy.get('/giffer/countdown/live.gif?sig=abc&r=3'), mailProxy.get('/giffer/countdown/live.gif?sig=abc&r=4')])
      expect(next.map(({ status, reusedSocket }) => ({ status, reusedSocket }))).toEqual([
        { status: 200, reusedSocket: true },
        { status: 200, reusedSocket: true },
      ])
      // The first pixel of the run is logged as the proxy's other failures are, the second counted for a later line;
      // the upstream requests it cut short add none.
      expect(warnings).toEqual([expect.objectContaining({ msg: 'upstream request failed', fallback: 'upstream_timeout', url: expect.stringMatching(/^\/giffer\/countdown\/live\.(gif|png)\?sig=abc&answer=never&r=\[redacted\]$/) })])
    } finally {
      await mailProxy.close()
    }
  }, 10_000)

  it('answers the pixel at once when the image service is down', async () => {
    const down = await downUpstream()
    onTestFinished(() => down.close())
    const site = testApp({ GIFFER_URL: down.origin })
    for (const format of ['gif', 'png'] as const) {
      const { res, elapsedMs } = await open(site, `/giffer/countdown/live.${format}?sig=abc&r=1`)
      expectPixel(res, format, 'upstream_unavailable')
      expect(elapsedMs).toBeLessThan(3_000)
    }
  })

  it('logs the first pixel of an outage in full and sums up the others in one line per interval', async () => {
    const down = await downUpstream()
    onTestFinished(() => down.close())
    const lines: Record<string, unknown>[] = []
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) })
    const site = express()
    const fallback = { matches: liveImageFormat, waitMs: LIVE_PROXY_WAIT_MS, send: sendUndrawnPixel }
    site.use('/giffer', createUpstreamProxy({ target: down.origin, name: 'giffer', timeoutMs: 2_000, logger, fallback, fallbackWarningIntervalMs: 500 }))
    const mailProxy = await mailProxyOf(site)
    try {
      const opens = await Promise.all(Array.from({ length: 20 }, (_, i) => mailProxy.get(`/giffer/countdown/live.gif?sig=abc&r=anna${i}%40shop.example`)))
      for (const res of opens) expectPixel(res, 'gif', 'upstream_unavailable')
      expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'upstream request failed', upstream: 'giffer', fallback: 'upstream_unavailable', url: '/giffer/countdown/live.gif?sig=abc&r=[redacted]' })])
      await vi.waitFor(() => expect(lines).toHaveLength(2), { timeout: 2_000 })
      expect(lines[1]).toEqual(expect.objectContaining({ level: 40, msg: 'upstream requests failed: answered by the fallback', upstream: 'giffer', fallback: 'upstream_unavailable', count: 19, intervalSeconds: 0.5 }))
      expect(JSON.stringify(lines)).not.toContain('shop.example')
      // A quiet interval ends the run: the next failure is logged in full again.
      await new Promise((resolve) => setTimeout(resolve, 800))
      expectPixel(await mailProxy.get('/giffer/countdown/live.png?sig=abc&r=anna%40shop.example'), 'png', 'upstream_unavailable')
      expect(lines.slice(2)).toEqual([expect.objectContaining({ msg: 'upstream request failed', fallback: 'upstream_unavailable', url: '/giffer/countdown/live.png?sig=abc&r=[redacted]' })])
    } finally {
      await mailProxy.close()
    }
  })

  it('answers the pixel in place of the image service’s 503 and 429', async () => {
    const site = testApp({ GIFFER_URL: giffer.origin })
    for (const format of ['gif', 'png'] as const) {
      for (const answer of ['busy', 'limited']) {
        const { res, elapsedMs } = await open(site, `/giffer/countdown/live.${format}?sig=abc&answer=${answer}&r=1`)
        expectPixel(res, format, 'upstream_error')
        expect(res.headers['retry-after']).toBeUndefined()
        expect(elapsedMs).toBeLessThan(3_000)
      }
    }
  })

  it('passes the image service’s other answers through unchanged: a drawn image, a 304, a refused signature', async () => {
    const site = testApp({ GIFFER_URL: giffer.origin })
    const drawn = (await open(site, '/giffer/countdown/live.gif?sig=abc&r=1')).res
    expect(drawn.status).toBe(200)
    expect(drawn.headers).toMatchObject({ 'content-type': 'image/gif', 'cache-control': 'public, max-age=10' })
    expect(drawn.headers['x-giffer-undrawn']).toBeUndefined()
    expect((drawn.body as Buffer).equals(DRAWN)).toBe(true)
    const unchanged = await request(site).get('/giffer/countdown/live.png?sig=abc&answer=unchanged&r=1')
    expect(unchanged.status).toBe(304)
    expect(unchanged.headers.etag).toBe('"drawn"')
    const forbidden = await request(site).get('/giffer/countdown/live.gif?sig=changed&answer=forbidden&r=1')
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual({ error: { code: 'bad_signature', message: 'This timer link is not valid.', field: 'sig' } })
  })

  it('keeps the 504, 502 and upstream answers of every other path', async () => {
    const site = testApp({ GIFFER_URL: giffer.origin, UPSTREAM_TIMEOUT_MS: '300' })
    const slow = await request(site).get('/giffer/countdown/create?answer=never')
    expect(slow.status).toBe(504)
    expect(slow.body.error.code).toBe('upstream_timeout')
    expect((await request(site).get('/giffer/fonts?answer=busy')).status).toBe(503)
    expect((await request(site).post('/giffer/countdown/live.gif?answer=busy')).status).toBe(503)
    const down = await downUpstream()
    onTestFinished(() => down.close())
    const unavailable = await request(testApp({ GIFFER_URL: down.origin })).get('/giffer/fonts')
    expect(unavailable.status).toBe(502)
    expect(unavailable.body.error.code).toBe('upstream_unavailable')
    // A live timer there still gets its pixel, however short the proxy's own timeout.
    expectPixel((await open(site, '/giffer/countdown/live.gif?sig=abc&answer=never&r=3')).res, 'gif', 'upstream_timeout')
  })
})

describe('cookie path re-scoping', () => {
  it.each([
    ['a=1; Path=/', '/app', 'a=1; Path=/app'],
    ['a=1; path=/x/y; Secure', '/app', 'a=1; Path=/app/x/y; Secure'],
    ['a=1', '/app', 'a=1'],
    ['a=1; Path=/', '', 'a=1; Path=/'],
    ['__Host-s=1; Path=/; Secure; HttpOnly', '/app', '__Host-s=1; Path=/; Secure; HttpOnly'],
  ])('%s under %s becomes %s', (cookie, prefix, expected) => {
    expect(rescopeCookiePath(cookie, prefix)).toBe(expected)
  })
})
