/**
 * `npm run bench:live`: what evergreen live timers cost against fixed ones, what a large send and
 * a flood of made-up keys do to the process and to the first-open store, and what the store costs
 * on its own. The giffer runs in this process on a loopback port; every load comes from autocannon
 * in a child process, so the process's CPU and RSS are the server's own.
 *
 * 1. Opens per second: a fixed timer, then an evergreen timer of the same look where every
 *    request is a new recipient, then one where every request is a recipient already stored
 *    (the usual open: most opens are repeats), in turn for a few rounds, the fastest round of
 *    each compared; once with the embedded store (SQLite in a temp folder) and once with Redis
 *    (a throwaway redis-server).
 * 2. Saved timers: the same fixed timer signed into its URL and saved by id, opens per second in
 *    turn (goal: saved ≥ 0.8 of signed), and the saved one at a steady 1,500 opens a second,
 *    counted and not (the edit page's preview), for what counting adds to the p99.
 *    `BENCH_ONLY=saved` runs this part alone.
 * 3. 100,000 recipients opening one evergreen timer within a minute, on a clock that moves with
 *    each request that arrives, with the per-timer cap at 50,000: images drawn against the
 *    buckets the minute spans, the store's size, the process's RSS and the store's growth.
 * 4. Two processes of one machine on one SQLite file, and the bytes one stored key costs in each
 *    store (scripts/lib/bench-first-open-store.ts).
 * 5. A flood: 50,000 made-up keys on one evergreen timer from one address, at the default share
 *    of new keys per address and a per-timer cap of 1,000, after 500 real recipients opened it:
 *    their deadlines, a recipient who comes after the flood and another timer must not notice.
 * 6. Every figure again in markdown tables, for the README.
 *
 * Each goal is said met or NOT met where it is measured and again at the end; the run exits 1
 * when one is missed.
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
import { FIRST_OPEN_WAIT_MS } from '../server/giffer/live/answer.js'
import { redisFirstOpens, sqliteFirstOpens, type FirstOpen, type FirstOpenStore } from '../server/giffer/live/first-opens.js'
import { UNSTORED_REASONS, type UnstoredCounts } from '../server/giffer/live/key-limits.js'
import { readLiveParams, readLiveTimer, recipientKey, recipientKeyHash, type LiveTimer } from '../server/giffer/live/timer.js'
import { createGifferRouter, type GifferRouter } from '../server/giffer/router.js'
import { signingKeys } from '../server/giffer/signing.js'
import { readBox } from '../server/process/box.js'
import { connectSharedCounters, type SharedCounters } from '../server/process/shared-counters.js'
import { sizeProcess } from '../server/process/sizing.js'
import { projectRoot } from '../server/project-root.js'
import { startRedis, type TestRedis } from '../tests/support/redis.js'
import { redisEntryBytes, sqliteEntryBytes, twoProcessesOnOneFile, type EntryBytes, type TwoProcessesFigures } from './lib/bench-first-open-store.js'

const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = 20
const WARM_REQUESTS = 20
/** Rounds of the opens-per-second runs, each kind once a round. */
const OPEN_ROUNDS = 3
const BUCKET_SECONDS = GIFFER_DEFAULTS.liveBucketSeconds
/** Each recipient's time from the first open, in seconds. */
const EVERGREEN_FOR = 3600
/** The look of every timer measured: ten frames at scale 1, so that the answers stay a few KB and the bench weighs the request, not the bytes. */
const STYLE = { font: 'roboto', color: '#111827', background: '#ffffff', days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds', duration: 10, scale: 1 }
const SECRET = 'bench-secret-not-for-production'
/** The keys the bench's giffer signs with, to name its timers and recipients as the store does. */
const SIGNING_KEYS = signingKeys(SECRET)
/**
 * Every request of the bench comes from 127.0.0.1. Where a run stands for many recipients (each
 * behind an address of their own or a mail proxy's), the share of new keys per address is lifted
 * out of the way, or the run would measure that limit instead.
 */
const MANY_ADDRESSES = { liveNewKeysPerAddress: 10_000_000 }
/** Recipients stored before the stored-key run, whose opens it repeats in turn. */
const STORED_KEYS = 1_000
const SEND = { recipients: 100_000, seconds: 60, perTimer: 50_000, connections: 200, stopAfterMs: 120_000 }
/** The buckets one minute spans: one more when it starts inside a bucket. */
const SEND_BUCKETS = SEND.seconds / BUCKET_SECONDS + 1
/**
 * The flood: `earlier` real recipients open the flooded timer (and `bystanders` another timer, of
 * `otherFor` seconds: timers minted alike are one timer, their id being a part of the signature),
 * `clockStepMs` apart on the clock; then `keys` made-up keys from one address while the clock
 * moves `floodClockSeconds` in all; then a latecomer opens the flooded timer, and again
 * `reopenAfterMs` later.
 */
const FLOOD = {
  perTimer: 1_000,
  earlier: 500,
  bystanders: 100,
  otherFor: 2 * EVERGREEN_FOR,
  clockStepMs: 1_000,
  keys: 50_000,
  floodClockSeconds: 600,
  reopenAfterMs: 60_000,
  stopAfterMs: 180_000,
}
/** Evergreen opens per second against fixed ones, at least. */
const RATIO_GOAL = 0.8
/**
 * Two processes on one file: the 99th percentile of an open at most a hundredth of the wait an
 * answer allows the store (so the store never decides whether the image comes in time), and of
 * the event-loop delay, which every other request of the process waits behind, at most 20 ms.
 */
const TWO_PROCESS_GOALS = { openP99Ms: FIRST_OPEN_WAIT_MS / 100, loopDelayP99Ms: 20 }
/** The store at its default cap (every timer together) fits in this much Redis memory, or SQLite file. */
const FULL_STORE_GOAL_BYTES = 512 * 2 ** 20
const MB = 2 ** 20
const logger = pino({ level: 'silent' })

type StoreKind = 'embedded' | 'redis'
const STORES: readonly StoreKind[] = ['embedded', 'redis']
const STORE_NAMES: Record<StoreKind, string> = { embedded: 'embedded (SQLite)', redis: 'Redis' }

/** Every goal judged in this run: said where it is measured, listed again at the end. */
const goals: { what: string; met: boolean }[] = []

/** Records a goal and says whether it was met. */
function judge(what: string, met: boolean): string {
  goals.push({ what, met })
  return met ? 'met' : 'NOT met'
}

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
      secret: SECRET,
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

interface Image {
  body: Buffer
  /** What a busy server answered instead of the image asked for (`X-Giffer-Fallback`, `X-Giffer-Undrawn`), if it did: a machine this busy draws slowly. */
  instead: string | null
}

/** The answer to `url`, which must be a 200. */
async function fetchImage(url: string): Promise<Image> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) })
  const body = Buffer.from(await res.arrayBuffer())
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`)
  return { body, instead: res.headers.get('X-Giffer-Fallback') ?? res.headers.get('X-Giffer-Undrawn') }
}

/** An evergreen timer's time from the first open, in ms. */
const evergreenMs = (timer: LiveTimer) => (timer.schedule.kind === 'evergreen' ? timer.schedule.seconds * 1000 : 0)

/** The timer an evergreen URL names, as the server reads it, and the name it keeps `raw` under in the store. */
function storeNames(evergreenUrl: string, raw: string): { timer: LiveTimer; key: string } {
  const timer = readLiveTimer(readLiveParams(new URL(evergreenUrl).search.slice(1)), SIGNING_KEYS)
  return { timer, key: recipientKeyHash(timer, recipientKey(raw)!) }
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
  /** Paths each connection requests in turn, from the first again after the last. */
  requests?: { path: string }[]
  /** Requests a second over every connection together: a steady rate rather than as fast as answered. */
  overallRate?: number
}

/**
 * autocannon in a child process (the load does not share the server's event loop), driven from
 * code: its command line reads `[…]` as a sub-argument. Its options go through stdin (a list of
 * requests is longer than an argument may be). Stopped after `stopAfterMs` with what it has
 * measured by then, killed if it does not end soon after.
 */
function autocannon(url: string, load: Load, stopAfterMs: number): Promise<AutocannonResult> {
  const runner = `let options = ''
  process.stdin.setEncoding('utf8').on('data', (chunk) => (options += chunk)).on('end', () => {
    const instance = require('autocannon')(JSON.parse(options), (error, result) => {
      if (error) throw error
      process.stdout.write(JSON.stringify(result))
    })
    setTimeout(() => instance.stop(), ${stopAfterMs}).unref()
  })`
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', runner], { cwd: projectRoot, stdio: ['pipe', 'pipe', 'inherit'] })
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
    child.stdin.end(JSON.stringify({ url, ...load }))
  })
}

/** `run`, with the CPU time this process (its render threads included) spent meanwhile, in ms. */
async function withCpu<T>(run: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const before = process.cpuUsage()
  const result = await run()
  const spent = process.cpuUsage(before)
  return { result, cpuMs: (spent.user + spent.system) / 1000 }
}

/** A second handle on the store a giffer of `kind` keeps its first opens in, to count and read them, on the giffer's clock. */
function openStore(kind: StoreKind, stateDir: string, redis: Redis, perTimer: number, now: () => number = Date.now): FirstOpenStore {
  const { total, keepAfterDays } = GIFFER_DEFAULTS.liveTimerKeys
  const limits = { perTimer, total, keepAfterMs: keepAfterDays * 86_400_000 }
  return kind === 'redis' ? redisFirstOpens({ redis, limits, logger, now }) : sqliteFirstOpens({ file: path.join(stateDir, FIRST_OPENS_FILE), limits, logger, now })
}

async function storedKeys(kind: StoreKind, stateDir: string, redis: Redis, nowMs: number): Promise<number> {
  const store = openStore(kind, stateDir, redis, GIFFER_DEFAULTS.liveTimerKeys.perTimer)
  try {
    return await within(store.size(nowMs), 30_000, 'store size')
  } finally {
    await store.close()
  }
}

/**
 * What the store answers for `key` at `nowMs` without writing: a stored key's deadline, or for a
 * key it does not keep, the overflow deadline its timer holds (declined, as the caller says no).
 */
function lookUp(store: FirstOpenStore, timer: LiveTimer, key: string, nowMs: number): Promise<FirstOpen> {
  return within(store.firstOpen(timer.id, key, nowMs + evergreenMs(timer), nowMs, () => false), 10_000, 'store read')
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

/** The server on a temp state folder and its own Redis connection, with `store` chosen; everything closed and removed after `run`. */
async function withGiffer<T>(
  store: StoreKind,
  testRedis: TestRedis,
  options: Partial<GifferOptions>,
  before: express.RequestHandler | undefined,
  run: (served: Served, stateDir: string, redis: Redis) => Promise<T>,
): Promise<T> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-'))
  await testRedis.flush()
  const counters = await connectRedis(testRedis.url)
  const { redis } = counters
  try {
    const served = await serve({ stateDir, ...options, ...(store === 'redis' ? { redis } : {}) }, before)
    try {
      return await run(served, stateDir, redis)
    } finally {
      await served.close()
    }
  } finally {
    await counters.close()
    await rm(stateDir, { recursive: true, force: true })
  }
}

interface Run {
  load: AutocannonResult
  cpuMs: number
}

/** The three kinds of open measured: a fixed timer, an evergreen one with a new recipient each request (a first open stored each time), and one with a stored recipient each request (a read). */
type OpenKind = 'fixed' | 'newKey' | 'storedKey'
const OPEN_KINDS: readonly OpenKind[] = ['fixed', 'newKey', 'storedKey']
const OPEN_NAMES: Record<OpenKind, string> = { fixed: 'fixed', newKey: 'evergreen, new key', storedKey: 'evergreen, stored key' }

interface OpensFigures {
  store: StoreKind
  /** Each kind's runs, one per round. */
  rounds: Record<OpenKind, Run[]>
  /** Keys each kind of evergreen run added to the store, every round together. */
  added: { newKey: number; storedKey: number }
  answerBytes: number
}

/**
 * A kind's fastest round. Other work on the machine only ever slows a run down, and comes and goes
 * while the bench runs: the fastest of rounds run in turn is the fairest figure to compare.
 */
const best = (figures: OpensFigures, kind: OpenKind): Run =>
  figures.rounds[kind].reduce((fastest, run) => (run.load.requests.average > fastest.load.requests.average ? run : fastest))

async function opensPerSecond(store: StoreKind, testRedis: TestRedis): Promise<OpensFigures> {
  return withGiffer(store, testRedis, MANY_ADDRESSES, undefined, async (served, stateDir, redis) => {
    const fixedUrl = await mint(served.base, { until: new Date(Date.now() + 3_600_000).toISOString() })
    const evergreenUrl = await mint(served.base, { kind: 'evergreen', for: EVERGREEN_FOR })
    // Warm: the render thread, the font, the first images and the store's statements; and the
    // recipients of the stored-key runs, each opened once.
    let answerBytes = 0
    for (let n = 0; n < WARM_REQUESTS; n++) {
      const fixed = await fetchImage(fixedUrl)
      if (!fixed.instead) answerBytes = fixed.body.byteLength
      await fetchImage(`${evergreenUrl}warm-${n}`)
    }
    const storedPaths: { path: string }[] = []
    for (let n = 0; n < STORED_KEYS; n++) {
      const url = new URL(`${evergreenUrl}stored-${n}`)
      await fetchImage(url.href)
      storedPaths.push({ path: url.pathname + url.search })
    }
    const loads: Record<OpenKind, { url: string; load: Load }> = {
      fixed: { url: fixedUrl, load: { connections: CONNECTIONS, duration: LOAD_SECONDS } },
      newKey: { url: `${evergreenUrl}[<id>]`, load: { connections: CONNECTIONS, duration: LOAD_SECONDS, idReplacement: true } },
      storedKey: { url: evergreenUrl, load: { connections: CONNECTIONS, duration: LOAD_SECONDS, requests: storedPaths } },
    }
    const stopAfterMs = (LOAD_SECONDS + 20) * 1000
    const keysNow = () => storedKeys(store, stateDir, redis, Date.now())
    const rounds: Record<OpenKind, Run[]> = { fixed: [], newKey: [], storedKey: [] }
    const added = { newKey: 0, storedKey: 0 }
    // Every other round in the reverse order, so that no kind always comes first or last.
    for (let round = 0; round < OPEN_ROUNDS; round++) {
      for (const kind of round % 2 === 0 ? OPEN_KINDS : [...OPEN_KINDS].reverse()) {
        const keysBefore = await keysNow()
        const { result, cpuMs } = await withCpu(() => autocannon(loads[kind].url, loads[kind].load, stopAfterMs))
        rounds[kind].push({ load: result, cpuMs })
        if (kind !== 'fixed') added[kind] += (await keysNow()) - keysBefore
      }
    }
    return { store, rounds, added, answerBytes }
  })
}

interface SendFigures {
  store: StoreKind
  /** Opens the server answered (all of them unless the load ran out of time). */
  answered: number
  seconds: number
  cpuMs: number
  drawn: number
  /** The answers by status, as text. */
  statuses: string
  /** Connection errors and timeouts the load saw. */
  unanswered: number
  /** Opens answered with another status than 200, or not at all. */
  non200: number
  /** Answers a busy server sends instead of the image asked for (`X-Giffer-Fallback`, `X-Giffer-Undrawn`). */
  fallbacks: number
  size: number
  rssBefore: number
  rssAfter: number
  peakRss: number
  storeBefore: number
  storeAfter: number
}

/** The answers that leave a server, counted by status, with the fallbacks among them. */
class AnswerCounts {
  statuses = new Map<number, number>()
  fallbacks = 0

  count(res: express.Response): void {
    res.once('finish', () => {
      this.statuses.set(res.statusCode, (this.statuses.get(res.statusCode) ?? 0) + 1)
      if (res.getHeader('X-Giffer-Fallback') || res.getHeader('X-Giffer-Undrawn')) this.fallbacks++
    })
  }

  get answered(): number {
    return [...this.statuses.values()].reduce((sum, count) => sum + count, 0)
  }

  /** Answers with another status than 200, with `unanswered` (errors and timeouts) added. */
  non200(unanswered: number): number {
    return this.answered - (this.statuses.get(200) ?? 0) + unanswered
  }

  text(): string {
    return [...this.statuses].map(([status, count]) => `${status}×${count}`).join(', ')
  }
}

async function largeSend(store: StoreKind, testRedis: TestRedis): Promise<SendFigures> {
  const start = Date.UTC(2026, 10, 28, 12)
  let clock = start
  let arrived = 0
  const answers = new AnswerCounts()
  // Each open moves the clock on by its share of the minute, and its answer is counted as it leaves.
  const countOpen: express.RequestHandler = (req, res, next) => {
    if (req.method === 'GET') {
      clock = start + Math.floor((arrived++ * SEND.seconds * 1000) / SEND.recipients)
      answers.count(res)
    }
    next()
  }
  const options = { now: () => clock, liveTimerKeys: { perTimer: SEND.perTimer }, ...MANY_ADDRESSES }
  return withGiffer(store, testRedis, options, countOpen, async (served, stateDir, redis) => {
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
    const unanswered = load.errors + load.timeouts
    const { answered, fallbacks } = answers
    return { store, answered, seconds, cpuMs, drawn, statuses: answers.text(), unanswered, non200: answers.non200(unanswered), fallbacks, size, rssBefore, rssAfter, peakRss, storeBefore, storeAfter }
  })
}

/** Of `keys`, how many the store still answers with the deadline recorded before. */
async function keptDeadlines(store: FirstOpenStore, timer: LiveTimer, recorded: Map<string, number>, nowMs: number): Promise<number> {
  const answers = await Promise.all([...recorded].map(async ([key, deadline]) => ({ deadline, opened: await lookUp(store, timer, key, nowMs) })))
  return answers.filter(({ deadline, opened }) => opened.outcome === 'stored' && opened.deadline === deadline).length
}

interface FloodFigures {
  store: StoreKind
  load: AutocannonResult
  /** Wall-clock seconds of the flood, and the requests answered meanwhile. */
  seconds: number
  answered: number
  statuses: string
  non200: number
  /** Answers a busy server sent instead of the image asked for. */
  fallbacks: number
  unstored: UnstoredCounts
  /** (a) The flooded timer's earlier recipients whose deadline the flood left as it was. */
  earlierKept: number
  /**
   * (b) A recipient of the flooded timer after the flood: the store's answer at each open, the
   * clock at the second, and whether its image then differed from the full time's (null when a
   * busy server answered a fallback for either, which cannot be compared).
   */
  latecomer: { first: FirstOpen; second: FirstOpen; secondAt: number; differsFromFullTime: boolean | null }
  /** (c) The other timer's earlier recipients kept as they were, and its new recipient after the flood: the store's answer, the deadline its open would store, the keys left unstored meanwhile. */
  bystander: { kept: number; newKey: FirstOpen; fullDeadline: number; unstoredMeanwhile: number }
}

/** (b) holds: the latecomer's deadline the same at both opens, running but short of the full time at the second, as its image shows where it could be compared. */
const latecomerMoves = ({ latecomer }: FloodFigures) =>
  latecomer.first.deadline === latecomer.second.deadline &&
  latecomer.second.deadline > latecomer.secondAt &&
  latecomer.second.deadline - latecomer.secondAt < EVERGREEN_FOR * 1000 &&
  latecomer.differsFromFullTime !== false
/** The other timer's new recipient is stored with the deadline of its own open. */
const bystanderStored = ({ bystander }: FloodFigures) => bystander.newKey.outcome === 'stored' && bystander.newKey.deadline === bystander.fullDeadline
/** (c) holds: the other timer's earlier recipients kept, and its new one stored by its own open (the full time from then, nothing left unstored). */
const bystanderUntouched = (figures: FloodFigures) =>
  figures.bystander.kept === FLOOD.bystanders &&
  bystanderStored(figures) &&
  figures.bystander.unstoredMeanwhile === 0
const unstoredTotal = (counts: UnstoredCounts) => UNSTORED_REASONS.reduce((sum, reason) => sum + counts[reason], 0)

async function flood(store: StoreKind, testRedis: TestRedis): Promise<FloodFigures> {
  let clock = Date.UTC(2026, 10, 28, 12)
  /** How far each open moves the clock. */
  let stepMs = FLOOD.clockStepMs
  let answers = new AnswerCounts()
  const moveClock: express.RequestHandler = (req, res, next) => {
    if (req.method === 'GET') {
      clock += stepMs
      answers.count(res)
    }
    next()
  }
  // The default share of new keys per address: the flood comes from one.
  const options = { now: () => clock, liveTimerKeys: { perTimer: FLOOD.perTimer } }
  return withGiffer(store, testRedis, options, moveClock, async (served, stateDir, redis) => {
    const floodedUrl = await mint(served.base, { kind: 'evergreen', for: EVERGREEN_FOR })
    const otherUrl = await mint(served.base, { kind: 'evergreen', for: FLOOD.otherFor })
    const reader = openStore(store, stateDir, redis, FLOOD.perTimer, () => clock)
    try {
      /** Opens `count` recipients of `url` one after another: the deadline each was stored with, and the image of the full time (what each first open shows). */
      const openRecipients = async (url: string, prefix: string, count: number) => {
        const recorded = new Map<string, number>()
        let fullTimeImage: Buffer | null = null
        for (let n = 0; n < count; n++) {
          const raw = `${prefix}-${n}@example.com`
          const image = await fetchImage(url + encodeURIComponent(raw))
          if (!image.instead) fullTimeImage ??= image.body
          const { timer, key } = storeNames(url, raw)
          const opened = await lookUp(reader, timer, key, clock)
          if (opened.outcome !== 'stored' || opened.deadline !== clock + evergreenMs(timer)) throw new Error(`a recipient before the flood was not stored at the full time (${opened.outcome})`)
          recorded.set(key, opened.deadline)
        }
        return { recorded, fullTimeImage }
      }
      const earlier = await openRecipients(floodedUrl, 'reader', FLOOD.earlier)
      const bystanders = await openRecipients(otherUrl, 'bystander', FLOOD.bystanders)

      stepMs = (FLOOD.floodClockSeconds * 1000) / FLOOD.keys
      answers = new AnswerCounts()
      const began = performance.now()
      const load = await autocannon(`${floodedUrl}[<id>]`, { connections: CONNECTIONS, amount: FLOOD.keys, idReplacement: true }, FLOOD.stopAfterMs)
      const seconds = (performance.now() - began) / 1000
      const { answered, fallbacks } = answers
      const statuses = answers.text()
      const non200 = answers.non200(load.errors + load.timeouts)
      const unstored = { ...served.router.unstoredKeys }

      // After the flood the clock moves only where said.
      stepMs = 0
      const flooded = storeNames(floodedUrl, 'latecomer@example.com')
      const other = storeNames(otherUrl, 'newcomer@example.com')
      const earlierKept = await keptDeadlines(reader, flooded.timer, earlier.recorded, clock)
      await fetchImage(floodedUrl + 'latecomer%40example.com')
      const first = await lookUp(reader, flooded.timer, flooded.key, clock)
      clock += FLOOD.reopenAfterMs
      const secondAt = clock
      const latecomerImage = await fetchImage(floodedUrl + 'latecomer%40example.com')
      const second = await lookUp(reader, flooded.timer, flooded.key, clock)
      const unstoredBefore = unstoredTotal(served.router.unstoredKeys)
      await fetchImage(otherUrl + 'newcomer%40example.com')
      const unstoredMeanwhile = unstoredTotal(served.router.unstoredKeys) - unstoredBefore
      const newKey = await lookUp(reader, other.timer, other.key, clock)
      const kept = await keptDeadlines(reader, other.timer, bystanders.recorded, clock)
      return {
        store,
        load,
        seconds,
        answered,
        statuses,
        non200,
        fallbacks,
        unstored,
        earlierKept,
        latecomer: { first, second, secondAt, differsFromFullTime: earlier.fullTimeImage && !latecomerImage.instead ? !latecomerImage.body.equals(earlier.fullTimeImage) : null },
        bystander: { kept, newKey, fullDeadline: clock + evergreenMs(other.timer), unstoredMeanwhile },
      }
    } finally {
      await reader.close()
    }
  })
}

const ratio = (figures: OpensFigures, kind: OpenKind) => best(figures, kind).load.requests.average / best(figures, 'fixed').load.requests.average
const failures = (load: AutocannonResult) => load.non2xx + load.errors + load.timeouts
const cpuPerOpen = (run: Run) => (run.cpuMs / run.load.requests.total).toFixed(2)
const count = (n: number) => n.toLocaleString('en')
const minutesLeft = (deadline: number, nowMs: number) => `${((deadline - nowMs) / 60_000).toFixed(1)} min`
/** How the store keeps a key's deadline, as `lookUp` answers it. */
const howKept = (opened: FirstOpen) => (opened.outcome === 'stored' ? 'stored' : "unstored, the timer's overflow deadline")

function printOpens(figures: OpensFigures): void {
  const name = STORE_NAMES[figures.store]
  console.log(`\n${name}, ${CONNECTIONS} connections, ${LOAD_SECONDS} s a run, ${OPEN_ROUNDS} rounds (the fastest shown), answers of ${figures.answerBytes} bytes:`)
  for (const kind of OPEN_KINDS) {
    const run = best(figures, kind)
    const everyRound = figures.rounds[kind].map((round) => round.load.requests.average.toFixed(0)).join(', ')
    console.log(
      `  ${OPEN_NAMES[kind].padEnd(21)} ${run.load.requests.average.toFixed(0).padStart(6)} req/s  p50 ${run.load.latency.p50} ms  p99 ${run.load.latency.p99} ms  ` +
        `non-2xx/errors ${failures(run.load)}  CPU ${cpuPerOpen(run)} ms/request  (${run.load.requests.total} requests; rounds ${everyRound} req/s)`,
    )
  }
  const newRatio = ratio(figures, 'newKey')
  const storedRatio = ratio(figures, 'storedKey')
  const answered = (kind: OpenKind) => figures.rounds[kind].reduce((sum, run) => sum + run.load.requests.total, 0)
  console.log(`  new key/fixed ${newRatio.toFixed(2)} (goal ≥ ${RATIO_GOAL}: ${judge(`${name}: new-key opens ≥ ${RATIO_GOAL} of fixed`, newRatio >= RATIO_GOAL)})`)
  // autocannon counts the answers it read: the requests in flight when it stopped were stored too.
  console.log(`    new keys stored ${figures.added.newKey} for ${answered('newKey')} answers counted (+ up to ${CONNECTIONS} in flight at the end of each run)`)
  // A stored-key run that stored anything measured some first opens too: its ratio would not say what it claims.
  const storedMet = storedRatio >= RATIO_GOAL && figures.added.storedKey === 0
  console.log(`  stored key/fixed ${storedRatio.toFixed(2)} (goal ≥ ${RATIO_GOAL}, every request a repeat: ${judge(`${name}: stored-key opens ≥ ${RATIO_GOAL} of fixed`, storedMet)})`)
  console.log(`    every request one of ${count(STORED_KEYS)} keys opened during the warm-up, in turn: new keys stored ${figures.added.storedKey} for ${answered('storedKey')} answers`)
}

function printSend(send: SendFigures): void {
  const name = STORE_NAMES[send.store]
  console.log(
    `\n${name}: ${count(send.answered)} of ${count(SEND.recipients)} opens answered in ${send.seconds.toFixed(1)} s ` +
      `(${(send.answered / send.seconds).toFixed(0)}/s, ${SEND.connections} connections), CPU ${(send.cpuMs / send.answered).toFixed(2)} ms/open` +
      (send.answered < SEND.recipients ? `; the load was stopped at ${SEND.stopAfterMs / 1000} s` : ''),
  )
  console.log(`  images drawn ${send.drawn} for ${SEND_BUCKETS} buckets (goal ≤ 1 per bucket: ${judge(`${name}: large send draws ≤ 1 image per bucket`, send.drawn <= SEND_BUCKETS)})`)
  console.log(`  store entries ${count(send.size)} (goal ≤ the cap of ${count(SEND.perTimer)}: ${judge(`${name}: large send keeps the per-timer cap`, send.size <= SEND.perTimer)})`)
  console.log(
    `  answers ${send.statuses}; errors/timeouts ${send.unanswered}; non-200 ${send.non200} (goal 0: ${judge(`${name}: large send answers every open 200`, send.non200 === 0)}); busy-server fallbacks ${send.fallbacks}`,
  )
  console.log(`  RSS ${mb(send.rssBefore)} → ${mb(send.rssAfter)} (the process's peak so far ${mb(send.peakRss)})`)
  console.log(`  store ${send.store === 'redis' ? 'used_memory' : 'file + WAL'} ${mb(send.storeBefore)} → ${mb(send.storeAfter)} (+${mb(send.storeAfter - send.storeBefore)})`)
}

