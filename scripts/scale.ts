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
 *                401 or 429 and never 5xx, and once it is back the limit holds across processes;
 *   6. upload    a photo of about 4.2 MB (the largest request a visitor sends; nginx's default
 *                body limit is 1 MB) signed, posted and resolved through the edge, then read
 *                back through it byte for byte.
 *
 * The loads of 3 to 5 put a new query string on every page view, so that each one reaches a
 * process. Which process answered a log-in is read from the processes' own /metrics (the site
 * sends no header naming its process). Prints the figures and a summary; exits 1 when a goal is
 * missed. Everything it starts is stopped at the end, on Ctrl-C and on a failure (which keeps
 * the logs). Needs Debian's redis-server and nginx (installed when run as root on Debian).
 *
 * `npm run scale -- machines` runs another arrangement instead: each process on a machine of its
 * own, nothing shared on disk (scripts/scale-machines.ts).
 *
 * Client addresses: nginx passes the address that connected to it as X-Forwarded-For (nothing
 * the client wrote), and every 127.x.x.x address is this machine. So each log-in check connects
 * from an address of its own (127.0.0.2, .3, .4), a visitor that no earlier check has counted.
 */
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { Redis } from 'ioredis'
import { DEFAULT_LIMITS } from '../server/accounts/rate-limits.js'
import { AUTH_API } from '../shared/accounts/client.js'
import { startRedis, type TestRedis } from '../tests/support/redis.js'
import { NGINX, REDIS_SERVER, toolPath } from './lib/debian-tools.js'
import {
  accountPosts,
  check,
  CutShort,
  grainyPhoto,
  megabytes,
  multipartForm,
  onStop,
  pageViews,
  readinessOf,
  percent,
  runChecks,
  scrape,
  seconds,
  send,
  sleep,
  startEdge,
  startService,
  stopChild,
  waitFor,
  type Service,
} from './lib/scale-run.js'
import { freePort, PRODUCTION_ENV } from './lib/server-process.js'

/** Web processes in front of which nginx runs (its upstream lists each one). */
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
const BROWSER_HEADERS = { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' }
const CLIENTS = { limits: '127.0.0.2', duringOutage: '127.0.0.3', afterOutage: '127.0.0.4' }

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
  const pool = new http.Agent({ keepAlive: true, maxSockets: connections })
  const tally: LoadTally = { requests: 0, failed: 0, cutShort: 0, failures: new Map(), cacheStatus: new Map(), withCookie: 0, storedWithCookie: 0, latenciesMs: [], elapsedMs: 0 }
  let issued = 0
  let stopped = false
  const started = performance.now()
  const client = async () => {
    while (!stopped && issued < total) {
      const target = pathOf(issued++)
      const sent = performance.now()
      try {
        const answer = await send(port, { path: target, headers: BROWSER_HEADERS, pool })
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
    pool.destroy()
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

interface Cluster {
  redis: TestRedis
  sites: Site[]
  edgePort: number
  publicUrl: string
  accessLog: string
  siteEnv: Record<string, string>
}

/** A web process of the cluster. */
type Site = Service

/** Starts (or starts again, on its own port) one web process; resolves with how long it took to answer /readyz (ready to take traffic). */
function startSite(site: Site, env: Record<string, string>): Promise<number> {
  return startService(site, { args: ['--expose-gc', 'dist/server/main.js'], env: { ...process.env, ...PRODUCTION_ENV, ...env, PORT: String(site.port) } })
}

async function startCluster(nginx: string, dir: string): Promise<Cluster> {
  const edgeDir = path.join(dir, 'nginx')
  const stateDir = path.join(dir, 'state')
  for (const folder of [edgeDir, stateDir]) mkdirSync(folder)
  // nginx's workers drop root for `nobody`, and must reach their cache and temporary files.
  chmodSync(dir, 0o755)
  chmodSync(edgeDir, 0o755)

  const redis = await startRedis()
  onStop(() => redis.stop())
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
    `   killed after ${inFlight} requests; ready again in ${seconds(upMs)}, back in nginx's turn ${seconds(backMs)} later; ` +
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
  const unready: boolean[] = []
  for (const site of cluster.sites) {
    const stopped = stopChild(site.child!, 'SIGTERM')
    // While it drains, the process still serves but says it is not ready.
    const drainingMs = await waitFor(`${site.name} to answer /readyz 503`, async () => (await readinessOf(site.port)) === 503, 3_000).catch(() => null)
    unready.push(drainingMs !== null)
    const { code, ms } = await stopped
    exits.push(code)
    const upMs = await startSite(site, cluster.siteEnv)
    const backMs = await waitForTraffic(site)
    console.log(
      `   ${site.name}: /readyz 503 ${drainingMs === null ? 'never' : `${seconds(drainingMs)} after SIGTERM`}, exited ${code} after ${seconds(ms)}, ` +
        `ready again in ${seconds(upMs)}, in nginx's turn ${seconds(backMs)} later`,
    )
  }
  await sleep(1_000)
  const tally = await load.stop()
  const edge = edgeLog(cluster.accessLog, mark)
  console.log(`   ${tally.requests} requests in ${seconds(tally.elapsedMs)} (${Math.round(tally.requests / (tally.elapsedMs / 1000))}/s), failed ${tally.failed}${describeFailures(tally)}; moved to another process by nginx: ${edge.movedOn}`)
  check('4 failed page views, rolling restart', '0', `${tally.failed} of ${tally.requests}`, tally.failed === 0)
  check('4 exit codes after SIGTERM', exits.map(() => '0').join(' '), exits.join(' '), exits.every((code) => code === 0))
  check('4 /readyz 503 while draining', `${unready.length} of ${unready.length}`, `${unready.filter(Boolean).length} of ${unready.length}`, unready.every(Boolean))
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

/** The upload of check 6: past nginx's default 1 MB body, within the site's 5 MB (about 4.2 MB as PNG). */
const UPLOAD_PHOTO = { width: 1500, height: 1000 }

/** Which process nginx sent each request after `mark` to, as `METHOD path → web.N`, in order. */
function edgeRoutes(cluster: Cluster, mark: number): string[] {
  const names = new Map(cluster.sites.map((site) => [`127.0.0.1:${site.port}`, site.name]))
  return readFileSync(cluster.accessLog)
    .subarray(mark)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const request = /"(\w+) ([^"? ]+)/.exec(line)
      const upstream = /upstream="([^"]*)"/.exec(line)?.[1] ?? '-'
      const status = / (\d{3}) "/.exec(line)?.[1] ?? '?'
      return `${request?.[1]} ${request?.[2]?.replace(/\/uploads\/\d{4}-.*/, '/uploads/…')} → ${names.get(upstream) ?? (upstream === '-' ? 'edge' : upstream)} ${status}`
    })
}

