/**
 * `npm run bench:live`: what evergreen live timers cost against fixed ones, and what a large send
 * does to the process and to the first-open store. The giffer runs in this process on a loopback
 * port; every load comes from autocannon in a child process, so the process's CPU and RSS are the
 * server's own.
 *
 * 1. Opens per second: a fixed timer, then an evergreen timer of the same look where every
 *    request is a new recipient, once with the embedded store (SQLite in a temp folder) and once
 *    with Redis (a throwaway redis-server).
 * 2. 100,000 recipients opening one evergreen timer within a minute, on a clock that moves with
 *    each request that arrives, with the per-timer cap at 50,000: images drawn against the
 *    buckets the minute spans, the store's size, the process's RSS and the store's growth.
 * 3. Every figure again in one markdown table, for the README.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import express from 'express'
import type { Redis } from 'ioredis'
import { pino } from 'pino'
import { GIFFER_DEFAULTS, type GifferOptions } from '../server/giffer/config.js'
import { FIRST_OPENS_FILE } from '../server/giffer/context.js'
import { redisFirstOpens, sqliteFirstOpens, type FirstOpenStore } from '../server/giffer/live/first-opens.js'
import { createGifferRouter, type GifferRouter } from '../server/giffer/router.js'
import { readBox } from '../server/process/box.js'
import { connectSharedCounters, type SharedCounters } from '../server/process/shared-counters.js'
import { sizeProcess } from '../server/process/sizing.js'
import { projectRoot } from '../server/project-root.js'
import { startRedis, type TestRedis } from '../tests/support/redis.js'

const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = 20
const WARM_REQUESTS = 20
const BUCKET_SECONDS = GIFFER_DEFAULTS.liveBucketSeconds
/** Each recipient's time from the first open, in seconds. */
const EVERGREEN_FOR = 3600
/** The look of every timer measured: ten frames at scale 1, so that the answers stay a few KB and the bench weighs the request, not the bytes. */
const STYLE = { font: 'roboto', color: '#111827', background: '#ffffff', days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds', duration: 10, scale: 1 }
const SEND = { recipients: 100_000, seconds: 60, perTimer: 50_000, connections: 200, stopAfterMs: 120_000 }
/** The buckets one minute spans: one more when it starts inside a bucket. */
const SEND_BUCKETS = SEND.seconds / BUCKET_SECONDS + 1
const RATIO_GOAL = 0.8
const MB = 2 ** 20
const logger = pino({ level: 'silent' })

type StoreKind = 'embedded' | 'redis'
const STORE_NAMES: Record<StoreKind, string> = { embedded: 'embedded (SQLite)', redis: 'Redis' }

/** `promise`, or a rejection naming `what` once `ms` have passed. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** Redis as the site connects to it (the client the giffer is handed there), once it is ready. */
async function connectRedis(url: string): Promise<SharedCounters> {
  const counters = connectSharedCounters(url, logger)
  try {
    if (counters.redis.status !== 'ready') await within(once(counters.redis, 'ready'), 5_000, 'redis connect')
    return counters
  } catch (error) {
    counters.redis.disconnect()
    throw error
  }
}

interface Served {
  base: string
  router: GifferRouter
  close(): Promise<void>
}

/**
 * The giffer at /giffer of a loopback server, sized for this box as bench-giffer sizes it, its
 * public origin the server's own; `before` sees each request first.
 */
async function serve(options: Partial<GifferOptions> & { stateDir: string }, before?: express.RequestHandler): Promise<Served> {
  const app = express()
  const server = app.listen(0, '127.0.0.1')
  await within(once(server, 'listening'), 5_000, 'listen')
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const stop = () => {
    server.closeAllConnections()
    return within(new Promise((resolve) => server.close(resolve)), 5_000, 'server close')
  }
  let router: GifferRouter
  try {
    router = createGifferRouter({
      publicPath: '/giffer',
      publicOrigin: base,
      secret: 'bench-secret-not-for-production',
      logger,
      ...sizeProcess(readBox(), 'giffer', { renders: true }),
      ...options,
    })
  } catch (error) {
    await stop()
    throw error
  }
  if (before) app.use(before)
  app.use('/giffer', router)
  return {
    base,
    router,
    async close() {
      await stop()
      await within(router.close(), 20_000, 'giffer close')
    },
  }
}

/** A live timer of STYLE, minted on `base`: its GIF URL (an evergreen one ends in `r=`). */
async function mint(base: string, body: object): Promise<string> {
  const res = await fetch(`${base}/giffer/countdown/live-url`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...STYLE, ...body }),
    signal: AbortSignal.timeout(10_000),
  })
  if (!res.ok) throw new Error(`live-url: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { url: string }).url
}

/** The size of the answer to `url`, which must be a 200. */
async function fetchImage(url: string): Promise<number> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) })
  const body = await res.arrayBuffer()
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`)
  return body.byteLength
}