/** The slowest process's 99th percentiles: of an open (repeat or first) and of its event-loop delay. */
function twoProcessWorst(figures: TwoProcessesFigures) {
  return {
    openP99: Math.max(...figures.processes.flatMap((one) => [one.repeat.p99, one.first.p99])),
    loopDelayP99: Math.max(...figures.processes.map((one) => one.eventLoopDelay.p99)),
    failed: figures.processes.reduce((sum, one) => sum + one.failed, 0),
  }
}

function printTwoProcesses(figures: TwoProcessesFigures): void {
  console.log()
  for (const line of figures.lines) console.log(line)
  const worst = twoProcessWorst(figures)
  const met = figures.processes.length === 2 && worst.failed === 0 && worst.openP99 <= TWO_PROCESS_GOALS.openP99Ms && worst.loopDelayP99 <= TWO_PROCESS_GOALS.loopDelayP99Ms
  console.log(
    `  slowest process: open p99 ${worst.openP99.toFixed(2)} ms, event-loop delay p99 ${worst.loopDelayP99.toFixed(2)} ms, ${worst.failed} failed ` +
      `(goal: every open answered, open p99 ≤ ${TWO_PROCESS_GOALS.openP99Ms} ms, event-loop delay p99 ≤ ${TWO_PROCESS_GOALS.loopDelayP99Ms} ms: ` +
      `${judge('two processes on one SQLite file: every open answered, p99 within bounds', met)})`,
  )
}

