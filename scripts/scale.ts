/**
 * `npm run scale`: the site as it runs at scale, on this machine, loopback only. Starts Redis,
 * three web processes (as the Procfile's `web` runs them, sharing REDIS_URL, DATA_DIR and
 * GIFFER_SECRET) and nginx from docs/nginx.conf as the balancer and the edge cache, then checks:
 *
 *   1. edge      anonymous page views under load are answered by the edge cache (≥ 95 %), and no
 *                answer the edge stores carries Set-Cookie;
 *   2. limits    the 11th log-in from one address within a minute is refused (429), whichever
 *                process it reaches;
 *   3. crash     a process killed (SIGKILL) under load costs no page request that nginx can
 *                send elsewhere (an answer it was halfway through is counted apart);
 *   4. deploy    a rolling restart (SIGTERM, one process at a time, the next once the
 *                replacement answers and gets traffic again) costs none either;
 *   5. redis     Redis gone for 10 s under load: pages keep answering, log-ins are answered
 *                401 or 429 and never 5xx, and once it is back the limit holds across processes.
 *
 * The loads of 3 to 5 put a new query string on every page view, so that each one reaches a
 * process. Which process answered a log-in is read from the processes' own /metrics (the site
 * sends no header naming its process). Prints the figures and a summary; exits 1 when a goal is
 * missed. Everything it starts is stopped at the end, on Ctrl-C and on a failure (which keeps
 * the logs). Needs Debian's redis-server and nginx (installed when run as root on Debian).
 *
 * Client addresses: nginx passes the address that connected to it as X-Forwarded-For (nothing
 * the client wrote), and every 127.x.x.x address is this machine. So each log-in check connects
 * from an address of its own (127.0.0.2, .3, .4), a visitor that no earlier check has counted.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { Redis } from 'ioredis'
import { DEFAULT_LIMITS } from '../server/accounts/rate-limits.js'
import { AUTH_API } from '../shared/accounts/client.js'
import { startRedis, type TestRedis } from '../tests/support/redis.js'
import { ensureDebianTools, NGINX, REDIS_SERVER, toolPath } from './lib/debian-tools.js'
import { freePort, PRODUCTION_ENV, root } from './lib/server-process.js'

const NGINX_TEMPLATE = path.join(root, 'docs/nginx.conf')
/** As many as docs/nginx.conf has upstream servers. */
const SITE_COUNT = 3
const EDGE_PAGES = ['/', '/pricing/', '/p/', '/e/', '/blog/', '/ai-subject-line-generator/']
const EDGE_REQUESTS = 3000
const EDGE_CONNECTIONS = 30
/** Loads that reach the processes render a page each time: kept modest for a 2-core machine. */
const ORIGIN_CONNECTIONS = 16
const HIT_RATIO_GOAL = 0.95
/** What nginx's $upstream_cache_status says when no process was asked. */
const EDGE_ANSWERS = new Set(['HIT', 'STALE', 'UPDATING'])
const REDIS_OUTAGE_MS = 10_000
const LOGIN_LIMIT = DEFAULT_LIMITS.login.limit
const SITE_START_TIMEOUT_MS = 40_000
const BROWSER_HEADERS = { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' }
const CLIENTS = { limits: '127.0.0.2', duringOutage: '127.0.0.3', afterOutage: '127.0.0.4' }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`

// ---------------------------------------------------------------------------------------------
// HTTP

interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

interface SendOptions {
  method?: string
  path: string
  headers?: Record<string, string>
  body?: string
  agent?: http.Agent
  /** The address to connect from (any 127.x.x.x is this machine). */
  localAddress?: string
  timeoutMs?: number
}

/** An answer whose status and headers came, and whose body broke off. */
class CutShort extends Error {
  constructor() {
    super('answer cut short')
  }
}

/** One request; rejects on a connection error, a time-out or an answer cut short. */
function send(port: number, { method = 'GET', path: target, headers = {}, body, agent, localAddress, timeoutMs = 30_000 }: SendOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const allHeaders = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }
    const req = http.request({ host: '127.0.0.1', port, method, path: target, headers: allHeaders, agent: agent ?? false, localAddress, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('close', () => {
        if (!res.complete) reject(new CutShort())
      })
    })
    req.on('timeout', () => req.destroy(new Error('timed out')))
    req.on('error', reject)
    req.end(body)
  })
}

const answersHealthz = (port: number) => send(port, { path: '/healthz', timeoutMs: 1_000 }).then((answer) => answer.status === 200, () => false)

// ---------------------------------------------------------------------------------------------
// Load

interface LoadTally {
  requests: number
  failed: number
  /** Of the failed: answers that had begun and broke off (no proxy can send those again). */
  cutShort: number
  /** Why requests failed (a status or an error message), with how often. */
  failures: Map<string, number>
  /** X-Cache-Status values, with how often. */
  cacheStatus: Map<string, number>
  withCookie: number
  storedWithCookie: number
  latenciesMs: number[]
  elapsedMs: number
}

interface Load {
  tally: LoadTally
  /** Stops issuing requests; resolves once the ones under way are answered. */
  stop(): Promise<LoadTally>
  done: Promise<LoadTally>
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1)

/** `connections` clients asking for `pathOf(n)` in turn, until stopped or `total` were sent. */
function startLoad(port: number, connections: number, pathOf: (n: number) => string, total = Infinity): Load {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  const tally: LoadTally = { requests: 0, failed: 0, cutShort: 0, failures: new Map(), cacheStatus: new Map(), withCookie: 0, storedWithCookie: 0, latenciesMs: [], elapsedMs: 0 }
  let issued = 0
  let stopped = false
  const started = performance.now()
  const client = async () => {
    while (!stopped && issued < total) {
      const target = pathOf(issued++)
      const sent = performance.now()
      try {
        const answer = await send(port, { path: target, headers: BROWSER_HEADERS, agent })
        tally.latenciesMs.push(performance.now() - sent)
        const cacheStatus = String(answer.headers['x-cache-status'] ?? '-')
        bump(tally.cacheStatus, cacheStatus)
        if (answer.headers['set-cookie']) {
          tally.withCookie++
          if (EDGE_ANSWERS.has(cacheStatus)) tally.storedWithCookie++
        }
        if (answer.status < 200 || answer.status >= 300) {
          tally.failed++
          bump(tally.failures, `status ${answer.status}`)
        }
      } catch (error) {
        tally.failed++
        if (error instanceof CutShort) tally.cutShort++
        bump(tally.failures, (error as Error).message)
      } finally {
        tally.requests++
      }
    }
  }
  const done = Promise.all(Array.from({ length: connections }, client)).then(() => {
    tally.elapsedMs = performance.now() - started
    agent.destroy()
    return tally
  })
  return {
    tally,
    done,
    stop() {
      stopped = true
      return done
    },
  }
}

/** A page view no cache has seen: every one reaches a process. */
const uncachedPage = (run: string) => (n: number) => `${EDGE_PAGES[n % EDGE_PAGES.length]}?v=${run}-${n}`

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}

function describeFailures(tally: LoadTally): string {
  if (tally.failed === 0) return ''
  const top = [...tally.failures].sort((a, b) => b[1] - a[1]).slice(0, 3)
  return `: ${top.map(([reason, count]) => `${count}× ${reason}`).join(', ')}`
}

// ---------------------------------------------------------------------------------------------
// The processes

/** Everything started, so that any way out stops it. */
const children = new Set<ChildProcess>()
let redisServer: TestRedis | undefined

function track(child: ChildProcess): ChildProcess {
  children.add(child)
  child.once('exit', () => children.delete(child))
  return child
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000): Promise<{ code: number | null; ms: number }> {
  const started = Date.now()
  if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, ms: 0 }
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  child.kill(signal)
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
  const [code] = await exited
  clearTimeout(timer)
  return { code, ms: Date.now() - started }
}

interface Site {
  name: string
  port: number
  logFile: string
  child?: ChildProcess
}

interface Cluster {
  redis: TestRedis
  sites: Site[]
  edgePort: number
  publicUrl: string
  accessLog: string
  siteEnv: Record<string, string>
}

/** Starts (or starts again, on its own port) one web process; resolves with how long it took to answer /healthz. */
async function startSite(site: Site, env: Record<string, string>): Promise<number> {
  const log = openSync(site.logFile, 'a')
  const child = track(
    spawn(process.execPath, ['--expose-gc', 'dist/server/main.js'], {
      cwd: root,
      env: { ...process.env, ...PRODUCTION_ENV, ...env, PORT: String(site.port) },
      stdio: ['ignore', log, log],
    }),
  )
  closeSync(log)
  site.child = child
  const started = Date.now()
  while (Date.now() - started < SITE_START_TIMEOUT_MS) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${site.name} exited (${child.exitCode ?? child.signalCode}) while starting; see ${site.logFile}`)
    if (await answersHealthz(site.port)) return Date.now() - started
    await sleep(100)
  }
  throw new Error(`${site.name} did not answer /healthz within ${seconds(SITE_START_TIMEOUT_MS)}; see ${site.logFile}`)
}

