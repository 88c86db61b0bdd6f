/**
 * Saved timers through their routes, on the real SQLite file and a real Redis: saving, the images
 * drawn from the definition, reading, changing and deleting with the edit key, the counts by hour
 * and reader, the `go` link judged for each recipient, two processes seeing one change, the caps
 * and the rate limits.
 */
import { once } from 'node:events'
import { readFile, rm } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { Redis } from 'ioredis'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIRST_OPENS_FILE, SAVED_TIMERS_FILE } from '../../server/giffer/context.js'
import { liveImageFormat } from '../../server/giffer/live/pixel.js'
import { DEFINITION_KEEP_MS } from '../../server/giffer/live/saved-timers.js'
import { startRedis, type TestRedis } from '../support/redis.js'
import { PUBLIC_ORIGIN, binary, decodeGif, differingPixels, startGiffer, type TestGiffer } from './setup.js'

const GMAIL = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)'
const APPLE = 'Mozilla/5.0'
const OUTLOOK = 'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.5026; Pro)'
const YAHOO = 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html'

const pathOf = (url: string) => {
  const u = new URL(url)
  return u.pathname + u.search
}

function testClock(start: number) {
  const clock = { at: start, now: () => clock.at }
  return clock
}

interface Saved {
  id: string
  url: string
  png_url: string
  link_url: string
  edit_key: string
  timer: Record<string, unknown>
}