/** MB one million stored keys take. */
const perMillion = (entry: EntryBytes) => (entry.bytesPerEntry * 1_000_000) / MB

function printEntryBytes(bytes: Record<StoreKind, EntryBytes>): void {
  const cap = GIFFER_DEFAULTS.liveTimerKeys.total
  console.log()
  for (const store of STORES) {
    const full = bytes[store].bytesPerEntry * cap
    console.log(bytes[store].line)
    console.log(
      `  the default cap of ${count(cap)} keys: ${mb(full)} (goal ≤ ${mb(FULL_STORE_GOAL_BYTES)}: ` +
        `${judge(`${STORE_NAMES[store]}: the store at its default cap within ${mb(FULL_STORE_GOAL_BYTES)}`, full <= FULL_STORE_GOAL_BYTES)})`,
    )
  }
  console.log(
    `sizing: a list of 1,000,000 recipients of evergreen timers keeps ≈ ${perMillion(bytes.redis).toFixed(0)} MB in Redis (used_memory) per million stored keys, ` +
      `or ≈ ${perMillion(bytes.embedded).toFixed(0)} MB of SQLite file, each kept until its deadline plus ${GIFFER_DEFAULTS.liveTimerKeys.keepAfterDays} days`,
  )
}

function printFlood(figures: FloodFigures): void {
  const name = STORE_NAMES[figures.store]
  const { latecomer, bystander } = figures
  console.log(
    `\n${name}: a flood of ${count(FLOOD.keys)} made-up keys on one evergreen timer (for ${EVERGREEN_FOR} s, cap ${count(FLOOD.perTimer)}) from one address ` +
      `(${count(GIFFER_DEFAULTS.liveNewKeysPerAddress)} new keys a minute), the clock moving ${FLOOD.floodClockSeconds} s, after ${FLOOD.earlier} real recipients:`,
  )
  console.log(
    `  ${count(figures.answered)} answered in ${figures.seconds.toFixed(1)} s (${(figures.answered / figures.seconds).toFixed(0)}/s; autocannon mean ${figures.load.requests.average.toFixed(0)} req/s), ` +
      `p50 ${figures.load.latency.p50} ms, p99 ${figures.load.latency.p99} ms; answers ${figures.statuses}; non-200 ${figures.non200} (goal 0: ${judge(`${name}: flood answered 200`, figures.non200 === 0)}); busy-server fallbacks ${figures.fallbacks}`,
  )
  console.log(`  (d) unstored keys by reason: ${UNSTORED_REASONS.map((reason) => `${reason} ${count(figures.unstored[reason])}`).join(', ')}`)
  console.log(`  (a) earlier recipients' deadlines unchanged: ${figures.earlierKept} of ${FLOOD.earlier} (${judge(`${name}: flood leaves earlier deadlines`, figures.earlierKept === FLOOD.earlier)})`)
  console.log(
    `  (b) a recipient after the flood: ${howKept(latecomer.first)}, ${minutesLeft(latecomer.first.deadline, latecomer.secondAt - FLOOD.reopenAfterMs)} left; ` +
      `${FLOOD.reopenAfterMs / 1000} s later ${howKept(latecomer.second)}, ${minutesLeft(latecomer.second.deadline, latecomer.secondAt)} left, ` +
      `deadline ${latecomer.first.deadline === latecomer.second.deadline ? 'the same' : 'MOVED'}, ${latecomer.differsFromFullTime === null ? 'image not compared (a fallback answered)' : `image ${latecomer.differsFromFullTime ? 'not' : 'the same as'} the full time's`} ` +
      `(a moving countdown: ${judge(`${name}: a recipient after the flood sees a moving countdown`, latecomerMoves(figures))})`,
  )
  console.log(
    `  (c) another timer: earlier deadlines unchanged ${bystander.kept} of ${FLOOD.bystanders}; a new recipient after the flood ` +
      `${bystanderStored(figures) ? 'stored by its open (created), the full time' : `NOT stored (${bystander.newKey.outcome})`}, ` +
      `${bystander.unstoredMeanwhile} left unstored meanwhile (${judge(`${name}: another timer goes on as before`, bystanderUntouched(figures))})`,
  )
}

