import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Redis } from 'ioredis'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nextOccurrence, readRecipientDeadline } from '../../server/giffer/live/deadlines.js'
import { GIFFER_DEFAULTS } from '../../server/giffer/config.js'
import { ADDRESS_TIMERS_SHARE } from '../../server/giffer/live/key-limits.js'
import { readLiveParams, readLiveTimer, recipientKeyHash, signLiveParams } from '../../server/giffer/live/timer.js'
import { sqliteFirstOpens } from '../../server/giffer/live/first-opens.js'
import { signingKeys } from '../../server/giffer/signing.js'
import { pino } from 'pino'
import { CAPTION_MAX_LENGTH } from '../../shared/generators/countdown/countdown.js'
import { startRedis, type TestRedis } from '../support/redis.js'
import { PRESET_TOKEN, SECRET, binary, decodeGif, differingPixels, startGiffer, type TestGiffer } from './setup.js'

const HOUR = 3_600_000
const path_ = (url: string) => {
  const u = new URL(url)
  return u.pathname + u.search
}

/** A clock the tests move by hand. */
function testClock(start: number) {
  const clock = { at: start, now: () => clock.at }
  return clock
}

async function mint(g: TestGiffer, body: Record<string, unknown>) {
  const res = await request(g.app).post('/giffer/countdown/live-url').send(body)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as { url: string; png_url: string; kind: string; until?: string }
}

async function fetchImage(g: TestGiffer, url: string) {
  return request(g.app).get(url).buffer(true).parse(binary)
}

/** Whether frame 0 of `live` shows what a countdown GIF of `seconds` shows on its first frame (same default style). */
async function showsSeconds(g: TestGiffer, live: Buffer, seconds: number): Promise<boolean> {
  const reference = await request(g.app).post('/giffer/countdown/create').send({ delay: seconds }).buffer(true).parse(binary)
  return differingPixels(decodeGif(live).picture(0), decodeGif(reference.body as Buffer).picture(0)) === 0
}

describe('recipient dates and recurring times', () => {
  it('reads a merge field as ISO with an offset, a wall clock in the zone, or a Unix time, bent as platforms bend them', () => {
    expect(readRecipientDeadline('2026-12-24T18:00:00+01:00', undefined)).toBe(Date.UTC(2026, 11, 24, 17))
    // An unencoded + arrives as a space; a space may stand for the T.
    expect(readRecipientDeadline('2026-12-24T18:00:00 01:00', undefined)).toBe(Date.UTC(2026, 11, 24, 17))
    expect(readRecipientDeadline('2026-12-24 18:00', 'Europe/Berlin')).toBe(Date.UTC(2026, 11, 24, 17))
    expect(readRecipientDeadline('2026-07-01T18:00', 'Europe/Berlin')).toBe(Date.UTC(2026, 6, 1, 16))
    expect(readRecipientDeadline('1798131600', undefined)).toBe(1_798_131_600_000)
    expect(readRecipientDeadline('1798131600000', undefined)).toBe(1_798_131_600_000)
  })

  it.each([[''], ['   '], ['next friday'], ['2026-02-30T10:00Z'], ['2026-12-24T18:00'], ['*|DEADLINE|*'], ['9'.repeat(80)]])('reads %j as no date (the expiry image), without throwing', (value) => {
    expect(readRecipientDeadline(value, undefined)).toBeNull()
  })

  it('counts to the next weekday at the time, in the zone, across weekends and DST changes', () => {
    const weekdays = [1, 2, 3, 4, 5]
    const two = { hour: 14, minute: 0 }
    // Friday 2026-11-27 15:00 in Berlin: past Friday's 14:00, so Monday's.
    expect(nextOccurrence(Date.UTC(2026, 10, 27, 14), two, weekdays, 'Europe/Berlin')).toBe(Date.UTC(2026, 10, 30, 13))
    // Friday 13:59 in Berlin: today's, a minute ahead.
    expect(nextOccurrence(Date.UTC(2026, 10, 27, 12, 59), two, weekdays, 'Europe/Berlin')).toBe(Date.UTC(2026, 10, 27, 13))
    // Berlin moves to summer time on Sunday 2026-03-29: Friday's 14:00 is 13:00 UTC, Monday's 12:00 UTC.
    expect(nextOccurrence(Date.UTC(2026, 2, 27, 14), two, weekdays, 'Europe/Berlin')).toBe(Date.UTC(2026, 2, 30, 12))
    // Every day at 02:30, which Berlin skips on 2026-03-29: read an hour on, as the clocks show it after the jump (03:30 CEST).
    expect(nextOccurrence(Date.UTC(2026, 2, 28, 12), { hour: 2, minute: 30 }, [0, 1, 2, 3, 4, 5, 6], 'Europe/Berlin')).toBe(Date.UTC(2026, 2, 29, 1, 30))
    // New York falls back on 2026-11-01: Sunday's 09:00 is 14:00 UTC, Saturday's was 13:00 UTC.
    expect(nextOccurrence(Date.UTC(2026, 9, 31, 14), { hour: 9, minute: 0 }, [0, 6], 'America/New_York')).toBe(Date.UTC(2026, 10, 1, 14))
  })
})

