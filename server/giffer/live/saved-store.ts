/**
 * Where saved timers are kept: each timer's definition (its look, its schedule, what it shows once
 * the time is up, its links), the hash of its edit key, and its opens counted per hour. The same
 * store as the first opens of evergreen timers: a SQLite file in DATA_DIR by default, Redis when
 * REDIS_URL is set, so that every process (and, with Redis, every machine) sees one timer.
 *
 * The store keeps what it is given and knows no rule of the timers: the definition is an opaque
 * JSON text (checked and bounded before it is saved), the key a hash. Counts are numbers by hour
 * and by counter; nothing in it names a person, an address or a device.
 *
 * Caps: at most `maxTimers` timers, each with at most `keepHours` hours of counts (hours older
 * than that are dropped), so the hours are bounded with the timers. A save past the cap is
 * refused (`full`); no timer is ever evicted to make room.
 */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Redis } from 'ioredis'
import { openSqlite, transaction, type Database, type Row } from '../../process/sqlite.js'

/** The counters of one hour: opens, and of them first and expired ones, clicks, and opens by reader. */
export const COUNTERS = ['opens', 'first_opens', 'expired_opens', 'clicks', 'gmail', 'apple_privacy', 'yahoo', 'outlook', 'other'] as const
export type Counter = (typeof COUNTERS)[number]
export type Counts = Record<Counter, number>

/** Counts of one timer in one hour; `hour` is the hour's first instant (UTC, ms). */
export interface HourCounts {
  hour: number
  counts: Counts
}

export interface SavedTimerRecord {
  id: string
  /** The definition as JSON text. */
  definition: string
  /** 1 when saved, one more at each change. */
  version: number
  /** The edit key's hash, never the key. */
  keyHash: string
  createdAt: number
  updatedAt: number
}

export interface SavedStoreLimits {
  /** Timers kept at once. */
  maxTimers: number
  /** Hours of counts kept per timer (older hours are dropped). */
  keepHours: number
}

export interface SavedTimerStore {
  readonly kind: 'sqlite' | 'redis'
  /** Keeps a new timer: `full` at the cap, `taken` when the id is in use (a new random id is then drawn). */
  create(record: SavedTimerRecord): Promise<'created' | 'full' | 'taken'>
  get(id: string): Promise<SavedTimerRecord | null>
  /**
   * Replaces a timer's definition when it is still at `version`: the record as now kept (version
   * one more), `conflict` when another change came first, null when there is no such timer.
   */
  replace(id: string, definition: string, version: number, nowMs: number): Promise<SavedTimerRecord | 'conflict' | null>
  /** Removes a timer and its counts; false when there was none. */
  remove(id: string): Promise<boolean>
  /** Adds counts, timer by timer and hour by hour; counts of a timer that is gone are dropped. */
  add(counts: ReadonlyMap<string, ReadonlyMap<number, Partial<Counts>>>): Promise<void>
  /** A timer's counted hours from `fromHour` on, oldest first. */
  hours(id: string, fromHour: number): Promise<HourCounts[]>
  /** Timers kept. */
  size(): Promise<number>
  close(): Promise<void>
}

/** Some of a batch of counts were not written (the others were): these. */
export class CountsNotWritten extends Error {
  constructor(
    readonly cells: Map<string, Map<number, Partial<Counts>>>,
    cause: unknown,
  ) {
    super('some counts were not written', { cause })
  }
}

export const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

/** The first instant of the hour `ms` falls in (UTC). */
export const hourOf = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS

export const noCounts = (): Counts => Object.fromEntries(COUNTERS.map((counter) => [counter, 0])) as Counts

// ---------------------------------------------------------------------------------------------
// SQLite

/**
 * How long a write waits for another process's lock. The drivers wait synchronously, holding this
 * process's event loop, so the wait is short: saves and edits are rare, and counts that could not
 * be written are kept for the next batch.
 */
const SQLITE_BUSY_TIMEOUT_MS = 20

