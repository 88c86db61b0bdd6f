/**
 * `npm run soak`: does the built site hold up, and give its memory back, under hours of traffic
 * squeezed into minutes? One server process (as `npm start` runs it, LOG_LEVEL=warn), loopback
 * only, every phase bounded in time:
 *
 *   rounds    SOAK_ROUNDS (2) rounds of SOAK_SECONDS (60) each: 100 connections on pages and
 *             the JSON API, plus renders on every generator endpoint; then SOAK_IDLE_SECONDS (30)
 *             of quiet. Prints requests/s, p99 and errors per route, and the server's RSS at the
 *             start, after each round and after the pause.
 *   countdowns (`npm run soak -- countdowns`) SOAK_COUNTDOWNS (2000) countdown GIFs with
 *             distinct delays, 8 at a time: the RSS curve and how many ran out of time.
 *
 * A 503 or 429 with Retry-After is the service shedding load on purpose and is counted apart;
 * anything else that is not 2xx is an error. Exits 1 when a bound below is not met.
 */
import autocannon from 'autocannon'
import sharp from 'sharp'
import { rssMb, startSite, stop } from './lib/server-process.js'

const ROUNDS = Number(process.env.SOAK_ROUNDS ?? 2)
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60)
const IDLE_SECONDS = Number(process.env.SOAK_IDLE_SECONDS ?? 30)
const COUNTDOWNS = Number(process.env.SOAK_COUNTDOWNS ?? 2000)
const COUNTDOWN_CONCURRENCY = 8
/** Only these routes (comma-separated names, e.g. `pages,api`); unset: all. */
const ONLY = process.env.SOAK_ROUTES?.split(',').map((name) => name.trim())

/** The bounds: memory that a later round may add, and what may stay after the pause. */
const MAX_GROWTH_BETWEEN_ROUNDS_MB = 300
const MAX_IDLE_ABOVE_START_MB = 200
const MAX_COUNTDOWN_RSS_MB = 600

interface Route {
  name: string
  connections: number
  /** Builds the n-th request of this route. */
  request: (n: number) => { method?: string; path: string; body?: string; headers?: Record<string, string> }
}

interface RouteResult {
  name: string
  requests: number
  rps: number
  p99: number
  shed: number
  errors: number
  firstError?: string
}

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
const PAGES = ['/', '/pricing/', '/blog/', '/help/', '/faq/', '/about/', '/usecase/', '/email-templates/', '/blog/email-marketing/', '/help/widgets/']

function routes(slideshowImages: string[]): Route[] {
  return allRoutes(slideshowImages).filter((route) => !ONLY || ONLY.includes(route.name))
}

function allRoutes(slideshowImages: string[]): Route[] {
  return [
    {
      name: 'pages',
      connections: 80,
      // Mostly repeat visits; every tenth a URL not seen before (a filter link, a crawler).
      request: (n) => ({ path: n % 10 === 0 ? `${PAGES[n % PAGES.length]}?v=${n}` : PAGES[n % PAGES.length]!, headers: { 'accept-encoding': 'gzip, deflate, br' } }),
    },
    {
      name: 'api',
      connections: 20,
      request: (n) => ({ path: ['/api/prices', '/api/prices?currency=USD', '/api/holidays', '/api/openapi.json'][n % 4]! }),
    },
    {
      name: 'countdown',
      connections: 3,
      request: (n) => ({ method: 'POST', path: '/giffer/countdown/create', ...json({ delay: 86_400 + n * 61, font: 'roboto', days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' }) }),
    },
    {
      name: 'scrolling text',
      connections: 2,
      request: (n) => ({ method: 'POST', path: '/giffer/scrollingtext/create', ...json({ text: `Free shipping on order ${n}`, divider: '★', font: 'roboto', font_size: 24 }) }),
    },
    {
      name: 'text image',
      connections: 3,
      request: (n) => ({ path: `/giffer/text/preview?${new URLSearchParams({ text: `Signature ${n}`, font: 'great-vibes', font_size: '48' })}` }),
    },
    {
      name: 'slideshow',
      connections: 2,
      request: (n) => ({ method: 'POST', path: '/giffer/slideshow/create-row', ...json({ images: slideshowImages, delay: 1000 + (n % 2000), count: 1 + (n % 3) }) }),
    },
  ]
}

function isShed(status: number, headers: Record<string, string | string[] | undefined>): boolean {
  // autocannon keeps the header names as the server sent them.
  return (status === 503 || status === 429) && Object.keys(headers).some((name) => name.toLowerCase() === 'retry-after')
}

async function loadRoute(port: number, route: Route, seconds: number): Promise<RouteResult> {
  let n = 0
  let shed = 0
  let errors = 0
  let firstError: string | undefined
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: route.connections,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        setupRequest: (request) => ({ ...request, method: 'GET', ...route.request(n++) }) as typeof request,
        onResponse: (status, body, _context, headers) => {
          if (status >= 200 && status < 300) return
          if (isShed(status, headers ?? {})) shed++
          else {
            errors++
            firstError ??= `${status} ${body.slice(0, 200)}`
          }
        },
      },
    ],
  })
  errors += result.errors
  if (result.errors > 0) firstError ??= `${result.errors} connection errors, ${result.timeouts} timeouts`
  return { name: route.name, requests: result.requests.total, rps: result.requests.average, p99: result.latency.p99, shed, errors, firstError }
}

