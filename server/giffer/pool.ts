import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Piscina } from 'piscina'
import type { Logger } from 'pino'
import { ClientGone, ServiceBusyError } from './errors.js'
import { HttpError } from '../process/errors.js'
import { assertReservable, MemoryBudget } from '../process/memory-budget.js'
import { projectRoot } from '../project-root.js'
import { WARM_UP, type RenderJob, type RenderResult, type WarmUp } from './jobs.js'
import { photoChannel, type PhotoReader } from './photo-source.js'
import { renderMemory } from './render-memory.js'

const WORKER_BUNDLE = 'render.worker.js'
const WORKER_SOURCE = path.join('server', 'giffer', 'render.worker.ts')

/**
 * The worker file for piscina. From the build, it is `dist/server/render.worker.js`, beside the
 * bundle that runs this code. From sources (vitest, tsx), the worker is bundled with esbuild into
 * node_modules/.cache/giffer, under a name that is the hash of its code, so concurrent test
 * processes share one file and a changed worker never runs stale. That copy is CommonJS: piscina
 * loads a worker with require() first, and Node 20's require() of an ES module, under the module
 * hooks a test runner or tsx registers, can abort the whole process.
 */
export function resolveWorkerFile(): string {
  const here = fileURLToPath(import.meta.url)
  const sibling = path.join(path.dirname(here), WORKER_BUNDLE)
  if (here.endsWith('.js') && existsSync(sibling)) return sibling

  const require = createRequire(import.meta.url)
  const esbuild = require('esbuild') as typeof import('esbuild')
  const result = esbuild.buildSync({
    entryPoints: [path.join(projectRoot, WORKER_SOURCE)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    // The module's own address, which CommonJS has under another name.
    define: { 'import.meta.url': 'import_meta_url' },
    banner: { js: 'const import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    write: false,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0]!.contents
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16)
  const dir = path.join(projectRoot, 'node_modules', '.cache', 'giffer')
  const file = path.join(dir, `render.worker-${hash}.cjs`)
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true })
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`
    writeFileSync(temporary, code)
    renameSync(temporary, file)
  }
  return file
}

export interface RenderPoolOptions {
  workers: number
  /** Jobs that may wait for a worker; beyond that, requests get 503 with Retry-After. */
  queueMax: number
  /** How long a job may take, waiting included; the worker running it is then stopped. */
  jobTimeoutMs: number
  /**
   * The process's own resident memory (without mapped files), in bytes, past which the render
   * threads are replaced between jobs: the last line of defence against native memory that a
   * drawing library fails to return. Threads end with their native allocations; V8's heap limits
   * do not see those.
   */
  rssLimitBytes: number
  /** A pool with no job for this long lets its threads go; the next job starts them again. */
  releaseIdleMs: number
  /**
   * The native memory jobs may take at once (shared with password hashes in the site): a job starts
   * when its estimated peak fits beside the running ones, in the order jobs came. Unset: no limit.
   */
  budget?: MemoryBudget
  logger: Logger
  /** Told how long each job waited for a thread and how long its thread took (for /metrics). */
  observer?: RenderObserver
}

/** What a job cost, by generator: the time from `run` until a thread took it, and the drawing itself. */
export interface RenderObserver {
  waited(kind: RenderJob['kind'], seconds: number): void
  rendered(kind: RenderJob['kind'], seconds: number): void
}

/** Why a job was refused with a 503: the queue was full, or the job ran out of time (waiting included). */
export type ShedCode = 'busy' | 'render_timeout'

export interface PoolStats {
  workers: number
  running: number
  queued: number
  completed: number
  /** How many times the threads were replaced because the process passed its memory limit. */
  recycled: number
  /** How many times a quiet pool let its threads go. */
  released: number
  /** Jobs refused with a 503, by reason. */
  shed: Record<ShedCode, number>
  /** The memory budget of jobs and what the running ones hold, in bytes. */
  memory: { budget: number; inUse: number }
}

/**
 * The process's own resident memory: RSS without the pages of mapped files (the code of the
 * libraries it loaded, which the kernel can drop and reload), from /proc on Linux; all of RSS
 * elsewhere.
 */
function ownMemory(): number {
  try {
    const kb = /^RssAnon:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]
    if (kb) return Number(kb) * 1024
  } catch {
    // Not Linux: the whole of RSS.
  }
  return process.memoryUsage.rss()
}

/** Scheduling priority of the render threads, below the event loop's (Linux nice, via @napi-rs/nice). */
const RENDER_NICENESS = 10

/** Seconds a client is told to wait when the pool is saturated. */
const RETRY_AFTER_SECONDS = 2

/** After replacing the threads, wait this long before judging the memory again. */
const RECYCLE_COOLDOWN_MS = 30_000

/**
 * A small job that must not wait behind the line (a live timer's still frame, whose answer goes
 * to a mail proxy that keeps whatever it gets): it goes ahead of every job that is not urgent, and
 * has its own time limit. Urgent jobs are a small share of the pool (`urgentShare`): past it, one
 * is refused as busy at once, so that a stream of them (each recipient's own date a new image)
 * can never hold back the other generators.
 */
export interface UrgentOptions {
  urgent?: boolean
  /** Its time limit, waiting included; the pool's own by default. */
  timeoutMs?: number
}

/** Urgent jobs waiting or drawing at once: a quarter of the threads, at least one. */
export const urgentShare = (workers: number) => Math.max(1, Math.floor(workers / 4))

interface WaitingJob {
  job: RenderJob
  urgent: boolean
  /** Its estimated peak of native memory. */
  memory: number
  photos?: PhotoReader
  /** performance.now() when the job was queued. */
  queuedAt: number
  /** Its time limit, waiting included. */
  deadline: AbortSignal
  /** Its time limit, or its client gone: either takes it out of the line while it waits. */
  signal: AbortSignal
  onAbort: () => void
  resolve: (result: RenderResult) => void
  reject: (error: unknown) => void
}

/**
 * One render thread: a piscina of its own with one thread, started with the pool (again after a
 * quiet spell, on demand) and warmed up before it takes a job. Each thread is its own piscina so
 * that a job out of time stops only its thread, and the pool knows when that thread has gone: its
 * memory is counted as held until then, and no thread takes its place before.
 */
interface RenderThread {
  piscina: Piscina<RenderJob | WarmUp, RenderResult | WarmUp> | null
  /** Whether its thread has loaded the worker's modules (its warm-up came back): only then does it take jobs. */
  ready: boolean
  /** The job it draws now. */
  job: WaitingJob | null
  /** Set while its thread is stopped or closed (`piscina` is then the one going); it takes no job until the thread has exited. */
  exiting: Promise<void> | null
}

/** The pixels live outside these heaps; a small young generation keeps each idle thread small. */
export const RENDER_THREAD_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 8 }

/** How long a stopped thread may take to exit before the pool says so (its memory stays counted). */
const SLOW_EXIT_MS = 10_000

/**
 * Rendering off the event loop: a fixed set of worker threads and a bounded first-in, first-out
 * queue. The queue is ours, not piscina's: a job goes to a thread only when the thread is free
 * and the job's memory is granted, so under steady load no job waits past its limit while later
 * ones are drawn.
 */
export class RenderPool {
  private readonly threads: RenderThread[]
  private idleTimer: NodeJS.Timeout | undefined
  private readonly waiting: WaitingJob[] = []
  /** Whether the job at the head of the line is waiting for memory. */
  private admitting = false
  private completed = 0
  private recycled = 0
  private released = 0
  private readonly shed: Record<ShedCode, number> = { busy: 0, render_timeout: 0 }
  private lastRecycle = -Infinity
  private closing = false
  private readonly onIdle: (() => void)[] = []

  private readonly budget: MemoryBudget
  /** The worker's file, found once (from sources it is bundled first). */
  private readonly workerFile = resolveWorkerFile()

  constructor(private readonly options: RenderPoolOptions) {
    this.budget = options.budget ?? new MemoryBudget(Number.MAX_SAFE_INTEGER)
    this.threads = Array.from({ length: options.workers }, () => ({ piscina: null, ready: false, job: null, exiting: null }))
    // Ready before the first request; after a quiet spell they start again on demand.
    for (const thread of this.threads) this.startThread(thread)
  }

  /** Starts the thread and its warm-up; it takes jobs once that has come back. */
  private startThread(thread: RenderThread): void {
    const piscina = this.newPiscina()
    thread.piscina = piscina
    thread.ready = false
    const warmed = () => {
      if (thread.piscina !== piscina) return
      thread.ready = true
      this.dispatch()
    }
    piscina.run(WARM_UP).then(warmed, (error: unknown) => {
      // Its jobs will fail the same way, each answered as the fault it is.
      this.options.logger.error({ err: error }, 'a render thread could not load its modules')
      warmed()
    })
  }

  private newPiscina(): Piscina<RenderJob | WarmUp, RenderResult | WarmUp> {
    const piscina = new Piscina<RenderJob | WarmUp, RenderResult | WarmUp>({
      filename: this.workerFile,
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: 60_000,
      maxQueue: 1,
      resourceLimits: RENDER_THREAD_LIMITS,
      // Render threads yield the CPU to the event loop: pages keep answering while images are drawn.
      niceIncrement: RENDER_NICENESS,
      // Between jobs a thread must return to its event loop: the canvas library frees its pixel
      // buffers from finalizers that run there. Piscina's default parks an idle thread in
      // Atomics.wait instead, where those buffers pile up by megabytes a job and never go back.
      atomics: 'disabled',
    })
    piscina.on('error', (error: unknown) => this.options.logger.error({ err: error }, 'render worker failed'))
    return piscina
  }

  private get running(): number {
    return this.threads.filter((thread) => thread.job).length
  }

  get stats(): PoolStats {
    return {
      workers: this.options.workers,
      running: this.running,
      queued: this.waiting.length,
      completed: this.completed,
      recycled: this.recycled,
      released: this.released,
      shed: { ...this.shed },
      memory: { budget: this.budget.totalBytes, inUse: this.budget.inUse },
    }
  }

  private timedOut(): ServiceBusyError {
    this.shed.render_timeout++
    return new ServiceBusyError('render_timeout', 'Drawing this image took too long. Please try again.', RETRY_AFTER_SECONDS)
  }

  /** Whether the job's estimated memory fits this server's whole budget: whether it can ever be drawn here. */
  canEverDraw(job: RenderJob): boolean {
    return this.budget.canEverHold(renderMemory(job).bytes)
  }

  /**
   * Draws a job once a thread is free and its estimated memory fits; 503 `busy` when the queue is
   * full, 503 `render_timeout` past the time limit (waiting included), 413 when the job could never
   * fit this server's memory. A slideshow's photos are read through `photos` while it draws. A job
   * whose `signal` aborts (its client went away) leaves the line if it is still waiting, with
   * `ClientGone`; one already drawing is finished, for the cache and whoever asks for it next.
   */
  run(job: RenderJob, photos?: PhotoReader, signal?: AbortSignal, { urgent = false, timeoutMs = this.options.jobTimeoutMs }: UrgentOptions = {}): Promise<RenderResult> {
    const estimate = renderMemory(job)
    assertReservable(estimate.bytes)
    if (!this.budget.canEverHold(estimate.bytes)) {
      const mb = (bytes: number) => Math.ceil(bytes / 2 ** 20)
      return Promise.reject(
        new HttpError(
          413,
          'too_large_for_server',
          `Drawing this image needs about ${mb(estimate.bytes)} MB and this server draws with at most ${mb(this.budget.totalBytes)} MB: ${estimate.reduce}.`,
          job.kind === 'slideshow' ? 'images' : undefined,
        ),
      )
    }
    if (signal?.aborted) return Promise.reject(new ClientGone())
    const urgentWaiting = this.waiting.filter((entry) => entry.urgent).length
    const urgentInFlight = urgentWaiting + this.threads.filter((thread) => thread.job?.urgent).length
    const full = urgent ? urgentInFlight >= urgentShare(this.options.workers) : this.running + this.waiting.length - urgentWaiting >= this.options.workers + this.options.queueMax
    if (full) {
      this.shed.busy++
      return Promise.reject(new ServiceBusyError('busy', 'The image service is busy. Please try again in a moment.', RETRY_AFTER_SECONDS))
    }
    return new Promise((resolve, reject) => {
      const deadline = AbortSignal.timeout(timeoutMs)
      const entry: WaitingJob = {
        job,
        urgent,
        memory: estimate.bytes,
        photos,
        queuedAt: performance.now(),
        deadline,
        signal: signal ? AbortSignal.any([deadline, signal]) : deadline,
        resolve,
        reject,
        onAbort: () => {
          const at = this.waiting.indexOf(entry)
          if (at === -1) return
          this.waiting.splice(at, 1)
          reject(deadline.aborted ? this.timedOut() : new ClientGone())
        },
      }
      entry.signal.addEventListener('abort', entry.onAbort, { once: true })
      // An urgent job goes ahead of every job that is not, behind the urgent ones before it.
      const behind = urgent ? this.waiting.findIndex((waiting) => !waiting.urgent) : -1
      if (behind === -1) this.waiting.push(entry)
      else this.waiting.splice(behind, 0, entry)
      this.dispatch()
    })
  }

  /**
   * A thread that can take a job now: started, warmed up, not drawing, not going. Threads let go
   * after a quiet spell are started again here when none is (a job then waits for a warm-up).
   */
  private freeThread(): RenderThread | undefined {
    const idle = this.threads.filter((thread) => !thread.job && !thread.exiting)
    const ready = idle.find((thread) => thread.piscina && thread.ready)
    if (ready) return ready
    for (const thread of idle) if (!thread.piscina) this.startThread(thread)
    return undefined
  }

  /** Starts the jobs at the head of the line, each once a thread is free and its memory is granted, in order. */
  private dispatch(): void {
    if (this.admitting || this.waiting.length === 0 || !this.freeThread()) return
    const entry = this.waiting[0]!
    this.admitting = true
    this.budget.reserve(entry.memory, entry.signal).then(
      (release) => {
        this.admitting = false
        const at = this.waiting.indexOf(entry)
        const thread = this.freeThread()
        if (at === -1 || !thread) {
          // It left the line just as its memory came, or the free thread began to be replaced
          // meanwhile (the thread's exit starts the line again).
          release()
        } else {
          this.waiting.splice(at, 1)
          this.start(thread, entry, release)
        }
        this.dispatch()
      },
      () => {
        // Out of time, or its client gone, while waiting for memory: its abort has answered it.
        this.admitting = false
        this.dispatch()
      },
    )
  }

  private start(thread: RenderThread, entry: WaitingJob, release: () => void): void {
    entry.signal.removeEventListener('abort', entry.onAbort)
    const dispatchedAt = performance.now()
    this.options.observer?.waited(entry.job.kind, (dispatchedAt - entry.queuedAt) / 1000)
    thread.job = entry
    const channel = entry.photos ? photoChannel(entry.photos) : null
    const job = channel ? { ...entry.job, photoSource: channel.port } : entry.job
    const piscina = thread.piscina!
    let over = false
    // Its memory and thread are given back before its caller hears of it.
    const end = () => {
      channel?.close()
      release()
      thread.job = null
      this.recycleIfOverLimit()
      this.dispatch()
      if (this.running === 0) {
        this.onIdle.splice(0).forEach((resolve) => resolve())
        this.releaseWhenIdle()
      }
    }
    // Out of time while drawing: the caller hears at once, and the thread is stopped. Its memory
    // stays counted until the thread has exited (its pixels go with it), and no new thread takes
    // its place before: a replacement starting beside a thread still being stopped would hold
    // memory the budget has already handed to the next job.
    const onDeadline = () => {
      if (over) return
      over = true
      entry.reject(this.timedOut())
      this.stopThread(thread).then(end)
    }
    entry.deadline.addEventListener('abort', onDeadline, { once: true })
    piscina
      .run(job, { transferList: channel ? [channel.port as unknown as ArrayBuffer] : [] })
      .then(
        (result) => ({ result: result as RenderResult }),
        (error: unknown) => ({ error }),
      )
      .then((outcome) => {
        if (over) return
        over = true
        entry.deadline.removeEventListener('abort', onDeadline)
        end()
        if ('result' in outcome) {
          this.completed++
          this.options.observer?.rendered(entry.job.kind, (performance.now() - dispatchedAt) / 1000)
          entry.resolve(outcome.result)
        } else {
          entry.reject(outcome.error)
        }
      })
  }

  /**
   * Terminates a thread now (one being closed too); resolves once it has exited, and a fresh
   * thread is then started in its place (in the same share of memory, now free), so the next job
   * does not wait for a cold start.
   */
  private stopThread(thread: RenderThread): Promise<void> {
    if (!thread.piscina) return thread.exiting ?? Promise.resolve()
    return this.whileExiting(thread, Promise.all([thread.exiting, thread.piscina.destroy()]).then(() => undefined), { replace: true })
  }

  /** Marks the thread as going until `exit` settles (it takes no job meanwhile), then starts the line again. */
  private whileExiting(thread: RenderThread, exit: Promise<void>, { replace = false } = {}): Promise<void> {
    const slow = setTimeout(() => this.options.logger.warn({ afterMs: SLOW_EXIT_MS }, 'a render thread being stopped or replaced has not exited after 10 s: its memory stays counted'), SLOW_EXIT_MS)
    slow.unref()
    const exiting: Promise<void> = exit
      .catch((error: unknown) => this.options.logger.error({ err: error }, 'a render thread did not close cleanly'))
      .finally(() => {
        clearTimeout(slow)
        if (thread.exiting === exiting) {
          thread.exiting = null
          thread.piscina = null
          thread.ready = false
          if (replace && !this.closing) this.startThread(thread)
        }
        this.dispatch()
      })
    thread.exiting = exiting
    return exiting
  }

  /**
   * Past the memory limit, the threads are replaced: each finishes the job it has, exits, and
   * only then does a fresh one take its place. No job is lost and no request fails.
   */
  private recycleIfOverLimit(): void {
    const now = performance.now()
    if (now - this.lastRecycle < RECYCLE_COOLDOWN_MS) return
    const rss = ownMemory()
    if (rss <= this.options.rssLimitBytes) return
    this.lastRecycle = now
    this.recycled++
    this.options.logger.warn(
      { rssMb: Math.round(rss / 2 ** 20), limitMb: Math.round(this.options.rssLimitBytes / 2 ** 20) },
      'memory over the limit: replacing the render threads',
    )
    this.retire()
  }

  /**
   * A quiet pool gives its threads back: their heaps and the native memory of the canvas library
   * go with them, so a server that drew a burst of images returns to its resting size. The next
   * job starts a thread again, which takes a few tens of milliseconds.
   */
  private releaseWhenIdle(): void {
    clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => {
      if (this.running > 0 || this.waiting.length > 0 || !this.threads.some((thread) => thread.piscina && !thread.exiting)) return
      this.released++
      this.retire()
    }, this.options.releaseIdleMs)
    this.idleTimer.unref()
  }

  /** Every thread finishes the job it holds and exits; a new one starts for the next job after that. */
  private retire(): void {
    for (const thread of this.threads) {
      if (thread.piscina && !thread.exiting) void this.whileExiting(thread, thread.piscina.close())
    }
  }

  /** Lets running and waiting jobs finish, then stops the workers. */
  async close(): Promise<void> {
    if (this.running > 0) await new Promise<void>((resolve) => this.onIdle.push(resolve))
    this.closing = true
    clearTimeout(this.idleTimer)
    this.retire()
    await Promise.all(this.threads.map((thread) => thread.exiting))
    this.waiting.splice(0).forEach((entry) => entry.reject(new ServiceBusyError('busy', 'The image service is stopping. Please try again in a moment.', RETRY_AFTER_SECONDS)))
  }
}
