/**
 * `npm run bench:live`: what evergreen live timers cost against fixed ones, and what a large send
 * does to the process and the first-open store.
 *
 * 1. Opens per second (autocannon, a child process, loopback only): a fixed timer, then an
 *    evergreen timer of the same look where every request is a new recipient, once with the
 *    embedded store (SQLite in a temp folder) and once with Redis (a throwaway redis-server).
 * 2. 100,000 recipients opening one evergreen timer within a minute, on a fake clock, with the
 *    per-timer cap at 50,000: images drawn against the minute's buckets, the store's size, RSS and
 *    the store's growth.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import express from 'express'
import { Redis } from 'ioredis'
import { pino } from 'pino'
import { FIRST_OPENS_FILE } from '../server/giffer/context.js'
import { redisFirstOpens, sqliteFirstOpens, type FirstOpenStore } from '../server/giffer/live/first-opens.js'
import type { GifferOptions } from '../server/giffer/config.js'
import { createGifferRouter, type GifferRouter } from '../server/giffer/router.js'
import { readBox } from '../server/process/box.js'
import { sizeProcess } from '../server/process/sizing.js'
import { projectRoot } from '../server/project-root.js'
import { startRedis, type TestRedis } from '../tests/support/redis.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = 20
const SEND = { recipients: 100_000, seconds: 60, perTimer: 50_000, concurrency: 200 }
const BUCKET_SECONDS = 5
const logger = pino({ level: 'silent' })
const MB = 2 ** 20

interface AutocannonResult {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number }
  non2xx: number
  errors: number
}

/**
 * autocannon in a child process, so that the load does not share the server's event loop. With
 * `newRecipients`, each request's path ends in a recipient key of its own (the URL ends in `r=`).
 */
function autocannon(url: string, seconds: number, newRecipients = false): Promise<AutocannonResult> {
  const runner = `
    const autocannon = require('autocannon')
    let n = 0
    const options = { url: ${JSON.stringify(url)}, connections: ${CONNECTIONS}, duration: ${seconds} }
    if (${newRecipients}) options.requests = [{ setupRequest: (request) => ({ ...request, path: request.path + 'recipient-' + process.pid + '-' + n++ }) }]
    autocannon(options, (error, result) => {
      if (error) throw error
      process.stdout.write(JSON.stringify(result))
    })`
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', runner], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'] })
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000)
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', reject)
    child.on('exit', () => {
      clearTimeout(timer)
      try {
        resolve(JSON.parse(out) as AutocannonResult)
      } catch (error) {
        reject(error)
      }
    })
  })
}

interface Served {
  base: string
  router: GifferRouter
  close(): Promise<void>
}

async function serve(options: Partial<GifferOptions> & { stateDir: string }): Promise<Served> {
  const router = createGifferRouter({ publicPath: '/giffer', publicOrigin: 'http://127.0.0.1', secret: 'bench-secret-not-for-production', logger, ...sizeProcess(readBox(), 'giffer', { renders: true }), liveBucketSeconds: BUCKET_SECONDS, ...options })
  const app = express()
  app.use('/giffer', router)
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    base,
    router,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await router.close()
    },
  }
}

/** A live timer's path on `base`, minted there. */
async function mint(base: string, body: object): Promise<string> {
  const style = { font: 'roboto', color: '#111827', background: '#ffffff', days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' }
  const res = await fetch(`${base}/giffer/countdown/live-url`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...style, ...body }), signal: AbortSignal.timeout(10_000) })
  if (!res.ok) throw new Error(`live-url: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { url: string }).url.replace('http://127.0.0.1/', `${base}/`)
}

/** GET `url` on a keep-alive agent; resolves with the status. */
function get(agent: http.Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, timeout: 30_000 }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('timeout', () => req.destroy(new Error('timed out')))
    req.on('error', reject)
  })
}

const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`

async function opensPerSecond(label: string, options: Partial<GifferOptions> & { stateDir: string }): Promise<string[]> {
  const served = await serve(options)
  try {
    const fixed = await mint(served.base, { until: new Date(Date.now() + 3_600_000).toISOString() })
    const evergreen = await mint(served.base, { kind: 'evergreen', for: 3600 })
    // Warm: the thread, the fonts and the first images.
    const agent = new http.Agent({ keepAlive: true })
    for (let n = 0; n < 20; n++) await get(agent, fixed), await get(agent, `${evergreen}warm-${n}`)
    agent.destroy()
    const a = await autocannon(fixed, SECONDS)
    const b = await autocannon(evergreen, SECONDS, true)
    const ratio = b.requests.average / a.requests.average
    console.log(`${label}: fixed ${a.requests.average.toFixed(0)}/s, evergreen (a new recipient each) ${b.requests.average.toFixed(0)}/s, ratio ${ratio.toFixed(2)} (goal ≥ 0.8)`)
    return [
      row([`fixed, ${label}`, a.requests.average.toFixed(0), a.latency.p50, a.latency.p99, a.non2xx + a.errors, '']),
      row([`evergreen, ${label}`, b.requests.average.toFixed(0), b.latency.p50, b.latency.p99, b.non2xx + b.errors, `${ratio.toFixed(2)} of fixed`]),
    ]
  } finally {
    await served.close()
  }
}

async function storeBytes(kind: 'sqlite' | 'redis', stateDir: string, redis: Redis): Promise<number> {
  if (kind === 'redis') return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1])
  let total = 0
  for (const suffix of ['', '-wal', '-shm']) total += await stat(path.join(stateDir, FIRST_OPENS_FILE + suffix)).then((s) => s.size, () => 0)
  return total
}

