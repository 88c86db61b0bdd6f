/** The image service in a box too small to draw images: it says so at start, starts no render thread and refuses every image. */
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { LocalUploadStore } from '../../server/giffer/uploads/local-store.js'
import sharp from 'sharp'
import { binary, decodeGif, startGiffer, testSizing, uploadFile, type TestGiffer } from './setup.js'
import { RenderPool } from '../../server/giffer/pool.js'
import { sizeProcess } from '../../server/process/sizing.js'
import type { PhotoHeader, SlideshowJob } from '../../server/giffer/jobs.js'
import { renderMemory } from '../../server/giffer/render-memory.js'
import { ASPECT_HEIGHTS, ASPECTS, LAYOUTS, layoutOverflow, layoutTweak, SLIDESHOW_WIDTH, UPLOAD_MAX_BYTES } from '../../shared/generators/slideshow/slideshow.js'

const REFUSAL = 'This server has 180 MB of memory and needs at least 200 MB to draw images.'

describe('the image service of a site in a 180 MB box', () => {
  let g: TestGiffer
  beforeAll(async () => {
    g = await startGiffer(testSizing({ role: 'site', memoryMb: 180 }))
  })
  afterAll(async () => {
    await g.close()
  })

  it.each([
    ['a countdown', () => request(g.app).post('/giffer/countdown/create').send({ delay: 3600 })],
    ['a scrolling text', () => request(g.app).post('/giffer/scrollingtext/create').send({ text: 'Free shipping' })],
    ['a text image', () => request(g.app).get('/giffer/text/preview').query({ text: 'Hello', font: 'great-vibes' })],
  ])('answers %s with 503 too_small_for_renders, saying how much memory it has and needs, with a Retry-After of an hour', async (_kind, send) => {
    const res = await send()
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ error: { code: 'too_small_for_renders', message: REFUSAL } })
    expect(res.headers['retry-after']).toBe('3600')
  })

  it('answers a slideshow with the same 503 before asking the store for any photo', async () => {
    const header = vi.spyOn(LocalUploadStore.prototype, 'header')
    const res = await request(g.app)
      .post('/giffer/slideshow/create-row')
      .send({ images: [`/giffer/uploads/2026-01-01/${'a'.repeat(32)}/photo-1.jpg`] })
    header.mockRestore()
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ error: { code: 'too_small_for_renders', message: REFUSAL } })
    expect(header).not.toHaveBeenCalled()
  })

  it('starts no render pool: /healthz and the stats say so', async () => {
    const health = await request(g.app).get('/giffer/healthz').expect(200)
    expect(health.body.pool).toBeNull()
    expect(g.giffer.stats).toBeUndefined()
  })

  it('answers a signed live timer with a transparent pixel kept by no one, never a 5xx a mail proxy would keep', async () => {
    const minted = await request(g.app)
      .post('/giffer/countdown/live-url')
      .send({ until: new Date(Date.now() + 3_600_000).toISOString() })
      .expect(200)
    const { url, png_url } = minted.body as { url: string; png_url: string }
    const gif = await request(g.app).get(new URL(url).pathname + new URL(url).search).buffer(true).parse(binary)
    expect(gif.status).toBe(200)
    expect(gif.headers).toMatchObject({ 'content-type': 'image/gif', 'cache-control': 'no-store', 'x-giffer-undrawn': 'too_small_for_renders' })
    const pixel = decodeGif(gif.body)
    expect([pixel.width, pixel.height]).toEqual([1, 1])
    expect([...pixel.picture(0)]).toEqual([0, 0, 0, 0])
    const png = await request(g.app).get(new URL(png_url).pathname + new URL(png_url).search).buffer(true).parse(binary)
    expect(png.status).toBe(200)
    expect(png.headers).toMatchObject({ 'content-type': 'image/png', 'cache-control': 'no-store', 'x-giffer-undrawn': 'too_small_for_renders' })
    const sharp = (await import('sharp')).default
    const { data, info } = await sharp(png.body as Buffer).raw().toBuffer({ resolveWithObject: true })
    expect([info.width, info.height, ...data]).toEqual([1, 1, 0, 0, 0, 0])
  })

  it('still refuses a live timer whose signature is wrong with 403', async () => {
    const res = await request(g.app).get('/giffer/countdown/live.gif').query({ until: '2030-01-01T00:00:00Z', sig: 'x'.repeat(32) })
    expect(res.status).toBe(403)
  })
})