describe('evergreen timers', () => {
  const clock = testClock(Date.UTC(2026, 10, 28, 12))
  let stateDir: string
  let g: TestGiffer
  beforeAll(async () => {
    stateDir = await mkdtemp(path.join(os.tmpdir(), 'live-evergreen-'))
    g = await startGiffer({ stateDir, now: clock.now, liveBucketSeconds: 10 })
  })
  afterAll(async () => {
    await g.close()
    await rm(stateDir, { recursive: true, force: true })
  })

  it('mints a URL ending in r= for the merge tag, signed with the duration', async () => {
    const minted = await mint(g, { kind: 'evergreen', for: 3600 })
    expect(minted.kind).toBe('evergreen')
    expect(minted.url).toMatch(/&r=$/)
    expect(minted.png_url).toMatch(/&r=$/)
    const params = new URL(minted.url).searchParams
    expect(params.get('kind')).toBe('evergreen')
    expect(params.get('for')).toBe('3600')
  })

  it.each([
    [{ kind: 'evergreen' }, 'for'],
    [{ kind: 'evergreen', for: 59 }, 'for'],
    [{ kind: 'evergreen', for: 7_776_001 }, 'for'],
    [{ kind: 'weekly', for: 3600 }, 'kind'],
  ])('refuses %j naming %s', async (body, field) => {
    const res = await request(g.app).post('/giffer/countdown/live-url').send(body)
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe(field)
  })

  it("gives each key its first open plus the duration, kept across a restart, and an empty key the full time unstored", async () => {
    const minted = await mint(g, { kind: 'evergreen', for: 3600 })
    const first = await fetchImage(g, path_(minted.url) + 'alice%40example.com')
    expect(first.status).toBe(200)
    expect(await showsSeconds(g, first.body, 3600)).toBe(true)
    clock.at += 100_000
    const again = await fetchImage(g, path_(minted.url) + 'alice%40example.com')
    expect(await showsSeconds(g, again.body, 3500)).toBe(true)
    const bob = await fetchImage(g, path_(minted.url) + 'bob%40example.com')
    expect(await showsSeconds(g, bob.body, 3600)).toBe(true)
    // The same first-open image serves every recipient: drawn once.
    expect(bob.headers['x-giffer-cache']).toBe('hit')
    expect(bob.headers.etag).toBe(first.headers.etag)
    const test = await fetchImage(g, path_(minted.url))
    expect(await showsSeconds(g, test.body, 3600)).toBe(true)

    // A restart: a new service on the same state folder.
    await g.close()
    g = await startGiffer({ stateDir, now: clock.now, liveBucketSeconds: 10 })
    clock.at += 100_000
    expect(await showsSeconds(g, (await fetchImage(g, path_(minted.url) + 'alice%40example.com')).body, 3400)).toBe(true)
    expect(await showsSeconds(g, (await fetchImage(g, path_(minted.url) + 'bob%40example.com')).body, 3500)).toBe(true)
    // The test send stored nothing: still the full time.
    expect(await showsSeconds(g, (await fetchImage(g, path_(minted.url))).body, 3600)).toBe(true)
  })

  it('keeps the deadline of a key stored as keys were read before they were normalised (its capitals, a space for a +)', async () => {
    const minted = await mint(g, { kind: 'evergreen', for: 4 * 3600 })
    const timer = readLiveTimer(readLiveParams(new URL(minted.url).search.slice(1)), signingKeys(SECRET))
    // Another process's handle on the same file, as an earlier release stored the key: trimmed, nothing more.
    const earlier = sqliteFirstOpens({ file: path.join(stateDir, 'live-timers.sqlite'), limits: { perTimer: 100, total: 100, keepAfterMs: 86_400_000 }, logger: pino({ level: 'silent' }), now: clock.now })
    try {
      expect(await earlier.preset(timer.id, recipientKeyHash(timer, 'Anna Shop@Example.com'), clock.at + 2 * HOUR, clock.at)).toMatchObject({ outcome: 'created' })
    } finally {
      await earlier.close()
    }
    expect(await showsSeconds(g, (await fetchImage(g, path_(minted.url) + 'Anna+Shop@Example.com')).body, 7200)).toBe(true)
    expect(await showsSeconds(g, (await fetchImage(g, path_(minted.url) + '%20Anna%20Shop@Example.com')).body, 7200)).toBe(true)
  })

  it('keeps a keyed hash of the key, never the key itself', async () => {
    const minted = await mint(g, { kind: 'evergreen', for: 600 })
    await fetchImage(g, path_(minted.url) + 'carol%40example.com')
    const { readFile } = await import('node:fs/promises')
    const files = ['live-timers.sqlite', 'live-timers.sqlite-wal']
    const bytes = Buffer.concat(await Promise.all(files.map((file) => readFile(path.join(stateDir, file)).catch(() => Buffer.alloc(0)))))
    expect(bytes.length).toBeGreaterThan(0)
    expect(bytes.includes(Buffer.from('carol'))).toBe(false)
  })

  it('agrees on one deadline for 50 concurrent first opens of one key, whatever each request saw on the clock, and keeps it', async () => {
    const minted = await mint(g, { kind: 'evergreen', for: 7200 })
    const url = path_(minted.url) + 'dave'
    const fullTime = await fetchImage(g, path_(minted.url))
    const ticking = await startGiffer({ stateDir, now: () => (clock.at += 1_000), liveBucketSeconds: 10 })
    try {
      const answers = await Promise.all(Array.from({ length: 50 }, () => fetchImage(ticking, url)))
      expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200))
      // One deadline: every answer shows the time left to it from its own instant, so no more than
      // the 50 s the clock moved apart, in 10-second steps.
      const etags = new Set(answers.map((answer) => answer.headers.etag))
      expect(etags.size).toBeLessThanOrEqual(6)
    } finally {
      await ticking.close()
    }
    // Opened again two minutes later: counted from the first of them, so at most 7200 - 120 + 60
    // (the clock ticked up to 60 s during the opens), never the full time a store keeping nothing shows.
    clock.at += 120_000
    const later = await fetchImage(g, url)
    expect(later.status).toBe(200)
    expect(later.headers.etag).not.toBe(fullTime.headers.etag)
    const shown: number[] = []
    for (let seconds = 7200; seconds >= 6900; seconds -= 10) if (await showsSeconds(g, later.body, seconds)) shown.push(seconds)
    expect(shown).toHaveLength(1)
    expect(shown[0]).toBeLessThanOrEqual(7200 - 120 + 60)
  })

  it('refuses an altered URL with 403 and stores nothing for it', async () => {
    const minted = await mint(g, { kind: 'evergreen', for: 1800 })
    const forged = path_(minted.url).replace('for=1800', 'for=86400') + 'erin'
    const res = await request(g.app).get(forged)
    expect(res.status).toBe(403)
    expect(res.body.error.code).toBe('bad_signature')
    clock.at += 60_000
    // Erin's first real open is now, not the forged request's.
    expect(await showsSeconds(g, (await fetchImage(g, path_(minted.url) + 'erin')).body, 1800)).toBe(true)
  })

  it("lets a shop's back end set a key's deadline ahead, with the pre-set token, and never moves it", async () => {
    const minted = await mint(g, { kind: 'evergreen', for: 4 * 3600 })
    const until = new Date(clock.at + 2 * HOUR).toISOString()
    const preset = (body: object, secret: string | null = PRESET_TOKEN) => {
      const req = request(g.app).post('/giffer/countdown/live-deadline')
      return (secret === null ? req : req.set('Authorization', `Bearer ${secret}`)).send(body)
    }
    expect((await preset({ url: minted.url, r: 'order-42', until }, null)).status).toBe(401)
    expect((await preset({ url: minted.url, r: 'order-42', until }, 'not-the-secret-at-all')).status).toBe(403)
    const created = await preset({ url: minted.url, r: 'order-42', until })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({ r: 'order-42', until })
    const moved = await preset({ url: minted.url, r: 'order-42', until: new Date(clock.at + 3 * HOUR).toISOString() })
    expect(moved.status).toBe(409)
    expect(moved.body).toMatchObject({ error: { code: 'already_set', field: 'r' }, until })
    expect(await showsSeconds(g, (await fetchImage(g, path_(minted.url) + 'order-42')).body, 7200)).toBe(true)

    const fixed = await mint(g, { until: new Date(clock.at + HOUR).toISOString() })
    const notEvergreen = await preset({ url: fixed.url, r: 'order-43', until })
    expect(notEvergreen.status).toBe(400)
    expect(notEvergreen.body.error.field).toBe('url')
    const past = await preset({ url: minted.url, r: 'order-44', until: new Date(clock.at - 1000).toISOString() })
    expect(past.status).toBe(400)
    expect(past.body.error.field).toBe('until')
    // No recipient gets longer than the timer's own time from a first open.
    const beyond = await preset({ url: minted.url, r: 'order-45', until: new Date(clock.at + 4 * HOUR + 1000).toISOString() })
    expect(beyond.status).toBe(400)
    expect(beyond.body.error).toMatchObject({ field: 'until', message: "until: must be at most the timer's own time ahead (14400 seconds from now)" })
    // The signing secret is not the pre-set token.
    expect((await preset({ url: minted.url, r: 'order-46', until }, SECRET)).status).toBe(403)
  })

  it('keeps the pre-set API off without its token, and answers a full timer with 503 and Retry-After', async () => {
    const off = await startGiffer({ presetToken: undefined })
    try {
      const minted = await mint(off, { kind: 'evergreen', for: 3600 })
      const res = await request(off.app).post('/giffer/countdown/live-deadline').set('Authorization', `Bearer ${SECRET}`).send({ url: minted.url, r: 'k', until: new Date(Date.now() + HOUR).toISOString() })
      expect(res.status).toBe(404)
      expect(res.body.error.code).toBe('preset_off')
    } finally {
      await off.close()
    }
    const full = await startGiffer({ now: clock.now, liveTimerKeys: { perTimer: 1 } })
    try {
      const minted = await mint(full, { kind: 'evergreen', for: 3600 })
      const preset = (r: string) => request(full.app).post('/giffer/countdown/live-deadline').set('Authorization', `Bearer ${PRESET_TOKEN}`).send({ url: minted.url, r, until: new Date(clock.at + HOUR).toISOString() })
      expect((await preset('first')).status).toBe(201)
      const refused = await preset('second')
      expect(refused.status).toBe(503)
      expect(refused.headers['retry-after']).toBe('3600')
      expect(refused.body.error.code).toBe('timer_full')
    } finally {
      await full.close()
    }
  })

  it("shows new keys past the per-timer or total cap their timer's overflow deadline: a countdown that moves, never the full time again, never an error", async () => {
    const capped = await startGiffer({ now: clock.now, liveBucketSeconds: 10, liveTimerKeys: { perTimer: 2, total: 3 } })
    try {
      const one = await mint(capped, { kind: 'evergreen', for: 900 })
      const two = await mint(capped, { kind: 'evergreen', for: 960 })
      for (const key of ['k1', 'k2', 'k3']) expect((await fetchImage(capped, path_(one.url) + key)).status).toBe(200)
      expect((await fetchImage(capped, path_(two.url) + 'k4')).status).toBe(200)
      expect((await fetchImage(capped, path_(two.url) + 'k5')).status).toBe(200)
      clock.at += 60_000
      // k1 and k2 were kept; k3 was past the timer's cap and k5 past the total (k4 took the last place).
      expect(await showsSeconds(capped, (await fetchImage(capped, path_(one.url) + 'k1')).body, 840)).toBe(true)
      expect(await showsSeconds(capped, (await fetchImage(capped, path_(one.url) + 'k3')).body, 840)).toBe(true)
      expect(await showsSeconds(capped, (await fetchImage(capped, path_(two.url) + 'k5')).body, 900)).toBe(true)
      // A new key past the cap a minute later shares the deadline of the first past it.
      expect(await showsSeconds(capped, (await fetchImage(capped, path_(one.url) + 'k6')).body, 840)).toBe(true)
      // Counted at each open of a key left unstored: k3 and k5 twice.
      expect(capped.giffer.unstoredKeys).toMatchObject({ timer_full: 3, store_full: 2 })
    } finally {
      await capped.close()
    }
  })
})