/** docs/nginx.conf with this run's addresses in place of its {{…}} placeholders. */
function nginxConfig(values: Record<string, string>): string {
  const template = readFileSync(NGINX_TEMPLATE, 'utf8')
  const config = template.replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => {
    const value = values[name]
    if (value === undefined) throw new Error(`docs/nginx.conf: no value for ${placeholder}`)
    return value
  })
  const unused = Object.keys(values).filter((name) => !template.includes(`{{${name}}}`))
  if (unused.length > 0) throw new Error(`docs/nginx.conf has no place for ${unused.join(', ')}`)
  return config
}

async function startEdge(nginx: string, dir: string, port: number, sites: Site[]): Promise<void> {
  const values: Record<string, string> = { LISTEN: `127.0.0.1:${port}` }
  sites.forEach((site, index) => (values[`SITE_${index + 1}`] = `127.0.0.1:${site.port}`))
  const configFile = path.join(dir, 'nginx.conf')
  writeFileSync(configFile, nginxConfig(values))
  const child = track(spawn(nginx, ['-p', `${dir}/`, '-c', configFile, '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] }))
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}; see ${path.join(dir, 'error.log')}`)
    if (await answersHealthz(port)) return
    await sleep(100)
  }
  throw new Error('nginx did not answer within 10 s')
}

async function startCluster(nginx: string, dir: string): Promise<Cluster> {
  const edgeDir = path.join(dir, 'nginx')
  const stateDir = path.join(dir, 'state')
  for (const folder of [edgeDir, stateDir]) mkdirSync(folder)
  // nginx's workers drop root for `nobody`, and must reach their cache and temporary files.
  chmodSync(dir, 0o755)
  chmodSync(edgeDir, 0o755)

  const redis = (redisServer = await startRedis())
  const edgePort = await freePort()
  const publicUrl = `http://127.0.0.1:${edgePort}`
  const siteEnv = {
    HOST: '127.0.0.1',
    REDIS_URL: redis.url,
    DATA_DIR: stateDir,
    GIFFER_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_URL: publicUrl,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'loopback',
    // The local dashboard and image service, whatever this shell has set; open /metrics.
    DASHBOARD_URL: '',
    GIFFER_URL: '',
    METRICS_TOKEN: '',
  }
  const sites: Site[] = []
  for (let index = 1; index <= SITE_COUNT; index++) sites.push({ name: `web.${index}`, port: await freePort(), logFile: path.join(dir, `web.${index}.log`) })
  // The first one alone: it creates the dashboard's database and applies its migrations.
  const startMs = [await startSite(sites[0]!, siteEnv), ...(await Promise.all(sites.slice(1).map((site) => startSite(site, siteEnv))))]
  await startEdge(nginx, edgeDir, edgePort, sites)
  console.log(`redis ${redis.url}; ${sites.map((site) => `${site.name} :${site.port}`).join(', ')} (up in ${startMs.map(seconds).join(', ')}); edge (nginx) ${publicUrl}`)
  return { redis, sites, edgePort, publicUrl, accessLog: path.join(edgeDir, 'access.log'), siteEnv }
}

// ---------------------------------------------------------------------------------------------
// What the processes and nginx report

interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/** A process's /metrics, read directly (as an operator's scraper does, not through the edge). */
async function scrape(site: Site): Promise<Sample[]> {
  const answer = await send(site.port, { path: '/metrics', timeoutMs: 5_000 })
  const samples: Sample[] = []
  for (const line of answer.body.toString('utf8').split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match) continue
    const labels: Record<string, string> = {}
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!
    samples.push({ name: match[1]!, labels, value: Number(match[3]) })
  }
  return samples
}

const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value)).reduce((total, sample) => total + sample.value, 0)

