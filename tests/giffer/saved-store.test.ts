/**
 * The saved-timer store on both backends, a real SQLite file and a real Redis: timers kept,
 * changed at a version, removed with their counts, the cap, and counts by hour kept for their
 * time and no longer.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOUR_MS, redisSavedTimers, sqliteSavedTimers, type SavedTimerRecord, type SavedTimerStore } from '../../server/giffer/live/saved-store.js'
import { startRedis, type TestRedis } from '../support/redis.js'

// Near the real clock: Redis expires the days of counts by its own.
const NOW = Math.floor(Date.now() / HOUR_MS) * HOUR_MS + 30 * 60_000
let clock = NOW
let dir: string
let redis: TestRedis
let client: Redis
let files = 0

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'saved-timers-'))
  redis = await startRedis()
  client = new Redis(redis.url)
})

afterAll(async () => {
  client?.disconnect()
  await redis?.stop()
  await rm(dir, { recursive: true, force: true })
})

const record = (id: string, definition = '{"kind":"fixed"}'): SavedTimerRecord => ({ id, definition, version: 1, keyHash: `hash-${id}`, createdAt: NOW, updatedAt: NOW })

const backends: [string, (limits: { maxTimers: number; keepHours: number }) => Promise<SavedTimerStore>][] = [
  ['SQLite', async (limits) => sqliteSavedTimers({ file: path.join(dir, `saved-${++files}.sqlite`), limits, now: () => clock })],
  [
    'Redis',
    async (limits) => {
      await client.flushall()
      return redisSavedTimers({ redis: client, limits, now: () => clock })
    },
  ],
]

describe.each(backends)('saved timers in %s', (_name, open) => {
  it('keeps a timer, changes it only at its version, and removes it', async () => {
    clock = NOW
    const store = await open({ maxTimers: 10, keepHours: 48 })
    expect(await store.create(record('abcdefghij'))).toBe('created')
    expect(await store.create(record('abcdefghij'))).toBe('taken')
    expect(await store.get('abcdefghij')).toEqual(record('abcdefghij'))
    expect(await store.get('unknown123')).toBeNull()

    const changed = await store.replace('abcdefghij', '{"kind":"fixed","name":"Sale"}', 1, NOW + 5)
    expect(changed).toEqual({ ...record('abcdefghij', '{"kind":"fixed","name":"Sale"}'), version: 2, updatedAt: NOW + 5 })
    // A change made from version 1 again comes second.
    expect(await store.replace('abcdefghij', '{"kind":"fixed"}', 1, NOW + 6)).toBe('conflict')
    expect(await store.replace('unknown123', '{}', 1, NOW)).toBeNull()

    expect(await store.remove('abcdefghij')).toBe(true)
    expect(await store.remove('abcdefghij')).toBe(false)
    expect(await store.get('abcdefghij')).toBeNull()
    expect(await store.size()).toBe(0)
    await store.close()
  })

  it('refuses a new timer past the cap, never evicting one', async () => {
    clock = NOW
    const store = await open({ maxTimers: 2, keepHours: 48 })
    expect(await store.create(record('timer-0001'))).toBe('created')
    expect(await store.create(record('timer-0002'))).toBe('created')
    expect(await store.create(record('timer-0003'))).toBe('full')
    expect(await store.get('timer-0001')).not.toBeNull()
    expect(await store.size()).toBe(2)
    // Room again once one is removed.
    await store.remove('timer-0001')
    expect(await store.create(record('timer-0003'))).toBe('created')
    await store.close()
  })

  it('adds counts by hour, drops those of unknown timers, and keeps hours for their time only', async () => {
    clock = NOW
    const store = await open({ maxTimers: 10, keepHours: 3 })
    await store.create(record('counted-01'))
    const hour = Math.floor(NOW / HOUR_MS) * HOUR_MS
    await store.add(new Map([['counted-01', new Map([[hour, { opens: 2, gmail: 2 }], [hour - HOUR_MS, { opens: 1, other: 1, clicks: 1 }]])], ['nobody-001', new Map([[hour, { opens: 5 }]])]]))
    await store.add(new Map([['counted-01', new Map([[hour, { opens: 1, first_opens: 1, apple_privacy: 1 }]])]]))
    const hours = await store.hours('counted-01', 0)
    expect(hours).toEqual([
      { hour: hour - HOUR_MS, counts: expect.objectContaining({ opens: 1, other: 1, clicks: 1, gmail: 0 }) },
      { hour, counts: expect.objectContaining({ opens: 3, first_opens: 1, gmail: 2, apple_privacy: 1, expired_opens: 0 }) },
    ])
    expect(await store.hours('nobody-001', 0)).toEqual([])

    // Two hours on, three hours are kept: the older hour is past keeping.
    clock = NOW + 2 * HOUR_MS
    await store.add(new Map([['counted-01', new Map([[hour + 2 * HOUR_MS, { opens: 1 }], [hour - HOUR_MS, { opens: 9 }]])]]))
    expect((await store.hours('counted-01', 0)).map((h) => h.hour)).toEqual([hour, hour + 2 * HOUR_MS])
    expect((await store.hours('counted-01', hour + HOUR_MS)).map((h) => h.hour)).toEqual([hour + 2 * HOUR_MS])

    // A removed timer's counts go with it, and a timer saved again under its id starts from none.
    await store.remove('counted-01')
    await store.create(record('counted-01'))
    expect(await store.hours('counted-01', 0)).toEqual([])
    await store.close()
  })
})