describe('evergreen timers with Redis, across processes', () => {
  let redis: TestRedis
  const clients: Redis[] = []
  beforeAll(async () => {
    redis = await startRedis()
  })
  afterAll(async () => {
    for (const client of clients) client.disconnect()
    await redis.stop()
  })

  const connect = () => {
    const client = new Redis(redis.url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, commandTimeout: 500 })
    client.on('error', () => undefined)
    clients.push(client)
    return client
  }

  it('shows one key the same deadline from two processes, and 50 first opens split between them agree', async () => {
    const clock = testClock(Date.UTC(2026, 10, 28, 12))
    const a = await startGiffer({ now: clock.now, liveBucketSeconds: 10, redis: connect() })
    const b = await startGiffer({ now: clock.now, liveBucketSeconds: 10, redis: connect() })
    try {
      await Promise.all([a, b].map((g) => new Promise((resolve) => setTimeout(resolve, 50, g))))
      const minted = await mint(a, { kind: 'evergreen', for: 3600 })
      const url = path_(minted.url)
      expect(await showsSeconds(a, (await fetchImage(a, url + 'frank')).body, 3600)).toBe(true)
      clock.at += 600_000
      expect(await showsSeconds(b, (await fetchImage(b, url + 'frank')).body, 3000)).toBe(true)

      const answers = await Promise.all(Array.from({ length: 50 }, (_, n) => fetchImage(n % 2 ? a : b, url + 'grace')))
      expect(answers.every((answer) => answer.status === 200)).toBe(true)
      expect(new Set(answers.map((answer) => answer.headers.etag)).size).toBe(1)
      clock.at += 1_200_000
      expect(await showsSeconds(a, (await fetchImage(a, url + 'grace')).body, 2400)).toBe(true)
    } finally {
      await a.close()
      await b.close()
    }
  })
})

