/**
 * Run by tests/giffer/render-memory.test.ts, one process per case: draws one large job in a
 * worker thread limited as the render threads are, after a small one of the same kind (so the
 * libraries and fonts are loaded), and prints
 * `{"peakBytes","estimateBytes"}`: how far the process's resident memory rose above where it was
 * before the job, and what the render pool's estimate says the job needs. Linux only (it resets
 * the kernel's high-water mark through /proc/self/clear_refs).
 *
 *   node --expose-gc --import tsx tests/support/render-peak.ts <case>
 *
 * The test runs it bundled (`renderPeakScript`), which starts in a fraction of tsx's time.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { isMainThread, parentPort, Worker } from 'node:worker_threads'
import sharp, { type Sharp } from 'sharp'
import type { CountdownJob, ReducePhotoJob, RenderJob, ScrollingTextJob, SlideshowJob, TextPreviewJob } from '../../server/giffer/jobs.js'
import { reducePhoto } from '../../server/giffer/render/reduce-photo.js'
import { PHOTO_LONG_SIDE } from '../../shared/generators/slideshow/slideshow.js'
import { memoryPhotoReader } from '../../server/giffer/photo-source.js'
import { renderMemory } from '../../server/giffer/render-memory.js'
import { RENDER_THREAD_LIMITS } from '../../server/giffer/pool.js'
import { renderCountdown } from '../../server/giffer/render/countdown.js'
import { renderScrollingText } from '../../server/giffer/render/scrolling-text.js'
import { renderSlideshow } from '../../server/giffer/render/slideshow.js'
import { renderTextPreview } from '../../server/giffer/render/text-preview.js'
import { headerOf } from '../../server/giffer/photo-header.js'

// As in the render threads.
sharp.concurrency(1)
sharp.cache(false)

const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024

/**
 * Where made photos are kept for the next case that needs the same ones (`RENDER_PEAK_PHOTOS`):
 * making ten noisy 12-megapixel photos takes longer than drawing them, and they are made the same
 * way every time, before anything is measured.
 */
const PHOTO_FOLDER = process.env.RENDER_PEAK_PHOTOS

/**
 * A photo to make: its size and type, and how it is stored. `flat`: one colour rather than grain
 * (a progressive JPEG's coefficients take the same memory whatever they hold, and a flat one of
 * 50 megapixels is made and decoded in a fraction of a noisy one's time).
 */
type Photo = {
  width: number
  height: number
  format: 'jpeg' | 'png' | 'webp'
  progressive?: boolean
  /** JPEG: chroma at full resolution, CMYK or grey; PNG: colour and alpha at 8 or 16 bits, palette with transparency; WebP: lossless. */
  kind?: 'chroma-444' | 'cmyk' | 'grey' | 'rgba' | 'rgba16' | 'palette-alpha' | 'lossless'
  quality?: number
  flat?: boolean
}

/**
 * Grain around 128 with a spread of 30, as libvips' Gaussian noise has, but made here in a tenth
 * of its time (seconds for a 12-megapixel field there): each value is the sum of four random
 * bytes (xorshift), which is close to normal, scaled to that spread. The same seed every time.
 */
function grain(length: number): Uint8Array {
  const out = new Uint8Array(length)
  // Four bytes of mean 127.5 and variance (256² − 1) / 12 each.
  const scale = 30 / Math.sqrt((4 * (256 * 256 - 1)) / 12)
  let x = 0x9e3779b9
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    const sum = (x & 255) + ((x >>> 8) & 255) + ((x >>> 16) & 255) + ((x >>> 24) & 255)
    out[i] = Math.max(0, Math.min(255, Math.round(128 + (sum - 510) * scale)))
  }
  return out
}

/**
 * `count` photos of grain no palette smooths (the worst case for the GIF and the JPEG decoder):
 * one field of noise is made, the slowest step, and photo `i` is the window of it moved `i`
 * columns along, so no two photos (or frames) are the same.
 */