function printRound(title: string, results: RouteResult[]) {
  console.log(`\n${title}`)
  console.log(`${'route'.padEnd(16)}${'req/s'.padStart(9)}${'p99 ms'.padStart(9)}${'503 shed'.padStart(10)}${'errors'.padStart(8)}`)
  for (const r of results) {
    console.log(`${r.name.padEnd(16)}${r.rps.toFixed(0).padStart(9)}${String(r.p99).padStart(9)}${String(r.shed).padStart(10)}${String(r.errors).padStart(8)}`)
    if (r.firstError) console.log(`  first error: ${r.firstError}`)
  }
}

/** Uploads `count` photos the way the slideshow page does; returns their URLs. */
async function uploadPhotos(port: number, count: number): Promise<string[]> {
  const base = `http://127.0.0.1:${port}`
  const urls: string[] = []
  for (let i = 0; i < count; i++) {
    const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 60 * i, g: 140, b: 220 - 50 * i }, noise: { type: 'gaussian', mean: 120, sigma: 25 } } })
      .jpeg({ quality: 85 })
      .toBuffer()
    const signed = (await (await fetch(`${base}/giffer/uploads/sign`, { method: 'POST' })).json()) as { url: string; key: string; fields: Record<string, string> }
    // The page's own name for a signature's first file: the service takes no other.
    const filename = 'photo-1.jpg'
    const form = new FormData()
    for (const [name, value] of Object.entries(signed.fields)) form.append(name, value)
    form.append('Content-Type', 'image/jpeg')
    form.append('Content-Disposition', 'inline')
    form.append('file', new Blob([photo], { type: 'image/jpeg' }), filename)
    const uploaded = await fetch(new URL(signed.url, base), { method: 'POST', body: form })
    if (uploaded.status !== 204) throw new Error(`upload failed: ${uploaded.status} ${await uploaded.text()}`)
    const resolved = await fetch(`${base}/giffer/uploads/resolve?key=${encodeURIComponent(signed.key.replace('${filename}', filename))}`)
    urls.push(((await resolved.json()) as { url: string }).url)
  }
  return urls
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** What the process holds once quiet: V8's heap, native buffers, and the render cache's share. */
async function printAtRest(port: number): Promise<void> {
  const health = (await (await fetch(`http://127.0.0.1:${port}/giffer/healthz`)).json()) as {
    cache: { entries: number; bytes: number }
    memory: { heapMb: number; externalMb: number }
  }
  const cacheMb = Math.round(health.cache.bytes / 1_048_576)
  console.log(
    `\nat rest: V8 heap ${health.memory.heapMb} MB, external ${health.memory.externalMb} MB, ` +
      `render cache ${health.cache.entries} images, ${cacheMb} MB`,
  )
}

