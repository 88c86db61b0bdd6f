/**
 * Two site processes sharing one Redis (REDIS_URL): the per-address limits and the per-email
 * log-in delay hold whichever process a request reaches, and a Redis that goes away takes
 * nothing down.
 */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import request from 'supertest'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { redisServerPath, startRedis, type TestRedis } from '../support/redis.js'
import { testSite } from './app.js'

const ORIGIN = 'https://site.example'
const PASSWORD = 'correct horse battery staple'

let redis: TestRedis
const sites: ReturnType<typeof testSite>[] = []

/** One site process with REDIS_URL, its log lines kept. */
function siteProcess(lines: string[] = []) {
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split('\n').filter(Boolean))
      callback()
    },
  })
  const site = testSite({ REDIS_URL: redis.url }, { logger: pino({ level: 'info' }, sink) })
  sites.push(site)
  return site
}

const register = (site: ReturnType<typeof testSite>, email: string) =>
  request(site.app).post('/app/api/v1/users/register').set('Origin', ORIGIN).send({ email, password: PASSWORD })
const logIn = (site: ReturnType<typeof testSite>, email: string, password = 'wrong password here') =>
  request(site.app).post('/app/api/v1/users/login?dual=1').set('Origin', ORIGIN).send({ email, password })

/** Waits until a site's Redis connection is up, so a test starts from shared counting. */
async function connected(site: ReturnType<typeof testSite>) {
  const counters = site.dashboard!.context.sharedCounters!
  for (let i = 0; i < 200 && counters.redis.status !== 'ready'; i++) await new Promise((resolve) => setTimeout(resolve, 25))
  expect(counters.redis.status).toBe('ready')
}

const hasRedis = redisServerPath() !== undefined
if (!hasRedis) console.warn('!!! redis-server is not installed: the shared-counter tests are SKIPPED (npm test installs it as root on Debian).')

beforeAll(async () => {
  if (hasRedis) redis = await startRedis()
})

afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.close()))
  if (!hasRedis) return
  await redis.start().catch(() => undefined)
  await redis.flush()
})

afterAll(async () => {
  await redis?.stop()
})

describe.skipIf(!hasRedis)('two processes sharing Redis', () => {
  it('answer one address’s 6th sign-up in 10 minutes with 429, whichever process gets it', async () => {
    const [a, b] = [siteProcess(), siteProcess()]
    await Promise.all([connected(a), connected(b)])
    const statuses: number[] = []
    for (let n = 0; n < 6; n++) statuses.push((await register(n % 2 ? b : a, `person${n}@example.com`)).status)
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429])
    const refused = await register(a, 'late@example.com').expect(429)
    expect(refused.headers['retry-after']).toMatch(/^\d+$/)
    expect(refused.body.message).toMatch(/^Too many attempts\. Try again in \d+ seconds?\.$/)
  })

  it('answer one address’s 11th log-in in a minute with 429, whichever process gets it', async () => {
    const [a, b] = [siteProcess(), siteProcess()]
    await Promise.all([connected(a), connected(b)])
    const statuses: number[] = []
    // Each try another email, so only the per-address limit counts.
    for (let n = 0; n < 11; n++) statuses.push((await logIn(n % 2 ? b : a, `nobody${n}@example.com`)).status)
    expect(statuses).toEqual([...Array(10).fill(401), 429])
  })

  it('share the per-email delay: after 5 failures on either process, the next try waits', async () => {
    const [a, b] = [siteProcess(), siteProcess()]
    await Promise.all([connected(a), connected(b)])
    const statuses: number[] = []
    for (let n = 0; n < 6; n++) statuses.push((await logIn(n % 2 ? b : a, 'target@example.com')).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
  })

  it('keep serving while Redis is away (counting in each process), warn once, and share again when it is back', async () => {
    const lines: string[] = []
    const a = siteProcess(lines)
    await connected(a)
    await redis.stop()

    await request(a.app).get('/pricing/').expect(200)
    const whileAway: number[] = []
    for (let n = 0; n < 11; n++) whileAway.push((await logIn(a, `away${n}@example.com`)).status)
    // The process's own memory still holds the limit.
    expect(whileAway).toEqual([...Array(10).fill(401), 429])
    const warnings = lines.filter((line) => line.includes('shared counters (Redis) unavailable'))
    expect(warnings.length).toBeGreaterThanOrEqual(1)
    expect(warnings.length).toBeLessThanOrEqual(2)
    expect(lines.filter((line) => JSON.parse(line).level >= 50)).toEqual([])

    await redis.start()
    await connected(a)
    const b = siteProcess()
    await connected(b)
    const afterwards: number[] = []
    for (let n = 0; n < 6; n++) afterwards.push((await register(n % 2 ? b : a, `back${n}@example.com`)).status)
    expect(afterwards).toEqual([201, 201, 201, 201, 201, 429])
    expect(lines.some((line) => line.includes('shared counters (Redis) back'))).toBe(true)
  })

  it('report Redis in /readyz, reachable or not, and stay ready while it is away: pages never need it', async () => {
    const a = siteProcess()
    await connected(a)
    const ready = await request(a.app).get('/readyz').expect(200)
    expect(ready.body).toEqual({ status: 'ready', dependencies: { redis: { reachable: true, optional: true } } })
    await redis.stop()
    await vi.waitFor(async () => {
      const away = await request(a.app).get('/readyz').expect(200)
      expect(away.body.dependencies.redis).toEqual({ reachable: false, optional: true })
    }, { timeout: 10_000, interval: 500 })
  })
})