/** The machine's 1-minute load average: other work on the box skews every figure here. */
const loadAverage = () => os.loadavg()[0]!.toFixed(1)
const verdict = (met: boolean) => (met ? 'met' : 'NOT met')

/** Opens a second at which the counters' cost is measured: a large send's pace on one process. */
const COUNTED_RATE = 1_500
/** Rounds of the counted and uncounted runs, in turn. */
const COUNTING_ROUNDS = 2

interface SavedFigures {
  store: StoreKind
  signed: Run[]
  saved: Run[]
  /** Saved-timer opens at COUNTED_RATE, counted as opens, and the same opens as the edit page's preview, not counted. */
  counted: AutocannonResult[]
  uncounted: AutocannonResult[]
}

/** A saved fixed timer of STYLE on `base`: its GIF URL. */
async function save(base: string, body: object): Promise<string> {
  const res = await fetch(`${base}/giffer/countdown/timers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...STYLE, ...body }), signal: AbortSignal.timeout(10_000) })
  if (res.status !== 201) throw new Error(`countdown/timers: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { url: string }).url
}

/**
 * Saved timers beside signed ones: the same fixed timer, signed into its URL and saved by id, as
 * fast as answered in turn; then the saved one at a steady COUNTED_RATE, counted and not (the
 * same path, with the preview mark that skips counting), for the counters' cost at the p99.
 */