async function largeSend(kind: 'sqlite' | 'redis', testRedis: TestRedis): Promise<string> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'live-send-'))
  const redis = new Redis(testRedis.url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, commandTimeout: 2_000 })
  await testRedis.flush()
  const start = Date.UTC(2026, 10, 28, 12)
  let clock = start
  const served = await serve({ stateDir, now: () => clock, liveTimerKeys: { perTimer: SEND.perTimer }, ...(kind === 'redis' ? { redis } : {}) })
  const agent = new http.Agent({ keepAlive: true, maxSockets: SEND.concurrency })
  try {
    const evergreen = await mint(served.base, { kind: 'evergreen', for: 3600 })
    globalThis.gc?.()
    const rssBefore = process.memoryUsage().rss
    const bytesBefore = await storeBytes(kind, stateDir, redis)
    const drawnBefore = served.router.stats?.completed ?? 0
    const statuses = new Map<number, number>()
    let next = 0
    const began = performance.now()
    await Promise.all(
      Array.from({ length: SEND.concurrency }, async () => {
        while (next < SEND.recipients) {
          const n = next++
          clock = start + Math.floor((n * SEND.seconds * 1000) / SEND.recipients)
          const status = await get(agent, `${evergreen}subscriber-${n}%40example.com`)
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
        }
      }),
    )
    const seconds = (performance.now() - began) / 1000
    const drawn = (served.router.stats?.completed ?? 0) - drawnBefore
    const store: FirstOpenStore =
      kind === 'redis' ? redisFirstOpens({ redis, limits: { perTimer: SEND.perTimer, total: 1e9, keepAfterMs: 30 * 86_400_000 }, logger }) : sqliteFirstOpens({ file: path.join(stateDir, FIRST_OPENS_FILE), limits: { perTimer: SEND.perTimer, total: 1e9, keepAfterMs: 30 * 86_400_000 }, logger })
    const size = await store.size(clock)
    await store.close()
    const peakRss = process.resourceUsage().maxRSS * 1024
    globalThis.gc?.()
    const rssAfter = process.memoryUsage().rss
    const growth = (await storeBytes(kind, stateDir, redis)) - bytesBefore
    const buckets = SEND.seconds / BUCKET_SECONDS + 1
    const non200 = SEND.recipients - (statuses.get(200) ?? 0)
    console.log(
      `${kind}: ${SEND.recipients} recipients in ${seconds.toFixed(1)} s (${(SEND.recipients / seconds).toFixed(0)}/s), ${drawn} images drawn for ${buckets} buckets, store ${size} entries (cap ${SEND.perTimer}), ` +
        `non-200 ${non200}, RSS ${(rssBefore / MB).toFixed(0)} → ${(rssAfter / MB).toFixed(0)} MB (peak ${(peakRss / MB).toFixed(0)} MB), store +${(growth / MB).toFixed(1)} MB`,
    )
    return row([kind === 'redis' ? 'Redis' : 'embedded (SQLite)', `${(SEND.recipients / seconds).toFixed(0)}/s`, `${drawn} (≤ ${buckets})`, `${size} (cap ${SEND.perTimer})`, non200, `${(rssBefore / MB).toFixed(0)} → ${(rssAfter / MB).toFixed(0)} MB`, `+${(growth / MB).toFixed(1)} MB`])
  } finally {
    agent.destroy()
    await served.close()
    redis.disconnect()
    await rm(stateDir, { recursive: true, force: true })
  }
}

async function main() {
  console.log(`gc between phases: ${globalThis.gc ? 'yes' : 'no (run with node --expose-gc for settled RSS)'}`)
  const testRedis = await startRedis()
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-'))
  const redis = new Redis(testRedis.url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, commandTimeout: 2_000 })
  try {
    const opens = [...(await opensPerSecond('embedded', { stateDir })), ...(await opensPerSecond('Redis', { stateDir, redis }))]
    const sends = [await largeSend('sqlite', testRedis), await largeSend('redis', testRedis)]
    console.log(`\nOpens per second (${CONNECTIONS} connections, ${SECONDS} s each, this machine: ${os.cpus().length} CPUs, Node ${process.versions.node}):\n`)
    console.log(row(['timer', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'evergreen/fixed']))
    console.log(row(['---', '---', '---', '---', '---', '---']))
    console.log(opens.join('\n'))
    console.log(`\n${SEND.recipients.toLocaleString('en')} recipients opening one evergreen timer within ${SEND.seconds} s (fake clock), cap ${SEND.perTimer.toLocaleString('en')} per timer:\n`)
    console.log(row(['store', 'opens', 'images drawn', 'entries kept', 'non-200', 'RSS before → after', 'store growth']))
    console.log(row(['---', '---', '---', '---', '---', '---', '---']))
    console.log(sends.join('\n'))
  } finally {
    redis.disconnect()
    await testRedis.stop()
    await rm(stateDir, { recursive: true, force: true })
  }
}

await main()
