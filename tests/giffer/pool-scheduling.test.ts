/**
 * The render pool's queue and memory, driven directly (no HTTP): jobs are drawn in the order
 * they arrive, none waits past its limit under steady load, and a process over its memory
 * limit gets fresh threads without losing a job.
 */
import { pino } from 'pino'
import sharp from 'sharp'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { CountdownJob, ScrollingTextJob, SlideshowJob } from '../../server/giffer/jobs.js'
import { ClientGone } from '../../server/giffer/errors.js'
import { headerOf } from '../../server/giffer/photo-header.js'
import { RenderPool, urgentShare, type RenderPoolOptions } from '../../server/giffer/pool.js'
import { renderMemory } from '../../server/giffer/render-memory.js'
import { MemoryBudget } from '../../server/process/memory-budget.js'
import { oneCardJob } from './setup.js'

const logger = pino({ level: 'silent' })
let pool: RenderPool | null = null
afterEach(async () => {
  await pool?.close()
  pool = null
})

function startPool(overrides: Partial<RenderPoolOptions> = {}): RenderPool {
  pool = new RenderPool({ workers: 1, queueMax: 16, jobTimeoutMs: 30_000, rssLimitBytes: Number.MAX_SAFE_INTEGER, releaseIdleMs: 60_000, logger, ...overrides })
  return pool
}

/** A small countdown: a few milliseconds of drawing, different for every `n`. */
const smallCountdown = (n: number): CountdownJob => ({
  kind: 'countdown',
  remainingSeconds: 3_600 + n,
  frames: 3,
  font: 'roboto',
  weight: 400,
  color: [255, 255, 255],
  background: [0, 0, 0],
  captions: { days: '', hours: '', minutes: '', seconds: '' },
  scale: 1,
  format: 'gif',
})

/** A slideshow of one 100×100 photo of `size` bytes, sent with no way to read it. */
const oneCardSlideshow = (size: number): SlideshowJob =>
  oneCardJob({ type: 'image/jpeg', size, width: 100, height: 100, progressive: false, channels: 3, samples: 1.5, bitDepth: 8, alpha: false, palette: false, lossless: false }, null)

