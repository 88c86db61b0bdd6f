/**
 * One side of `npm run bench:giffer`'s slideshow before and after: a child process that draws
 * slideshows with the render pool of the checkout at <root> (this one, or an earlier build in a
 * worktree), from the JPEGs in <photos dir>, in one aspect. The bench starts it with that build's
 * allocator settings and drives it over IPC, so the runs of every side take turns:
 *
 *   node --expose-gc --import tsx scripts/lib/slideshow-bench-runner.ts <root> <photos dir> <aspect>
 *
 * It answers `{ ready }` once its pool is up, `{ ms }` for each `{ run }` (the time of `pool.run`,
 * the hop to the render thread included), and `{ peakRssMb }` to `{ done }`, then exits.
 */
import { existsSync, readFileSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { pino } from 'pino'
import { BENCH_ASPECTS, benchSlideshowStyle, type BenchAspect } from './bench-photos.js'

type Message = { run: number } | { done: true }
type Result = { ok: true; frames: number } | { ok: false; message: string }
interface Pool {
  run(job: object, readPhoto?: (index: number) => Promise<Uint8Array>): Promise<Result>
  close(): Promise<void>
}

const [root, photosDir, aspect] = process.argv.slice(2) as [string, string, BenchAspect]
if (!root || !photosDir || !(aspect in BENCH_ASPECTS)) {
  console.error('usage: slideshow-bench-runner.ts <root> <photos dir> <aspect>')
  process.exit(2)
}
const send = (message: object) => process.send!(message)
/**
 * This process's own high-water mark. Linux's getrusage keeps, across exec, the peak of the process
 * that spawned this one (the bench, holding every photo), so it is read from /proc where there is one.
 */
const peakRssKb = () =>
  existsSync('/proc/self/status') ? Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) : process.resourceUsage().maxRSS
const load = async <T>(file: string) => (await import(pathToFileURL(path.join(root, file)).href)) as T

const files = (await readdir(photosDir)).filter((name) => name.endsWith('.jpg')).sort()
const photos = await Promise.all(files.map(async (name) => new Uint8Array(await readFile(path.join(photosDir, name)))))

const { RenderPool } = await load<{ RenderPool: new (options: object) => Pool }>('server/giffer/pool.ts')
const pool = new RenderPool({ workers: 1, queueMax: 4, jobTimeoutMs: 60_000, rssLimitBytes: Number.MAX_SAFE_INTEGER, releaseIdleMs: 3_600_000, logger: pino({ level: 'silent' }) })

/**
 * Builds before the photos were read through a port took their bytes in the job (`images`); since
 * then a job carries the photos' headers and the pool reads each photo when a frame needs it.
 */
let draw: (run: number) => Promise<Result>
if (existsSync(path.join(root, 'server/giffer/photo-source.ts'))) {
  const { headerOf } = await load<{ headerOf(bytes: Uint8Array): Promise<object | null> }>('server/giffer/photo-header.ts')
  const { memoryPhotoReader } = await load<{ memoryPhotoReader(photos: Uint8Array[]): (index: number) => Promise<Uint8Array> }>('server/giffer/photo-source.ts')
  const headers = await Promise.all(photos.map(async (bytes) => (await headerOf(bytes))!))
  draw = (run) => pool.run({ ...benchSlideshowStyle(aspect, run), photos: headers }, memoryPhotoReader(photos))
} else {
  draw = (run) => pool.run({ ...benchSlideshowStyle(aspect, run), images: photos })
}

process.on('message', async (message: Message) => {
  if ('done' in message) {
    await pool.close()
    send({ peakRssMb: peakRssKb() / 1024 })
    process.disconnect()
    return
  }
  const start = performance.now()
  const result = await draw(message.run)
  const ms = performance.now() - start
  if (!result.ok) throw new Error(`slideshow refused: ${result.message}`)
  if (result.frames !== photos.length) throw new Error(`${result.frames} frames drawn from ${photos.length} photos`)
  send({ ms })
})
send({ ready: true })