async function savedOpens(store: StoreKind, testRedis: TestRedis): Promise<SavedFigures> {
  return withGiffer(store, testRedis, MANY_ADDRESSES, undefined, async (served) => {
    const until = new Date(Date.now() + 3_600_000).toISOString()
    const signedUrl = await mint(served.base, { until })
    const savedUrl = await save(served.base, { until })
    for (let n = 0; n < WARM_REQUESTS; n++) await Promise.all([fetchImage(signedUrl), fetchImage(savedUrl)])
    const stopAfterMs = (LOAD_SECONDS + 20) * 1000
    const figures: SavedFigures = { store, signed: [], saved: [], counted: [], uncounted: [] }
    const asFast = { connections: CONNECTIONS, duration: LOAD_SECONDS }
    for (let round = 0; round < OPEN_ROUNDS; round++) {
      for (const kind of round % 2 === 0 ? (['signed', 'saved'] as const) : (['saved', 'signed'] as const)) {
        const { result, cpuMs } = await withCpu(() => autocannon(kind === 'signed' ? signedUrl : savedUrl, asFast, stopAfterMs))
        figures[kind].push({ load: result, cpuMs })
      }
    }
    const steady = { ...asFast, overallRate: COUNTED_RATE }
    for (let round = 0; round < COUNTING_ROUNDS; round++) {
      for (const counted of round % 2 === 0 ? [true, false] : [false, true]) {
        const result = await autocannon(counted ? savedUrl : `${savedUrl}?preview=1`, steady, stopAfterMs)
        figures[counted ? 'counted' : 'uncounted'].push(result)
      }
    }
    return figures
  })
}