async function save(g: TestGiffer, body: Record<string, unknown>): Promise<Saved> {
  const res = await request(g.app).post('/giffer/countdown/timers').send(body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as Saved
}

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` })

async function image(g: TestGiffer, url: string, agent = 'Mozilla/5.0 (test)') {
  return request(g.app).get(url).set('User-Agent', agent).buffer(true).parse(binary)
}

/** Whether frame 0 of `gif` shows what a countdown GIF of `seconds` shows on its first frame, in `style`. */
async function showsSeconds(g: TestGiffer, gif: Buffer, seconds: number, style: Record<string, unknown> = {}): Promise<boolean> {
  const reference = await request(g.app)
    .post('/giffer/countdown/create')
    .send({ delay: seconds, ...style })
    .buffer(true)
    .parse(binary)
  return differingPixels(decodeGif(gif).picture(0), decodeGif(reference.body as Buffer).picture(0)) === 0
}

/** One Redis for the file's tests of that store, started by the first that needs it. */
let redis: TestRedis | undefined
const clients: Redis[] = []
afterAll(async () => {
  for (const client of clients) client.disconnect()
  await redis?.stop()
})

/** A connection to the test Redis for the Redis store; nothing (SQLite in the state folder) for the other. */
async function storeOptions(store: string): Promise<{ redis?: Redis }> {
  if (store !== 'Redis') return {}
  redis ??= await startRedis()
  const client = new Redis(redis.url, { maxRetriesPerRequest: 0, commandTimeout: 2_000 })
  client.on('error', () => undefined)
  clients.push(client)
  return { redis: client }
}

/** Everything a store keeps, as text: the SQLite files, or every key and value in Redis. */
async function keptText(g: TestGiffer, store: string): Promise<string> {
  if (store !== 'Redis') return (await Promise.all([SAVED_TIMERS_FILE, FIRST_OPENS_FILE].map((name) => readFile(path.join(g.stateDir, name)).catch(() => Buffer.alloc(0))))).map(String).join('\n')
  const client = new Redis(redis!.url)
  try {
    const parts: string[] = []
    for (const key of await client.keys('*')) {
      const type = await client.type(key)
      const value = type === 'hash' ? await client.hgetall(key) : type === 'set' ? await client.smembers(key) : type === 'zset' ? await client.zrange(key, '0', '-1', 'WITHSCORES') : await client.get(key).catch(() => '')
      parts.push(key, JSON.stringify(value))
    }
    return parts.join('\n')
  } finally {
    client.disconnect()
  }
}

describe.each(['SQLite', 'Redis'])('saved timers in %s', (store) => {
  const clock = testClock(Date.UTC(2026, 10, 28, 12))
  let g: TestGiffer
  beforeAll(async () => {
    g = await startGiffer({ now: clock.now, liveBucketSeconds: 10, ...(await storeOptions(store)) })
  })
  afterAll(() => g.close())

  it('saves a timer with a random id, its URLs on the public origin and an edit key kept only as a hash', async () => {
    const saved = await save(g, { until: '2026-11-28T13:00:00Z', name: 'Black Friday', link: 'https://shop.example/sale' })
    expect(saved.id).toMatch(/^[A-Za-z0-9_-]{10,24}$/)
    expect(saved.url).toBe(`${PUBLIC_ORIGIN}/giffer/countdown/t/${saved.id}.gif`)
    expect(saved.png_url).toBe(`${PUBLIC_ORIGIN}/giffer/countdown/t/${saved.id}.png`)
    expect(saved.link_url).toBe(`${PUBLIC_ORIGIN}/giffer/countdown/t/${saved.id}/go`)
    // 128 bits or more, as base64url.
    expect(saved.edit_key.length).toBeGreaterThanOrEqual(22)
    expect(saved.timer).toMatchObject({ id: saved.id, version: 1, kind: 'fixed', until: '2026-11-28T13:00:00Z', name: 'Black Friday', link: 'https://shop.example/sale' })
    const another = await save(g, { until: '2026-11-28T13:00:00Z' })
    expect(another.id).not.toBe(saved.id)
    expect(another.edit_key).not.toBe(saved.edit_key)
    expect(await keptText(g, store)).not.toContain(saved.edit_key)
  })

  it('draws the image from the definition, and an edit shows at once in this process', async () => {
    const saved = await save(g, { until: '2026-11-28T13:00:00Z' })
    expect(await showsSeconds(g, (await image(g, pathOf(saved.url))).body, 3600)).toBe(true)
    const changed = await request(g.app).patch(`/giffer/countdown/timers/${saved.id}`).set(bearer(saved.edit_key)).send({ until: '2026-11-28T14:00:00Z', color: '#aa0000' })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body.timer).toMatchObject({ version: 2, until: '2026-11-28T14:00:00Z', color: '#aa0000' })
    expect(await showsSeconds(g, (await image(g, pathOf(saved.url))).body, 7200, { color: '#aa0000' })).toBe(true)
  })

  it('reads, changes and deletes only with the edit key: 401 for a missing or wrong key and for an unknown id', async () => {
    const saved = await save(g, { until: '2026-11-28T13:00:00Z' })
    const route = `/giffer/countdown/timers/${saved.id}`
    const read = await request(g.app).get(route).set(bearer(saved.edit_key))
    expect(read.status).toBe(200)
    expect(read.headers['cache-control']).toBe('no-store')
    expect(read.body.timer).toMatchObject({ id: saved.id, version: 1 })
    for (const attempt of [request(g.app).get(route), request(g.app).get(route).set(bearer('wrong-key-wrong-key-wrong')), request(g.app).get(route).set('Authorization', saved.edit_key)]) {
      const res = await attempt
      expect(res.status).toBe(401)
      expect(res.body.error).toMatchObject({ code: 'unauthorized', field: 'authorization' })
    }
    expect((await request(g.app).get('/giffer/countdown/timers/unknownid123').set(bearer(saved.edit_key))).status).toBe(401)
    expect((await request(g.app).patch(route).set(bearer('nope-nope-nope')).send({ name: 'x' })).status).toBe(401)
    expect((await request(g.app).delete(route).set(bearer('nope-nope-nope'))).status).toBe(401)
    expect((await request(g.app).get(`${route}/stats`).set(bearer('nope-nope-nope'))).status).toBe(401)
  })

  it('refuses a change of kind, and links that are not absolute http(s) URLs, naming the field', async () => {
    const saved = await save(g, { until: '2026-11-28T13:00:00Z' })
    const route = `/giffer/countdown/timers/${saved.id}`
    const kind = await request(g.app).patch(route).set(bearer(saved.edit_key)).send({ kind: 'evergreen', for: 3600 })
    expect(kind.status).toBe(400)
    expect(kind.body.error).toMatchObject({ code: 'kind_fixed', field: 'kind' })
    for (const link of ['javascript:alert(1)', '/sale', '//shop.example/sale', 'ftp://shop.example/', 'https://user:pw@shop.example/', `https://shop.example/${'a'.repeat(2_000)}`]) {
      const res = await request(g.app).post('/giffer/countdown/timers').send({ until: '2026-11-28T13:00:00Z', link })
      expect(res.status, link).toBe(400)
      expect(res.body.error.field).toBe('link')
      const patched = await request(g.app).patch(route).set(bearer(saved.edit_key)).send({ link_expired: link })
      expect(patched.status, link).toBe(400)
      expect(patched.body.error.field).toBe('link_expired')
    }
    const past = await request(g.app).patch(route).set(bearer(saved.edit_key)).send({ until: '2026-11-01T00:00:00Z' })
    expect(past.body.error).toMatchObject({ field: 'until' })
    expect((await request(g.app).patch(route).set(bearer(saved.edit_key)).send([1, 2])).status).toBe(400)
  })

  it('refuses fields a saved timer does not have, takes back its own view whole, and makes no new version of no change', async () => {
    const saved = await save(g, { until: '2026-11-28T13:00:00Z', link: 'https://shop.example/a\\@b.example' })
    // Kept as a browser reads it.
    expect(saved.timer.link).toBe('https://shop.example/a/@b.example')
    const route = `/giffer/countdown/timers/${saved.id}`
    const unknown = await request(g.app).patch(route).set(bearer(saved.edit_key)).send({ toString: 1 })
    expect(unknown.body.error).toMatchObject({ field: 'toString', message: 'toString: is not a field of a saved timer' })
    const other = await request(g.app).patch(route).set(bearer(saved.edit_key)).send({ weekdays: [1] })
    expect(other.body.error).toMatchObject({ field: 'weekdays', message: 'weekdays: does not apply to a fixed timer' })
    const typed = await request(g.app).patch(route).set(bearer(saved.edit_key)).send({ name: 123 })
    expect(typed.body.error).toMatchObject({ field: 'name', message: 'name: must be text' })
    const view = (await request(g.app).get(route).set(bearer(saved.edit_key))).body.timer
    const same = await request(g.app).patch(route).set(bearer(saved.edit_key)).send(view)
    expect(same.status, JSON.stringify(same.body)).toBe(200)
    expect(same.body.timer.version).toBe(1)
    const renamed = await request(g.app).patch(route).set(bearer(saved.edit_key)).send({ ...view, name: 'Renamed' })
    expect(renamed.body.timer).toMatchObject({ version: 2, name: 'Renamed' })
  })

  it('counts opens by hour and reader, first and expired opens, and clicks, keeping nothing that names anyone', async () => {
    const own = await startGiffer({ now: clock.now, liveBucketSeconds: 10, ...(await storeOptions(store)) })
    try {
      const saved = await save(own, { kind: 'evergreen', for: 600, link: 'https://shop.example/offer', link_expired: 'https://shop.example/next' })
      expect(saved.url).toMatch(/\?r=$/)
      const open = (key: string, agent: string) => image(own, pathOf(saved.url) + encodeURIComponent(key), agent)
      await open('anna@example.com', GMAIL)
      await open('anna@example.com', GMAIL)
      await open('ben@example.com', APPLE)
      await open('cleo@example.com', OUTLOOK)
      await open('dan@example.com', YAHOO)
      await open('eve@example.com', 'Thunderbird')
      clock.at += 700_000
      await open('anna@example.com', GMAIL)
      await request(own.app).get(pathOf(saved.link_url) + 'anna%40example.com')
      // The edit page's preview is not an open.
      await image(own, `${pathOf(saved.url)}&preview=1&v=1`, GMAIL)
      const stats = await request(own.app).get(`/giffer/countdown/timers/${saved.id}/stats`).set(bearer(saved.edit_key))
      expect(stats.status).toBe(200)
      expect(stats.body.total).toEqual({ opens: 7, first_opens: 5, expired_opens: 1, clicks: 1, readers: { gmail: 3, apple_privacy: 1, yahoo: 1, outlook: 1, other: 1 } })
      expect(stats.body.hours).toEqual([{ hour: '2026-11-28T12:00:00.000Z', ...stats.body.total }])
      // Written to the file on close, with nothing that names a recipient or a reader.
      await own.giffer.close()
      const kept = await keptText(own, store)
      for (const secret of ['anna', 'example.com', 'GoogleImageProxy', 'Thunderbird']) expect(kept, secret).not.toContain(secret)
      const reopened = await startGiffer({ now: clock.now, stateDir: own.stateDir, ...(await storeOptions(store)) })
      const written = await request(reopened.app).get(`/giffer/countdown/timers/${saved.id}/stats`).set(bearer(saved.edit_key))
      expect(written.body.total).toEqual(stats.body.total)
      await reopened.giffer.close()
    } finally {
      await rm(own.stateDir, { recursive: true, force: true })
    }
  })
})