async function photos(photo: Photo, count: number): Promise<Uint8Array[]> {
  const { width, height, format, progressive = false, kind, quality = 82, flat = false } = photo
  const name = (i: number) => PHOTO_FOLDER && path.join(PHOTO_FOLDER, `${width}x${height}-${format}${progressive ? '-progressive' : ''}-${kind ?? 'rgb'}-${quality}${flat ? '-flat' : ''}-${i}`)
  if (Array.from({ length: count }, (_, i) => name(i)).every((kept) => kept && existsSync(kept))) {
    return Array.from({ length: count }, (_, i) => new Uint8Array(readFileSync(name(i) as string)))
  }
  const channels = kind === 'rgba' || kind === 'rgba16' || kind === 'palette-alpha' ? 4 : 3
  const field = { width: width + count - 1, height, channels: channels as 3 | 4 }
  const noise = flat ? null : grain(field.width * field.height * field.channels)
  const made: Uint8Array[] = []
  for (let i = 0; i < count; i++) {
    const image = noise
      ? sharp(noise, { raw: field }).extract({ left: i, top: 0, width, height })
      : sharp({ create: { width, height, channels: field.channels, background: { r: 40 + 20 * i, g: 120, b: 200, alpha: 0.8 } } })
    const bytes = new Uint8Array(await encoded(image, photo, quality, progressive).toBuffer())
    const kept = name(i)
    if (kept) {
      // Whole or not at all: another case may be reading the folder.
      writeFileSync(`${kept}.${process.pid}`, bytes)
      renameSync(`${kept}.${process.pid}`, kept)
    }
    made.push(bytes)
  }
  return made
}

function encoded(image: Sharp, { format, kind }: Photo, quality: number, progressive: boolean): Sharp {
  if (format === 'webp') return image.webp({ quality, lossless: kind === 'lossless', effort: 0 })
  if (format === 'png') {
    if (kind === 'rgba16') return image.toColourspace('rgb16').png({ progressive, compressionLevel: 1 })
    return image.png({ progressive, compressionLevel: 1, ...(kind === 'palette-alpha' ? { palette: true, effort: 1 } : {}) })
  }
  const space = kind === 'cmyk' ? image.toColourspace('cmyk') : kind === 'grey' ? image.toColourspace('b-w') : image
  return space.jpeg({ quality, progressive, chromaSubsampling: kind === 'chroma-444' || kind === 'cmyk' ? '4:4:4' : '4:2:0' })
}