const SQLITE_SCHEMA = `
  CREATE TABLE IF NOT EXISTS saved_timers (
    id TEXT PRIMARY KEY,
    definition TEXT NOT NULL,
    version INTEGER NOT NULL,
    key_hash TEXT NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS saved_timer_hours (
    id TEXT NOT NULL,
    hour INTEGER NOT NULL,
    ${COUNTERS.map((counter) => `${counter} INTEGER NOT NULL DEFAULT 0`).join(',\n    ')},
    PRIMARY KEY (id, hour)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS saved_timer_hours_by_hour ON saved_timer_hours (hour);
`

function recordOf(row: Row | undefined): SavedTimerRecord | null {
  if (!row) return null
  return {
    id: String(row.id),
    definition: String(row.definition),
    version: Number(row.version),
    keyHash: String(row.key_hash),
    createdAt: Number(row.created),
    updatedAt: Number(row.updated),
  }
}

function countsOf(row: Row): Counts {
  return Object.fromEntries(COUNTERS.map((counter) => [counter, Number(row[counter] ?? 0)])) as Counts
}

function sqliteStatements(db: Database) {
  const upsertHour = `INSERT INTO saved_timer_hours (id, hour, ${COUNTERS.join(', ')})
    SELECT ?, ?, ${COUNTERS.map(() => '?').join(', ')} WHERE EXISTS (SELECT 1 FROM saved_timers WHERE id = ?)
    ON CONFLICT (id, hour) DO UPDATE SET ${COUNTERS.map((counter) => `${counter} = ${counter} + excluded.${counter}`).join(', ')}`
  return {
    count: db.prepare('SELECT count(*) AS timers FROM saved_timers'),
    exists: db.prepare('SELECT 1 AS found FROM saved_timers WHERE id = ?'),
    insert: db.prepare('INSERT INTO saved_timers (id, definition, version, key_hash, created, updated) VALUES (?, ?, ?, ?, ?, ?)'),
    get: db.prepare('SELECT * FROM saved_timers WHERE id = ?'),
    replace: db.prepare('UPDATE saved_timers SET definition = ?, version = version + 1, updated = ? WHERE id = ? AND version = ?'),
    remove: db.prepare('DELETE FROM saved_timers WHERE id = ?'),
    removeHours: db.prepare('DELETE FROM saved_timer_hours WHERE id = ?'),
    upsertHour: db.prepare(upsertHour),
    hours: db.prepare('SELECT * FROM saved_timer_hours WHERE id = ? AND hour >= ? ORDER BY hour'),
    dropOld: db.prepare('DELETE FROM saved_timer_hours WHERE hour < ?'),
  }
}