interface AutocannonResult {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number }
  non2xx: number
  errors: number
  timeouts: number
}

interface Load {
  connections: number
  /** Seconds of load, or… */
  duration?: number
  /** …this many requests. */
  amount?: number
  /** Each request's `[<id>]` becomes an id of its own: a new recipient each. */
  idReplacement?: boolean
}

/**
 * autocannon in a child process (the load does not share the server's event loop), driven from
 * code: its command line reads `[…]` as a sub-argument. Stopped after `stopAfterMs` with what it
 * has measured by then, killed if it does not end soon after.
 */
function autocannon(url: string, load: Load, stopAfterMs: number): Promise<AutocannonResult> {
  const runner = `const instance = require('autocannon')(${JSON.stringify({ url, ...load })}, (error, result) => {
    if (error) throw error
    process.stdout.write(JSON.stringify(result))
  })
  setTimeout(() => instance.stop(), ${stopAfterMs}).unref()`
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', runner], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'] })
    const killer = setTimeout(() => child.kill('SIGKILL'), stopAfterMs + 15_000)
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      clearTimeout(killer)
      try {
        resolve(JSON.parse(out) as AutocannonResult)
      } catch {
        reject(new Error(`autocannon ended (${signal ?? code}) without a result`))
      }
    })
  })
}

/** `run`, with the CPU time this process (its render threads included) spent meanwhile, in ms. */
async function withCpu<T>(run: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const before = process.cpuUsage()
  const result = await run()
  const spent = process.cpuUsage(before)
  return { result, cpuMs: (spent.user + spent.system) / 1000 }
}

/** A second handle on the store a giffer of `kind` keeps its first opens in, to count them. */
function openStore(kind: StoreKind, stateDir: string, redis: Redis, perTimer: number): FirstOpenStore {
  const { total, keepAfterDays } = GIFFER_DEFAULTS.liveTimerKeys
  const limits = { perTimer, total, keepAfterMs: keepAfterDays * 86_400_000 }
  return kind === 'redis' ? redisFirstOpens({ redis, limits, logger }) : sqliteFirstOpens({ file: path.join(stateDir, FIRST_OPENS_FILE), limits, logger })
}

async function storedKeys(kind: StoreKind, stateDir: string, redis: Redis, nowMs: number): Promise<number> {
  const store = openStore(kind, stateDir, redis, GIFFER_DEFAULTS.liveTimerKeys.perTimer)
  try {
    return await within(store.size(nowMs), 30_000, 'store size')
  } finally {
    await store.close()
  }
}

/** The store's footprint: the SQLite file and its WAL, or Redis's `used_memory`. */
async function storeBytes(kind: StoreKind, stateDir: string, redis: Redis): Promise<number> {
  if (kind === 'redis') {
    const info = await within(redis.info('memory'), 5_000, 'redis INFO')
    return Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? NaN)
  }
  let bytes = 0
  for (const suffix of ['', '-wal']) bytes += await stat(path.join(stateDir, FIRST_OPENS_FILE + suffix)).then((s) => s.size, () => 0)
  return bytes
}