describe.each(['SQLite', 'Redis'])('the go link in %s', (store) => {
  const clock = testClock(Date.UTC(2026, 10, 28, 12))
  let g: TestGiffer
  beforeAll(async () => {
    g = await startGiffer({ now: clock.now, liveBucketSeconds: 10, ...(await storeOptions(store)) })
  })
  afterAll(() => g.close())

  it('sends a fixed timer to its link before the deadline and to link_expired after, kept by no one', async () => {
    const saved = await save(g, { until: '2026-11-28T13:00:00Z', link: 'https://shop.example/sale', link_expired: 'https://shop.example/next' })
    const before = await request(g.app).get(pathOf(saved.link_url))
    expect(before.status).toBe(302)
    expect(before.headers.location).toBe('https://shop.example/sale')
    expect(before.headers['cache-control']).toBe('no-store')
    clock.at += 3_600_000
    expect((await request(g.app).get(pathOf(saved.link_url))).headers.location).toBe('https://shop.example/next')
    // The request cannot choose the target.
    const chosen = await request(g.app).get(`${pathOf(saved.link_url)}?link=https://evil.example&url=https://evil.example`)
    expect(chosen.headers.location).toBe('https://shop.example/next')
  })

  it('judges an evergreen timer by the deadline of each recipient, and sends to link when link_expired is unset', async () => {
    clock.at = Date.UTC(2026, 10, 28, 12)
    const saved = await save(g, { kind: 'evergreen', for: 3600, link: 'https://shop.example/offer' })
    const withExpired = await save(g, { kind: 'evergreen', for: 3600, link: 'https://shop.example/offer', link_expired: 'https://shop.example/ended' })
    await image(g, pathOf(withExpired.url) + 'early')
    await image(g, pathOf(saved.url) + 'early')
    clock.at += 3_000_000
    await image(g, pathOf(withExpired.url) + 'late')
    clock.at += 1_000_000
    const go = (s: Saved, key: string) => request(g.app).get(pathOf(s.link_url) + key)
    expect((await go(withExpired, 'early')).headers.location).toBe('https://shop.example/ended')
    expect((await go(withExpired, 'late')).headers.location).toBe('https://shop.example/offer')
    // A recipient who never loaded the image has the whole time ahead.
    expect((await go(withExpired, 'never')).headers.location).toBe('https://shop.example/offer')
    expect((await go(saved, 'early')).headers.location).toBe('https://shop.example/offer')
  })

  it('judges a per-recipient timer by the date in until= and a recurring one by its next time', async () => {
    clock.at = Date.UTC(2026, 10, 28, 12)
    const dated = await save(g, { kind: 'per-recipient', from: '2026-11-01T00:00:00Z', to: '2027-01-31T00:00:00Z', link: 'https://shop.example/run', link_expired: 'https://shop.example/over' })
    expect(dated.link_url).toMatch(/\?until=$/)
    const go = (s: Saved, part = '') => request(g.app).get(pathOf(s.link_url) + part)
    expect((await go(dated, '2026-12-01T00:00:00Z')).headers.location).toBe('https://shop.example/run')
    expect((await go(dated, '2026-11-20T00:00:00Z')).headers.location).toBe('https://shop.example/over')
    // A test send with the merge field unfilled sees what its image shows: the ended timer.
    expect((await go(dated, '')).headers.location).toBe('https://shop.example/over')
    const daily = await save(g, { kind: 'recurring', at: '14:00', tz: 'UTC', link: 'https://shop.example/today' })
    expect((await go(daily)).headers.location).toBe('https://shop.example/today')
  })

  it('follows a changed evergreen time: a recipient whose time had ended runs again', async () => {
    clock.at = Date.UTC(2026, 10, 28, 12)
    const saved = await save(g, { kind: 'evergreen', for: 3600, link: 'https://shop.example/run', link_expired: 'https://shop.example/over' })
    await image(g, pathOf(saved.url) + 'anna')
    clock.at += 4_000_000
    expect((await request(g.app).get(pathOf(saved.link_url) + 'anna')).headers.location).toBe('https://shop.example/over')
    await request(g.app).patch(`/giffer/countdown/timers/${saved.id}`).set(bearer(saved.edit_key)).send({ for: 7200 }).expect(200)
    expect((await request(g.app).get(pathOf(saved.link_url) + 'anna')).headers.location).toBe('https://shop.example/run')
  })

  it('keeps an ended saved image only as long as a running one, so that a revived sale shows', async () => {
    clock.at = Date.UTC(2026, 10, 28, 12)
    const ended = await save(g, { until: '2026-11-28T12:01:00Z' })
    const hidden = await save(g, { until: '2026-11-28T12:01:00Z', expired: 'hide' })
    clock.at += 120_000
    expect((await image(g, pathOf(ended.url))).headers['cache-control']).toBe('public, max-age=10')
    expect((await image(g, pathOf(hidden.url))).headers['cache-control']).toBe('public, max-age=10')
    await request(g.app).patch(`/giffer/countdown/timers/${ended.id}`).set(bearer(ended.edit_key)).send({ until: '2026-11-28T13:02:00Z' }).expect(200)
    expect(await showsSeconds(g, (await image(g, pathOf(ended.url))).body, 3600)).toBe(true)
  })

  it('counts no open or click of a HEAD, and a HEAD never starts a recipient time', async () => {
    clock.at = Date.UTC(2026, 10, 28, 12)
    const saved = await save(g, { kind: 'evergreen', for: 3600, link: 'https://shop.example/run', link_expired: 'https://shop.example/over' })
    expect((await request(g.app).head(pathOf(saved.url) + 'ben')).status).toBe(200)
    expect((await request(g.app).head(pathOf(saved.link_url) + 'ben')).status).toBe(302)
    clock.at += 4_000_000
    // Had the HEAD stored a first open, ben's time would have ended.
    expect(await showsSeconds(g, (await image(g, pathOf(saved.url) + 'ben')).body, 3600)).toBe(true)
    const stats = await request(g.app).get(`/giffer/countdown/timers/${saved.id}/stats`).set(bearer(saved.edit_key))
    expect(stats.body.total).toMatchObject({ opens: 1, first_opens: 1, clicks: 0 })
  })

  it('answers 404 without a link, and for a deleted timer, whose images then draw the expiry image', async () => {
    clock.at = Date.UTC(2026, 10, 28, 12)
    const plain = await save(g, { until: '2026-11-28T13:00:00Z' })
    expect((await request(g.app).get(pathOf(plain.link_url))).body.error).toMatchObject({ code: 'no_link' })
    const saved = await save(g, { until: '2026-11-28T13:00:00Z', link: 'https://shop.example/sale' })
    const gone = await request(g.app).delete(`/giffer/countdown/timers/${saved.id}`).set(bearer(saved.edit_key))
    expect(gone.status).toBe(204)
    expect((await request(g.app).get(pathOf(saved.link_url))).status).toBe(404)
    const drawn = await image(g, pathOf(saved.url))
    expect(drawn.status).toBe(200)
    expect(await showsSeconds(g, drawn.body, 0)).toBe(true)
    expect((await request(g.app).get(`/giffer/countdown/timers/${saved.id}/stats`).set(bearer(saved.edit_key))).status).toBe(401)
    // An id of no timer at all draws the same; a name that is not an image is 404.
    expect(await showsSeconds(g, (await image(g, '/giffer/countdown/t/neverexisted1.gif')).body, 0)).toBe(true)
    expect((await request(g.app).get('/giffer/countdown/t/x.txt')).status).toBe(404)
  })

  it('moves every evergreen recipient, stored ones included, when the time is changed', async () => {
    clock.at = Date.UTC(2026, 10, 28, 12)
    const saved = await save(g, { kind: 'evergreen', for: 3600 })
    await image(g, pathOf(saved.url) + 'anna')
    clock.at += 600_000
    expect(await showsSeconds(g, (await image(g, pathOf(saved.url) + 'anna')).body, 3000)).toBe(true)
    const changed = await request(g.app).patch(`/giffer/countdown/timers/${saved.id}`).set(bearer(saved.edit_key)).send({ for: 7200 })
    expect(changed.body.timer).toMatchObject({ for: 7200, version: 2 })
    expect(await showsSeconds(g, (await image(g, pathOf(saved.url) + 'anna')).body, 6600)).toBe(true)
    expect(await showsSeconds(g, (await image(g, pathOf(saved.url) + 'ben')).body, 7200)).toBe(true)
  })
})

