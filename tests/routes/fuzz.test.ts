/**
 * Bad input on every route of the process (pages, the site's API, the dashboard, the image
 * service) is a client's mistake: it gets a 4xx, never a 5xx. The routes are read off the
 * routers themselves, so a route added later is fuzzed without anyone listing it here.
 */
import { once } from 'node:events'
import http from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import type express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pages } from '../../shared/pages.js'
import { startGiffer, type TestGiffer } from '../giffer/setup.js'
import { testSite } from './app.js'

const ORIGIN = 'https://site.example'

interface RouteEntry {
  method: string
  path: string
}

type Layer = {
  route?: { path: string | string[]; methods: Record<string, boolean> }
  handle: { stack?: Layer[] }
  rawPath?: string | string[] | RegExp
}

/** Every route of a router and the routers mounted in it, with its full path. */
function routesOf(stack: Layer[], prefix: string): RouteEntry[] {
  const found: RouteEntry[] = []
  for (const layer of stack) {
    if (layer.route) {
      for (const path of [layer.route.path].flat()) {
        for (const method of Object.keys(layer.route.methods)) found.push({ method: method.toUpperCase(), path: prefix + path })
      }
    } else if (layer.handle.stack && typeof layer.rawPath === 'string') {
      found.push(...routesOf(layer.handle.stack, prefix + (layer.rawPath === '/' ? '' : layer.rawPath)))
    }
  }
  return found
}

/** Path segments no parameter can decode or accept. */
const BAD_SEGMENTS = ['%ff', '%', '%c0%ae%c0%ae', '%E0%A4%A', '..%2F..%2Fetc', '%00', 'a'.repeat(3000), '__proto__', 'constructor', '%F0%9F%98', '\u00e9']

/** Bodies every POST must refuse cleanly, each with its headers. */
/** `parses` marks bodies that are well-formed after all: a route may accept them (or refuse what they say). */
const BAD_BODIES: { name: string; headers: Record<string, string>; body: Buffer | string; parses?: true }[] = [
  { name: 'brotli header on plain JSON', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'br' }, body: '{"email":"a@b.c"}' },
  { name: 'gzip header on plain JSON', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: '{"email":"a@b.c"}' },
  { name: 'deflate header on plain form', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'deflate' }, body: 'email=a' },
  { name: 'an unknown encoding', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'zstd' }, body: '{}' },
  { name: 'truncated gzip', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: zlib.gzipSync('{"a":1}').subarray(0, 12) },
  { name: 'a gzip bomb past the size limit', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: zlib.gzipSync(`{"a":"${'x'.repeat(4_000_000)}"}`) },
  { name: 'malformed JSON', headers: { 'Content-Type': 'application/json' }, body: '{"email":' },
  { name: 'JSON that is not an object', headers: { 'Content-Type': 'application/json' }, body: '"__proto__"', parses: true },
  { name: 'prototype keys in JSON', headers: { 'Content-Type': 'application/json' }, body: '{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}},"color":"__proto__"}', parses: true },
  { name: 'too many form fields', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: Array.from({ length: 40 }, (_, i) => `f${i}=1`).join('&') },
  { name: 'prototype keys in a form', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '__proto__=1&constructor=2&email=%ff', parses: true },
  { name: 'an unknown charset', headers: { 'Content-Type': 'application/json; charset=klingon' }, body: '{}' },
  { name: 'multipart without a boundary', headers: { 'Content-Type': 'multipart/form-data' }, body: '--x\r\n' },
  { name: 'a large body', headers: { 'Content-Type': 'application/json' }, body: `{"a":"${'x'.repeat(2_000_000)}"}` },
]

/** A query that every GET route must survive: prototype names, arrays, broken encodings. */
const BAD_QUERIES = [
  'color=__proto__&background=constructor&text=Hi&font=roboto',
  'text=Hi&font=__proto__&color=toString',
  'key=%ff',
  'id=__proto__&collection=constructor,__proto__',
  'q=%E0%A4%A&group=%ff&sub=__proto__',
  'a[]=1&a[]=2&a[b]=3',
  'text[]=1&text[]=2&font=roboto',
  `text=${'x'.repeat(10_000)}`,
  'currency=__proto__&from=constructor',
  '_data=__proto__',
  'next=%ff&token=%00',
  'view=__proto__&device=constructor',
]

/** Small, fixed-seed random numbers: the same requests on every run. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

let server: Server
let giffer: TestGiffer
let gifferServer: Server
let routes: RouteEntry[]
const served: { method: string; path: string; status: number }[] = []

async function listen(app: express.Express): Promise<{ server: Server; port: number }> {
  const listening = app.listen(0, '127.0.0.1')
  await once(listening, 'listening')
  return { server: listening, port: (listening.address() as AddressInfo).port }
}

let sitePort: number
let gifferPort: number

/** One raw request: the path and headers go out exactly as written (no client tidies them). */
function send(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<number> {
  return new Promise((resolve) => {
    const finish = (status: number) => {
      served.push({ method, path: path.slice(0, 120), status })
      resolve(status)
    }
    // A body is framed by its length: Node's client sends a DELETE's body unframed otherwise, and
    // the server would read it as the next request on the connection.
    const length = body !== undefined && method !== 'GET' && method !== 'HEAD' ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}
    const outgoing = http.request({ host: '127.0.0.1', port, method, path, headers: { Origin: ORIGIN, ...length, ...headers }, timeout: 15_000 }, (response) => {
      response.resume()
      response.on('end', () => finish(response.statusCode ?? 0))
      response.on('error', () => finish(0))
    })
    // A server may answer and close before reading all of a refused body; the answer counts.
    outgoing.on('error', () => finish(0))
    outgoing.on('timeout', () => outgoing.destroy())
    if (body !== undefined && method !== 'GET' && method !== 'HEAD') outgoing.end(body)
    else outgoing.end()
  })
}