/** Page views that reached the process (its page cache's hits and misses). */
const pageViews = (samples: Sample[]) => sum(samples, 'page_cache_hits_total') + sum(samples, 'page_cache_misses_total')
/** POSTs the process answered under /app (log-ins here). */
const accountPosts = (samples: Sample[]) => sum(samples, 'http_request_duration_seconds_count', { route: 'app', method: 'POST' })

/** Where the access log ends now; `edgeLog(…, mark)` reads what nginx logged after it. */
const logMark = (file: string) => statSync(file).size

interface EdgeLog {
  /** Requests nginx sent to a second process after the first failed them. */
  movedOn: number
  /** Answers nginx itself gave because no process could (502, 504). */
  gatewayErrors: number
}

function edgeLog(file: string, mark: number): EdgeLog {
  const lines = readFileSync(file).subarray(mark).toString('utf8').split('\n').filter(Boolean)
  return {
    movedOn: lines.filter((line) => /upstream="[^"]*,/.test(line)).length,
    gatewayErrors: lines.filter((line) => / (502|504) "/.test(line)).length,
  }
}

/** Site connections Redis has (each process keeps one), not counting the one asking. */
async function redisClients(url: string): Promise<number> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null })
  client.on('error', () => undefined)
  try {
    await client.connect()
    const list = (await client.call('CLIENT', 'LIST')) as string
    return list.split('\n').filter(Boolean).length - 1
  } catch {
    return 0
  } finally {
    client.disconnect()
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now()
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${seconds(timeoutMs)}`)
    await sleep(200)
  }
  return Date.now() - started
}

/** Until nginx sends the (re)started process page views again: it left it out after its failure. */
function waitForTraffic(site: Site): Promise<number> {
  return waitFor(
    `${site.name} gets page views through the edge`,
    async () => {
      const child = site.child!
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${site.name} exited (${child.exitCode ?? child.signalCode}); see ${site.logFile}`)
      return scrape(site).then((samples) => pageViews(samples) > 0, () => false)
    },
    20_000,
  )
}