describe('per-recipient dates', () => {
  const clock = testClock(Date.UTC(2026, 10, 28, 12))
  let g: TestGiffer
  beforeAll(async () => {
    g = await startGiffer({ now: clock.now, liveBucketSeconds: 10 })
  })
  afterAll(() => g.close())

  it('counts to the date in until=, read in the timer zone, and shows the expiry image outside the accepted dates', async () => {
    const minted = await mint(g, { kind: 'per-recipient', from: '2026-11-01T00:00', to: '2027-01-31T23:59', tz: 'Europe/Berlin' })
    expect(minted.url).toMatch(/&until=$/)
    const base = path_(minted.url)
    // 13:00 Berlin (winter time) is 12:00 UTC: an hour from now.
    expect(await showsSeconds(g, (await fetchImage(g, base + '2026-11-28T14:00')).body, 3600)).toBe(true)
    expect(await showsSeconds(g, (await fetchImage(g, base + '2026-11-28T14:00:00%2B01:00')).body, 3600)).toBe(true)
    expect(await showsSeconds(g, (await fetchImage(g, base + String(Date.UTC(2026, 10, 28, 13) / 1000))).body, 3600)).toBe(true)
    for (const outside of ['2027-03-01T10:00', 'next week', '', '2026-10-01T10:00']) {
      const res = await fetchImage(g, base + encodeURIComponent(outside))
      expect(res.status).toBe(200)
      expect(decodeGif(res.body).frames).toHaveLength(1)
      expect(await showsSeconds(g, res.body, 0)).toBe(true)
      expect(res.headers['cache-control']).toBe('public, max-age=3600')
    }
  })

  it('reads a wall-clock date on the far side of a DST change in the offset then in force', async () => {
    const summer = testClock(Date.UTC(2027, 2, 27, 12))
    const later = await startGiffer({ now: summer.now, liveBucketSeconds: 10 })
    try {
      const minted = await mint(later, { kind: 'per-recipient', from: '2027-03-01T00:00', to: '2027-04-30T00:00', tz: 'Europe/Berlin' })
      // Sunday 2027-03-28 14:00 in Berlin is summer time (12:00 UTC): 24 hours ahead, not 25.
      expect(await showsSeconds(later, (await fetchImage(later, path_(minted.url) + '2027-03-28T14:00')).body, 86_400)).toBe(true)
    } finally {
      await later.close()
    }
  })

  it.each([
    [{ kind: 'per-recipient', to: '2027-01-01T00:00:00Z' }, 'from'],
    [{ kind: 'per-recipient', from: '2027-01-01T00:00:00Z', to: '2026-12-01T00:00:00Z' }, 'to'],
    [{ kind: 'per-recipient', from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' }, 'to'],
    [{ kind: 'per-recipient', from: '2026-12-01T00:00', to: '2027-01-01T00:00' }, 'tz'],
  ])('refuses %j naming %s', async (body, field) => {
    const res = await request(g.app).post('/giffer/countdown/live-url').send(body)
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe(field)
  })
})

describe('recurring timers', () => {
  it('counts to the next weekday time in the zone, and rolls on by itself', async () => {
    // Friday 2026-11-27, 12:00 in Berlin.
    const clock = testClock(Date.UTC(2026, 10, 27, 11))
    const g = await startGiffer({ now: clock.now, liveBucketSeconds: 10 })
    try {
      const minted = await mint(g, { kind: 'recurring', at: '14:00', weekdays: [1, 2, 3, 4, 5], tz: 'Europe/Berlin' })
      expect(new URL(minted.url).searchParams.get('weekdays')).toBe('1,2,3,4,5')
      expect(await showsSeconds(g, (await fetchImage(g, path_(minted.url))).body, 2 * 3600)).toBe(true)
      // Friday 14:00:05: the next is Monday's.
      clock.at = Date.UTC(2026, 10, 27, 13, 0, 5)
      expect(await showsSeconds(g, (await fetchImage(g, path_(minted.url))).body, 3 * 86_400 - 5 + 5)).toBe(true)
      const daily = await mint(g, { kind: 'recurring', at: '00:00', tz: 'UTC' })
      expect(new URL(daily.url).searchParams.get('weekdays')).toBe('0,1,2,3,4,5,6')
    } finally {
      await g.close()
    }
  })

  it.each([
    [{ kind: 'recurring', tz: 'UTC' }, 'at'],
    [{ kind: 'recurring', at: '24:00', tz: 'UTC' }, 'at'],
    [{ kind: 'recurring', at: '14:00' }, 'tz'],
    [{ kind: 'recurring', at: '14:00', tz: 'Mars/Olympus' }, 'tz'],
    [{ kind: 'recurring', at: '14:00', tz: 'UTC', weekdays: [7] }, 'weekdays.0'],
    [{ kind: 'recurring', at: '14:00', tz: 'UTC', weekdays: [] }, 'weekdays'],
    [{ kind: 'recurring', at: '14:00', tz: 'UTC', expired: 'hide' }, 'expired'],
  ])('refuses %j naming %s', async (body, field) => {
    const g = await startGiffer()
    try {
      const res = await request(g.app).post('/giffer/countdown/live-url').send(body)
      expect(res.status).toBe(400)
      expect(res.body.error.field).toBe(field)
    } finally {
      await g.close()
    }
  })
})

describe('what a timer shows once its time is up', () => {
  const clock = testClock(Date.UTC(2026, 10, 28, 12))
  let g: TestGiffer
  beforeAll(async () => {
    g = await startGiffer({ now: clock.now, liveBucketSeconds: 10 })
  })
  afterAll(() => g.close())

  const expiredImage = async (body: Record<string, unknown>, format: 'url' | 'png_url' = 'url') => {
    const minted = await mint(g, { until: new Date(clock.at + 60_000).toISOString(), ...body })
    clock.at += 120_000
    return { minted, res: await fetchImage(g, path_(minted[format])) }
  }

  it('zeros by default', async () => {
    const { res } = await expiredImage({})
    expect(await showsSeconds(g, res.body, 0)).toBe(true)
  })

  it("a message in the timer's own style, one frame, kept long", async () => {
    const { minted, res } = await expiredImage({ expired: 'message', message: 'Sale is over' })
    expect(new URL(minted.url).searchParams.get('message')).toBe('Sale is over')
    expect(decodeGif(res.body).frames).toHaveLength(1)
    expect(await showsSeconds(g, res.body, 0)).toBe(false)
    expect(res.headers['cache-control']).toBe('public, max-age=3600')
    const { res: png } = await expiredImage({ expired: 'message', message: 'Sale is over' }, 'png_url')
    expect(png.headers['content-type']).toBe('image/png')
  })

  it("a default message in the language of the captions", async () => {
    const english = await mint(g, { until: new Date(clock.at + HOUR).toISOString(), expired: 'message', days: 'Days' })
    expect(new URL(english.url).searchParams.get('message')).toBe('This offer has ended')
    const russian = await mint(g, { until: new Date(clock.at + HOUR).toISOString(), expired: 'message', days: 'Дни', hours: 'Часы' })
    expect(new URL(russian.url).searchParams.get('message')).toBe('Акция завершена')
  })

  it('a transparent 1×1 image that hides the timer, for every kind that ends', async () => {
    const { res } = await expiredImage({ expired: 'hide' })
    expect(res.status).toBe(200)
    expect(decodeGif(res.body)).toMatchObject({ width: 1, height: 1 })
    expect(res.headers['cache-control']).toBe('public, max-age=3600')
    const perRecipient = await mint(g, { kind: 'per-recipient', from: '2026-11-01T00:00:00Z', to: '2026-12-31T00:00:00Z', expired: 'hide' })
    const outside = await fetchImage(g, path_(perRecipient.url) + '2027-06-01T00:00:00Z')
    expect(decodeGif(outside.body)).toMatchObject({ width: 1, height: 1 })
  })

  it.each([
    [{ expired: 'fade' }, 'expired'],
    [{ expired: 'message', message: 'x'.repeat(61) }, 'message'],
    [{ expired: 'message', message: 'two\nlines' }, 'message'],
  ])('refuses %j naming %s', async (body, field) => {
    const res = await request(g.app)
      .post('/giffer/countdown/live-url')
      .send({ until: new Date(clock.at + HOUR).toISOString(), ...body })
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe(field)
  })
})

describe('URLs as senders and platforms bend them', () => {
  const clock = testClock(Date.UTC(2026, 10, 28, 12))
  let g: TestGiffer
  beforeAll(async () => {
    g = await startGiffer({ now: clock.now, liveBucketSeconds: 10 })
  })
  afterAll(() => g.close())

  /** The query of a minted URL with `change` applied to its signed parameters, signed again as this service would. */
  function resigned(minted: { url: string }, change: Record<string, string>): string {
    const params = Object.fromEntries(new URL(minted.url).searchParams)
    delete params.sig
    const open = params.kind === 'evergreen' ? 'r' : params.kind === 'per-recipient' ? 'until' : null
    if (open) delete params[open]
    const changed = { ...params, ...change }
    const query = new URLSearchParams({ ...changed, sig: signLiveParams(changed, SECRET) })
    if (open) query.append(open, '')
    return `/giffer/countdown/live.gif?${query}`
  }

  it('reads a repeated r= as its last non-empty value: the URL handed out ends in r=, and a sender may append another', async () => {
    const minted = await mint(g, { kind: 'evergreen', for: 3600 })
    const base = path_(minted.url)
    expect((await fetchImage(g, base + 'ivy')).status).toBe(200)
    clock.at += 100_000
    for (const url of [`${base}&r=ivy`, `${base}ivy&r=`, `${base}&r=%20&r=ivy`]) {
      const res = await fetchImage(g, url)
      expect(res.status, url).toBe(200)
      expect(await showsSeconds(g, res.body, 3500), url).toBe(true)
    }
    // Any other parameter twice is not a URL of ours.
    const twice = await request(g.app).get(`${base}ivy&kind=evergreen`)
    expect(twice.status).toBe(400)
    expect(twice.body.error.field).toBe('kind')
  })

  it('reads a repeated until= as its last non-empty value', async () => {
    const minted = await mint(g, { kind: 'per-recipient', from: '2026-11-01T00:00:00Z', to: '2027-01-31T00:00:00Z' })
    const until = new Date(clock.at + 3_600_000).toISOString()
    const res = await fetchImage(g, `${path_(minted.url)}&until=${until}&until=`)
    expect(await showsSeconds(g, res.body, 3600)).toBe(true)
  })

  it("meets a shop's pre-set key however the address comes: + or space, any case, composed or not", async () => {
    const minted = await mint(g, { kind: 'evergreen', for: 4 * 3600 })
    const preset = (r: string, hours: number) =>
      request(g.app)
        .post('/giffer/countdown/live-deadline')
        .set('Authorization', `Bearer ${PRESET_TOKEN}`)
        .send({ url: minted.url, r, until: new Date(clock.at + hours * 3_600_000).toISOString() })
    expect((await preset('Anna+Shop@Example.com', 2)).status).toBe(201)
    expect((await preset('zoe.cafe\u0301@example.com', 3)).status).toBe(201)
    const base = path_(minted.url)
    // An unencoded + arrives as a space; an encoded one as +; the case of an address does not matter.
    for (const r of ['anna+shop@example.com', 'anna%2Bshop%40example.com', 'ANNA%20SHOP%40EXAMPLE.COM', '%20anna+shop@example.com%20']) {
      expect(await showsSeconds(g, (await fetchImage(g, base + r)).body, 7200), r).toBe(true)
    }
    // Composed é (U+00E9) and e + combining accent are one key.
    expect(await showsSeconds(g, (await fetchImage(g, base + encodeURIComponent('zoe.caf\u00e9@example.com'))).body, 3 * 3600)).toBe(true)
    // Keys that are not addresses keep their case: platforms' ids may differ only by it.
    expect((await preset('01GDDKASAP8TK', 1)).status).toBe(201)
    expect(await showsSeconds(g, (await fetchImage(g, base + '01gddkasap8tk')).body, 4 * 3600)).toBe(true)
  })

  it('draws a signed style that no longer passes with the nearest look that does, never an error', async () => {
    const minted = await mint(g, { until: new Date(clock.at + 3_600_000).toISOString(), font: 'roboto', duration: 10, days: 'Days' })
    const valid = await fetchImage(g, path_(minted.url))
    expect(valid.status).toBe(200)
    // A font renamed, a caption limit tightened, a frame count lowered in a later release: the same
    // image as the nearest valid look, by its content address.
    for (const [change, nearest] of [
      [{ font: 'a-font-renamed-since' }, { font: 'roboto' }],
      [{ days: 'Days and days and days' }, { days: 'Days and days and days'.slice(0, CAPTION_MAX_LENGTH) }],
      [{ duration: '500' }, { duration: '120' }],
      [{ font_weight: '950' }, { font_weight: '900' }],
      [{ color: 'not-a-colour' }, { color: '000000' }],
    ] as [Record<string, string>, Record<string, string>][]) {
      const bent = await fetchImage(g, resigned(minted, change))
      expect(bent.status, JSON.stringify(change)).toBe(200)
      const expected = await fetchImage(g, resigned(minted, nearest))
      expect(bent.headers.etag, JSON.stringify(change)).toBe(expected.headers.etag)
    }
  })

  it('shows the expiry image for a signed schedule this release cannot read, never a 5xx', async () => {
    const recurring = await mint(g, { kind: 'recurring', at: '14:00', tz: 'Europe/Berlin' })
    const evergreen = await mint(g, { kind: 'evergreen', for: 600 })
    for (const url of [resigned(recurring, { tz: 'Mars/Olympus_Mons' }), resigned(recurring, { weekdays: '9' }), resigned(evergreen, { for: 'soon' }) + 'someone']) {
      const res = await fetchImage(g, url)
      expect(res.status, url).toBe(200)
      expect(decodeGif(res.body).frames, url).toHaveLength(1)
      expect(await showsSeconds(g, res.body, 0), url).toBe(true)
    }
  })
})

describe('what one address may do', () => {
  it('mints liveMintsPerAddress (3) links in 10 minutes, then 429 with Retry-After, while another address still mints', async () => {
    const g = await startGiffer({ liveMintsPerAddress: 3 })
    g.app.set('trust proxy', 'loopback')
    try {
      const mintFrom = (address: string) => request(g.app).post('/giffer/countdown/live-url').set('X-Forwarded-For', address).send({ kind: 'evergreen', for: 600 })
      for (let n = 0; n < 3; n++) expect((await mintFrom('203.0.113.50')).status).toBe(200)
      const over = await mintFrom('203.0.113.50')
      expect(over.status).toBe(429)
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0)
      expect(over.body.error.code).toBe('rate_limited')
      expect((await mintFrom('203.0.113.60')).status).toBe(200)
    } finally {
      await g.close()
    }
  })

  it("adds at most liveNewKeysPerAddress (3) new keys a minute to one timer: the rest share the timer's overflow deadline, counted in /metrics; keys already stored and other addresses go on", async () => {
    const clock = testClock(Date.UTC(2026, 10, 28, 12))
    const g = await startGiffer({ now: clock.now, liveBucketSeconds: 10, liveNewKeysPerAddress: 3 })
    g.app.set('trust proxy', 'loopback')
    try {
      const minted = await mint(g, { kind: 'evergreen', for: 3600 })
      const other = await mint(g, { kind: 'evergreen', for: 3000 })
      const open = (url: string, key: string, address: string) => request(g.app).get(path_(url) + key).set('X-Forwarded-For', address).buffer(true).parse(binary)
      for (const key of ['k1', 'k2', 'k3']) expect((await open(minted.url, key, '203.0.113.70')).status).toBe(200)
      // The fourth new key of this address and timer this minute is not stored: it starts the timer's overflow deadline now.
      expect(await showsSeconds(g, (await open(minted.url, 'flood-1', '203.0.113.70')).body, 3600)).toBe(true)
      clock.at += 30_000
      // Another new key past the limit shares that deadline: a countdown that moves, not the full time again.
      expect(await showsSeconds(g, (await open(minted.url, 'flood-2', '203.0.113.70')).body, 3570)).toBe(true)
      // Stored keys keep theirs; another address and another timer store new keys as before.
      expect(await showsSeconds(g, (await open(minted.url, 'k1', '203.0.113.70')).body, 3570)).toBe(true)
      expect(await showsSeconds(g, (await open(minted.url, 'k4', '203.0.113.80')).body, 3600)).toBe(true)
      expect(await showsSeconds(g, (await open(other.url, 'k5', '203.0.113.70')).body, 3000)).toBe(true)
      clock.at += 10_000
      expect(await showsSeconds(g, (await open(minted.url, 'k4', '203.0.113.70')).body, 3590)).toBe(true)
      expect(g.giffer.unstoredKeys).toMatchObject({ address_limit: 2 })
    } finally {
      await g.close()
    }
  })
})

describe('what one address may do, across timers', () => {
  it(`adds at most ${ADDRESS_TIMERS_SHARE} times liveNewKeysPerAddress new keys a minute across every timer, so minting timers of its own fills no store`, async () => {
    const g = await startGiffer({ liveBucketSeconds: 10, liveNewKeysPerAddress: 2 })
    g.app.set('trust proxy', 'loopback')
    try {
      const timers = await Promise.all(Array.from({ length: ADDRESS_TIMERS_SHARE + 1 }, (_, n) => mint(g, { kind: 'evergreen', for: 600 + n })))
      const open = (url: string, key: string, address: string) => request(g.app).get(path_(url) + key).set('X-Forwarded-For', address).buffer(true).parse(binary)
      for (const [n, timer] of timers.entries()) for (const key of ['a', 'b']) expect((await open(timer.url, `${key}${n}`, '203.0.113.90')).status).toBe(200)
      // Two keys on each of the first five timers were its share; the sixth timer's two were past it.
      expect(g.giffer.unstoredKeys).toMatchObject({ address_limit: 2 })
      expect((await open(timers.at(-1)!.url, 'c', '203.0.113.91')).status).toBe(200)
      expect(g.giffer.unstoredKeys).toMatchObject({ address_limit: 2 })
    } finally {
      await g.close()
    }
  })
})

describe('a busy server', () => {
  it("gives one timer's look at most a quarter of the line: made-up until= values of one URL never turn the other generators away", async () => {
    const clock = testClock(Date.UTC(2026, 10, 28, 12))
    const g = await startGiffer({ now: clock.now, queueMax: 8, jobTimeoutMs: 30_000, liveBucketSeconds: 10, liveAnswerMs: GIFFER_DEFAULTS.liveAnswerMs })
    try {
      const minted = await mint(g, { kind: 'per-recipient', from: '2026-11-01T00:00:00Z', to: '2027-06-01T00:00:00Z' })
      const opens = Array.from({ length: 40 }, (_, n) => fetchImage(g, path_(minted.url) + new Date(clock.at + 3_600_000 + n * 60_000).toISOString()).then((answer) => answer))
      // The opens have reached the line before the other generators' requests come.
      await expect.poll(() => g.giffer.stats?.queued ?? 0, { timeout: 10_000, interval: 5 }).toBeGreaterThan(0)
      await new Promise((resolve) => setTimeout(resolve, 200))
      const creates = Array.from({ length: 5 }, (_, n) => request(g.app).post('/giffer/countdown/create').send({ delay: 7_200 + n }).then((res) => res.status))
      const answers = await Promise.all(opens)
      expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200))
      expect(await Promise.all(creates)).toEqual(Array(5).fill(200))
      expect(answers.some((answer) => answer.headers['x-giffer-undrawn'] === 'timer_busy' || answer.headers['x-giffer-fallback'] === 'still')).toBe(true)
    } finally {
      await g.close()
    }
  }, 60_000)

  it('answers within 3 s however long the line: the drawing gives way to a still frame or the pixel, and the drawing goes on for the next open', async () => {
    const g = await startGiffer({ queueMax: 16, jobTimeoutMs: 60_000, liveBucketSeconds: 10, liveAnswerMs: GIFFER_DEFAULTS.liveAnswerMs })
    try {
      // Long scrolling texts (about half a second each) hold the one thread and a line of several seconds.
      const heavy = Array.from({ length: 16 }, (_, n) => request(g.app).post('/giffer/scrollingtext/create').send({ text: `A long line of scrolling text that keeps on going ${n}`, frames_max: 200, font_size: 72 }))
      const held = Promise.all(heavy.map((req) => req.then((res) => res.status)))
      await expect.poll(() => [g.giffer.stats?.running, g.giffer.stats?.queued], { timeout: 10_000, interval: 5 }).toEqual([1, 15])
      const minted = await mint(g, { kind: 'evergreen', for: 3600, color: '#123456' })
      const started = performance.now()
      const answer = await fetchImage(g, path_(minted.url) + 'someone')
      const elapsed = performance.now() - started
      expect(answer.status).toBe(200)
      expect(answer.headers['content-type']).toBe('image/gif')
      expect(elapsed).toBeLessThan(3_000)
      const how = answer.headers['x-giffer-fallback'] ?? answer.headers['x-giffer-undrawn']
      expect(['still', 'answer_late']).toContain(how)
      expect(decodeGif(answer.body).frames).toHaveLength(1)
      // The drawing given up on went on in the line: a later open gets the whole timer.
      expect(await held).toEqual(Array(16).fill(200))
      const later = await fetchImage(g, path_(minted.url) + 'someone')
      expect(later.headers['x-giffer-fallback']).toBeUndefined()
      expect(decodeGif(later.body).frames.length).toBeGreaterThan(1)
    } finally {
      await g.close()
    }
  }, 120_000)

  it('answers a timer it drew a bucket ago with that image, kept one bucket, while the pool is held full', async () => {
    const clock = testClock(Date.UTC(2026, 10, 28, 12))
    const g = await startGiffer({ now: clock.now, queueMax: 0, jobTimeoutMs: 20_000, liveBucketSeconds: 10, liveAnswerMs: GIFFER_DEFAULTS.liveAnswerMs })
    try {
      const minted = await mint(g, { until: new Date(clock.at + 3_600_000).toISOString() })
      const drawn = await fetchImage(g, path_(minted.url))
      expect(drawn.headers['x-giffer-cache']).toBe('rendered')
      clock.at += 10_000
      // A large countdown holds the one thread; with no line, every other job is refused at once.
      const heavy = request(g.app).post('/giffer/countdown/create').send({ delay: 86_400, days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' })
      const held = heavy.then((res) => res.status)
      // The thread has taken it before the timer is asked for.
      await expect.poll(() => g.giffer.stats?.running, { timeout: 5_000, interval: 5 }).toBe(1)
      const busy = await fetchImage(g, path_(minted.url))
      expect(busy.status).toBe(200)
      expect(busy.headers['x-giffer-fallback']).toBe('last-drawn')
      expect(busy.headers.etag).toBe(drawn.headers.etag)
      expect(busy.headers['cache-control']).toBe('public, max-age=10')
      expect(await held).toBe(200)
    } finally {
      await g.close()
    }
  })

  it('answers every live timer of a new look with an image, never 429 or 5xx, while the pool is held full', async () => {
    const g = await startGiffer({ queueMax: 1, jobTimeoutMs: 20_000, liveBucketSeconds: 10, liveAnswerMs: GIFFER_DEFAULTS.liveAnswerMs })
    try {
      // Large countdowns hold the one thread and the line.
      const heavy = Array.from({ length: 3 }, (_, n) => request(g.app).post('/giffer/countdown/create').send({ delay: 86_400 + n, days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' }))
      const held = Promise.all(heavy.map((req) => req.then((res) => res.status)))
      // The thread has taken the first and the line holds the second before any timer is asked for.
      await expect.poll(() => [g.giffer.stats?.running, g.giffer.stats?.queued], { timeout: 5_000, interval: 5 }).toEqual([1, 1])
      const looks = await Promise.all(
        Array.from({ length: 12 }, (_, n) => mint(g, { kind: 'evergreen', for: 3600 + 60 * n, color: `#0000${(16 + n).toString(16)}` })),
      )
      const answers = await Promise.all(looks.map((minted) => fetchImage(g, path_(minted.url) + 'someone')))
      const statuses = answers.map((answer) => answer.status)
      expect(statuses).toEqual(Array(12).fill(200))
      for (const answer of answers) expect(answer.headers['content-type']).toBe('image/gif')
      const how = answers.map((answer) => answer.headers['x-giffer-fallback'] ?? (answer.headers['x-giffer-undrawn'] ? 'pixel' : 'drawn'))
      expect(how).toContain('still')
      for (const answer of answers.filter((a) => a.headers['x-giffer-fallback'] === 'still')) {
        expect(decodeGif(answer.body).frames).toHaveLength(1)
        expect(answer.headers['cache-control']).toBe('public, max-age=10')
      }
      expect(await held).toContain(200)
    } finally {
      await g.close()
    }
  }, 60_000)
})
