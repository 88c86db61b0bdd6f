/**
 * The first-open store of evergreen live timers, on both backends: a real SQLite file in a
 * temporary folder and a real Redis. Time is a fixed clock given to each call.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { Redis } from 'ioredis'
import { pino, type Logger } from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { redisFirstOpens, sqliteFirstOpens, type FirstOpenLimits, type FirstOpenStore } from '../../server/giffer/live/first-opens.js'
import { startRedis, type TestRedis } from '../support/redis.js'

const NOW = Date.UTC(2025, 5, 1, 12)
const HOUR = 3_600_000
const DAY = 24 * HOUR
const SMALL: FirstOpenLimits = { perTimer: 3, total: 5, keepAfterMs: DAY }
const silent = pino({ level: 'silent' })

let dir: string
let redis: TestRedis
let client: Redis
const opened: FirstOpenStore[] = []
const connections: Redis[] = []

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'first-opens-'))
  redis = await startRedis()
  client = new Redis(redis.url)
})

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()))
  for (const connection of connections.splice(0)) connection.disconnect()
  await redis.start()
  await client.flushall()
})

afterAll(async () => {
  client?.disconnect()
  await redis?.stop()
  await rm(dir, { recursive: true, force: true })
})

let files = 0
const newFile = () => path.join(dir, `store-${++files}`, 'live-timers.sqlite')

function sqliteStore(limits = SMALL, file = newFile(), logger: Logger = silent) {
  const store = sqliteFirstOpens({ file, limits, logger })
  opened.push(store)
  return store
}

function redisStore(limits = SMALL, connection = client, logger: Logger = silent) {
  const store = redisFirstOpens({ redis: connection, limits, logger })
  opened.push(store)
  return store
}

/** A second connection to the test Redis, as another process has; failing fast when Redis is away. */
function redisConnection() {
  const connection = new Redis(redis.url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, commandTimeout: 500 })
  connection.on('error', () => undefined)
  connections.push(connection)
  return connection
}

async function ready(connection: Redis) {
  for (let i = 0; i < 400 && connection.status !== 'ready'; i++) await new Promise((resolve) => setTimeout(resolve, 25))
  expect(connection.status).toBe('ready')
}

/** A logger whose warnings the test reads. */
function recordingLogger() {
  const warnings: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) warnings.push(JSON.parse(line).msg)
      callback()
    },
  })
  return { logger: pino({ level: 'warn' }, sink), warnings }
}

/** Lets pino's stream write what it was given. */
const flushed = () => new Promise((resolve) => setImmediate(resolve))