const slideshowStyle = { kind: 'slideshow', mode: 'row', delayMs: 1000, radius: 16, width: 900, background: [255, 255, 255], borderWidth: 2, borderColor: [0, 0, 0], spacing: 0, count: 1, tweak: 1.3, overflow: 0, height: 1.25, overlayColor: [0, 0, 0], overlayOpacity: 0.5 } as const
const scrolling: ScrollingTextJob = { kind: 'scrolling-text', text: 'Free shipping on every order over fifty dollars, this week only', divider: '★', iconStyle: 'filled', font: 'roboto', weight: 700, color: [17, 24, 39], dividerColor: [225, 29, 72], background: [253, 230, 138], reverse: false, fontSize: 72, flicker: [], width: 600, scale: 2, framesMax: 200 }
const captions = { days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' }

/** A job made ready to draw (its photos made beforehand, outside what is measured). */
interface Prepared {
  job: RenderJob
  draw(): Promise<unknown>
}

/** Prepares the case's job; `small` a little one of the same kind, drawn first. */
type Case = (small: boolean) => Promise<Prepared>

function slideshowCase(photo: Photo, style: Partial<SlideshowJob> = {}): Case {
  return async (small) => {
    const bytes = await photos(small ? { ...photo, width: 400, height: 300, flat: false } : photo, small ? 2 : 10)
    const job = { ...slideshowStyle, ...style, photos: await Promise.all(bytes.map(async (b) => (await headerOf(b))!)) } as SlideshowJob
    return { job, draw: () => renderSlideshow(job, memoryPhotoReader(bytes)) }
  }
}

/**
 * Every kind of photo the slideshow page sends, two of each, ten in all: square, portrait and
 * landscape JPEGs as it prepares them, a PNG with transparency (of one colour, to stay within the
 * upload limit), and the largest file it lets
 * through (a detailed JPEG of 4.5 MB, just under the upload limit).
 */
const PAGE_ROLL: Photo[] = [
  { width: 1600, height: 1600, format: 'jpeg', quality: 85 },
  { width: 1200, height: 1600, format: 'jpeg', quality: 85 },
  { width: 1600, height: 1200, format: 'jpeg', quality: 85 },
  { width: 1600, height: 1200, format: 'png', kind: 'rgba', flat: true },
  { width: 1600, height: 1200, format: 'jpeg', quality: 100, kind: 'chroma-444' },
]

function pageRollCase(style: Partial<SlideshowJob>): Case {
  return async (small) => {
    const bytes = small ? await photos({ width: 400, height: 300, format: 'jpeg' }, 2) : (await Promise.all(PAGE_ROLL.map((photo) => photos(photo, 2)))).flat()
    const job = { ...slideshowStyle, ...style, photos: await Promise.all(bytes.map(async (b) => (await headerOf(b))!)) } as SlideshowJob
    return { job, draw: () => renderSlideshow(job, memoryPhotoReader(bytes)) }
  }
}

/** An upload reduced to the render size as it is stored. */
function reduceCase(photo: Photo): Case {
  return async (small) => {
    const [bytes] = await photos(small ? { ...photo, width: 400, height: 300, flat: false } : photo, 1)
    const job: ReducePhotoJob = { kind: 'reduce-photo', photo: (await headerOf(bytes!))!, longSide: PHOTO_LONG_SIDE }
    return { job, draw: () => reducePhoto(job, memoryPhotoReader([bytes!])) }
  }
}

const CASES: Record<string, Case> = {
  'reduce a JPEG of 8000×6000': reduceCase({ width: 8000, height: 6000, format: 'jpeg' }),
  'reduce a progressive JPEG of 4000×3000': reduceCase({ width: 4000, height: 3000, format: 'jpeg', progressive: true }),
  'reduce a PNG of 3000×2000': reduceCase({ width: 3000, height: 2000, format: 'png' }),
  'reduce a PNG of 4000×3000': reduceCase({ width: 4000, height: 3000, format: 'png' }),
  'reduce a progressive CMYK JPEG of 50 megapixels': reduceCase({ width: 8660, height: 5774, format: 'jpeg', progressive: true, kind: 'cmyk', flat: true }),
  'reduce a progressive 4:4:4 JPEG of 24 megapixels': reduceCase({ width: 6000, height: 4000, format: 'jpeg', progressive: true, kind: 'chroma-444' }),
  'reduce a progressive grey JPEG of 4000×3000': reduceCase({ width: 4000, height: 3000, format: 'jpeg', progressive: true, kind: 'grey' }),
  'reduce a 16-bit PNG with alpha of 4000×3000': reduceCase({ width: 4000, height: 3000, format: 'png', kind: 'rgba16' }),
  'reduce a palette PNG with transparency of 4000×3000': reduceCase({ width: 4000, height: 3000, format: 'png', kind: 'palette-alpha' }),
  'reduce a lossy WebP of 4000×3000': reduceCase({ width: 4000, height: 3000, format: 'webp' }),
  'reduce a lossless WebP of 4000×3000': reduceCase({ width: 4000, height: 3000, format: 'webp', kind: 'lossless' }),
  countdown: async (small) => {
    const job: CountdownJob = { kind: 'countdown', remainingSeconds: 86_400 + (small ? 1 : 2), frames: small ? 3 : 120, font: 'roboto', weight: 700, color: [0, 0, 0], background: [255, 255, 255], captions, scale: 2, format: 'gif' }
    return { job, draw: () => renderCountdown(job) }
  },
  'scrolling text at 72 px': async (small) => {
    const job = small ? { ...scrolling, text: 'Sale', fontSize: 24 } : scrolling
    return { job, draw: () => renderScrollingText(job) }
  },
  'text image, 3 lines of 35 at 72 pt with an outline': async (small) => {
    const lines = small ? ['Hi'] : ['Best wishes from all of us at the', 'little shop on the corner of Main', 'Street, see you again next summer']
    const job: TextPreviewJob = { kind: 'text-preview', lines, font: 'great-vibes', weight: 400, fontSize: 72, align: 'center', lineHeight: 1.2, color: [0, 0, 0, 1], padding: 11, scale: 2, stroke: { width: 4, color: [255, 0, 0, 1] } }
    return { job, draw: () => renderTextPreview(job) }
  },
  'slideshow row 4:5 of 10 photos 2400×1600': slideshowCase({ width: 2400, height: 1600, format: 'jpeg' }),
  'slideshow row 9:16 of 10 photos 2400×1600': slideshowCase({ width: 2400, height: 1600, format: 'jpeg' }, { height: 16 / 9 }),
  'slideshow trio of 10 photos 2400×1600': slideshowCase({ width: 2400, height: 1600, format: 'jpeg' }, { mode: 'trio', count: 3 }),
  'slideshow overlay of 10 photos 2400×1600': slideshowCase({ width: 2400, height: 1600, format: 'jpeg' }, { mode: 'overlay', count: 3 }),
  'slideshow row 9:16 of 10 photos as the page sends them': slideshowCase({ width: 1600, height: 1200, format: 'jpeg' }, { height: 16 / 9 }),
  'slideshow row 9:16 of 10 portrait photos as the page sends them, none decoded ahead': slideshowCase({ width: 1200, height: 1600, format: 'jpeg' }, { height: 16 / 9, decodeAhead: false }),
  'slideshow row 4:5 of 10 photos 4000×3000': slideshowCase({ width: 4000, height: 3000, format: 'jpeg' }),
  'slideshow of 10 progressive JPEGs 4000×3000': slideshowCase({ width: 4000, height: 3000, format: 'jpeg', progressive: true }),
  'slideshow of 10 PNGs 3000×2000': slideshowCase({ width: 3000, height: 2000, format: 'png' }),
  'slideshow row 9:16 of the photos the page sends, two of each kind': pageRollCase({ height: 16 / 9 }),
  'slideshow row 9:16 of the photos the page sends, none decoded ahead': pageRollCase({ height: 16 / 9, decodeAhead: false }),
  'slideshow of 10 progressive 4:4:4 JPEGs 2400×1600': slideshowCase({ width: 2400, height: 1600, format: 'jpeg', progressive: true, kind: 'chroma-444' }),
  'slideshow of 10 progressive grey JPEGs 2400×1600': slideshowCase({ width: 2400, height: 1600, format: 'jpeg', progressive: true, kind: 'grey' }),
  'slideshow 9:16 of 10 16-bit PNGs with alpha 1600×1200': slideshowCase({ width: 1600, height: 1200, format: 'png', kind: 'rgba16' }, { height: 16 / 9 }),
  'slideshow 9:16 of 10 palette PNGs with transparency 1600×1200': slideshowCase({ width: 1600, height: 1200, format: 'png', kind: 'palette-alpha' }, { height: 16 / 9 }),
  'slideshow 9:16 of 10 lossy WebPs 1600×1200': slideshowCase({ width: 1600, height: 1200, format: 'webp' }, { height: 16 / 9 }),
  'slideshow 9:16 of 10 lossless WebPs 1600×1200': slideshowCase({ width: 1600, height: 1200, format: 'webp', kind: 'lossless' }, { height: 16 / 9 }),
}

const name = process.argv[2] ?? ''
const chosen = CASES[name]
if (!chosen) {
  console.error(`unknown case ${JSON.stringify(name)}; one of: ${Object.keys(CASES).join(', ')}`)
  process.exit(2)
}

if (isMainThread) {
  // The job is drawn in a worker thread with the render threads' heap limits (a young generation
  // of 8 MB, where the main thread's may grow to several times that), and measured from here: this
  // thread only waits while it draws, so the process's rise is the drawing's.
  // Bundled (as the test runs it), the worker is this same file. From the TypeScript source, a
  // worker does not inherit this thread's TypeScript loader: it registers its own first.
  const limits = { argv: [name], resourceLimits: RENDER_THREAD_LIMITS }
  const worker = import.meta.url.endsWith('.ts')
    ? new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}) })`, { ...limits, eval: true })
    : new Worker(new URL(import.meta.url), limits)
  const exited = new Promise<never>((_, reject) => worker.once('exit', (code) => reject(new Error(`the drawing thread exited (${code}) before it answered`))))
  worker.once('error', (error) => console.error(error))
  const next = () => Promise.race([new Promise<{ estimateBytes?: number }>((resolve) => worker.once('message', resolve)), exited])
  await next()
  writeFileSync('/proc/self/clear_refs', '5')
  const before = kilobytes('VmRSS')
  worker.postMessage('draw')
  const { estimateBytes } = await next()
  const peakBytes = kilobytes('VmHWM') - before
  await worker.terminate()
  console.log(JSON.stringify({ peakBytes, estimateBytes }))
} else {
  await (await chosen(true)).draw()
  const { job, draw } = await chosen(false)
  for (let i = 0; i < 3; i++) {
    ;(globalThis as { gc?: () => void }).gc?.()
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  parentPort!.postMessage({})
  await new Promise((resolve) => parentPort!.once('message', resolve))
  await draw()
  parentPort!.postMessage({ estimateBytes: renderMemory(job).bytes })
}