// ---------------------------------------------------------------------------------------------
// Log-ins

interface Attempt {
  status: number | string
  /** The process that answered, from the /metrics of each. */
  site: string
}

function logIn(cluster: Cluster, from: string, email: string): Promise<number | string> {
  return send(cluster.edgePort, {
    method: 'POST',
    path: AUTH_API.login,
    headers: { origin: cluster.publicUrl, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'not-the-password-1' }),
    localAddress: from,
  }).then(
    (answer) => answer.status,
    (error: Error) => error.message,
  )
}

/**
 * `count` log-ins from one address, one after another, each for an email of its own (so that
 * only the per-address limit is at work, not the per-email delay), and which process answered.
 */
async function logIns(cluster: Cluster, from: string, count: number, label: string): Promise<Attempt[]> {
  const counts = async () => Promise.all(cluster.sites.map(async (site) => accountPosts(await scrape(site))))
  const attempts: Attempt[] = []
  let before = await counts()
  for (let n = 1; n <= count; n++) {
    const status = await logIn(cluster, from, `scale-${label}-${n}@example.com`)
    let after = await counts()
    // A process counts a request as its answer leaves; give a late count a moment.
    if (after.every((value, index) => value === before[index])) {
      await sleep(100)
      after = await counts()
    }
    const index = after.findIndex((value, at) => value > before[at]!)
    attempts.push({ status, site: cluster.sites[index]?.name ?? '?' })
    before = after
  }
  return attempts
}

const describeAttempts = (attempts: Attempt[]) => attempts.map((attempt, index) => `${index + 1}:${attempt.site}→${attempt.status}`).join('  ')