describe.each([
  { backend: 'SQLite', open: (limits?: FirstOpenLimits, logger?: Logger) => sqliteStore(limits, undefined, logger) },
  { backend: 'Redis', open: (limits?: FirstOpenLimits, logger?: Logger) => redisStore(limits, undefined, logger) },
])('first opens in $backend', ({ open }) => {
  it('stores the first open and gives its deadline to every later open, whatever their candidate', async () => {
    const store = open()
    expect(await store.firstOpen('timer', 'alice', NOW + 48 * HOUR, NOW)).toEqual({ outcome: 'created', deadline: NOW + 48 * HOUR })
    expect(await store.firstOpen('timer', 'alice', NOW + 50 * HOUR, NOW + 2 * HOUR)).toEqual({ outcome: 'stored', deadline: NOW + 48 * HOUR })
    expect(await store.firstOpen('timer', 'bob', NOW + 50 * HOUR, NOW + 2 * HOUR)).toEqual({ outcome: 'created', deadline: NOW + 50 * HOUR })
    expect(await store.firstOpen('other', 'alice', NOW + HOUR, NOW)).toEqual({ outcome: 'created', deadline: NOW + HOUR })
  })

  it('gives 50 concurrent first opens of one key one deadline, stored by exactly one of them', async () => {
    const store = open()
    const opens = await Promise.all(Array.from({ length: 50 }, (_, i) => store.firstOpen('timer', 'alice', NOW + HOUR + i, NOW)))
    expect(opens.filter((opened) => opened.outcome === 'created')).toHaveLength(1)
    expect(new Set(opens.map((opened) => opened.deadline)).size).toBe(1)
    expect(await store.size(NOW)).toBe(1)
  })

  it('keeps a preset deadline: a second preset and the first open get it, unmoved', async () => {
    const store = open()
    expect(await store.preset('timer', 'alice', NOW + 5 * HOUR, NOW)).toEqual({ outcome: 'created', deadline: NOW + 5 * HOUR })
    expect(await store.preset('timer', 'alice', NOW + 9 * HOUR, NOW)).toEqual({ outcome: 'stored', deadline: NOW + 5 * HOUR })
    expect(await store.firstOpen('timer', 'alice', NOW + 48 * HOUR, NOW + HOUR)).toEqual({ outcome: 'stored', deadline: NOW + 5 * HOUR })
  })

  it('shows a new key of a full timer its candidate, unstored (timer_full), while other timers still store', async () => {
    const store = open()
    for (const key of ['a', 'b', 'c']) expect((await store.firstOpen('timer', key, NOW + HOUR, NOW)).outcome).toBe('created')
    expect(await store.firstOpen('timer', 'd', NOW + 2 * HOUR, NOW)).toEqual({ outcome: 'timer_full', deadline: NOW + 2 * HOUR })
    expect(await store.preset('timer', 'd', NOW + 2 * HOUR, NOW)).toEqual({ outcome: 'timer_full' })
    expect(await store.firstOpen('timer', 'a', NOW + 2 * HOUR, NOW)).toEqual({ outcome: 'stored', deadline: NOW + HOUR })
    expect(await store.size(NOW)).toBe(3)
    expect((await store.firstOpen('other', 'd', NOW + HOUR, NOW)).outcome).toBe('created')
  })

  it('shows a new key its candidate, unstored (store_full), once the store holds its total', async () => {
    const store = open()
    for (const key of ['a', 'b', 'c']) await store.firstOpen('one', key, NOW + HOUR, NOW)
    for (const key of ['a', 'b']) await store.firstOpen('two', key, NOW + HOUR, NOW)
    expect(await store.firstOpen('three', 'a', NOW + 2 * HOUR, NOW)).toEqual({ outcome: 'store_full', deadline: NOW + 2 * HOUR })
    expect(await store.preset('two', 'c', NOW + 2 * HOUR, NOW)).toEqual({ outcome: 'store_full' })
    expect(await store.size(NOW)).toBe(5)
  })

  it('forgets an entry once its deadline is keepAfterMs behind: its room is freed and its key starts anew', async () => {
    const store = open()
    for (const key of ['a', 'b', 'c']) await store.firstOpen('timer', key, NOW + HOUR, NOW)
    const lastKept = NOW + HOUR + SMALL.keepAfterMs
    expect(await store.firstOpen('timer', 'a', lastKept + HOUR, lastKept)).toEqual({ outcome: 'stored', deadline: NOW + HOUR })
    expect((await store.firstOpen('timer', 'd', lastKept + HOUR, lastKept)).outcome).toBe('timer_full')
    expect(await store.size(lastKept)).toBe(3)

    const later = lastKept + 1
    expect(await store.firstOpen('timer', 'd', later + HOUR, later)).toEqual({ outcome: 'created', deadline: later + HOUR })
    expect(await store.firstOpen('timer', 'a', later + 2 * HOUR, later)).toEqual({ outcome: 'created', deadline: later + 2 * HOUR })
    expect(await store.size(later)).toBe(2)
  })

  it('counts the entries of every timer, leaving out the forgotten', async () => {
    const store = open({ perTimer: 10, total: 10, keepAfterMs: HOUR })
    expect(await store.size(NOW)).toBe(0)
    await store.firstOpen('one', 'a', NOW + HOUR, NOW)
    await store.firstOpen('one', 'b', NOW + 3 * HOUR, NOW)
    await store.preset('two', 'a', NOW + 5 * HOUR, NOW)
    expect(await store.size(NOW)).toBe(3)
    expect(await store.size(NOW + 2 * HOUR + 1)).toBe(2)
    expect(await store.size(NOW + 6 * HOUR + 1)).toBe(0)
  })

  it('warns of a full timer at most once a minute, and never fails for it', async () => {
    const { logger, warnings } = recordingLogger()
    const store = open({ perTimer: 1, total: 2, keepAfterMs: DAY }, logger)
    await store.firstOpen('timer', 'a', NOW + HOUR, NOW)
    await store.firstOpen('timer', 'b', NOW + HOUR, NOW)
    await store.firstOpen('timer', 'c', NOW + HOUR, NOW + 59_000)
    await flushed()
    expect(warnings).toHaveLength(1)
    await store.firstOpen('timer', 'c', NOW + HOUR, NOW + 60_000)
    await store.firstOpen('other', 'a', NOW + HOUR, NOW + 60_000)
    await store.firstOpen('third', 'a', NOW + HOUR, NOW + 60_000)
    await store.firstOpen('third', 'b', NOW + HOUR, NOW + 60_000)
    await flushed()
    expect(warnings).toHaveLength(3)
    expect(warnings[2]).toMatch(/store is full/)
  })

  it('refuses deadlines and clocks that are not whole, finite numbers', async () => {
    const store = open()
    await expect(store.firstOpen('timer', 'a', Number.NaN, NOW)).rejects.toThrow(RangeError)
    await expect(store.firstOpen('timer', 'a', Number.POSITIVE_INFINITY, NOW)).rejects.toThrow(RangeError)
    await expect(store.firstOpen('timer', 'a', NOW + 0.5, NOW)).rejects.toThrow(RangeError)
    await expect(store.preset('timer', 'a', NOW + HOUR, Number.NaN)).rejects.toThrow(RangeError)
    await expect(store.size(Number.POSITIVE_INFINITY)).rejects.toThrow(RangeError)
    await expect(store.firstOpen('a:b', 'a', NOW + HOUR, NOW)).rejects.toThrow(RangeError)
    await expect(store.firstOpen('timer', 'x'.repeat(65), NOW + HOUR, NOW)).rejects.toThrow(RangeError)
    expect(await store.size(NOW)).toBe(0)
  })
})

