import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { pino } from 'pino'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUpstreamProxy, rescopeCookiePath } from '../../server/process/upstream-proxy.js'

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

  it('answers 502 upstream_unavailable JSON when nothing listens upstream', async () => {
    const closed = await listen(() => {})
    await new Promise((resolve) => closed.server.close(resolve))
    const res = await request(siteWith(closed.origin)).get('/giffer/fonts')
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