describe('render pool queue', () => {
  it('draws queued jobs in the order they arrived', async () => {
    const p = startPool()
    await p.run(smallCountdown(0))
    const finished: number[] = []
    await Promise.all(Array.from({ length: 8 }, (_, n) => p.run(smallCountdown(n + 1)).then(() => finished.push(n))))
    expect(finished).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
  })

  it('lets no job wait out its time limit while eight clients keep one thread busy', async () => {
    // Each client sends its next job as soon as the last one is back: one running, seven waiting.
    const p = startPool({ jobTimeoutMs: 1_500 })
    await p.run(smallCountdown(0))
    const until = Date.now() + 3_000
    let drawn = 0
    let next = 1
    const failures: string[] = []
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (Date.now() < until) {
          try {
            await p.run(smallCountdown(next++))
            drawn++
          } catch (error) {
            failures.push((error as Error).message)
          }
        }
      }),
    )
    expect(failures).toEqual([])
    expect(drawn).toBeGreaterThan(50)
  })

  it('answers busy beyond the queue and serves the rest', async () => {
    const p = startPool({ queueMax: 2 })
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, n) => p.run(smallCountdown(n))))
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3)
    for (const r of results.filter((r) => r.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 503, code: 'busy', retryAfterSeconds: 2 })
    }
    expect(p.stats).toMatchObject({ running: 0, queued: 0, completed: 3 })
  })

  it('gives urgent jobs a quarter of the threads, at least one', () => {
    expect([1, 2, 3, 4, 7, 8, 16].map(urgentShare)).toEqual([1, 1, 1, 1, 1, 2, 4])
  })

  it.each([
    [1, 1],
    [4, 1],
  ])('with %i threads, lets %i urgent jobs wait or draw at once, ahead of the line, and refuses more as busy at once', async (workers, share) => {
    const p = startPool({ workers, queueMax: 64 })
    // Ordinary jobs fill every thread and a line behind them.
    const ordinary = Array.from({ length: workers * 3 }, (_, n) => p.run({ ...smallCountdown(n), frames: 60, scale: 2 }).then(() => 'drawn'))
    const urgent = Array.from({ length: share + 3 }, (_, n) => p.run(smallCountdown(1_000 + n), undefined, undefined, { urgent: true }).then(() => 'drawn', (e: { code?: string }) => e.code))
    const outcomes = await Promise.all(urgent)
    expect(outcomes.filter((o) => o === 'drawn')).toHaveLength(share)
    expect(outcomes.filter((o) => o === 'busy')).toHaveLength(3)
    expect(await Promise.all(ordinary)).toEqual(Array(workers * 3).fill('drawn'))
    // Once they are done, urgent jobs are taken again.
    expect(await p.run(smallCountdown(2_000), undefined, undefined, { urgent: true }).then((r) => r.ok)).toBe(true)
  }, 60_000)

  it('times out a job that waits too long in the queue, without stopping the one drawing', async () => {
    const reached: string[] = []
    const p = startPool({ jobTimeoutMs: 600, queueMax: 64, observer: { waited: (kind) => reached.push(kind), rendered: () => undefined } })
    // Threads started first: a cold start on a busy machine may itself take longer than the limit,
    // so the warm-up may take a few tries.
    let warm = false
    for (let attempt = 0; attempt < 10 && !warm; attempt++) warm = await p.run(smallCountdown(attempt)).then((r) => r.ok, () => false)
    expect(warm).toBe(true)
    reached.length = 0
    // The one drawing is held on the thread, waiting for its photo, until the test lets it go:
    // however quick the machine, every job behind it waits out its 600 ms.
    const photo = await sharp({ create: { width: 120, height: 90, channels: 3, background: { r: 200, g: 80, b: 40 } } }).jpeg().toBuffer()
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const held: SlideshowJob = { ...oneCardSlideshow(photo.length), photos: [(await headerOf(photo))!] }
    const drawing = p.run(held, async () => (await gate, photo), undefined, { timeoutMs: 30_000 }).then(() => 'drawn', (e: { code?: string }) => e.code ?? String(e))
    await vi.waitFor(() => expect(p.stats.running).toBe(1), { timeout: 5_000, interval: 5 })
    const waiting = await Promise.all(Array.from({ length: 20 }, (_, n) => p.run(smallCountdown(100 + n)).then(() => 'drawn', (e: { code?: string }) => e.code)))
    expect(waiting).toEqual(Array.from({ length: 20 }, () => 'render_timeout'))
    // They never reached a thread, and the one drawing was not stopped for them.
    expect(reached).toEqual(['slideshow'])
    expect(p.stats.running).toBe(1)
    release()
    expect(await drawing).toBe('drawn')
    expect(await p.run(smallCountdown(99)).then((r) => r.ok)).toBe(true)
  })
})

describe('render pool memory limit', () => {
  it('replaces its threads between jobs when the process is over the limit, losing no job', async () => {
    const p = startPool({ rssLimitBytes: 1 })
    const results = await Promise.all(Array.from({ length: 12 }, (_, n) => p.run(smallCountdown(n))))
    expect(results.every((r) => r.ok)).toBe(true)
    // Once, then not again until the cool-down has passed.
    expect(p.stats.recycled).toBe(1)
    expect(p.stats.completed).toBe(12)
    expect((await p.run(smallCountdown(50))).ok).toBe(true)
  })

  it('lets its threads go after a quiet spell, and starts them again for the next job', async () => {
    const p = startPool({ releaseIdleMs: 150 })
    // Back to back for longer than the quiet spell: never released while there is work.
    for (let n = 0; n < 20; n++) expect((await p.run(smallCountdown(n))).ok).toBe(true)
    expect(p.stats.released).toBe(0)
    await vi.waitFor(() => expect(p.stats.released).toBe(1), { timeout: 5_000, interval: 20 })
    expect((await p.run(smallCountdown(100))).ok).toBe(true)
    await vi.waitFor(() => expect(p.stats.released).toBe(2), { timeout: 5_000, interval: 20 })
    expect(p.stats.completed).toBe(21)
  })
})