describe('first opens in SQLite', () => {
  it('keeps every entry across a restart (close and reopen of the file)', async () => {
    const file = newFile()
    const before = sqliteStore(SMALL, file)
    await before.firstOpen('timer', 'alice', NOW + HOUR, NOW)
    await before.preset('timer', 'bob', NOW + 2 * HOUR, NOW)
    await before.close()
    opened.splice(opened.indexOf(before), 1)

    const after = sqliteStore(SMALL, file)
    expect(after.kind).toBe('sqlite')
    expect(after.where).toBe(file)
    expect(await after.firstOpen('timer', 'alice', NOW + 9 * HOUR, NOW + HOUR)).toEqual({ outcome: 'stored', deadline: NOW + HOUR })
    expect(await after.firstOpen('timer', 'bob', NOW + 9 * HOUR, NOW + HOUR)).toEqual({ outcome: 'stored', deadline: NOW + 2 * HOUR })
    expect(await after.size(NOW + HOUR)).toBe(2)
    expect((await after.firstOpen('timer', 'carol', NOW + HOUR, NOW)).outcome).toBe('created')
    expect((await after.firstOpen('timer', 'dave', NOW + HOUR, NOW)).outcome).toBe('timer_full')
  })

  it('gives two stores on one file (two processes of a machine) one deadline under concurrent opens', async () => {
    const file = newFile()
    const [first, second] = [sqliteStore(SMALL, file), sqliteStore(SMALL, file)]
    const opens = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? first : second).firstOpen('timer', 'alice', NOW + HOUR + i, NOW)))
    expect(opens.filter((opened) => opened.outcome === 'created')).toHaveLength(1)
    expect(new Set(opens.map((opened) => opened.deadline)).size).toBe(1)
    await second.firstOpen('timer', 'bob', NOW + HOUR, NOW)
    await second.firstOpen('timer', 'carol', NOW + HOUR, NOW)
    expect((await first.firstOpen('timer', 'dave', NOW + HOUR, NOW)).outcome).toBe('timer_full')
  })

  it('keeps 50,000 of 100,000 keys opened in one timer of 50,000', { timeout: 60_000 }, async () => {
    const file = newFile()
    const store = sqliteStore({ perTimer: 50_000, total: 1_000_000, keepAfterMs: DAY }, file)
    const started = performance.now()
    let created = 0
    for (let i = 0; i < 100_000; i++) if ((await store.firstOpen('timer', `key-${i}`, NOW + HOUR, NOW)).outcome === 'created') created++
    const elapsed = performance.now() - started
    expect(created).toBe(50_000)
    expect(await store.size(NOW)).toBe(50_000)
    const bytes = (await stat(file)).size + (await stat(`${file}-wal`).catch(() => ({ size: 0 }))).size
    console.log(`SQLite: 100,000 first opens in ${Math.round(elapsed)} ms (${((elapsed * 1000) / 100_000).toFixed(1)} µs each); file and WAL ${(bytes / 2 ** 20).toFixed(1)} MB for 50,000 entries`)
  })
})