/**
 * A visitor's largest kind of request: a photo for the slideshow, signed, posted as the page's
 * uploader posts it, resolved, and read back, every step through the edge (local store, the
 * processes' shared DATA_DIR, so each step may reach another process).
 */
async function upload(cluster: Cluster): Promise<void> {
  const photo = await grainyPhoto(UPLOAD_PHOTO.width, UPLOAD_PHOTO.height)
  console.log(`\n6. Upload through the edge: a ${megabytes(photo.length)} PNG photo (${UPLOAD_PHOTO.width}×${UPLOAD_PHOTO.height}) signed, posted and resolved, then read back`)
  const mark = logMark(cluster.accessLog)
  const edge = (options: Parameters<typeof send>[1]) => send(cluster.edgePort, { ...options, headers: { origin: cluster.publicUrl, ...options.headers } })
  const json = (answer: { body: Buffer }) => JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>
  let posted = 'not sent'
  let readBack = 'not read'
  let ok = false
  const signed = await edge({ method: 'POST', path: '/giffer/uploads/sign', headers: { accept: 'application/json' } })
  if (signed.status !== 200) posted = `sign ${signed.status}`
  else {
    const { url, key, fields } = json(signed) as { url: string; key: string; fields: Record<string, string> }
    const name = 'photo-1.png'
    const named = key.replace('${filename}', name)
    const form = multipartForm(
      [...Object.entries(fields).map(([field, value]): [string, string] => [field, field === 'key' ? named : value]), ['Content-Type', 'image/png'], ['Content-Disposition', 'inline']],
      { field: 'file', name, type: 'image/png', bytes: photo },
    )
    const target = new URL(url, cluster.publicUrl)
    console.log(`   the form: ${form.body.length} bytes, the photo's ${photo.length} and ${form.body.length - photo.length} of fields and part headers`)
    const answer = await edge({ method: 'POST', path: target.pathname, headers: { 'content-type': form.contentType }, body: form.body })
    posted = String(answer.status)
    if (answer.status !== 204) {
      const said = answer.body.toString('utf8').replace(/\s+/g, ' ').slice(0, 100)
      console.log(`   answered ${answer.status} by ${answer.headers.server ?? 'a process'}: ${said}`)
      const refusals = readFileSync(path.join(path.dirname(cluster.accessLog), 'error.log'), 'utf8').split('\n').filter((line) => line.includes('too large body'))
      for (const line of refusals) console.log(`   nginx/error.log: ${line.replace(/^.*\[error\] /, '')}`)
    } else {
      const resolved = await edge({ path: `/giffer/uploads/resolve?${new URLSearchParams({ key: named })}`, headers: { accept: 'application/json' } })
      if (resolved.status !== 200) readBack = `resolve ${resolved.status}`
      else {
        const location = new URL(String(json(resolved).url), cluster.publicUrl)
        const read = await edge({ path: location.pathname })
        ok = read.status === 200 && read.body.equals(photo)
        readBack = read.status !== 200 ? `status ${read.status}` : ok ? `identical (${megabytes(read.body.length)})` : `differs (${megabytes(read.body.length)})`
        console.log(`   ${location.pathname}: ${read.status} ${read.headers['content-type']}, ${read.body.length} bytes, X-Cache-Status ${read.headers['x-cache-status']}`)
      }
    }
  }
  // nginx writes a line once it is done with the request, which for a refused body may come after its answer.
  await sleep(500)
  console.log(`   through nginx: ${edgeRoutes(cluster, mark).join(';  ')}`)
  check(`6 upload of ${megabytes(photo.length)} through the edge`, '204', posted, posted === '204')
  check('6 the upload read back through the edge', 'identical', readBack, ok)
}

/** How often the process has logged that Redis is away (at warn level, so it is in its log). */
function outageWarnings(site: Site): number {
  return readFileSync(site.logFile, 'utf8').split('\n').filter((line) => line.includes('shared counters (Redis) unavailable')).length
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const mode = process.argv[2]
  if (mode === 'machines') return (await import('./scale-machines.js')).runMachines()
  if (mode !== undefined) {
    console.error(`npm run scale: unknown mode ${JSON.stringify(mode)}; run it without one, or with \`-- machines\``)
    return 2
  }
  return runChecks({
    tools: [REDIS_SERVER, NGINX],
    name: 'poplift-scale',
    logs: 'web.N.log, nginx/error.log, nginx/access.log',
    async body(dir) {
      const cluster = await startCluster(toolPath(NGINX)!, dir)
      await edgeCache(cluster)
      await loginLimit(cluster)
      await crash(cluster)
      await rollingRestart(cluster)
      await redisOutage(cluster)
      await upload(cluster)
    },
  })
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