describe('through the site', () => {
  it('covers saved timer images with the pixel of the proxy when the image service is slow or down, as signed ones', () => {
    expect(liveImageFormat('/countdown/t/hc9pFWtTR58gSg5w.gif')).toBe('gif')
    expect(liveImageFormat('/countdown/t/hc9pFWtTR58gSg5w.PNG/')).toBe('png')
    expect(liveImageFormat('/countdown/live.gif')).toBe('gif')
    // Not the go link, the API, or another name.
    expect(liveImageFormat('/countdown/t/hc9pFWtTR58gSg5w/go')).toBeNull()
    expect(liveImageFormat('/countdown/timers/hc9pFWtTR58gSg5w')).toBeNull()
    expect(liveImageFormat('/countdown/t/a/b.gif')).toBeNull()
  })
})

describe('limits', () => {
  it('refuses a save past the cap with 503 and Retry-After, never evicting a timer', async () => {
    const g = await startGiffer({ savedTimers: { max: 2 } })
    try {
      const first = await save(g, { kind: 'evergreen', for: 3600 })
      await save(g, { kind: 'evergreen', for: 3600 })
      const full = await request(g.app).post('/giffer/countdown/timers').send({ kind: 'evergreen', for: 3600 })
      expect(full.status).toBe(503)
      expect(full.headers['retry-after']).toBeDefined()
      expect(full.body.error.code).toBe('timers_full')
      expect((await request(g.app).get(`/giffer/countdown/timers/${first.id}`).set(bearer(first.edit_key))).status).toBe(200)
    } finally {
      await g.close()
    }
  })

  it('limits saves per address per hour and changes per timer per minute', async () => {
    const g = await startGiffer({ savedTimers: { savesPerAddressPerHour: 2, editsPerTimerPerMinute: 2 } })
    try {
      const saved = await save(g, { kind: 'evergreen', for: 3600 })
      await save(g, { kind: 'evergreen', for: 3600 })
      const third = await request(g.app).post('/giffer/countdown/timers').send({ kind: 'evergreen', for: 3600 })
      expect(third.status).toBe(429)
      expect(third.headers['retry-after']).toBeDefined()
      const route = `/giffer/countdown/timers/${saved.id}`
      expect((await request(g.app).patch(route).set(bearer(saved.edit_key)).send({ name: 'a' })).status).toBe(200)
      expect((await request(g.app).patch(route).set(bearer(saved.edit_key)).send({ name: 'b' })).status).toBe(200)
      expect((await request(g.app).patch(route).set(bearer(saved.edit_key)).send({ name: 'c' })).status).toBe(429)
      // Reading is not limited.
      expect((await request(g.app).get(route).set(bearer(saved.edit_key))).status).toBe(200)
    } finally {
      await g.close()
    }
  })

  it('never lets wrong keys use up the owner\u2019s changes, and limits wrong keys per address', async () => {
    const g = await startGiffer({ savedTimers: { editsPerTimerPerMinute: 2 } })
    try {
      const saved = await save(g, { kind: 'evergreen', for: 3600 })
      const route = `/giffer/countdown/timers/${saved.id}`
      for (let n = 0; n < 5; n++) expect((await request(g.app).delete(route).set(bearer('wrong-key-wrong-key'))).status).toBe(401)
      expect((await request(g.app).patch(route).set(bearer(saved.edit_key)).send({ name: 'a' })).status).toBe(200)
      // An id that cannot be a timer is answered at once, counted nowhere.
      expect((await request(g.app).delete('/giffer/countdown/timers/x').set(bearer('wrong-key-wrong-key'))).status).toBe(401)
      const failures: number[] = []
      for (let n = 0; n < 60; n++) failures.push((await request(g.app).get(route).set(bearer('wrong-key-wrong-key'))).status)
      expect(failures.filter((status) => status === 429).length).toBeGreaterThan(0)
      expect(failures.slice(0, 55).every((status) => status === 401)).toBe(true)
    } finally {
      await g.close()
    }
  })

  it('bounds a definition: a name over 100 characters is refused naming it', async () => {
    const g = await startGiffer()
    try {
      const res = await request(g.app).post('/giffer/countdown/timers').send({ kind: 'evergreen', for: 3600, name: 'n'.repeat(101) })
      expect(res.status).toBe(400)
      expect(res.body.error.field).toBe('name')
    } finally {
      await g.close()
    }
  })
})

