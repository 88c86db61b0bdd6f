/**
 * Native memory under rendering: a few hundred images through one render thread must leave the
 * process about where it was. The canvas library's pixel buffers live outside V8's heap and are
 * freed by finalizers on the thread's event loop; when that loop never runs, each countdown
 * keeps some 3 MB and each scrolling text some 2.5 MB for good. Slideshows decode photos with
 * sharp and read each frame's pixels back from the canvas, so they are checked too.
 */
import { pino } from 'pino'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PhotoHeader, RenderJob } from '../../server/giffer/jobs.js'
import { RenderPool } from '../../server/giffer/pool.js'
import { headerOf } from '../../server/giffer/photo-header.js'
import { memoryPhotoReader } from '../../server/giffer/photo-source.js'

const MB = 2 ** 20
/** Growth allowed after warm-up: allocator slack and caches, far below a leak's hundreds of MB. */
const GROWTH_BOUND_MB = 120

const pool = new RenderPool({ workers: 1, queueMax: 4, jobTimeoutMs: 60_000, rssLimitBytes: Number.MAX_SAFE_INTEGER, releaseIdleMs: 60_000, logger: pino({ level: 'silent' }) })
afterAll(() => pool.close())

/** Three small photos, as a visitor's uploads would arrive, and what their headers say. */
let photos: Uint8Array[] = []
let headers: PhotoHeader[] = []
beforeAll(async () => {
  const tints = [[220, 80, 60], [60, 160, 90], [70, 90, 200]] as const
  photos = await Promise.all(
    tints.map(([r, g, b]) => sharp({ create: { width: 480, height: 360, channels: 3, background: { r, g, b } } }).jpeg().toBuffer()),
  )
  headers = await Promise.all(photos.map(async (bytes) => (await headerOf(bytes))!))
})

const captions = { days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' }
const jobs: Record<string, (n: number) => RenderJob> = {
  'countdown GIFs': (n) => ({ kind: 'countdown', remainingSeconds: 86_400 + n * 37, frames: 120, font: 'roboto', weight: 700, color: [255, 255, 255], background: [20, 20, 60], captions, scale: 2, format: 'gif' }),
  'scrolling-text GIFs': (n) => ({ kind: 'scrolling-text', text: `Sale ends soon, order ${n}`, divider: '★', iconStyle: 'filled', font: 'roboto', weight: 400, color: [0, 0, 0], dividerColor: [200, 0, 0], background: [255, 255, 255], reverse: n % 2 === 1, fontSize: 24, flicker: [], width: 600, scale: 2, framesMax: 200 }),
  'slideshow GIFs': (n) => ({ kind: 'slideshow', mode: 'row', photos: headers, delayMs: 1000 + n * 10, radius: 12, width: 900, background: null, borderWidth: 0, borderColor: [255, 255, 255], spacing: 0, count: 1, tweak: 1, overflow: 0, height: 1, overlayColor: [0, 0, 0], overlayOpacity: 0.3 }),
  'text images': (n) => ({ kind: 'text-preview', lines: [`Signature ${n}`, 'Best wishes'], font: 'great-vibes', weight: 400, fontSize: 48, align: 'center', lineHeight: 1.2, color: [10, 10, 10, 1], padding: 8, scale: 2, stroke: { width: 2, color: [200, 0, 0, 1] } }),
}

async function rssGrowthMb(make: (n: number) => RenderJob, count: number): Promise<number> {
  const read = memoryPhotoReader(photos)
  for (let n = 0; n < 20; n++) await pool.run(make(n), read)
  const before = process.memoryUsage.rss()
  for (let n = 20; n < count; n++) {
    const result = await pool.run(make(n), read)
    expect(result.ok).toBe(true)
  }
  return (process.memoryUsage.rss() - before) / MB
}

describe('render memory', () => {
  it.each([
    ['countdown GIFs', 300],
    ['scrolling-text GIFs', 100],
    ['text images', 300],
    ['slideshow GIFs', 60],
  ] as const)('draws %s %i times in one thread with bounded memory', async (kind, count) => {
    const growth = await rssGrowthMb(jobs[kind]!, count)
    expect(growth).toBeLessThan(GROWTH_BOUND_MB)
  }, 120_000)
})
