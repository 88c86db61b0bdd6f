/**
 * The image service's Prometheus metrics, in the site's /metrics or the standalone service's.
 * The pool's counters are read from its stats when scraped; only the two per-job timings are
 * observed as jobs go, through the RenderObserver the pool is given.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { RenderJob } from './jobs.js'
import { UNSTORED_REASONS, type UnstoredCounts } from './live/key-limits.js'
import type { PoolStats, RenderObserver, ShedCode } from './pool.js'

/** Every generator, so each `kind` shows from the first scrape (a missing series reads as "no data"). */
const KINDS: Record<RenderJob['kind'], true> = { countdown: true, 'scrolling-text': true, 'text-preview': true, slideshow: true, 'reduce-photo': true }
const SHED_CODES: Record<ShedCode, true> = { busy: true, render_timeout: true }

/** From a job taken at once to one that ran up to a raised GIFFER_JOB_TIMEOUT_MS. */
const JOB_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30, 60]

/**
 * Registers the giffer's families. `stats` gives the pool's numbers, or undefined while the
 * service has not started (the site starts it on the first image): everything reads 0 then.
 */
export function gifferMetrics(registry: Registry, stats: () => PoolStats | undefined, unstoredKeys: () => UnstoredCounts | undefined): RenderObserver {
  const gauge = (name: string, help: string, read: (pool: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const pool = stats()
        this.set(pool ? read(pool) : 0)
      },
    })
  const counter = (name: string, help: string, read: (pool: PoolStats) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        const pool = stats()
        this.reset()
        if (pool) this.inc(read(pool))
      },
    })

  gauge('giffer_render_threads', 'Render threads the pool runs jobs on (0 until the image service starts).', (pool) => pool.workers)
  gauge('giffer_jobs_running', 'Jobs being drawn by a render thread now.', (pool) => pool.running)
  gauge('giffer_queue_length', 'Jobs waiting for a free render thread.', (pool) => pool.queued)
  counter('giffer_jobs_completed_total', 'Jobs the render threads finished.', (pool) => pool.completed)
  counter('giffer_thread_recycles_total', 'Times the render threads were replaced because the process was over its memory limit.', (pool) => pool.recycled)
  counter('giffer_thread_releases_total', 'Times a quiet pool let its render threads go.', (pool) => pool.released)
  new Counter({
    name: 'giffer_shed_total',
    help: 'Jobs refused with 503 and Retry-After, by code: busy (queue full) or render_timeout (out of time, waiting included).',
    labelNames: ['code'],
    registers: [registry],
    collect() {
      const shed = stats()?.shed
      this.reset()
      for (const code of Object.keys(SHED_CODES) as ShedCode[]) this.inc({ code }, shed?.[code] ?? 0)
    },
  })

  new Counter({
    name: 'giffer_live_keys_unstored_total',
    help: "Opens of evergreen live timers whose recipient key had no deadline and was not stored, by reason: timer_full, store_full (a cap reached) or address_limit (one address added its share of new keys to one timer this minute). Such keys share their timer's overflow deadline.",
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      const counts = unstoredKeys()
      this.reset()
      for (const reason of UNSTORED_REASONS) this.inc({ reason }, counts?.[reason] ?? 0)
    },
  })

  const waits = new Histogram({
    name: 'giffer_job_wait_seconds',
    help: 'Time a job waited in the queue for a render thread, by generator.',
    labelNames: ['kind'],
    buckets: JOB_BUCKETS,
    registers: [registry],
  })
  const renders = new Histogram({
    name: 'giffer_job_render_seconds',
    help: 'Time a render thread took to draw a job, by generator.',
    labelNames: ['kind'],
    buckets: JOB_BUCKETS,
    registers: [registry],
  })
  for (const kind of Object.keys(KINDS)) {
    waits.zero({ kind })
    renders.zero({ kind })
  }
  return {
    waited: (kind, seconds) => waits.observe({ kind }, seconds),
    rendered: (kind, seconds) => renders.observe({ kind }, seconds),
  }
}