const fastest = (runs: Run[]) => runs.reduce((a, b) => (b.load.requests.average > a.load.requests.average ? b : a))
const savedRatio = (figures: SavedFigures) => fastest(figures.saved).load.requests.average / fastest(figures.signed).load.requests.average
const p99s = (runs: AutocannonResult[]) => runs.map((run) => run.latency.p99)

function printSaved(figures: SavedFigures): void {
  const name = STORE_NAMES[figures.store]
  const line = (what: string, run: Run) => `  ${what.padEnd(21)} ${run.load.requests.average.toFixed(0).padStart(6)} req/s  p50 ${run.load.latency.p50} ms  p99 ${run.load.latency.p99} ms  non-2xx/errors ${failures(run.load)}  CPU ${cpuPerOpen(run)} ms/request`
  console.log(`\n${name}: a fixed timer signed into its URL and the same timer saved by id, ${CONNECTIONS} connections, ${LOAD_SECONDS} s a run, the fastest of ${OPEN_ROUNDS} rounds:`)
  console.log(line('signed', fastest(figures.signed)))
  console.log(line('saved', fastest(figures.saved)))
  const met = savedRatio(figures) >= RATIO_GOAL && [...figures.saved, ...figures.signed].every((run) => failures(run.load) === 0)
  console.log(`  saved/signed ${savedRatio(figures).toFixed(2)} (goal ≥ ${RATIO_GOAL}, every answer 2xx: ${judge(`${name}: saved-timer opens ≥ ${RATIO_GOAL} of signed fixed`, met)})`)
  const counts = (runs: AutocannonResult[]) => `${p99s(runs).join(', ')} ms (${runs.map((run) => (run.requests.total / LOAD_SECONDS).toFixed(0)).join(', ')} req/s, non-2xx/errors ${runs.map(failures).join(', ')})`
  console.log(`  at ${count(COUNTED_RATE)} opens/s: p99 counted ${counts(figures.counted)}; not counted ${counts(figures.uncounted)}`)
}

