/**
 * `npm run bench:giffer`: how fast the giffer draws, and whether the site stays responsive
 * while it does.
 *
 * 1. Renders through the same worker pool the service uses (one worker, jobs one at a time, no
 *    cache): median time, output size and the process's peak RSS for each generator.
 * 2. Draws the same slideshow with an earlier build (a git worktree, BENCH_BASELINE) and with this
 *    one, each in a child process with its own allocator settings, from the photos each was or is
 *    sent: scripts/lib/slideshow-before-after.ts.
 * 3. Serves the site (`createApp`) and the giffer in one process, and measures `/` with
 *    autocannon (a child process, loopback only, bounded in time) alone and while two
 *    countdown GIFs a second are requested.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import express from 'express'
import { pino } from 'pino'
import { projectRoot } from '../server/project-root.js'
import { readBox } from '../server/process/box.js'
import { sizeProcess } from '../server/process/sizing.js'
import type { RenderJob } from '../server/giffer/jobs.js'
import { RenderPool } from '../server/giffer/pool.js'
import { createGifferRouter } from '../server/giffer/router.js'
import { headerOf } from '../server/giffer/photo-header.js'
import { memoryPhotoReader } from '../server/giffer/photo-source.js'
import { BENCH_ASPECTS, benchPhoto, benchSlideshowStyle } from './lib/bench-photos.js'
import { benchSlideshowBeforeAfter } from './lib/slideshow-before-after.js'

const RUNS = Number(process.env.BENCH_RUNS ?? 15)
const WARMUP = 3
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 15)
const logger = pino({ level: 'silent' })

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const peakRssMb = () => process.resourceUsage().maxRSS / 1024

interface RenderCase {
  name: string
  target: string
  job: (run: number) => RenderJob
}

async function benchRenders(): Promise<void> {
  const pool = new RenderPool({ workers: 1, queueMax: 4, jobTimeoutMs: 60_000, rssLimitBytes: Number.MAX_SAFE_INTEGER, releaseIdleMs: 60_000, logger })
  const photos = await Promise.all(Array.from({ length: 10 }, (_, i) => benchPhoto(i)))
  const headers = await Promise.all(photos.map(async (bytes) => (await headerOf(bytes))!))
  const captions = { days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' }
  const cases: RenderCase[] = [
    {
      name: 'countdown 1200×300, 120 frames',
      target: '≤ 50 ms, ≤ 160 KB',
      job: (run) => ({
        kind: 'countdown',
        remainingSeconds: 3 * 86_400 + 5 * 3_600 + 7 * 60 + 30 + run,
        frames: 120,
        font: 'roboto',
        weight: 700,
        color: [17, 17, 51],
        background: [255, 238, 204],
        captions,
        scale: 2,
        format: 'gif',
      }),
    },
    {
      name: 'scrolling text 1200 px, 200 frames',
      target: '≤ 150 ms, ≤ 800 KB',
      job: (run) => ({
        kind: 'scrolling-text',
        text: `Free shipping on every order this week, use code SUMMER${run}`,
        divider: '★',
        iconStyle: 'filled',
        font: 'roboto',
        weight: 700,
        color: [255, 255, 255],
        dividerColor: [255, 80, 120],
        background: [30, 30, 60],
        reverse: false,
        fontSize: 24,
        flicker: [],
        width: 600,
        scale: 2,
        framesMax: 200,
      }),
    },
    {
      name: 'text preview 3×35 chars, 72 pt ×2, stroke',
      target: '≤ 30 ms',
      job: (run) => ({
        kind: 'text-preview',
        lines: ['With love and gratitude, always you', 'Maria Alexandra Montgomery-Smith!!!', `Thank you so much for everything ${run % 10}`],
        font: 'great-vibes',
        weight: 400,
        fontSize: 72,
        align: 'center',
        lineHeight: 1.2,
        color: [20, 20, 20, 1],
        padding: 11,
        scale: 2,
        stroke: { width: 3, color: [255, 200, 0, 1] },
      }),
    },
    ...(Object.keys(BENCH_ASPECTS) as (keyof typeof BENCH_ASPECTS)[]).map(
      (aspect): RenderCase => ({
        name: `slideshow 10 photos, 900 px, ${aspect}`,
        target: '≤ 1.2 s',
        job: (run) => ({ ...benchSlideshowStyle(aspect, run), photos: headers }),
      }),
    ),
  ]

  const rows: string[][] = [['render', 'median ms', 'size KB', 'frames', 'peak RSS MB', 'target']]
  for (const c of cases) {
    const times: number[] = []
    let size = 0
    let frames = 0
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const start = performance.now()
      const result = await pool.run(c.job(run), memoryPhotoReader(photos))
      const elapsed = performance.now() - start
      if (!result.ok) throw new Error(`${c.name}: ${result.message}`)
      if (run >= WARMUP) times.push(elapsed)
      size = result.body.byteLength
      frames = result.frames
    }
    rows.push([c.name, median(times).toFixed(1), (size / 1024).toFixed(0), String(frames), peakRssMb().toFixed(0), c.target])
  }
  await pool.close()
  printTable(`Renders (one worker, ${RUNS} runs after ${WARMUP} warm-up, median; the time includes the hop to the worker)`, rows)
}

interface AutocannonResult {
  latency: { p50: number; p99: number; max: number }
  requests: { total: number }
  non2xx: number
  errors: number
}

function autocannon(url: string, seconds: number): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    const bin = path.join(projectRoot, 'node_modules', '.bin', 'autocannon')
    const child = spawn(bin, ['--json', '--connections', '4', '--overallRate', '100', '--duration', String(seconds), url], {
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', reject)
    child.on('exit', () => {
      try {
        resolve(JSON.parse(out) as AutocannonResult)
      } catch (error) {
        reject(error)
      }
    })
  })
}

async function benchSiteUnderLoad(): Promise<void> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'giffer-bench-'))
  // Sized as an image service alone in this box: the bench measures time, not the memory the site beside it would share.
  const giffer = createGifferRouter({ stateDir, publicPath: '/giffer', publicOrigin: 'http://localhost', logger, ...sizeProcess(readBox(), 'giffer', { renders: true }) })
  const outer = express()
  outer.use('/bench-giffer', giffer)
  let site = 'a trivial express route (server/app.ts is not there)'
  try {
    const { loadConfig } = await import('../server/process/config.js')
    const { createApp } = await import('../server/app.js')
    const config = loadConfig({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: stateDir }, projectRoot)
    outer.use(createApp(config, { logger }).app)
    site = 'the site (createApp), `/`'
  } catch (error) {
    outer.get('/', (_req, res) => {
      res.send('<!doctype html><title>home</title>')
    })
    console.warn(`createApp unavailable (${(error as Error).message}); measuring a trivial route instead`)
  }
  const server = outer.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  await fetch(`${base}/`)

  const idle = await autocannon(`${base}/`, LOAD_SECONDS)

  let countdowns = 0
  let countdownFailures = 0
  const countdownTimes: number[] = []
  const timer = setInterval(() => {
    const start = performance.now()
    fetch(`${base}/bench-giffer/countdown/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ delay: 86_400 + countdowns++, days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' }),
    })
      .then(async (res) => {
        await res.arrayBuffer()
        if (res.ok) countdownTimes.push(performance.now() - start)
        else countdownFailures++
      })
      .catch(() => countdownFailures++)
  }, 500)
  const loaded = await autocannon(`${base}/`, LOAD_SECONDS)
  clearInterval(timer)
  await new Promise((resolve) => setTimeout(resolve, 500))

  server.close()
  await giffer.close()
  await rm(stateDir, { recursive: true, force: true })

  const row = (name: string, r: AutocannonResult) => [name, String(r.requests.total), String(r.latency.p50), String(r.latency.p99), String(r.latency.max), String(r.non2xx + r.errors)]
  printTable(`${site}: 100 requests/s over 4 connections for ${LOAD_SECONDS} s (ms)`, [
    ['phase', 'requests', 'p50', 'p99', 'max', 'errors'],
    row('alone', idle),
    row('with 2 countdowns/s', loaded),
  ])
  console.log(
    `countdowns during the load: ${countdownTimes.length} served (median ${median(countdownTimes).toFixed(0)} ms over HTTP), ${countdownFailures} failed; target: p99 of / < 50 ms\n`,
  )
}

function printTable(title: string, rows: string[][]): void {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)))
  console.log(`\n${title}`)
  rows.forEach((r, i) => {
    console.log(r.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join('  '))
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  })
}

console.log(`giffer bench on ${os.availableParallelism()} cores, Node ${process.version}`)
await benchRenders()
const beforeAfter = await benchSlideshowBeforeAfter(RUNS, WARMUP)
printTable(beforeAfter.title, beforeAfter.rows)
await benchSiteUnderLoad()