/** Saved timers in a SQLite file (WAL), shared by the processes of this machine that open it. */
export function sqliteSavedTimers(options: { file: string; limits: SavedStoreLimits; now?: () => number }): SavedTimerStore {
  const { file, limits } = options
  const now = options.now ?? Date.now
  mkdirSync(path.dirname(file), { recursive: true })
  const db = openSqlite(file)
  db.exec(`PRAGMA busy_timeout = 1000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;`)
  transaction(db, () => db.exec(SQLITE_SCHEMA))
  db.exec(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`)
  const statements = sqliteStatements(db)
  // Hours past their keeping are dropped with each batch of counts, at most once an hour.
  let droppedBefore = 0

  return {
    kind: 'sqlite',
    async create(record) {
      return transaction(db, () => {
        if (statements.exists.get(record.id)) return 'taken'
        if (Number(statements.count.get()!.timers) >= limits.maxTimers) return 'full'
        statements.insert.run(record.id, record.definition, record.version, record.keyHash, record.createdAt, record.updatedAt)
        return 'created'
      })
    },
    get: async (id) => recordOf(statements.get.get(id)),
    async replace(id, definition, version, nowMs) {
      return transaction(db, () => {
        if (Number(statements.replace.run(definition, nowMs, id, version).changes) === 1) return recordOf(statements.get.get(id))
        return statements.exists.get(id) ? 'conflict' : null
      })
    },
    async remove(id) {
      return transaction(db, () => {
        statements.removeHours.run(id)
        return Number(statements.remove.run(id).changes) === 1
      })
    },
    async add(counts) {
      const oldest = hourOf(now()) - (limits.keepHours - 1) * HOUR_MS
      transaction(db, () => {
        for (const [id, hours] of counts) {
          for (const [hour, add] of hours) {
            if (hour < oldest) continue
            statements.upsertHour.run(id, hour, ...COUNTERS.map((counter) => add[counter] ?? 0), id)
          }
        }
        if (oldest - droppedBefore >= HOUR_MS) {
          statements.dropOld.run(oldest)
          droppedBefore = oldest
        }
      })
    },
    async hours(id, fromHour) {
      const oldest = hourOf(now()) - (limits.keepHours - 1) * HOUR_MS
      return statements.hours.all(id, Math.max(fromHour, oldest)).map((row) => ({ hour: Number(row.hour), counts: countsOf(row) }))
    },
    size: async () => Number(statements.count.get()!.timers),
    async close() {
      db.close()
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Redis

/**
 * Keeps a timer unless the id is taken or the store is full. KEYS: the timer's hash, the set of
 * ids. ARGV: id, max timers, then the hash's fields and values.
 */
const REDIS_CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 'taken' end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 'full' end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('SADD', KEYS[2], ARGV[1])
return 'created'
`

/** Replaces the definition at the expected version. KEYS: the timer's hash. ARGV: definition, version, now. */
const REDIS_REPLACE = `
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return 'missing' end
if version ~= ARGV[2] then return 'conflict' end
redis.call('HSET', KEYS[1], 'definition', ARGV[1], 'version', tonumber(version) + 1, 'updated', ARGV[3])
return 'replaced'
`

/**
 * Adds one hour's counts of a timer that is still kept. Counts are kept by day, one hash a day
 * whose fields are `{hour of the day}:{counter}`, each expiring once its last hour is past
 * keeping: a timer's stats are at most a few dozen reads, and nothing needs sweeping.
 * KEYS: the timer's hash, the day's hash. ARGV: expiry in ms, hour of the day, then counter and
 * amount pairs.
 */
const REDIS_ADD = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for i = 3, #ARGV, 2 do
  redis.call('HINCRBY', KEYS[2], ARGV[2] .. ':' .. ARGV[i], ARGV[i + 1])
end
redis.call('PEXPIREAT', KEYS[2], ARGV[1])
return 1
`

/** Saved timers in Redis, shared by every process connected to it. The connection is the caller's. */
export function redisSavedTimers(options: { redis: Redis; limits: SavedStoreLimits; prefix?: string; now?: () => number }): SavedTimerStore {
  const { redis, limits } = options
  const now = options.now ?? Date.now
  // One hash tag, so that a Redis Cluster keeps a timer with the set of ids for the scripts.
  const base = `${options.prefix ?? 'lt:'}{saved-timers}`
  const ids = `${base}:ids`
  const timerKey = (id: string) => `${base}:t:${id}`
  const dayKey = (id: string, day: number) => `${base}:d:${id}:${day}`
  const keepDays = Math.ceil(limits.keepHours / 24) + 1
  const dayKeys = (id: string) => Array.from({ length: keepDays }, (_, i) => dayKey(id, Math.floor(now() / DAY_MS) * DAY_MS - i * DAY_MS))

  return {
    kind: 'redis',
    async create(record) {
      const fields = ['definition', record.definition, 'version', record.version, 'key_hash', record.keyHash, 'created', record.createdAt, 'updated', record.updatedAt]
      return (await redis.eval(REDIS_CREATE, 2, timerKey(record.id), ids, record.id, limits.maxTimers, ...fields)) as 'created' | 'full' | 'taken'
    },
    async get(id) {
      const hash = await redis.hgetall(timerKey(id))
      return hash.definition === undefined ? null : recordOf({ id, ...hash })
    },
    async replace(id, definition, version, nowMs) {
      const outcome = (await redis.eval(REDIS_REPLACE, 1, timerKey(id), definition, version, nowMs)) as string
      if (outcome === 'missing') return null
      if (outcome === 'conflict') return 'conflict'
      return this.get(id)
    },
    async remove(id) {
      const [[, removed]] = (await redis
        .multi()
        .del(timerKey(id))
        .srem(ids, id)
        .del(...dayKeys(id))
        .exec()) as [[unknown, number]]
      return removed === 1
    },
    add: (counts) => redisAdd(redis, counts, { limits, now, timerKey, dayKey }),
    hours: (id, fromHour) => redisHours(redis, id, fromHour, { limits, now, dayKeys }),
    size: async () => redis.scard(ids),
    // The connection is the caller's to close.
    async close() {},
  }
}

/** Where a Redis store keeps a timer and its days of counts, and its limits and clock. */
interface RedisPlaces {
  limits: SavedStoreLimits
  now: () => number
  timerKey: (id: string) => string
  dayKey: (id: string, day: number) => string
  dayKeys: (id: string) => string[]
}

/** Adds a batch of counts, an hour of a timer a script; throws CountsNotWritten with the hours whose script failed. */
async function redisAdd(redis: Redis, counts: ReadonlyMap<string, ReadonlyMap<number, Partial<Counts>>>, { limits, now, timerKey, dayKey }: Pick<RedisPlaces, 'limits' | 'now' | 'timerKey' | 'dayKey'>): Promise<void> {
  const oldest = hourOf(now()) - (limits.keepHours - 1) * HOUR_MS
  const pipeline = redis.pipeline()
  const sent: [string, number, Partial<Counts>][] = []
  for (const [id, hours] of counts) {
    for (const [hour, add] of hours) {
      if (hour < oldest) continue
      const day = Math.floor(hour / DAY_MS) * DAY_MS
      const pairs = COUNTERS.flatMap((counter) => (add[counter] ? [counter, add[counter]] : []))
      if (pairs.length === 0) continue
      const expiresAt = day + DAY_MS + limits.keepHours * HOUR_MS
      pipeline.eval(REDIS_ADD, 2, timerKey(id), dayKey(id, day), expiresAt, (hour - day) / HOUR_MS, ...pairs)
      sent.push([id, hour, add])
    }
  }
  // Each hour is its own script: those that ran are written, and only the others are given back.
  const results = (await pipeline.exec()) ?? []
  const failed = new Map<string, Map<number, Partial<Counts>>>()
  let cause: unknown
  results.forEach(([error], i) => {
    if (!error) return
    cause ??= error
    const [id, hour, add] = sent[i]!
    if (!failed.has(id)) failed.set(id, new Map())
    failed.get(id)!.set(hour, add)
  })
  if (failed.size > 0) throw new CountsNotWritten(failed, cause)
}

/** A timer's counted hours from `fromHour` on, oldest first: its days' hashes, read in one round trip. */
async function redisHours(redis: Redis, id: string, fromHour: number, { limits, now, dayKeys }: Pick<RedisPlaces, 'limits' | 'now' | 'dayKeys'>): Promise<HourCounts[]> {
  const oldest = Math.max(fromHour, hourOf(now()) - (limits.keepHours - 1) * HOUR_MS)
  const days = dayKeys(id)
  const pipeline = redis.pipeline()
  for (const key of days) pipeline.hgetall(key)
  const results = (await pipeline.exec()) ?? []
  const byHour = new Map<number, Counts>()
  results.forEach(([error, hash], i) => {
    if (error) throw error
    const day = Math.floor(now() / DAY_MS) * DAY_MS - i * DAY_MS
    for (const [field, value] of Object.entries(hash as Record<string, string>)) {
      const [hourOfDay, counter] = field.split(':') as [string, Counter]
      const hour = day + Number(hourOfDay) * HOUR_MS
      if (hour < oldest || !COUNTERS.includes(counter)) continue
      const counts = byHour.get(hour) ?? noCounts()
      counts[counter] += Number(value)
      byHour.set(hour, counts)
    }
  })
  return [...byHour].sort(([a], [b]) => a - b).map(([hour, counts]) => ({ hour, counts }))
}
