import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDeadline, zoneOffsetMs } from '../../server/giffer/live/deadlines.js'
import { liveBucket, signLiveParams } from '../../server/giffer/live/timer.js'
import { PUBLIC_ORIGIN, SECRET, binary, decodeGif, differingPixels, startGiffer, type TestGiffer } from './setup.js'

describe('deadlines and time zones', () => {
  it('takes ISO 8601 with Z or an offset as is', () => {
    expect(parseDeadline('2025-12-24T18:00:00Z', undefined)).toBe(Date.UTC(2025, 11, 24, 18))
    expect(parseDeadline('2025-12-24T18:00:00+02:00', undefined)).toBe(Date.UTC(2025, 11, 24, 16))
    expect(parseDeadline('2025-12-24T18:00-0530', undefined)).toBe(Date.UTC(2025, 11, 24, 23, 30))
  })

  it('reads a wall-clock time in the named zone, in winter and in summer', () => {
    expect(parseDeadline('2025-12-24T18:00', 'Europe/Berlin')).toBe(Date.UTC(2025, 11, 24, 17))
    expect(parseDeadline('2025-07-01T18:00', 'Europe/Berlin')).toBe(Date.UTC(2025, 6, 1, 16))
    expect(parseDeadline('2025-11-28', 'America/New_York')).toBe(Date.UTC(2025, 10, 28, 5))
    expect(parseDeadline('2025-11-28T00:00:00', 'UTC')).toBe(Date.UTC(2025, 10, 28))
  })

  it('resolves wall-clock times around DST changes to real instants', () => {
    // 02:30 does not exist in Berlin on 2025-03-30; 02:30 happens twice on 2025-10-26
    const skipped = parseDeadline('2025-03-30T02:30', 'Europe/Berlin')
    expect([Date.UTC(2025, 2, 30, 0, 30), Date.UTC(2025, 2, 30, 1, 30)]).toContain(skipped)
    const repeated = parseDeadline('2025-10-26T02:30', 'Europe/Berlin')
    expect([Date.UTC(2025, 9, 26, 0, 30), Date.UTC(2025, 9, 26, 1, 30)]).toContain(repeated)
    expect(zoneOffsetMs(Date.UTC(2025, 0, 1), 'Asia/Kolkata')).toBe(5.5 * 3600 * 1000)
  })

  it.each([
    ['a wall-clock time without a zone', '2025-12-24T18:00', undefined, 'tz'],
    ['an unknown zone', '2025-12-24T18:00', 'Mars/Olympus', 'tz'],
    ['an offset and a zone at once', '2025-12-24T18:00Z', 'Europe/Berlin', 'tz'],
    ['a date that does not exist', '2025-02-30T10:00Z', undefined, 'until'],
    ['an hour 24', '2025-02-10T24:00Z', undefined, 'until'],
    ['free text', 'next friday', undefined, 'until'],
  ])('refuses %s naming the field', (_d, until, tz, field) => {
    expect(() => parseDeadline(until, tz)).toThrow(expect.objectContaining({ status: 400, field }))
  })

  it('groups requests by the time they have left and shows it rounded up to the bucket', () => {
    const deadline = 1_000_000_000
    // 100.5 s before the deadline: shows 105 s until 100 s are left
    const bucket = liveBucket(deadline, deadline - 100_500, 5)
    expect(bucket.remainingSeconds).toBe(105)
    expect(bucket.expiresAt).toBe(deadline - 100_000)
    expect(liveBucket(deadline, deadline - 100_000, 5).remainingSeconds).toBe(100)
    expect(liveBucket(deadline, deadline - 99_000, 5).remainingSeconds).toBe(100)
    expect(liveBucket(deadline, deadline - 1, 5).remainingSeconds).toBe(5)
    expect(liveBucket(deadline, deadline, 5).remainingSeconds).toBe(0)
    expect(liveBucket(deadline, deadline + 1, 5).remainingSeconds).toBe(0)
  })
})