describe('a site in a 256 MB box and photos as the slideshow page sends them', () => {
  /** A render-sized JPEG's header as the page makes it (4:2:0, baseline), at the largest file the upload takes. */
  const photo = (width: number, height: number): PhotoHeader => ({ type: 'image/jpeg', size: UPLOAD_MAX_BYTES, width, height, progressive: false, channels: 3, samples: 1.5, bitDepth: 8, alpha: false, palette: false, lossless: false })
  /** The page's PNG of a photo that may be transparent: colour and alpha at eight bits. */
  const png = (width: number, height: number): PhotoHeader => ({ ...photo(width, height), type: 'image/png', channels: 4, samples: 4, alpha: true, lossless: true })
  /** Every photo the page sends, ten at a time: square, portrait, landscape, with transparency, and all of them mixed. */
  const rolls: [string, PhotoHeader[]][] = [
    ['square', Array(10).fill(photo(1600, 1600))],
    ['portrait', Array(10).fill(photo(1200, 1600))],
    ['landscape', Array(10).fill(photo(1600, 1200))],
    ['PNG with alpha', Array(10).fill(png(1600, 1600))],
    ['mixed', [photo(1600, 1600), photo(1200, 1600), photo(1600, 1200), png(1600, 1200), png(1200, 1600)].flatMap((p) => [p, p])],
  ]
  const shapes = [
    ...ASPECTS.map((aspect) => ({ name: `slideshow ${aspect}`, mode: 'row' as const, count: 1, tweak: 1, overflow: 0, height: ASPECT_HEIGHTS[aspect] })),
    ...[2, 3, 4, 5].map((count) => ({ name: `row of ${count} 9:16`, mode: 'row' as const, count, tweak: 1, overflow: 0, height: 16 / 9 })),
    ...(['trio', 'overlay'] as const).flatMap((mode) =>
      LAYOUTS.map((layout) => ({ name: `${mode} ${layout} 9:16`, mode, count: 3, tweak: layoutTweak(layout), overflow: layoutOverflow(layout), height: 16 / 9 })),
    ),
  ]
  const job = (shape: (typeof shapes)[number], photos: PhotoHeader[]): SlideshowJob => ({
    kind: 'slideshow',
    ...shape,
    photos,
    delayMs: 1500,
    radius: 16,
    width: SLIDESHOW_WIDTH,
    background: [255, 255, 255],
    borderWidth: 50,
    borderColor: [0, 0, 0],
    spacing: 0,
    overlayColor: [0, 0, 0],
    overlayOpacity: 0.5,
  })

  it.each(shapes.map((shape) => [shape.name, shape] as const))('draws ten of every kind in %s: the estimate fits the budget, decoding ahead or else without', (_name, shape) => {
    const { budget } = testSizing({ role: 'site', memoryMb: 256 })
    for (const [roll, photos] of rolls) {
      const ahead = budget.canEverHold(renderMemory(job(shape, photos)).bytes)
      const without = budget.canEverHold(renderMemory({ ...job(shape, photos), decodeAhead: false }).bytes)
      expect([roll, ahead || without]).toEqual([roll, true])
    }
  })

  it('decodes ahead where the budget holds it, and draws the tallest shape without: one photo less in memory', () => {
    const { budget } = testSizing({ role: 'site', memoryMb: 256 })
    const photos = Array(10).fill(photo(1600, 1200))
    const square = job(shapes.find((shape) => shape.name === 'slideshow 1:1')!, photos)
    const tall = job(shapes.find((shape) => shape.name === 'slideshow 9:16')!, photos)
    expect(budget.canEverHold(renderMemory(square).bytes)).toBe(true)
    expect(budget.canEverHold(renderMemory(tall).bytes)).toBe(false)
    expect(budget.canEverHold(renderMemory({ ...tall, decodeAhead: false }).bytes)).toBe(true)
  })
})

describe('decoding the next photo ahead', () => {
  /** The slideshow job the pool is handed for ten detailed photos, in a box of `cpus` CPUs and `memoryMb`. */
  async function jobDrawn(cpus: number, memoryMb: number, height: number): Promise<SlideshowJob> {
    const memoryBytes = memoryMb * 2 ** 20
    const sizing = sizeProcess({ memoryBytes, memoryFrom: 'cgroup v2', cpus, cpusFrom: 'cgroup v2 quota', machine: { memoryBytes, cpus: 2 } }, 'site', { renders: true })
    const g = await startGiffer(sizing)
    const run = vi.spyOn(RenderPool.prototype, 'run')
    try {
      // The largest file the page lets through, kept as it came (baseline, 4:2:0, bare): a detailed photo of about 3 MB.
      const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#3366aa', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
        .jpeg({ quality: 100, chromaSubsampling: '4:2:0' })
        .toBuffer()
      const urls: string[] = []
      for (let i = 0; i < 10; i++) urls.push(await uploadFile(g.app, photo))
      await request(g.app).post('/giffer/slideshow/create-row').send({ images: urls, count: 1, height }).expect(200)
      return run.mock.calls.map(([job]) => job).find((job): job is SlideshowJob => job.kind === 'slideshow')!
    } finally {
      run.mockRestore()
      await g.close()
    }
  }

  it('happens where a CPU is left beside the render threads and the budget holds one photo more', async () => {
    expect((await jobDrawn(2, 256, 1)).decodeAhead).toBe(true)
  })

  it('does not on one CPU (it would only take turns with the drawing), nor for a shape the budget holds only without it', async () => {
    expect((await jobDrawn(1, 256, 1)).decodeAhead).toBe(false)
    expect((await jobDrawn(2, 256, 16 / 9)).decodeAhead).toBe(false)
  }, 60_000)
})