describe('a change without its key', () => {
  it('is answered 401 before its body is read, so slow bodies cannot hold the owner\u2019s changes', async () => {
    const g = await startGiffer({ savedTimers: { editsPerTimerPerMinute: 2 } })
    const server = g.app.listen(0, '127.0.0.1')
    await once(server, 'listening')
    try {
      const saved = await save(g, { kind: 'evergreen', for: 3600 })
      const port = (server.address() as AddressInfo).port
      // Three PATCHes with a wrong key whose bodies never finish.
      const held = await Promise.all(
        [1, 2, 3].map(
          () =>
            new Promise<{ status: number; req: http.ClientRequest }>((resolve) => {
              const req = http.request({ host: '127.0.0.1', port, method: 'PATCH', path: `/giffer/countdown/timers/${saved.id}`, headers: { Authorization: 'Bearer wrong-key-wrong-key', 'Content-Type': 'application/json', 'Content-Length': '100' } }, (res) => {
                res.resume()
                resolve({ status: res.statusCode ?? 0, req })
              })
              req.on('error', () => undefined)
              req.write('{"name":')
            }),
        ),
      )
      expect(held.map(({ status }) => status)).toEqual([401, 401, 401])
      for (const { req } of held) req.destroy()
      expect((await request(g.app).patch(`/giffer/countdown/timers/${saved.id}`).set(bearer(saved.edit_key)).send({ name: 'a' })).status).toBe(200)
      expect((await request(g.app).patch(`/giffer/countdown/timers/${saved.id}`).set(bearer(saved.edit_key)).send({ name: 'b' })).status).toBe(200)
    } finally {
      server.close()
      await g.close()
    }
  })
})