describe('live countdown endpoints', () => {
  let g: TestGiffer
  let clock = Date.UTC(2025, 11, 20, 12, 0, 0)
  beforeAll(async () => {
    g = await startGiffer({ now: () => clock, liveBucketSeconds: 10 })
  })
  afterAll(async () => {
    await g.close()
  })

  async function mint(body: Record<string, unknown>) {
    const res = await request(g.app).post('/giffer/countdown/live-url').send(body)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body as { url: string; png_url: string; until: string }
  }

  const path = (url: string) => {
    const u = new URL(url)
    return u.pathname + u.search
  }

  it('mints a signed URL on this service for a deadline and a style', async () => {
    const minted = await mint({ until: '2025-12-24T18:00', tz: 'Europe/Berlin', font: 'roboto', color: '#ffffff', background: '#000000', days: 'Days' })
    expect(minted.until).toBe('2025-12-24T17:00:00Z')
    const url = new URL(minted.url)
    expect(url.origin).toBe(PUBLIC_ORIGIN)
    expect(url.pathname).toBe('/giffer/countdown/live.gif')
    expect(url.searchParams.get('sig')).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(new URL(minted.png_url).pathname).toBe('/giffer/countdown/live.png')
  })

  it('refuses deadlines in the past or more than 99 days ahead', async () => {
    const past = await request(g.app).post('/giffer/countdown/live-url').send({ until: '2025-12-01T00:00:00Z' })
    expect(past.status).toBe(400)
    expect(past.body.error.field).toBe('until')
    const far = await request(g.app).post('/giffer/countdown/live-url').send({ until: '2026-06-01T00:00:00Z' })
    expect(far.status).toBe(400)
    expect(far.body.error).toMatchObject({ field: 'until', message: 'until: must be at most 99 days ahead' })
  })

  it('draws the time left at the moment of the request on frame 0', async () => {
    const minted = await mint({ until: '2025-12-20T13:00:00Z', days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' })
    const live = await request(g.app).get(path(minted.url)).buffer(true).parse(binary)
    expect(live.status).toBe(200)
    expect(live.headers['content-type']).toBe('image/gif')
    const reference = await request(g.app)
      .post('/giffer/countdown/create')
      .send({ delay: 3600, days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' })
      .buffer(true)
      .parse(binary)
    expect(differingPixels(decodeGif(live.body).picture(0), decodeGif(reference.body).picture(0))).toBe(0)
    expect(live.headers['cache-control']).toBe('public, max-age=10')
  })

  it('renders once per time bucket and moves on with the clock', async () => {
    const minted = await mint({ until: '2025-12-20T18:00:00Z' })
    const first = await request(g.app).get(path(minted.url))
    clock += 3_000
    const sameBucket = await request(g.app).get(path(minted.url))
    expect(sameBucket.headers['x-giffer-cache']).toBe('hit')
    expect(sameBucket.headers.etag).toBe(first.headers.etag)
    expect(sameBucket.headers['cache-control']).toBe('public, max-age=7')
    clock += 10_000
    const nextBucket = await request(g.app).get(path(minted.url))
    expect(nextBucket.headers['x-giffer-cache']).toBe('rendered')
    expect(nextBucket.headers.etag).not.toBe(first.headers.etag)
  })

  it('has a PNG twin showing the first frame, for Outlook', async () => {
    const minted = await mint({ until: '2025-12-21T12:00:00Z', days: 'Days' })
    const gif = await request(g.app).get(path(minted.url)).buffer(true).parse(binary)
    const png = await request(g.app).get(path(minted.png_url)).buffer(true).parse(binary)
    expect(png.headers['content-type']).toBe('image/png')
    const sharp = (await import('sharp')).default
    const { data } = await sharp(png.body as Buffer).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    expect(differingPixels(new Uint8Array(data), decodeGif(gif.body).picture(0))).toBe(0)
  })

  it('shows an expired timer (all zeros, one frame) after the deadline, cached longer', async () => {
    const minted = await mint({ until: new Date(clock + 30_000).toISOString() })
    clock += 60_000
    const res = await request(g.app).get(path(minted.url)).buffer(true).parse(binary)
    expect(res.status).toBe(200)
    expect(decodeGif(res.body).frames).toHaveLength(1)
    expect(res.headers['cache-control']).toBe('public, max-age=3600')
    const zero = await request(g.app).post('/giffer/countdown/create').send({ delay: 0 }).buffer(true).parse(binary)
    expect(differingPixels(decodeGif(res.body).picture(0), decodeGif(zero.body).picture(0))).toBe(0)
  })

  it('refuses a URL whose parameters were changed, added or removed with 403', async () => {
    const minted = await mint({ until: '2025-12-22T12:00:00Z', color: '#000000' })
    const url = new URL(minted.url)
    const tampered = (change: (params: URLSearchParams) => void) => {
      const params = new URLSearchParams(url.search)
      change(params)
      return request(g.app).get(`${url.pathname}?${params}`)
    }
    for (const res of await Promise.all([
      tampered((p) => p.set('until', '2026-01-22T12:00:00Z')),
      tampered((p) => p.set('color', 'ff0000')),
      tampered((p) => p.set('scale', '1')),
      tampered((p) => p.append('extra', '1')),
      tampered((p) => p.delete('font')),
      tampered((p) => p.set('sig', 'x'.repeat(32))),
      tampered((p) => p.delete('sig')),
    ])) {
      expect(res.status).toBe(403)
      expect(res.body.error.code).toBe('bad_signature')
    }
  })

  it('reads a link whose & an email editor escaped twice as the link it was made as: same timer, same image, same recipient key', async () => {
    const escaped = (url: string, escape = '&amp;') => path(url).replaceAll('&', escape)
    const fixed = await mint({ until: '2025-12-23T12:00:00Z' })
    const clean = await request(g.app).get(path(fixed.url))
    const bent = await request(g.app).get(escaped(fixed.url))
    expect(bent.status, JSON.stringify(bent.body)).toBe(200)
    expect(bent.headers.etag).toBe(clean.headers.etag)

    const evergreen = await mint({ kind: 'evergreen', for: 3600 })
    // The first open comes through the escaped link; later opens, either way, count from it.
    expect((await request(g.app).get(`${escaped(evergreen.url)}anna%40shop.example`)).status).toBe(200)
    clock += 100_000
    const cleanLater = await request(g.app).get(`${path(evergreen.url)}anna%40shop.example`)
    const bentLater = await request(g.app).get(`${escaped(evergreen.url, '&AMP;amp;')}anna%40shop.example`)
    const newKey = await request(g.app).get(`${path(evergreen.url)}bob%40shop.example`)
    expect([cleanLater.status, bentLater.status, newKey.status]).toEqual([200, 200, 200])
    expect(bentLater.headers.etag).toBe(cleanLater.headers.etag)
    expect(cleanLater.headers.etag).not.toBe(newKey.headers.etag)
  })

  it('accepts a URL signed with the same secret elsewhere (another process) but not with another secret', async () => {
    const params = { until: '2025-12-22T12:00:00Z', font: 'roboto', font_weight: '700', color: '000000', background: 'ffffff', days: '', hours: '', minutes: '', seconds: '', duration: '120', scale: '2' }
    const good = new URLSearchParams({ ...params, sig: signLiveParams(params, SECRET) })
    expect((await request(g.app).get(`/giffer/countdown/live.gif?${good}`)).status).toBe(200)
    const bad = new URLSearchParams({ ...params, sig: signLiveParams(params, 'another-secret-entirely') })
    expect((await request(g.app).get(`/giffer/countdown/live.gif?${bad}`)).status).toBe(403)
  })
})

describe('a live timer that cannot be drawn now', () => {
  it('answers a transparent pixel kept by no one, naming why, where a plain image would get 503 render_timeout', async () => {
    const g = await startGiffer({ jobTimeoutMs: 1 })
    try {
      const minted = await request(g.app)
        .post('/giffer/countdown/live-url')
        .send({ until: new Date(Date.now() + 3_600_000).toISOString() })
        .expect(200)
      const url = new URL((minted.body as { url: string }).url)
      const live = await request(g.app).get(url.pathname + url.search).buffer(true).parse(binary)
      expect(live.status).toBe(200)
      expect(live.headers).toMatchObject({ 'content-type': 'image/gif', 'cache-control': 'no-store', 'x-giffer-undrawn': 'render_timeout' })
      expect(live.headers['retry-after']).toBeUndefined()
      expect(decodeGif(live.body)).toMatchObject({ width: 1, height: 1 })
      const plain = await request(g.app).post('/giffer/countdown/create').send({ delay: 3600 })
      expect(plain.status).toBe(503)
      expect(plain.body.error.code).toBe('render_timeout')
    } finally {
      await g.close()
    }
  })
})