describe('render pool memory budget', () => {
  const bigCountdown = (n: number): CountdownJob => ({ ...smallCountdown(n), frames: 30, scale: 2, captions: { days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' } })

  it('refuses a job larger than the whole budget with 413, saying how much it needs and what to make smaller', async () => {
    const p = startPool({ budget: new MemoryBudget(renderMemory(bigCountdown(0)).bytes - 1) })
    const refused = await p.run(bigCountdown(0)).catch((error: unknown) => error)
    expect(refused).toMatchObject({ status: 413, code: 'too_large_for_server' })
    expect((refused as Error).message).toMatch(/^Drawing this image needs about \d+ MB and this server draws with at most \d+ MB: use a smaller scale\.$/)
    expect(p.stats.completed).toBe(0)
  })

  it('starts a job only when its memory fits beside the running ones: two threads, room for one job, one at a time', async () => {
    const one = renderMemory(bigCountdown(0)).bytes
    const p = startPool({ workers: 2, budget: new MemoryBudget(Math.floor(one * 1.5)) })
    await p.run(smallCountdown(0))
    let most = 0
    const watch = setInterval(() => (most = Math.max(most, p.stats.running)), 1)
    try {
      const results = await Promise.all(Array.from({ length: 6 }, (_, n) => p.run(bigCountdown(n + 1))))
      expect(results.every((r) => r.ok)).toBe(true)
    } finally {
      clearInterval(watch)
    }
    expect(most).toBe(1)
    expect(p.stats.memory).toEqual({ budget: Math.floor(one * 1.5), inUse: 0 })
  })

  it('runs jobs side by side when the budget holds them', async () => {
    const one = renderMemory(bigCountdown(0)).bytes
    const p = startPool({ workers: 2, budget: new MemoryBudget(one * 2) })
    await Promise.all([p.run(smallCountdown(0)), p.run(smallCountdown(1))])
    let most = 0
    const watch = setInterval(() => (most = Math.max(most, p.stats.running)), 1)
    try {
      await Promise.all(Array.from({ length: 8 }, (_, n) => p.run(bigCountdown(n + 1))))
    } finally {
      clearInterval(watch)
    }
    expect(most).toBe(2)
  })

  it('answers 503 render_timeout to a job whose memory never came in time, and keeps drawing the rest', async () => {
    const budget = new MemoryBudget(renderMemory(bigCountdown(0)).bytes)
    const p = startPool({ budget })
    // A warm thread: the job below waits for memory only, not for a thread to start.
    expect((await p.run(smallCountdown(0))).ok).toBe(true)
    // Something else (a password hash, say) holds the whole budget for longer than the job may wait.
    // Only the waiting job has a short limit: the one drawn afterwards may meet a busy machine.
    const release = await budget.reserve(budget.totalBytes)
    const waiting = p.run(bigCountdown(1), undefined, undefined, { timeoutMs: 300 }).catch((error: { code?: string; status?: number }) => error)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(budget.queued).toBe(1)
    const waited = await waiting
    expect(waited).toMatchObject({ status: 503, code: 'render_timeout' })
    // Its request for memory left the budget's line with it: nothing will be granted to a job gone.
    expect(budget.queued).toBe(0)
    expect(p.stats.queued).toBe(0)
    release()
    expect((await p.run(bigCountdown(2))).ok).toBe(true)
    expect(budget.inUse).toBe(0)
  })
})

describe('render pool memory given back', () => {
  /**
   * The most one scrolling-text job may draw (200 frames of 1200×232): about a quarter to a
   * third of a second on a warm thread here, a little less on a quick machine.
   */
  const longJob: ScrollingTextJob = {
    kind: 'scrolling-text',
    text: 'Busy line number one '.repeat(12),
    divider: '•',
    iconStyle: 'filled',
    font: 'roboto',
    weight: 400,
    color: [0, 0, 0],
    dividerColor: [200, 0, 0],
    background: [255, 255, 255],
    reverse: false,
    fontSize: 72,
    flicker: [],
    width: 600,
    scale: 2,
    framesMax: 200,
  }

  /**
   * Draws small jobs until one comes back: a thread stopped for a job out of time is replaced
   * once gone, so each try gives the next one time to start. Each try has a limit of its own,
   * the three with their pauses 17 s at most, inside a test's 20 s, so a thread that never
   * starts fails here, with this assertion, in a test that warms the pool once.
   */
  async function untilDrawn(p: RenderPool): Promise<void> {
    let drawn = false
    for (let attempt = 0; attempt < 3 && !drawn; attempt++) {
      drawn = await p.run(smallCountdown(attempt), undefined, undefined, { timeoutMs: 5_000 }).then((r) => r.ok, () => false)
      if (!drawn && attempt < 2) await new Promise((resolve) => setTimeout(resolve, 1_000))
    }
    expect(drawn).toBe(true)
  }


  async function warmPool(overrides: Partial<RenderPoolOptions>): Promise<RenderPool> {
    const p = startPool(overrides)
    await untilDrawn(p)
    return p
  }

  it('keeps a job out of time counted until its thread has exited, then the budget is whole and the next job draws', async () => {
    const budget = new MemoryBudget(renderMemory(longJob).bytes * 2)
    const p = await warmPool({ budget })
    // A limit far inside the job's drawing time, given to this job alone, once the thread is warm.
    const refused = await p.run(longJob, undefined, undefined, { timeoutMs: 30 }).catch((error: unknown) => error)
    expect(refused).toMatchObject({ status: 503, code: 'render_timeout' })
    // The caller has its answer; the thread that holds the pixels is still being stopped.
    expect(budget.inUse).toBe(renderMemory(longJob).bytes)
    expect(p.stats.running).toBe(1)
    await vi.waitFor(() => expect(budget.inUse).toBe(0), { timeout: 5_000, interval: 5 })
    expect(p.stats.running).toBe(0)
    await untilDrawn(p)
    expect(budget.inUse).toBe(0)
  })

  it('gives no job to a thread before it has loaded its modules: a job out of time by then never reached it, and the thread is not stopped', async () => {
    const reached: string[] = []
    const p = startPool({ jobTimeoutMs: 50, observer: { waited: (kind) => reached.push(kind), rendered: () => undefined } })
    // The thread is still starting (loading the canvas library, sharp, the fonts: far more than 50 ms).
    const refused = await p.run(smallCountdown(1)).catch((error: unknown) => error)
    expect(refused).toMatchObject({ status: 503, code: 'render_timeout' })
    expect(reached).toEqual([])
    expect(p.stats.running).toBe(0)
  })

  it('gives the budget back whole after a render that fails, and keeps drawing', async () => {
    const budget = new MemoryBudget(Number.MAX_SAFE_INTEGER)
    const p = await warmPool({ budget })
    // A slideshow with no way to read its photos: the thread throws.
    const broken = oneCardSlideshow(1000)
    const failed = await p.run(broken).catch((error: unknown) => error)
    expect(failed).toBeInstanceOf(Error)
    expect(budget.inUse).toBe(0)
    expect(p.stats.running).toBe(0)
    expect((await p.run(smallCountdown(9))).ok).toBe(true)
  })

  it('drops a waiting job whose client went away: never drawn, nothing held, the line moves on', async () => {
    const p = await warmPool({ jobTimeoutMs: 30_000 })
    const before = p.stats.completed
    const drawing = p.run(longJob)
    await vi.waitFor(() => expect(p.stats.running).toBe(1), { timeout: 5_000, interval: 1 })
    const gone = new AbortController()
    const abandoned = p.run({ ...longJob, text: 'Another busy line '.repeat(8) }, undefined, gone.signal).catch((error: unknown) => error)
    const after = p.run(smallCountdown(10))
    expect(p.stats.queued).toBe(2)
    gone.abort()
    expect(await abandoned).toBeInstanceOf(ClientGone)
    expect(p.stats.queued).toBe(1)
    expect((await drawing).ok).toBe(true)
    expect((await after).ok).toBe(true)
    expect(p.stats.completed - before).toBe(2)
    expect(p.stats.memory.inUse).toBe(0)
  })

  it('refuses at once a job whose estimate is not a number (a bug), leaving the budget whole', async () => {
    const budget = new MemoryBudget(Number.MAX_SAFE_INTEGER)
    const p = startPool({ budget })
    const job = oneCardSlideshow(Number.NaN)
    expect(() => p.run(job)).toThrow(RangeError)
    expect(budget.inUse).toBe(0)
    expect((await p.run(smallCountdown(11))).ok).toBe(true)
  })
})