describe.each(['SQLite', 'Redis'])('two processes on one store (%s)', (storeName) => {
  const connect = async () => (await storeOptions(storeName)).redis
  it('shows an edit made in one in the other within 5 s, and the counts of both', async () => {
    const clock = testClock(Date.UTC(2026, 10, 28, 12))
    const a = await startGiffer({ now: clock.now, liveBucketSeconds: 10, redis: await connect() })
    const b = await startGiffer({ now: clock.now, liveBucketSeconds: 10, redis: await connect(), stateDir: a.stateDir })
    try {
      const saved = await save(a, { until: '2026-11-28T13:00:00Z' })
      expect(await showsSeconds(b, (await image(b, pathOf(saved.url), GMAIL)).body, 3600)).toBe(true)
      await request(a.app).patch(`/giffer/countdown/timers/${saved.id}`).set(bearer(saved.edit_key)).send({ until: '2026-11-28T15:00:00Z' })
      clock.at += DEFINITION_KEEP_MS
      expect(DEFINITION_KEEP_MS).toBeLessThan(5_000)
      expect(await showsSeconds(b, (await image(b, pathOf(saved.url), APPLE)).body, 3 * 3600)).toBe(true)
      await b.giffer.close()
      const stats = await request(a.app).get(`/giffer/countdown/timers/${saved.id}/stats`).set(bearer(saved.edit_key))
      expect(stats.body.total).toMatchObject({ opens: 2, readers: { gmail: 1, apple_privacy: 1, yahoo: 0, outlook: 0, other: 0 } })
    } finally {
      await a.close()
      await b.close().catch(() => undefined)
    }
  })
})