function settledRss(): number {
  globalThis.gc?.()
  return process.memoryUsage().rss
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`

interface Run {
  load: AutocannonResult
  cpuMs: number
}

interface OpensFigures {
  store: StoreKind
  fixed: Run
  evergreen: Run
  /** Keys the evergreen run added to the store: one per request when every request was a new recipient. */
  stored: number
  answerBytes: number
}

async function opensPerSecond(store: StoreKind, testRedis: TestRedis): Promise<OpensFigures> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-'))
  const counters = await connectRedis(testRedis.url)
  const { redis } = counters
  try {
    if (store === 'redis') await testRedis.flush()
    const served = await serve({ stateDir, ...(store === 'redis' ? { redis } : {}) })
    try {
      const fixedUrl = await mint(served.base, { until: new Date(Date.now() + 3_600_000).toISOString() })
      const evergreenUrl = await mint(served.base, { kind: 'evergreen', for: EVERGREEN_FOR })
      // Warm: the render thread, the font, the first images and the store's statements.
      let answerBytes = 0
      for (let n = 0; n < WARM_REQUESTS; n++) {
        answerBytes = await fetchImage(fixedUrl)
        await fetchImage(`${evergreenUrl}warm-${n}`)
      }
      const keysBefore = await storedKeys(store, stateDir, redis, Date.now())
      const stopAfterMs = (LOAD_SECONDS + 20) * 1000
      const fixed = await withCpu(() => autocannon(fixedUrl, { connections: CONNECTIONS, duration: LOAD_SECONDS }, stopAfterMs))
      const evergreen = await withCpu(() => autocannon(`${evergreenUrl}[<id>]`, { connections: CONNECTIONS, duration: LOAD_SECONDS, idReplacement: true }, stopAfterMs))
      const stored = (await storedKeys(store, stateDir, redis, Date.now())) - keysBefore
      return { store, fixed: { load: fixed.result, cpuMs: fixed.cpuMs }, evergreen: { load: evergreen.result, cpuMs: evergreen.cpuMs }, stored, answerBytes }
    } finally {
      await served.close()
    }
  } finally {
    await counters.close()
    await rm(stateDir, { recursive: true, force: true })
  }
}

interface SendFigures {
  store: StoreKind
  /** Opens the server answered (all of them unless the load ran out of time). */
  answered: number
  seconds: number
  cpuMs: number
  drawn: number
  statuses: Map<number, number>
  /** Connection errors and timeouts the load saw. */
  unanswered: number
  /** Answers a busy server sends instead of the image asked for (`X-Giffer-Fallback`, `X-Giffer-Undrawn`). */
  fallbacks: number
  size: number
  rssBefore: number
  rssAfter: number
  peakRss: number
  storeBefore: number
  storeAfter: number
}

async function largeSend(store: StoreKind, testRedis: TestRedis): Promise<SendFigures> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'live-send-'))
  await testRedis.flush()
  const counters = await connectRedis(testRedis.url)
  const { redis } = counters
  const start = Date.UTC(2026, 10, 28, 12)
  let clock = start
  let arrived = 0
  const statuses = new Map<number, number>()
  let fallbacks = 0
  // Each open moves the clock on by its share of the minute, and its answer is counted as it leaves.
  const countOpen: express.RequestHandler = (req, res, next) => {
    if (req.method === 'GET') {
      clock = start + Math.floor((arrived++ * SEND.seconds * 1000) / SEND.recipients)
      res.once('finish', () => {
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
        if (res.getHeader('X-Giffer-Fallback') || res.getHeader('X-Giffer-Undrawn')) fallbacks++
      })
    }
    next()
  }
  try {
    const served = await serve({ stateDir, now: () => clock, liveTimerKeys: { perTimer: SEND.perTimer }, ...(store === 'redis' ? { redis } : {}) }, countOpen)
    try {
      const evergreenUrl = await mint(served.base, { kind: 'evergreen', for: EVERGREEN_FOR })
      const rssBefore = settledRss()
      const storeBefore = await storeBytes(store, stateDir, redis)
      const drawnBefore = served.router.stats?.completed ?? 0
      const began = performance.now()
      const { result: load, cpuMs } = await withCpu(() =>
        autocannon(`${evergreenUrl}subscriber-[<id>]`, { connections: SEND.connections, amount: SEND.recipients, idReplacement: true }, SEND.stopAfterMs),
      )
      const seconds = (performance.now() - began) / 1000
      const drawn = (served.router.stats?.completed ?? 0) - drawnBefore
      const counter = openStore(store, stateDir, redis, SEND.perTimer)
      const size = await within(counter.size(clock), 30_000, 'store size').finally(() => counter.close())
      const storeAfter = await storeBytes(store, stateDir, redis)
      const peakRss = process.resourceUsage().maxRSS * 1024
      const rssAfter = settledRss()
      const answered = [...statuses.values()].reduce((sum, count) => sum + count, 0)
      return { store, answered, seconds, cpuMs, drawn, statuses, unanswered: load.errors + load.timeouts, fallbacks, size, rssBefore, rssAfter, peakRss, storeBefore, storeAfter }
    } finally {
      await served.close()
    }
  } finally {
    await counters.close()
    await rm(stateDir, { recursive: true, force: true })
  }
}

const ratioOf = (figures: OpensFigures) => figures.evergreen.load.requests.average / figures.fixed.load.requests.average
const failures = (load: AutocannonResult) => load.non2xx + load.errors + load.timeouts
const cpuPerOpen = (run: Run) => (run.cpuMs / run.load.requests.total).toFixed(2)
/** Opens answered with another status than 200, or not at all (errors and timeouts). */
const non200 = (send: SendFigures) => send.answered - (send.statuses.get(200) ?? 0) + send.unanswered

function printOpens(figures: OpensFigures): void {
  const line = (name: string, run: Run) =>
    `  ${name.padEnd(10)} ${run.load.requests.average.toFixed(0).padStart(6)} req/s  p50 ${run.load.latency.p50} ms  p99 ${run.load.latency.p99} ms  ` +
    `non-2xx/errors ${failures(run.load)}  CPU ${cpuPerOpen(run)} ms/request  (${run.load.requests.total} requests)`
  const ratio = ratioOf(figures)
  console.log(`\n${STORE_NAMES[figures.store]}, ${CONNECTIONS} connections, ${LOAD_SECONDS} s each, answers of ${figures.answerBytes} bytes:`)
  console.log(line('fixed', figures.fixed))
  console.log(line('evergreen', figures.evergreen))
  console.log(`  evergreen/fixed ${ratio.toFixed(2)} (goal ≥ ${RATIO_GOAL}: ${ratio >= RATIO_GOAL ? 'met' : 'NOT met'})`)
  // autocannon counts the answers it read: the requests in flight when it stopped were stored too.
  console.log(`  new keys stored ${figures.stored} for ${figures.evergreen.load.requests.total} answers counted (+ up to ${CONNECTIONS} in flight at the end)`)
}

function printSend(send: SendFigures): void {
  const statuses = [...send.statuses].map(([status, count]) => `${status}×${count}`).join(', ')
  console.log(
    `\n${STORE_NAMES[send.store]}: ${send.answered.toLocaleString('en')} of ${SEND.recipients.toLocaleString('en')} opens answered in ${send.seconds.toFixed(1)} s ` +
      `(${(send.answered / send.seconds).toFixed(0)}/s, ${SEND.connections} connections), CPU ${(send.cpuMs / send.answered).toFixed(2)} ms/open` +
      (send.answered < SEND.recipients ? `; the load was stopped at ${SEND.stopAfterMs / 1000} s` : ''),
  )
  console.log(`  images drawn ${send.drawn} for ${SEND_BUCKETS} buckets (goal ≤ 1 per bucket: ${send.drawn <= SEND_BUCKETS ? 'met' : 'NOT met'})`)
  console.log(`  store entries ${send.size.toLocaleString('en')} (cap ${SEND.perTimer.toLocaleString('en')}: ${send.size <= SEND.perTimer ? 'within' : 'EXCEEDED'})`)
  console.log(`  answers ${statuses}; errors/timeouts ${send.unanswered}; non-200 ${non200(send)} (goal 0); busy-server fallbacks ${send.fallbacks}`)
  console.log(`  RSS ${mb(send.rssBefore)} → ${mb(send.rssAfter)} (the process's peak so far ${mb(send.peakRss)})`)
  console.log(`  store ${send.store === 'redis' ? 'used_memory' : 'file + WAL'} ${mb(send.storeBefore)} → ${mb(send.storeAfter)} (+${mb(send.storeAfter - send.storeBefore)})`)
}

/** The machine's 1-minute load average: other work on the box skews every figure here. */
const loadAverage = () => os.loadavg()[0]!.toFixed(1)

function printSummary(opens: OpensFigures[], sends: SendFigures[], loadAtStart: string): void {
  const row = (cells: (string | number)[]) => console.log(`| ${cells.join(' | ')} |`)
  console.log(
    `\n## Live timers (${os.availableParallelism()} CPUs, Node ${process.versions.node}, load average ${loadAtStart} at the start and ${loadAverage()} at the end, ` +
      `RSS ${globalThis.gc ? 'after a collection' : 'without a collection'})\n`,
  )
  console.log(
    `Opens per second: autocannon, ${CONNECTIONS} connections, ${LOAD_SECONDS} s per run; every evergreen request a new recipient (\`for\` = ${EVERGREEN_FOR} s); ` +
      `answers of ${opens[0]?.answerBytes ?? 0} bytes; CPU is the server process's.\n`,
  )
  row(['store', 'timer', 'req/s (mean)', 'p50 ms', 'p99 ms', 'non-2xx', 'CPU ms/request', `evergreen/fixed (goal ≥ ${RATIO_GOAL})`])
  row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:'])
  for (const figures of opens) {
    const name = STORE_NAMES[figures.store]
    const cells = (run: Run) => [run.load.requests.average.toFixed(0), run.load.latency.p50, run.load.latency.p99, failures(run.load), cpuPerOpen(run)]
    row([name, 'fixed', ...cells(figures.fixed), ''])
    row([name, 'evergreen', ...cells(figures.evergreen), ratioOf(figures).toFixed(2)])
  }
  console.log(
    `\n${SEND.recipients.toLocaleString('en')} distinct recipients opening one evergreen timer within ${SEND.seconds} s (the clock moved with each request), ` +
      `${SEND.perTimer.toLocaleString('en')} kept per timer, ${BUCKET_SECONDS} s buckets, ${SEND.connections} connections.\n`,
  )
  row(['store', 'opens answered', 'opens/s (wall)', `images drawn (goal ≤ ${SEND_BUCKETS})`, `entries kept (cap ${SEND.perTimer})`, 'non-200', 'RSS before → after', 'store before → after'])
  row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:'])
  for (const send of sends) {
    const storeFigure = `${mb(send.storeBefore)} → ${mb(send.storeAfter)} (${send.store === 'redis' ? 'used_memory' : 'file + WAL'})`
    row([STORE_NAMES[send.store], send.answered, (send.answered / send.seconds).toFixed(0), send.drawn, send.size, non200(send), `${mb(send.rssBefore)} → ${mb(send.rssAfter)}`, storeFigure])
  }
}

async function main(): Promise<void> {
  const loadAtStart = loadAverage()
  console.log(`live timers bench on ${os.availableParallelism()} CPUs (load average ${loadAtStart}), Node ${process.versions.node}; gc ${globalThis.gc ? 'exposed: RSS is read after a collection' : 'not exposed (run with node --expose-gc for settled RSS)'}`)
  const testRedis = await startRedis()
  try {
    const opens: OpensFigures[] = []
    for (const store of ['embedded', 'redis'] as const) {
      opens.push(await opensPerSecond(store, testRedis))
      printOpens(opens.at(-1)!)
    }
    const sends: SendFigures[] = []
    for (const store of ['embedded', 'redis'] as const) {
      sends.push(await largeSend(store, testRedis))
      printSend(sends.at(-1)!)
    }
    printSummary(opens, sends, loadAtStart)
  } finally {
    await testRedis.stop()
  }
}

await main()
