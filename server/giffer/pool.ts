import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Piscina } from 'piscina'
import type { Logger } from 'pino'
import { ServiceBusyError } from './errors.js'
import { projectRoot } from './fonts.js'
import type { RenderJob, RenderResult } from './jobs.js'

const WORKER_BUNDLE = 'render.worker.js'
const WORKER_SOURCE = path.join('server', 'giffer', 'render.worker.ts')

/**
 * The worker file for piscina. From the build, it is `dist/server/render.worker.js`, beside the
 * bundle that runs this code. From sources (vitest, tsx), the worker is bundled with esbuild into
 * node_modules/.cache/giffer, under a name that is the hash of its code, so concurrent test
 * processes share one file and a changed worker never runs stale.
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
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0]!.contents
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16)
  const dir = path.join(projectRoot, 'node_modules', '.cache', 'giffer')
  const file = path.join(dir, `render.worker-${hash}.mjs`)
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
  logger: Logger
}

export interface PoolStats {
  workers: number
  running: number
  queued: number
  completed: number
}

/** Scheduling priority of the render threads, below the event loop's (Linux nice, via @napi-rs/nice). */
const RENDER_NICENESS = 10

/** Seconds a client is told to wait when the pool is saturated. */
const RETRY_AFTER_SECONDS = 2

/** Rendering off the event loop: a fixed set of worker threads and a bounded queue. */
export class RenderPool {
  private readonly piscina: Piscina<RenderJob, RenderResult>
  private pending = 0

  constructor(private readonly options: RenderPoolOptions) {
    this.piscina = new Piscina({
      filename: resolveWorkerFile(),
      minThreads: options.workers,
      maxThreads: options.workers,
      idleTimeout: 60_000,
      // Our own bound (`pending` below) answers first; this one is the backstop.
      maxQueue: options.queueMax + options.workers,
      resourceLimits: { maxOldGenerationSizeMb: 512 },
      // Render threads yield the CPU to the event loop: pages keep answering while images are drawn.
      niceIncrement: RENDER_NICENESS,
    })
    this.piscina.on('error', (error: unknown) => options.logger.error({ err: error }, 'render worker failed'))
  }

  get stats(): PoolStats {
    return {
      workers: this.options.workers,
      running: Math.min(this.pending, this.options.workers),
      queued: Math.max(0, this.pending - this.options.workers),
      completed: this.piscina.completed,
    }
  }

  async run(job: RenderJob, transferList: ArrayBuffer[] = []): Promise<RenderResult> {
    if (this.pending >= this.options.workers + this.options.queueMax) {
      throw new ServiceBusyError('busy', 'The image service is busy. Please try again in a moment.', RETRY_AFTER_SECONDS)
    }
    this.pending++
    const signal = AbortSignal.timeout(this.options.jobTimeoutMs)
    try {
      return await this.piscina.run(job, { signal, transferList })
    } catch (error) {
      if (signal.aborted) {
        this.options.logger.warn({ kind: job.kind, timeoutMs: this.options.jobTimeoutMs }, 'render timed out')
        throw new ServiceBusyError('render_timeout', 'Drawing this image took too long. Please try again.', RETRY_AFTER_SECONDS)
      }
      throw error
    } finally {
      this.pending--
    }
  }

  /** Lets running jobs finish, then stops the workers. */
  async close(): Promise<void> {
    await this.piscina.close()
  }
}