interface Figures {
  opens: OpensFigures[]
  saved: SavedFigures[]
  sends: SendFigures[]
  twoProcesses: TwoProcessesFigures
  entryBytes: Record<StoreKind, EntryBytes>
  floods: FloodFigures[]
}

function printSummary({ opens, saved, sends, twoProcesses, entryBytes, floods }: Figures, loadAtStart: string): void {
  const row = (cells: (string | number)[]) => console.log(`| ${cells.join(' | ')} |`)
  console.log(
    `\n## Live timers (${os.availableParallelism()} CPUs, Node ${process.versions.node}, load average ${loadAtStart} at the start and ${loadAverage()} at the end, ` +
      `RSS ${globalThis.gc ? 'after a collection' : 'without a collection'})\n`,
  )
  console.log(
    `Opens per second: autocannon, ${CONNECTIONS} connections, ${LOAD_SECONDS} s per run, the fastest of ${OPEN_ROUNDS} rounds; evergreen timers (\`for\` = ${EVERGREEN_FOR} s) with every request a new recipient, ` +
      `or every request one of ${count(STORED_KEYS)} recipients already stored, in turn; answers of ${opens[0]?.answerBytes ?? 0} bytes; CPU is the server process's.\n`,
  )
  row(['store', 'timer', 'req/s (mean)', 'p50 ms', 'p99 ms', 'non-2xx', 'CPU ms/request', `of fixed (goal ≥ ${RATIO_GOAL})`])
  row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:'])
  for (const figures of opens) {
    for (const kind of OPEN_KINDS) {
      const run = best(figures, kind)
      const cells = [run.load.requests.average.toFixed(0), run.load.latency.p50, run.load.latency.p99, failures(run.load), cpuPerOpen(run)]
      row([STORE_NAMES[figures.store], OPEN_NAMES[kind], ...cells, kind === 'fixed' ? '' : ratio(figures, kind).toFixed(2)])
    }
  }

  console.log(`\nSaved timers: one fixed timer signed into its URL and saved by id, as fast as answered; then the saved one at ${count(COUNTED_RATE)} opens/s, counted and as the edit page's uncounted preview.\n`)
  row(['store', 'signed req/s', 'saved req/s', `saved/signed (goal ≥ ${RATIO_GOAL})`, `p99 at ${count(COUNTED_RATE)}/s counted`, 'p99 not counted'])
  row(['---', '---:', '---:', '---:', '---:', '---:'])
  for (const figures of saved) {
    row([STORE_NAMES[figures.store], fastest(figures.signed).load.requests.average.toFixed(0), fastest(figures.saved).load.requests.average.toFixed(0), savedRatio(figures).toFixed(2), `${p99s(figures.counted).join(', ')} ms`, `${p99s(figures.uncounted).join(', ')} ms`])
  }

  console.log(
    `\n${count(SEND.recipients)} distinct recipients opening one evergreen timer within ${SEND.seconds} s (the clock moved with each request), ` +
      `${count(SEND.perTimer)} kept per timer, ${BUCKET_SECONDS} s buckets, ${SEND.connections} connections.\n`,
  )
  row(['store', 'opens answered', 'opens/s (wall)', `images drawn (goal ≤ ${SEND_BUCKETS})`, `entries kept (cap ${SEND.perTimer})`, 'non-200', 'RSS before → after', 'store before → after'])
  row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:'])
  for (const send of sends) {
    const storeFigure = `${mb(send.storeBefore)} → ${mb(send.storeAfter)} (${send.store === 'redis' ? 'used_memory' : 'file + WAL'})`
    row([STORE_NAMES[send.store], send.answered, (send.answered / send.seconds).toFixed(0), send.drawn, send.size, send.non200, `${mb(send.rssBefore)} → ${mb(send.rssAfter)}`, storeFigure])
  }

  const { options, writeLock, swept } = twoProcesses
  console.log(
    `\nTwo processes on one SQLite file, ${count(options.perSecond)} opens/s in all for ${options.seconds} s, half of them repeats of ${count(options.storedKeys)} stored keys, ` +
      `both sweeping ${count(options.forgottenEntries)} forgotten entries (${count(swept)} swept); the write lock held ${(writeLock.heldShare * 100).toFixed(1)}% of the time, ` +
      `at most ${writeLock.longestHeldMs.toFixed(1)} ms at a stretch. Goal: every open answered, p99 of an open ≤ ${TWO_PROCESS_GOALS.openP99Ms} ms and of the event-loop delay ≤ ${TWO_PROCESS_GOALS.loopDelayP99Ms} ms.\n`,
  )
  row(['process', 'opens', 'failed', 'repeat p50 / p99 ms', 'first open p50 / p99 ms', 'event-loop delay p50 / p99 ms'])
  row(['---', '---:', '---:', '---:', '---:', '---:'])
  twoProcesses.processes.forEach((one, i) => {
    const pair = ({ p50, p99 }: { p50: number; p99: number }) => `${p50.toFixed(2)} / ${p99.toFixed(2)}`
    row([i + 1, one.opens, one.failed, pair(one.repeat), pair(one.first), pair(one.eventLoopDelay)])
  })

  const cap = GIFFER_DEFAULTS.liveTimerKeys.total
  console.log(`\nBytes per stored key (names as long as real ones), and what a million take. Goal: the default cap of ${count(cap)} keys within ${mb(FULL_STORE_GOAL_BYTES)}.\n`)
  row(['store', 'bytes per key', 'MB per million keys', 'measured as'])
  row(['---', '---:', '---:', '---'])
  row(['Redis', entryBytes.redis.bytesPerEntry.toFixed(0), perMillion(entryBytes.redis).toFixed(0), '`used_memory` grown'])
  row(['SQLite', entryBytes.embedded.bytesPerEntry.toFixed(0), perMillion(entryBytes.embedded).toFixed(0), 'file size, checkpointed'])

  console.log(
    `\nA flood: ${count(FLOOD.keys)} made-up keys from one address on one evergreen timer (cap ${count(FLOOD.perTimer)}, ${count(GIFFER_DEFAULTS.liveNewKeysPerAddress)} new keys a minute per address), ` +
      `the clock moving ${FLOOD.floodClockSeconds} s, after ${FLOOD.earlier} real recipients opened it and ${FLOOD.bystanders} opened another timer; ${CONNECTIONS} connections. ` +
      `(a) the earlier deadlines unchanged, (b) a recipient after the flood sees a moving countdown, (c) the other timer goes on storing new recipients.\n`,
  )
  row(['store', 'req/s (wall)', 'p99 ms', 'non-200', 'unstored: timer full / store full / address limit', '(a)', '(b)', '(c)'])
  row(['---', '---:', '---:', '---:', '---:', '---', '---', '---'])
  for (const figures of floods) {
    const unstored = UNSTORED_REASONS.map((reason) => count(figures.unstored[reason])).join(' / ')
    row([
      STORE_NAMES[figures.store],
      (figures.answered / figures.seconds).toFixed(0),
      figures.load.latency.p99,
      figures.non200,
      unstored,
      `${figures.earlierKept}/${FLOOD.earlier} kept`,
      verdict(latecomerMoves(figures)),
      verdict(bystanderUntouched(figures)),
    ])
  }
}

