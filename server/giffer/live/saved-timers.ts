/**
 * The saved timers of one process: saving, reading, changing and deleting them with their edit
 * key, their counts, and the definitions the image and `go` paths draw from.
 *
 * Definitions are kept in this process for DEFINITION_KEEP_MS after they are read, and then read
 * again: so a change made in any process shows in every other within that time plus one read,
 * under 5 s, on SQLite and Redis alike, with no message between processes to lose (a process
 * that missed one would show the old timer until it restarts). One read per timer per process
 * every two seconds is nothing beside the opens of a send; a change made in this process shows
 * here at once. The render cache is keyed by what an image shows, so a changed timer is never
 * answered with a picture of the old one once its definition has been read again.
 */
import type { Logger } from 'pino'
import { HttpError, ServiceBusyError } from '../../process/errors.js'
import { withTimeout } from '../../process/timeout.js'
import { SavedTimerCounts } from './saved-counts.js'
import { COUNTERS, noCounts, type Counts, type SavedTimerRecord, type SavedTimerStore } from './saved-store.js'
import {
  changedDefinition,
  editKeyHash,
  isEditKey,
  newDefinition,
  newEditKey,
  newSavedId,
  readDefinition,
  SAVED_ID,
  sameDefinition,
  type SavedDefinition,
  type SavedTimerInput,
} from './saved.js'

/** How long a process draws from a definition it has read before reading it again. */
export const DEFINITION_KEEP_MS = 2_000
/** How long a definition already read keeps serving while the store is away. */
const DEFINITION_STALE_MS = 10 * 60_000
/** Definitions kept in a process, at most (the least recently read go first). */
const DEFINITIONS_KEPT_MAX = 10_000
/** The longest wait for the store on the API's paths; the image's own wait is the caller's. */
const STORE_WAIT_MS = 3_000
/** Tries at a random id before giving up (a clash of 96 random bits is not expected once). */
const ID_TRIES = 3

export type Looked = { record: SavedTimerRecord; definition: SavedDefinition | null } | null

interface Kept {
  at: number
  looked: Looked
}

/** The store is away or late: the visitor may try again in a minute. */
export class SavedStoreUnavailable extends ServiceBusyError {
  constructor() {
    super('store_unavailable', 'Saved timers cannot be reached right now. Please try again in a minute.', 60)
  }
}

/** The timers' cap is reached: no timer is evicted to make room; room comes back as owners delete theirs. */
export class SavedTimersFull extends ServiceBusyError {
  constructor() {
    super('timers_full', 'This service keeps as many saved timers as it can. Please try again later, or use a timer link that is not saved.', 3600)
  }
}

export class SavedTimers {
  private readonly kept = new Map<string, Kept>()
  private readonly reading = new Map<string, Promise<Looked>>()
  readonly counts: SavedTimerCounts

  constructor(
    readonly store: SavedTimerStore,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.counts = new SavedTimerCounts(store, logger, now)
  }

  private async waited<T>(work: Promise<T>, ms = STORE_WAIT_MS): Promise<T> {
    try {
      return await withTimeout(work, ms, 'the saved-timer store')
    } catch (error) {
      this.logger.warn({ err: error, store: this.store.kind }, 'saved timers: the store failed or was late')
      throw new SavedStoreUnavailable()
    }
  }

  /** Saves a new timer; its edit key is given here and never again. */
  async create(input: SavedTimerInput): Promise<{ record: SavedTimerRecord; definition: SavedDefinition; editKey: string }> {
    const at = this.now()
    const definition = newDefinition(input, at)
    const editKey = newEditKey()
    for (let tries = 0; tries < ID_TRIES; tries++) {
      const record: SavedTimerRecord = { id: newSavedId(), definition: JSON.stringify(definition), version: 1, keyHash: editKeyHash(editKey), createdAt: at, updatedAt: at }
      const outcome = await this.waited(this.store.create(record))
      if (outcome === 'full') throw new SavedTimersFull()
      if (outcome === 'created') {
        this.keep(record.id, { record, definition })
        return { record, definition, editKey }
      }
    }
    throw new SavedStoreUnavailable()
  }

  /** The timer under `id` when `authorization` carries its edit key; else 401, the same for an unknown id. */
  async authorised(id: string, authorization: string | undefined): Promise<{ record: SavedTimerRecord; definition: SavedDefinition }> {
    const key = /^Bearer\s+(\S{1,200})\s*$/i.exec(authorization ?? '')?.[1]
    if (!key) throw unauthorised('Send the edit key as Authorization: Bearer <key>.')
    const record = SAVED_ID.test(id) ? await this.waited(this.store.get(id)) : null
    const definition = record && isEditKey(key, record) ? readDefinition(record.definition) : null
    // An unknown id is answered as a wrong key is: the answer never tells which ids exist.
    if (!record || !definition) throw unauthorised('The edit key does not open this timer.')
    return { record, definition }
  }