/** The limit at work: the first ones answered 401 (wrong password), the one past the limit 429. */
function limitHeld(attempts: Attempt[]): boolean {
  return attempts.slice(0, LOGIN_LIMIT).every((attempt) => attempt.status === 401) && attempts[LOGIN_LIMIT]?.status === 429
}

// ---------------------------------------------------------------------------------------------
// The checks

interface Check {
  name: string
  goal: string
  measured: string
  /** 'note': off the goal, for a reason the run cannot help (printed, but not a failure). */
  ok: boolean | 'note'
}

const checks: Check[] = []
const check = (name: string, goal: string, measured: string, ok: boolean | 'note') => checks.push({ name, goal, measured, ok })

async function edgeCache(cluster: Cluster): Promise<void> {
  console.log(`\n1. Edge cache: ${EDGE_REQUESTS} page views of ${EDGE_PAGES.length} pages, ${EDGE_CONNECTIONS} connections, cache empty at the start`)
  const before = await Promise.all(cluster.sites.map(async (site) => pageViews(await scrape(site))))
  const tally = await startLoad(cluster.edgePort, EDGE_CONNECTIONS, (n) => EDGE_PAGES[n % EDGE_PAGES.length]!, EDGE_REQUESTS).done
  const after = await Promise.all(cluster.sites.map(async (site) => pageViews(await scrape(site))))
  const fromEdge = [...tally.cacheStatus].filter(([status]) => EDGE_ANSWERS.has(status)).reduce((total, [, count]) => total + count, 0)
  const ratio = fromEdge / tally.requests
  const reached = after.map((value, index) => value - before[index]!)
  console.log(`   X-Cache-Status: ${[...tally.cacheStatus].map(([status, count]) => `${status} ${count}`).join(', ')} → ${percent(ratio)} answered by the edge`)
  console.log(
    `   ${Math.round(tally.requests / (tally.elapsedMs / 1000))} req/s, p50 ${quantile(tally.latenciesMs, 0.5).toFixed(1)} ms, p99 ${quantile(tally.latenciesMs, 0.99).toFixed(1)} ms; ` +
      `page views that reached a process: ${reached.reduce((a, b) => a + b, 0)} (${cluster.sites.map((site, index) => `${site.name} ${reached[index]}`).join(', ')}); failed ${tally.failed}${describeFailures(tally)}`,
  )
  console.log(`   answers with Set-Cookie: ${tally.withCookie}, of them from the cache: ${tally.storedWithCookie}`)
  check('1 edge hit ratio, page views', `≥ ${percent(HIT_RATIO_GOAL)}`, percent(ratio), ratio >= HIT_RATIO_GOAL && tally.failed === 0)
  check('1 answers with Set-Cookie (cached)', '0 (0)', `${tally.withCookie} (${tally.storedWithCookie})`, tally.withCookie === 0)
}

async function loginLimit(cluster: Cluster): Promise<void> {
  console.log(`\n2. Log-in limit: ${LOGIN_LIMIT + 1} log-ins from ${CLIENTS.limits} through the edge (round robin over the processes)`)
  const attempts = await logIns(cluster, CLIENTS.limits, LOGIN_LIMIT + 1, 'limit')
  const answeredBy = new Set(attempts.map((attempt) => attempt.site))
  console.log(`   ${describeAttempts(attempts)}`)
  const last = attempts[LOGIN_LIMIT]!
  check(`2 log-in ${LOGIN_LIMIT + 1} from one address`, '429', `${last.status} (${last.site})`, limitHeld(attempts))
  check('2 processes that took part', String(SITE_COUNT), String([...answeredBy].filter((name) => name !== '?').length), answeredBy.size === SITE_COUNT && !answeredBy.has('?'))
}