/** A route's path with each parameter (and wildcard) replaced by `segment`. */
function fill(path: string, segment: string): string {
  return path.replace(/:[A-Za-z_]+|\*[A-Za-z_]*/g, segment)
}

beforeAll(async () => {
  const site = testSite()
  ;({ server, port: sitePort } = await listen(site.app))
  giffer = await startGiffer()
  ;({ server: gifferServer, port: gifferPort } = await listen(giffer.app))
  const pagePaths = pages.map((page) => ({ method: 'GET', path: `/${page.path ?? ''}` }))
  const formPaths = ['/login/', '/start/', '/reset/', '/reset/new/'].map((path) => ({ method: 'POST', path }))
  routes = [...routesOf(site.app.router.stack as Layer[], ''), ...routesOf(site.dashboard!.router.stack as Layer[], '/app'), ...pagePaths, ...formPaths]
}, 60_000)

afterAll(async () => {
  server?.close()
  gifferServer?.close()
  await giffer?.close()
})

const portOf = (path: string) => (path.startsWith('/giffer') ? gifferPort : sitePort)
const gifferRoutes = () => routesOf(giffer.giffer.stack as Layer[], '/giffer')
const allRoutes = () => [...routes, ...gifferRoutes()]

describe('fuzzing every route', () => {
  it('finds the routes with parameters and the POST routes on every router', () => {
    const withParameters = allRoutes().filter((route) => /[:*]/.test(route.path))
    for (const expected of ['/app/clone/:hid', '/app/clone-email/:hid', '/app/preview/:hid', '/app/api/v2/emailmessages/:hid/view', '/api/widgets/:hid', '/blog/:theme/:post/']) {
      expect(withParameters.map((route) => route.path)).toContain(expected)
    }
    expect(withParameters.some((route) => route.path.startsWith('/giffer/uploads/'))).toBe(true)
    expect(allRoutes().filter((route) => route.method === 'POST').length).toBeGreaterThan(12)
  })

  it('answers a malformed or hostile path parameter on every route with a 4xx', async () => {
    for (const route of allRoutes().filter((entry) => /[:*]/.test(entry.path))) {
      for (const segment of BAD_SEGMENTS) {
        const path = fill(route.path, segment)
        const status = await send(portOf(path), route.method, path, { 'Content-Type': 'application/json' }, '{}')
        expect(status, `${route.method} ${path.slice(0, 80)}`).toBeGreaterThanOrEqual(200)
        expect(status, `${route.method} ${path.slice(0, 80)}`).toBeLessThan(500)
      }
    }
  })

  it('refuses badly encoded, oversized and hostile bodies on every POST with a 4xx', async () => {
    for (const route of allRoutes().filter((entry) => entry.method === 'POST' && !/[:*]/.test(entry.path))) {
      for (const bad of BAD_BODIES) {
        const status = await send(portOf(route.path), 'POST', route.path, bad.headers, bad.body)
        expect(status, `${route.path}: ${bad.name}`).toBeGreaterThanOrEqual(bad.parses ? 200 : 400)
        expect(status, `${route.path}: ${bad.name}`).toBeLessThan(500)
      }
    }
  })

  it('answers hostile queries on every GET with less than 500', async () => {
    for (const route of allRoutes().filter((entry) => entry.method === 'GET')) {
      for (const query of BAD_QUERIES) {
        const path = `${fill(route.path, 'abcd1234')}?${query}`
        const status = await send(portOf(path), 'GET', path)
        expect(status, path.slice(0, 120)).toBeGreaterThanOrEqual(200)
        expect(status, path.slice(0, 120)).toBeLessThan(500)
      }
    }
  })

  it('answers every prototype name in every colour field of the image service with 400 naming the field', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      for (const field of ['color', 'stroke']) {
        const path = `/giffer/text/preview?text=Hi&font=roboto&${field}=${name}${field === 'stroke' ? '&stroke_width=2' : ''}`
        const response = await fetch(`http://127.0.0.1:${gifferPort}${path}`)
        expect(response.status, path).toBe(400)
        expect(((await response.json()) as { error: { field: string } }).error.field).toBe(field)
      }
      const response = await fetch(`http://127.0.0.1:${gifferPort}/giffer/countdown/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ delay: 60, font: 'roboto', color: '#000', background: name }),
      })
      expect(response.status).toBe(400)
      expect(((await response.json()) as { error: { field: string } }).error.field).toBe('background')
    }
  })

  it('survives a random mix of all of the above, 2,000 requests in all with no 5xx', async () => {
    const random = seeded(20261125)
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!
    const candidates = allRoutes()
    // The targeted cases above count towards the 2,000; at least 500 more are drawn at random.
    const target = Math.max(2000, served.length + 500)
    while (served.length < target) {
      const route = pick(candidates)
      const path = fill(route.path, pick(BAD_SEGMENTS)) + (random() < 0.5 ? `?${pick(BAD_QUERIES)}` : '')
      const bad = pick(BAD_BODIES)
      await send(portOf(path), route.method, path, route.method === 'POST' ? bad.headers : {}, bad.body)
    }
    expect(served.length).toBeGreaterThanOrEqual(2000)
    const failures = served.filter((entry) => entry.status >= 500 || entry.status === 0)
    expect(failures).toEqual([])
  })
})