describe('first opens in Redis', () => {
  it('gives two stores on two connections (two processes) one deadline under concurrent opens', async () => {
    const [one, two] = [redisConnection(), redisConnection()]
    await Promise.all([ready(one), ready(two)])
    const [first, second] = [redisStore(SMALL, one), redisStore(SMALL, two)]
    expect(first.kind).toBe('redis')
    expect(first.where).toBe('Redis')
    const opens = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? first : second).firstOpen('timer', 'alice', NOW + HOUR + i, NOW)))
    expect(opens.filter((opened) => opened.outcome === 'created')).toHaveLength(1)
    expect(new Set(opens.map((opened) => opened.deadline)).size).toBe(1)
    await second.firstOpen('timer', 'bob', NOW + HOUR, NOW)
    await second.firstOpen('timer', 'carol', NOW + HOUR, NOW)
    expect((await first.firstOpen('timer', 'dave', NOW + HOUR, NOW)).outcome).toBe('timer_full')
  })

  it('rejects within a second while Redis is away, and stores again once it is back', async () => {
    const connection = redisConnection()
    const store = redisStore(SMALL, connection)
    await ready(connection)
    expect((await store.firstOpen('timer', 'alice', NOW + HOUR, NOW)).outcome).toBe('created')

    await redis.stop()
    const started = performance.now()
    await expect(store.firstOpen('timer', 'bob', NOW + HOUR, NOW)).rejects.toThrow()
    await expect(store.size(NOW)).rejects.toThrow()
    expect(performance.now() - started).toBeLessThan(1_000)

    await redis.start()
    await ready(connection)
    // A fresh Redis (nothing saved) knows neither the entries nor the script.
    expect(await store.firstOpen('timer', 'bob', NOW + HOUR, NOW)).toEqual({ outcome: 'created', deadline: NOW + HOUR })
    expect(await store.size(NOW)).toBe(1)
  })

  it('keeps 50,000 of 100,000 keys opened in one timer of 50,000', { timeout: 60_000 }, async () => {
    const store = redisStore({ perTimer: 50_000, total: 1_000_000, keepAfterMs: DAY })
    const started = performance.now()
    let created = 0
    for (let chunk = 0; chunk < 100; chunk++) {
      const opens = await Promise.all(Array.from({ length: 1_000 }, (_, i) => store.firstOpen('timer', `key-${chunk * 1_000 + i}`, NOW + HOUR, NOW)))
      created += opens.filter((opened) => opened.outcome === 'created').length
    }
    const elapsed = performance.now() - started
    expect(created).toBe(50_000)
    expect(await store.size(NOW)).toBe(50_000)
    const memory = String(await client.info('memory')).match(/used_memory:(\d+)/)?.[1]
    console.log(`Redis: 100,000 first opens in ${Math.round(elapsed)} ms (${((elapsed * 1000) / 100_000).toFixed(1)} µs each); used_memory ${(Number(memory) / 2 ** 20).toFixed(1)} MB for 50,000 entries`)
  })
})