async function soakRounds(port: number, pid: number): Promise<boolean> {
  const images = await uploadPhotos(port, 4)
  // The first page views start the render threads and fill the caches a little.
  await Promise.all(routes(images).map((route) => loadRoute(port, { ...route, connections: 1 }, 2)))
  await sleep(2_000)
  const start = rssMb(pid)
  console.log(`server RSS at start: ${start} MB`)
  const ends: number[] = []
  let errors = 0
  for (let round = 1; round <= ROUNDS; round++) {
    const results = await Promise.all(routes(images).map((route) => loadRoute(port, route, SECONDS)))
    ends.push(rssMb(pid))
    errors += results.reduce((sum, r) => sum + r.errors, 0)
    printRound(`round ${round}: ${SECONDS} s, ${results.reduce((sum, r) => sum + r.requests, 0)} requests; RSS now ${ends.at(-1)} MB`, results)
  }
  await sleep(IDLE_SECONDS * 1000)
  const idle = rssMb(pid)
  const growth = ends.length > 1 ? ends.at(-1)! - ends[0]! : 0
  await printAtRest(port)
  console.log(`\nRSS: start ${start} MB, after each round ${ends.join(' / ')} MB, after ${IDLE_SECONDS} s idle ${idle} MB`)
  const checks = [
    { ok: errors === 0, text: `errors other than 503 with Retry-After: ${errors} (bound 0)` },
    { ok: growth <= MAX_GROWTH_BETWEEN_ROUNDS_MB, text: `last round's end over the first round's: ${growth} MB (bound ${MAX_GROWTH_BETWEEN_ROUNDS_MB})` },
    { ok: idle - start <= MAX_IDLE_ABOVE_START_MB, text: `after the pause, over the start: ${idle - start} MB (bound ${MAX_IDLE_ABOVE_START_MB})` },
  ]
  for (const check of checks) console.log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.text}`)
  return checks.every((check) => check.ok)
}

async function soakCountdowns(port: number, pid: number): Promise<boolean> {
  const start = rssMb(pid)
  const curve: string[] = [`0:${start}`]
  let next = 0
  let peak = start
  const outcomes = new Map<string, number>()
  const started = Date.now()
  const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1)
  await Promise.all(
    Array.from({ length: COUNTDOWN_CONCURRENCY }, async () => {
      while (next < COUNTDOWNS) {
        const n = next++
        const res = await fetch(`http://127.0.0.1:${port}/giffer/countdown/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ delay: 3_600 + n * 97, font: 'roboto', days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' }),
        })
        const body = Buffer.from(await res.arrayBuffer())
        count(res.status === 200 ? '200' : `${res.status} ${/"code":"(\w+)"/.exec(body.toString())?.[1] ?? ''}`.trim())
        if ((n + 1) % 250 === 0) {
          const rss = rssMb(pid)
          peak = Math.max(peak, rss)
          curve.push(`${n + 1}:${rss}`)
        }
      }
    }),
  )
  const seconds = ((Date.now() - started) / 1000).toFixed(0)
  await sleep(IDLE_SECONDS * 1000)
  const idle = rssMb(pid)
  await printAtRest(port)
  console.log(`${COUNTDOWNS} countdowns, ${COUNTDOWN_CONCURRENCY} at a time, in ${seconds} s: ${[...outcomes].map(([k, v]) => `${k} ×${v}`).join(', ')}`)
  console.log(`RSS (after N renders: MB) ${curve.join('  ')}; after ${IDLE_SECONDS} s idle ${idle} MB`)
  const checks = [
    { ok: peak < MAX_COUNTDOWN_RSS_MB, text: `highest RSS ${peak} MB (bound ${MAX_COUNTDOWN_RSS_MB})` },
    { ok: !outcomes.has('503 render_timeout'), text: `render_timeout: ${outcomes.get('503 render_timeout') ?? 0} (bound 0)` },
    { ok: outcomes.get('200') === COUNTDOWNS, text: `drawn: ${outcomes.get('200') ?? 0} of ${COUNTDOWNS}` },
  ]
  for (const check of checks) console.log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.text}`)
  return checks.every((check) => check.ok)
}

const mode = process.argv[2] ?? 'rounds'
if (mode !== 'rounds' && mode !== 'countdowns') {
  console.error('usage: npm run soak [-- rounds|countdowns]')
  process.exit(2)
}
const server = await startSite({ LOG_LEVEL: 'warn' })
let passed = false
try {
  passed = mode === 'rounds' ? await soakRounds(server.port, server.child.pid!) : await soakCountdowns(server.port, server.child.pid!)
} finally {
  const code = await stop(server.child)
  if (code !== 0) {
    console.log(`FAIL server exited with ${code} on SIGTERM`)
    passed = false
  }
}
process.exit(passed ? 0 : 1)