async function crash(cluster: Cluster): Promise<void> {
  const victim = cluster.sites[1]!
  console.log(`\n3. Crash: page views with a new query string each (${ORIGIN_CONNECTIONS} connections); ${victim.name} killed with SIGKILL after 3 s, then started again`)
  const mark = logMark(cluster.accessLog)
  const load = startLoad(cluster.edgePort, ORIGIN_CONNECTIONS, uncachedPage('crash'))
  await sleep(3_000)
  const inFlight = load.tally.requests
  await stopChild(victim.child!, 'SIGKILL')
  const upMs = await startSite(victim, cluster.siteEnv)
  const backMs = await waitForTraffic(victim)
  await sleep(1_000)
  const tally = await load.stop()
  const edge = edgeLog(cluster.accessLog, mark)
  console.log(
    `   killed after ${inFlight} requests; answering /healthz again in ${seconds(upMs)}, back in nginx's turn ${seconds(backMs)} later; ` +
      `${tally.requests} requests in ${seconds(tally.elapsedMs)} (${Math.round(tally.requests / (tally.elapsedMs / 1000))}/s), failed ${tally.failed}${describeFailures(tally)}`,
  )
  console.log(`   requests nginx moved to another process: ${edge.movedOn}; 502/504 from nginx: ${edge.gatewayErrors}; answers cut short by the kill: ${tally.cutShort}`)
  check('3 failed page views, SIGKILL', '0', `${tally.failed - tally.cutShort} of ${tally.requests}`, tally.failed === tally.cutShort)
  // An answer the process had begun to send when it died cannot be sent again by nginx (nor by
  // any proxy): counted apart, and a note rather than a failure.
  check('3 answers cut short by the kill', '0', String(tally.cutShort), tally.cutShort === 0 || 'note')
}

async function rollingRestart(cluster: Cluster): Promise<void> {
  console.log(`\n4. Rolling restart under load (${ORIGIN_CONNECTIONS} connections, a new query string each): SIGTERM, start again, wait until it answers and gets traffic, next`)
  const mark = logMark(cluster.accessLog)
  const load = startLoad(cluster.edgePort, ORIGIN_CONNECTIONS, uncachedPage('deploy'))
  await sleep(2_000)
  const exits: (number | null)[] = []
  for (const site of cluster.sites) {
    const { code, ms } = await stopChild(site.child!, 'SIGTERM')
    exits.push(code)
    const upMs = await startSite(site, cluster.siteEnv)
    const backMs = await waitForTraffic(site)
    console.log(`   ${site.name}: exited ${code} after ${seconds(ms)}, answering again in ${seconds(upMs)}, in nginx's turn ${seconds(backMs)} later`)
  }
  await sleep(1_000)
  const tally = await load.stop()
  const edge = edgeLog(cluster.accessLog, mark)
  console.log(`   ${tally.requests} requests in ${seconds(tally.elapsedMs)} (${Math.round(tally.requests / (tally.elapsedMs / 1000))}/s), failed ${tally.failed}${describeFailures(tally)}; moved to another process by nginx: ${edge.movedOn}`)
  check('4 failed page views, rolling restart', '0', `${tally.failed} of ${tally.requests}`, tally.failed === 0)
  check('4 exit codes after SIGTERM', exits.map(() => '0').join(' '), exits.join(' '), exits.every((code) => code === 0))
}

