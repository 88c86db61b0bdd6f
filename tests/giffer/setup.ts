/** Fixtures for the giffer tests: a mounted service, GIF decoding, generated photos, uploads. */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import express from 'express'
import { GifReader } from 'omggif'
import { pino } from 'pino'
import sharp from 'sharp'
import type { Response as SuperagentResponse } from 'superagent'
import request from 'supertest'
import type { GifferOptions } from '../../server/giffer/config.js'
import type { PhotoHeader, SlideshowJob } from '../../server/giffer/jobs.js'
import { createGifferRouter, type GifferRouter } from '../../server/giffer/router.js'
import { sizeProcess, type ProcessRole, type ProcessSizing } from '../../server/process/sizing.js'

export const PUBLIC_ORIGIN = 'http://site.test'
export const SECRET = 'test-secret-not-for-production'
/** The pre-set API's token in the test giffer. */
export const PRESET_TOKEN = 'test-preset-token-not-for-production'

export interface TestGiffer {
  app: express.Express
  giffer: GifferRouter
  stateDir: string
  close(): Promise<void>
}

/**
 * The sizing and memory budget a test's giffer is handed, as a process of this role would make
 * them at start in a box of `memoryMb` (2 GB) with a CPU for each of `workers` threads and one more.
 */
export function testSizing({ workers = 1, memoryMb = 2048, role = 'giffer' }: { workers?: number; memoryMb?: number; role?: ProcessRole } = {}): ProcessSizing {
  const memoryBytes = memoryMb * 2 ** 20
  const box = { memoryBytes, memoryFrom: 'cgroup v2', cpus: workers + 1, cpusFrom: 'affinity', machine: { memoryBytes, cpus: workers + 1 } } as const
  return sizeProcess(box, role, { renders: true, workers })
}

/** The giffer mounted at /giffer of a bare express app, with one render thread (`testSizing`) and a temporary state folder. */
export async function startGiffer(overrides: Partial<GifferOptions> = {}): Promise<TestGiffer> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'giffer-test-'))
  const giffer = createGifferRouter({
    stateDir,
    publicPath: '/giffer',
    publicOrigin: PUBLIC_ORIGIN,
    secret: SECRET,
    ...testSizing(),
    queueMax: 8,
    jobTimeoutMs: 30_000,
    // Tests sign and upload far more from one address than a visitor: the limits have tests of their own.
    uploadsPerAddress: 100_000,
    liveMintsPerAddress: 100_000,
    // Tests of what a live timer draws must not get a fallback because other test files keep the
    // machine busy; the tests of the answer's time limit set the real one (GIFFER_DEFAULTS).
    liveAnswerMs: 20_000,
    presetToken: PRESET_TOKEN,
    logger: pino({ level: 'silent' }),
    ...overrides,
  })
  const app = express()
  app.use('/giffer', giffer)
  return {
    app,
    giffer,
    stateDir,
    async close() {
      await giffer.close()
      await rm(stateDir, { recursive: true, force: true })
    },
  }
}

export interface DecodedFrame {
  x: number
  y: number
  width: number
  height: number
  delayMs: number
  disposal: number
}

export interface DecodedGif {
  width: number
  height: number
  /** 0: forever; null: no loop extension. */
  loop: number | null
  frames: DecodedFrame[]
  /** The picture shown at frame `i` (frames 0…i composed with their disposal), RGBA. */
  picture(i: number): Uint8Array
}

export function decodeGif(bytes: Uint8Array): DecodedGif {
  const reader = new GifReader(bytes)
  const frames = Array.from({ length: reader.numFrames() }, (_, i) => {
    const info = reader.frameInfo(i)
    return { x: info.x, y: info.y, width: info.width, height: info.height, delayMs: info.delay * 10, disposal: info.disposal }
  })
  let loop: number | null
  try {
    loop = reader.loopCount()
  } catch {
    loop = null
  }
  return {
    width: reader.width,
    height: reader.height,
    loop: loop ?? null,
    frames,
    picture(target) {
      const pixels = new Uint8Array(reader.width * reader.height * 4)
      for (let i = 0; i <= target; i++) {
        reader.decodeAndBlitFrameRGBA(i, pixels)
        const f = frames[i]!
        if (i < target && f.disposal === 2) {
          for (let y = f.y; y < f.y + f.height; y++) pixels.fill(0, (y * reader.width + f.x) * 4, (y * reader.width + f.x + f.width) * 4)
        }
      }
      return pixels
    },
  }
}