  async change(id: string, authorization: string | undefined, body: unknown): Promise<{ record: SavedTimerRecord; definition: SavedDefinition }> {
    const { record, definition } = await this.authorised(id, authorization)
    const changed = changedDefinition(definition, body, this.now())
    if (sameDefinition(changed, definition)) return { record, definition }
    const saved = await this.waited(this.store.replace(id, JSON.stringify(changed), record.version, this.now()))
    if (saved === 'conflict') throw new HttpError(409, 'version_conflict', 'The timer was changed elsewhere at the same moment. Load it again and repeat the change.')
    if (!saved) throw unauthorised('The edit key does not open this timer.')
    this.keep(id, { record: saved, definition: changed })
    return { record: saved, definition: changed }
  }

  async remove(id: string, authorization: string | undefined): Promise<void> {
    await this.authorised(id, authorization)
    await this.waited(this.store.remove(id))
    this.counts.forget(id)
    this.keep(id, null)
  }

  /** A timer's counts by hour (UTC) and in all: the store's, and those of this process not yet written. */
  async stats(id: string, authorization: string | undefined): Promise<{ total: Counts; hours: { hour: number; counts: Counts }[] }> {
    await this.authorised(id, authorization)
    const stored = await this.waited(this.store.hours(id, 0))
    const byHour = new Map(stored.map(({ hour, counts }) => [hour, { ...counts }]))
    for (const [hour, waiting] of this.counts.waiting(id)) {
      const counts = byHour.get(hour) ?? noCounts()
      for (const counter of COUNTERS) counts[counter] += waiting[counter] ?? 0
      byHour.set(hour, counts)
    }
    const hours = [...byHour].sort(([a], [b]) => a - b).map(([hour, counts]) => ({ hour, counts }))
    const total = noCounts()
    for (const { counts } of hours) for (const counter of COUNTERS) total[counter] += counts[counter]
    return { total, hours }
  }

  /**
   * The definition the image and `go` paths draw from: kept in this process for
   * DEFINITION_KEEP_MS, then read again within `waitMs`. Null for a timer that does not exist (or
   * was deleted); `unavailable` when the store neither answers in time nor was read lately.
   */
  async look(id: string, waitMs: number): Promise<Looked | 'unavailable'> {
    if (!SAVED_ID.test(id)) return null
    const at = this.now()
    const kept = this.kept.get(id)
    if (kept && at - kept.at < DEFINITION_KEEP_MS) return kept.looked
    try {
      return await withTimeout(this.read(id), Math.max(0, waitMs), 'the saved-timer store')
    } catch {
      return kept && at - kept.at < DEFINITION_STALE_MS ? kept.looked : 'unavailable'
    }
  }

  /** One read of a timer at a time in this process, however many opens ask for it. */
  private read(id: string): Promise<Looked> {
    let reading = this.reading.get(id)
    if (!reading) {
      reading = this.store
        .get(id)
        .then((record) => {
          const looked = record ? { record, definition: readDefinition(record.definition) } : null
          this.keep(id, looked)
          return looked
        })
        .finally(() => this.reading.delete(id))
      this.reading.set(id, reading)
    }
    return reading
  }

  private keep(id: string, looked: Looked): void {
    this.kept.delete(id)
    this.kept.set(id, { at: this.now(), looked })
    if (this.kept.size > DEFINITIONS_KEPT_MAX) this.kept.delete(this.kept.keys().next().value!)
  }

  async close(): Promise<void> {
    await this.counts.close()
  }
}

function unauthorised(message: string): HttpError {
  return new HttpError(401, 'unauthorized', message, 'authorization')
}

/** Counts as the API shows them: the readers together. */
export function countsView(counts: Counts): Record<string, unknown> {
  const { gmail, apple_privacy, yahoo, outlook, other, ...events } = counts
  return { ...events, readers: { gmail, apple_privacy, yahoo, outlook, other } }
}

/** Stats as the API shows them. */
export function statsView(stats: { total: Counts; hours: { hour: number; counts: Counts }[] }): Record<string, unknown> {
  return {
    total: countsView(stats.total),
    hours: stats.hours.map(({ hour, counts }) => ({ hour: new Date(hour).toISOString(), ...countsView(counts) })),
  }
}