async function main(): Promise<void> {
  const loadAtStart = loadAverage()
  console.log(`live timers bench on ${os.availableParallelism()} CPUs (load average ${loadAtStart}), Node ${process.versions.node}; gc ${globalThis.gc ? 'exposed: RSS is read after a collection' : 'not exposed (run with node --expose-gc for settled RSS)'}`)
  const testRedis = await startRedis()
  let figures: Figures
  try {
    const savedOnly = process.env.BENCH_ONLY === 'saved'
    const opens: OpensFigures[] = []
    for (const store of savedOnly ? [] : STORES) {
      opens.push(await opensPerSecond(store, testRedis))
      printOpens(opens.at(-1)!)
    }
    const saved: SavedFigures[] = []
    for (const store of STORES) {
      saved.push(await savedOpens(store, testRedis))
      printSaved(saved.at(-1)!)
    }
    if (savedOnly) return reportGoals()
    const sends: SendFigures[] = []
    for (const store of STORES) {
      sends.push(await largeSend(store, testRedis))
      printSend(sends.at(-1)!)
    }
    const twoProcesses = await twoProcessesOnOneFile()
    printTwoProcesses(twoProcesses)
    const entryBytes = { embedded: await sqliteEntryBytes(), redis: await redisEntryBytes() }
    printEntryBytes(entryBytes)
    const floods: FloodFigures[] = []
    for (const store of STORES) {
      floods.push(await flood(store, testRedis))
      printFlood(floods.at(-1)!)
    }
    figures = { opens, saved, sends, twoProcesses, entryBytes, floods }
  } finally {
    await testRedis.stop()
  }
  printSummary(figures, loadAtStart)
  reportGoals()
}

/** Every goal of the run, met or not; exit code 1 when one is missed. */
function reportGoals(): void {
  const missed = goals.filter((goal) => !goal.met)
  console.log(`\nGoals: ${goals.length - missed.length} of ${goals.length} met${missed.length ? `; NOT met: ${missed.map((goal) => goal.what).join('; ')}` : ''}`)
  if (missed.length) process.exitCode = 1
}

await main()