async function redisOutage(cluster: Cluster): Promise<void> {
  console.log(`\n5. Redis away for ${seconds(REDIS_OUTAGE_MS)} under load (${ORIGIN_CONNECTIONS} connections, a new query string each)`)
  const connected = await redisClients(cluster.redis.url)
  const warningsBefore = cluster.sites.map(outageWarnings)
  const load = startLoad(cluster.edgePort, ORIGIN_CONNECTIONS, uncachedPage('redis'))
  await sleep(2_000)
  await cluster.redis.stop()
  const stoppedAt = Date.now()
  // Log-ins while it is away, from one address, a few at once: each process counts them on its own meanwhile.
  const during: (number | string)[] = []
  let sent = 0
  const loginClient = async () => {
    while (Date.now() - stoppedAt < REDIS_OUTAGE_MS - 1_500) during.push(await logIn(cluster, CLIENTS.duringOutage, `scale-outage-${++sent}@example.com`))
  }
  await Promise.all([loginClient(), loginClient(), loginClient()])
  await sleep(Math.max(0, REDIS_OUTAGE_MS - (Date.now() - stoppedAt)))
  await cluster.redis.start()
  const reconnectMs = await waitFor('every process connected to Redis again', async () => (await redisClients(cluster.redis.url)) >= SITE_COUNT, 20_000)
  const tally = await load.stop()
  const after = await logIns(cluster, CLIENTS.afterOutage, LOGIN_LIMIT + 1, 'after-outage')
  const warned = cluster.sites.map((site, index) => outageWarnings(site) - warningsBefore[index]!)

  const byStatus = new Map<string, number>()
  for (const status of during) bump(byStatus, String(status))
  const unexpected = during.filter((status) => status !== 401 && status !== 429).length
  console.log(`   Redis connections before: ${connected}; all ${SITE_COUNT} processes back on Redis ${seconds(reconnectMs)} after it returned`)
  console.log(`   log-ins while away from ${CLIENTS.duringOutage}: ${during.length}, answered ${[...byStatus].map(([status, count]) => `${status} ×${count}`).join(', ')}`)
  console.log(`   warnings logged about it: ${cluster.sites.map((site, index) => `${site.name} ${warned[index]}`).join(', ')}`)
  console.log(`   after it returned, from ${CLIENTS.afterOutage}: ${describeAttempts(after)}`)
  console.log(`   page views: ${tally.requests} in ${seconds(tally.elapsedMs)}, failed ${tally.failed}${describeFailures(tally)}`)
  const last = after[LOGIN_LIMIT]!
  check('5 failed page views, Redis away', '0', `${tally.failed} of ${tally.requests}`, tally.failed === 0)
  check('5 log-ins while away not 401/429', '0', `${unexpected} of ${during.length}`, unexpected === 0 && during.length > 0)
  check(`5 log-in ${LOGIN_LIMIT + 1} once Redis is back`, '429', `${last.status} (${last.site})`, limitHeld(after))
}

/** How often the process has logged that Redis is away (at warn level, so it is in its log). */
function outageWarnings(site: Site): number {
  return readFileSync(site.logFile, 'utf8').split('\n').filter((line) => line.includes('shared counters (Redis) unavailable')).length
}

function printSummary(elapsedMs: number) {
  const width = (key: keyof Check, title: string) => Math.max(title.length, ...checks.map((row) => String(row[key]).length))
  const columns = [
    ['name', 'check'],
    ['goal', 'goal'],
    ['measured', 'measured'],
  ] as const
  const widths = columns.map(([key, title]) => width(key, title))
  const row = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index]!)).join('  ')
  console.log(`\nSummary (${seconds(elapsedMs)})`)
  console.log(`${row(columns.map(([, title]) => title))}  result`)
  for (const line of checks) console.log(`${row([line.name, line.goal, line.measured])}  ${line.ok === 'note' ? 'note' : line.ok ? 'ok' : 'FAIL'}`)
}

// ---------------------------------------------------------------------------------------------

/** Stops what runs; the folder goes too, unless the logs in it may tell what went wrong. */
async function stopEverything(dir: string, keepLogs: boolean) {
  await redisServer?.stop()
  await Promise.all([...children].map((child) => stopChild(child, 'SIGTERM', 5_000)))
  if (keepLogs) console.error(`The processes' logs are kept in ${dir} (web.N.log, nginx/error.log, nginx/access.log).`)
  else rmSync(dir, { recursive: true, force: true })
}

async function main(): Promise<number> {
  const started = Date.now()
  const missing = ensureDebianTools([REDIS_SERVER, NGINX])
  if (missing.length > 0) {
    console.error(`npm run scale needs ${missing.map((tool) => `${tool.binary} (Debian package ${tool.package})`).join(' and ')}`)
    return 1
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'poplift-scale-'))
  let stopping = false
  const interrupt = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    console.log(`\n${signal}: stopping everything`)
    void stopEverything(dir, false).finally(() => process.exit(130))
  }
  process.on('SIGINT', interrupt)
  process.on('SIGTERM', interrupt)
  // The last resort, should this process end some other way.
  process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')))
  let finished = false
  try {
    const cluster = await startCluster(toolPath(NGINX)!, dir)
    await edgeCache(cluster)
    await loginLimit(cluster)
    await crash(cluster)
    await rollingRestart(cluster)
    await redisOutage(cluster)
    finished = true
  } finally {
    stopping = true
    await stopEverything(dir, !finished || checks.some((line) => line.ok === false))
  }
  printSummary(Date.now() - started)
  return checks.every((line) => line.ok !== false) ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