/** RGBA pixel at (x, y). */
export function pixelAt(rgba: Uint8Array, width: number, x: number, y: number): [number, number, number, number] {
  const i = (y * width + x) * 4
  return [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!, rgba[i + 3]!]
}

/** How many pixels differ between two pictures of the same size. */
export function differingPixels(a: Uint8Array, b: Uint8Array): number {
  let n = 0
  for (let i = 0; i < a.length; i += 4) {
    if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2] || a[i + 3] !== b[i + 3]) n++
  }
  return n
}

/** A photo-like JPEG: a gradient, a disc and some grain, different for each seed. */
export async function makePhoto(seed: number, width = 1200, height = 900, format: 'jpeg' | 'png' | 'webp' = 'jpeg'): Promise<Buffer> {
  const hue = (seed * 47) % 360
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,60%)"/>` +
      `<stop offset="1" stop-color="hsl(${(hue + 140) % 360},60%,30%)"/></linearGradient></defs>` +
      `<rect width="100%" height="100%" fill="url(#g)"/>` +
      `<circle cx="${(0.3 + (seed % 5) * 0.1) * width}" cy="${height / 2}" r="${height / 4}" fill="#fff" opacity="0.6"/></svg>`,
  )
  const image = sharp(svg)
  return format === 'jpeg' ? image.jpeg({ quality: 85 }).toBuffer() : format === 'png' ? image.png().toBuffer() : image.webp().toBuffer()
}

/** Signs, uploads and resolves a file the way the generator page does (the first under its signature: `photo-1`); returns the resolved URL. */
export async function uploadFile(app: express.Express, bytes: Buffer, filename = 'photo-1.jpg', contentType = 'image/jpeg'): Promise<string> {
  const signed = await request(app).post('/giffer/uploads/sign').expect(200)
  const { url, key, fields } = signed.body as { url: string; key: string; fields: Record<string, string> }
  const target = new URL(url, PUBLIC_ORIGIN).pathname
  let upload = request(app).post(target)
  for (const [name, value] of Object.entries(fields)) upload = upload.field(name, value)
  upload = upload.field('Content-Type', contentType).field('Content-Disposition', 'inline')
  await upload.attach('file', bytes, { filename, contentType }).expect(204)
  const resolved = await request(app)
    .get('/giffer/uploads/resolve')
    .query({ key: key.replace('${filename}', filename) })
    .expect(200)
  return (resolved.body as { url: string }).url
}

/** supertest collects binary bodies with this parser: `.buffer(true).parse(binary)`. */
export function binary(res: SuperagentResponse, done: (error: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream
  const chunks: Buffer[] = []
  stream.on('data', (chunk: Buffer) => chunks.push(chunk))
  stream.on('end', () => done(null, Buffer.concat(chunks)))
  stream.on('error', (error: Error) => done(error, Buffer.alloc(0)))
}

/** A photo-like progressive JPEG (quality 60), which sharp decodes whole: the dearest kind to draw for its size. */
export async function makeProgressivePhoto(seed: number, width: number, height: number): Promise<Buffer> {
  return sharp(await makePhoto(seed, width, height)).jpeg({ quality: 60, progressive: true }).toBuffer()
}

/** A one-photo slideshow job, its photo as `header` describes it, on `background` (white unless given). */
export function oneCardJob(header: PhotoHeader, background: SlideshowJob['background'] = [255, 255, 255]): SlideshowJob {
  return {
    kind: 'slideshow',
    mode: 'row',
    photos: [header],
    delayMs: 1000,
    radius: 0,
    width: 300,
    background,
    borderWidth: 0,
    borderColor: [0, 0, 0],
    spacing: 0,
    count: 1,
    tweak: 1,
    overflow: 0,
    height: 1,
    overlayColor: [0, 0, 0],
    overlayOpacity: 0,
  }
}
