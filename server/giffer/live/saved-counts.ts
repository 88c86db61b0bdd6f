/**
 * Opens and clicks of saved timers, counted without tracking anyone: each adds one to counters of
 * its timer and hour, and to the count of its reader, told from the User-Agent by a fixed list.
 * Nothing else of the request is looked at, and nothing of it is kept: no address, no recipient
 * key, no User-Agent string.
 *
 * Counts are gathered in this process's memory and written to the store in one batch every
 * FLUSH_INTERVAL_MS, so an open never waits for a write. A crash loses at most the counts of
 * that interval. A batch the store could not take is kept for the next, up to CELLS_MAX timer
 * hours waiting; past that, new counts are dropped and counted as dropped.
 */
import type { Logger } from 'pino'
import { TimedOut, withTimeout } from '../../process/timeout.js'
import { COUNTERS, CountsNotWritten, hourOf, type Counter, type Counts, type SavedTimerStore } from './saved-store.js'

/** Counts reach the store at most this late. */
export const FLUSH_INTERVAL_MS = 10_000
/** Timer hours waiting to be written, at most (a few hundred bytes each). */
export const CELLS_MAX = 50_000
/** The longest a batch waits for the store. */
const WRITE_WAIT_MS = 5_000
/** The longest a closing process goes on writing what waits. */
const CLOSE_WAIT_MS = 5_000

export type Reader = 'gmail' | 'apple_privacy' | 'yahoo' | 'outlook' | 'other'

/**
 * Which mail reader asked, by the User-Agent alone. Apple's Mail Privacy Protection loads every
 * image when a message is delivered, with the bare `Mozilla/5.0`: those opens are not people.
 */
export function readerOf(userAgent: string | undefined): Reader {
  const agent = userAgent ?? ''
  if (agent.includes('GoogleImageProxy')) return 'gmail'
  if (agent === 'Mozilla/5.0') return 'apple_privacy'
  if (agent.includes('YahooMailProxy')) return 'yahoo'
  if (agent.includes('Microsoft Outlook') || agent.includes('ms-office') || agent.includes('Microsoft Office')) return 'outlook'
  return 'other'
}

/** What one request adds: an open (first or expired, or neither) or a click. */
export type Counted = { event: 'open'; first: boolean; expired: boolean; reader: Reader } | { event: 'click' }

export class SavedTimerCounts {
  private pending = new Map<string, Map<number, Partial<Counts>>>()
  private cells = 0
  private flushing: Promise<void> | null = null
  private readonly timer: NodeJS.Timeout
  /** Counts dropped because too many waited to be written. */
  dropped = 0

  constructor(
    private readonly store: SavedTimerStore,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS).unref()
  }

  count(id: string, counted: Counted): void {
    const hour = hourOf(this.now())
    let hours = this.pending.get(id)
    let cell = hours?.get(hour)
    if (!cell) {
      if (this.cells >= CELLS_MAX) {
        this.dropped += 1
        return
      }
      cell = {}
      if (!hours) this.pending.set(id, (hours = new Map()))
      hours.set(hour, cell)
      this.cells += 1
    }
    const add = (counter: Counter) => (cell[counter] = (cell[counter] ?? 0) + 1)
    if (counted.event === 'click') return void add('clicks')
    add('opens')
    add(counted.reader)
    if (counted.first) add('first_opens')
    if (counted.expired) add('expired_opens')
  }

  /** Counts of a timer not yet written, for its stats: what the store has plus these is the whole. */
  waiting(id: string): ReadonlyMap<number, Partial<Counts>> {
    return this.pending.get(id) ?? new Map()
  }

  /** Forgets what waits for a removed timer. */
  forget(id: string): void {
    this.cells -= this.pending.get(id)?.size ?? 0
    this.pending.delete(id)
  }

  /** Writes what waits, one batch at a time. A batch that fails is merged back for the next. */
  flush(): Promise<void> {
    this.flushing ??= this.writeBatch().finally(() => (this.flushing = null))
    return this.flushing
  }

  private async writeBatch(): Promise<void> {
    if (this.cells === 0) return
    const batch = this.pending
    this.pending = new Map()
    this.cells = 0
    try {
      await withTimeout(this.store.add(batch), WRITE_WAIT_MS, 'the saved-timer store')
    } catch (error) {
      // Late is not failed: a store that answers late (a Redis reconnecting) writes the batch then,
      // so it is not given back, which would count it twice. What failed is kept for the next batch.
      if (error instanceof TimedOut) return void this.logger.warn({ err: error }, 'saved timers: a batch of counts was late; not sent again')
      this.logger.warn({ err: error }, 'saved timers: counts not written, kept for the next batch')
      const back = error instanceof CountsNotWritten ? error.cells : batch
      for (const [id, hours] of back) {
        for (const [hour, counts] of hours) for (const counter of COUNTERS) if (counts[counter]) this.merge(id, hour, counter, counts[counter])
      }
    }
  }

  private merge(id: string, hour: number, counter: Counter, amount: number): void {
    let hours = this.pending.get(id)
    if (!hours) this.pending.set(id, (hours = new Map()))
    let cell = hours.get(hour)
    if (!cell) {
      if (this.cells >= CELLS_MAX) return void (this.dropped += amount)
      hours.set(hour, (cell = {}))
      this.cells += 1
    }
    cell[counter] = (cell[counter] ?? 0) + amount
  }

  /**
   * Stops the interval and writes what waits: again after a batch already under way, and again
   * after a batch that failed, for at most CLOSE_WAIT_MS.
   */
  async close(): Promise<void> {
    clearInterval(this.timer)
    const until = Date.now() + CLOSE_WAIT_MS
    while (Date.now() < until) {
      await this.flush()
      if (this.cells === 0 && !this.flushing) return
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    if (this.cells > 0) this.logger.warn({ timerHours: this.cells }, 'saved timers: counts not written at shutdown')
  }
}
