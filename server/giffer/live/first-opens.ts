/**
 * The first opens of evergreen live timers ("48 hours from when you open this"): the deadline each
 * recipient of a timer got the first time the image was requested, so that every later request,
 * from any process sharing the store, shows the same deadline. Two stores behind one interface,
 * chosen once at start by the caller: a SQLite file on this machine's disk (kept across restarts,
 * shared by the processes of this machine), or Redis (shared by every process of a deployment).
 *
 * Forgetting is what bounds the store: an entry is forgotten once the clock passes its deadline
 * by `keepAfterMs`; from then on it no longer counts toward the caps, and a later open of that
 * recipient starts a new countdown. Until then the caps hold the store to `total` entries (and one
 * timer to `perTimer`): a recipient past them is shown the full time, unstored, with a warning in
 * the log at most once a minute, since a full store is a limit being reached, not a fault.
 *
 * Every rule reads the clock it is given (`nowMs`), never the machine's.
 */
import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { openSqlite, transaction } from '../../process/sqlite.js'
import { Throttle } from '../../process/throttle.js'

export interface FirstOpenLimits {
  /** Keys kept per timer; a new key past it is shown the full time without being stored. */
  perTimer: number
  /** Keys kept in all, every timer together. */
  total: number
  /** How long an entry is kept after its deadline has passed, in ms (then forgotten). */
  keepAfterMs: number
}

export type FirstOpen =
  /** It already had one: that deadline. */
  | { deadline: number; outcome: 'stored' }
  /** This call stored `candidate`. */
  | { deadline: number; outcome: 'created' }
  /** Not stored (a cap is reached): the deadline is the candidate. */
  | { deadline: number; outcome: 'timer_full' | 'store_full' }

export type Preset = { outcome: 'created'; deadline: number } | { outcome: 'stored'; deadline: number } | { outcome: 'timer_full' | 'store_full' }

export interface FirstOpenStore {
  /** Where entries are kept, for the start-up line: 'Redis', or the SQLite file's path. */
  readonly where: string
  /** 'sqlite' is this machine's disk (lost where a deploy replaces it, unseen by other machines); 'redis' is shared by every process. */
  readonly kind: 'redis' | 'sqlite'
  /**
   * The deadline `key` of `timer` has; when it has none, `candidate` is stored and returned.
   * Concurrent calls for one key (in this process or in others sharing the store) all get one deadline.
   * `timer` and `key` are opaque ASCII strings the caller already made (keyed hashes, <= 64 chars): the store never sees raw recipient keys.
   */
  firstOpen(timer: string, key: string, candidate: number, nowMs: number): Promise<FirstOpen>
  /** Sets a key's deadline ahead of its first open (a shop's back end matching a coupon); never moves one already set. */
  preset(timer: string, key: string, deadline: number, nowMs: number): Promise<Preset>
  /** Entries kept now, every timer together (after forgetting expired ones). */
  size(nowMs: number): Promise<number>
  close(): Promise<void>
}

/** A full timer, or a full store, is said in the log at most this often. */
const CAP_WARNING_INTERVAL_MS = 60_000
/** The longest timer or key name: a keyed hash, written out. */
const NAME_MAX = 64
/** Printable ASCII without spaces, as hashes and signatures are written. */
const NAME = /^[!-~]+$/

/** What one backend does: store `deadline` unless the key has one or a cap is reached. */
interface Backend {
  where: string
  kind: FirstOpenStore['kind']
  claim(timer: string, key: string, deadline: number, nowMs: number): Promise<Preset>
  size(nowMs: number): Promise<number>
  close(): Promise<void>
}

function checkName(value: string, what: 'timer' | 'key'): void {
  if (value.length === 0 || value.length > NAME_MAX || !NAME.test(value)) {
    throw new RangeError(`a first-open ${what} must be 1 to ${NAME_MAX} printable ASCII characters`)
  }
  // Redis names an entry among all timers `timer:key`: a timer with a colon could name two.
  if (what === 'timer' && value.includes(':')) throw new RangeError('a first-open timer must not contain ":"')
}

function checkDeadline(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a whole number of milliseconds, not ${value}`)
}

function checkNow(nowMs: number): void {
  if (!Number.isFinite(nowMs)) throw new RangeError(`nowMs must be a finite number, not ${nowMs}`)
}

/** Says a full timer at most once a minute per timer, and a full store at most once a minute. */
function capWarnings(logger: Logger, limits: FirstOpenLimits, where: string) {
  const warnings = new Throttle(CAP_WARNING_INTERVAL_MS)
  return (outcome: 'timer_full' | 'store_full', timer: string, nowMs: number) => {
    if (outcome === 'store_full') {
      if (!warnings.allow(nowMs, '')) return
      logger.warn({ total: limits.total, store: where }, 'live timers: the first-open store is full; new recipients of evergreen timers see the full time, unstored, until entries are forgotten')
      return
    }
    if (!warnings.allow(nowMs, timer)) return
    logger.warn({ timer, perTimer: limits.perTimer, store: where }, 'live timers: an evergreen timer keeps as many recipients as it may; new ones see the full time, unstored')
  }
}

/** The rules both backends share: the checks of what comes in, and the warnings of full caps. */
function storeWithRules(backend: Backend, limits: FirstOpenLimits, logger: Logger): FirstOpenStore {
  const warnFull = capWarnings(logger, limits, backend.where)
  const claim = async (timer: string, key: string, deadline: number, nowMs: number, what: string): Promise<Preset> => {
    checkName(timer, 'timer')
    checkName(key, 'key')
    checkDeadline(deadline, what)
    checkNow(nowMs)
    const claimed = await backend.claim(timer, key, deadline, nowMs)
    if (claimed.outcome === 'timer_full' || claimed.outcome === 'store_full') warnFull(claimed.outcome, timer, nowMs)
    return claimed
  }
  return {
    where: backend.where,
    kind: backend.kind,
    async firstOpen(timer, key, candidate, nowMs) {
      const claimed = await claim(timer, key, candidate, nowMs, 'candidate')
      return 'deadline' in claimed ? claimed : { outcome: claimed.outcome, deadline: candidate }
    },
    preset: (timer, key, deadline, nowMs) => claim(timer, key, deadline, nowMs, 'deadline'),
    async size(nowMs) {
      checkNow(nowMs)
      return backend.size(nowMs)
    },
    close: () => backend.close(),
  }
}

/**
 * A writer of another process holding the file longer than this fails the call (the caller shows
 * the full time). The driver is synchronous, so this wait holds the event loop: it stays short.
 */
const SQLITE_BUSY_TIMEOUT_MS = 250
/** How often the WAL is checkpointed into the database file. */
const SQLITE_CHECKPOINT_INTERVAL_MS = 1_000
/** What the WAL is cut back to after a checkpoint. */
const SQLITE_WAL_LIMIT_BYTES = 4 * 2 ** 20
/** How often, by the clock given, expired entries are looked for while they are few. */
const FORGET_INTERVAL_MS = 60_000
/** Expired entries deleted in one go: a short pause of the (synchronous) driver, however many expired. */
const FORGET_BATCH = 1_000
/** Batches a request at a cap may forget before it is told the store is full: the rest go a batch per later call. */
const FORGET_BATCHES_AT_CAP = 10

/**
 * The counts are kept by triggers in the transaction that adds or deletes an entry, so a cap is
 * checked in O(log n) and can never drift from the entries, whichever process wrote them.
 */
const SQLITE_SCHEMA = `
  CREATE TABLE IF NOT EXISTS first_opens (
    timer TEXT NOT NULL,
    key TEXT NOT NULL,
    deadline INTEGER NOT NULL,
    PRIMARY KEY (timer, key)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS first_opens_by_deadline ON first_opens (deadline);
  CREATE TABLE IF NOT EXISTS first_opens_per_timer (
    timer TEXT PRIMARY KEY,
    entries INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS first_opens_total (
    only INTEGER PRIMARY KEY CHECK (only = 1),
    entries INTEGER NOT NULL
  );
  INSERT OR IGNORE INTO first_opens_total (only, entries) VALUES (1, 0);
  CREATE TRIGGER IF NOT EXISTS first_opens_counted AFTER INSERT ON first_opens BEGIN
    INSERT INTO first_opens_per_timer (timer, entries) VALUES (NEW.timer, 1)
      ON CONFLICT (timer) DO UPDATE SET entries = entries + 1;
    UPDATE first_opens_total SET entries = entries + 1;
  END;
  CREATE TRIGGER IF NOT EXISTS first_opens_uncounted AFTER DELETE ON first_opens BEGIN
    UPDATE first_opens_per_timer SET entries = entries - 1 WHERE timer = OLD.timer;
    DELETE FROM first_opens_per_timer WHERE timer = OLD.timer AND entries = 0;
    UPDATE first_opens_total SET entries = entries - 1;
  END;
`

/**
 * First opens in a SQLite file, shared by the processes of this machine that open it: each first
 * open is one `BEGIN IMMEDIATE` transaction, so two of them for one key never both store.
 */
export function sqliteFirstOpens(options: { file: string; limits: FirstOpenLimits; logger: Logger }): FirstOpenStore {
  const { file, limits } = options
  mkdirSync(path.dirname(file), { recursive: true })
  const db = openSqlite(file)
  // busy_timeout first: another process may hold the file while this one switches it to WAL.
  // SQLite checkpoints the WAL into the file (with its fsyncs) inside whichever commit passes 1000
  // pages, which would stall that open and every request behind it for tens of milliseconds. Here
  // the WAL is checkpointed on a timer instead, between requests, without waiting on readers, and
  // cut back to a few megabytes after each checkpoint (it would otherwise keep its largest size).
  db.exec(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = ${SQLITE_WAL_LIMIT_BYTES};`)
  const checkpoints = setInterval(() => {
    try {
      db.exec('PRAGMA wal_checkpoint(PASSIVE)')
    } catch (error) {
      options.logger.warn({ err: error, file }, 'live timers: the first-open store could not checkpoint its WAL')
    }
  }, SQLITE_CHECKPOINT_INTERVAL_MS)
  checkpoints.unref()
  transaction(db, () => db.exec(SQLITE_SCHEMA))

  const held = db.prepare('SELECT deadline FROM first_opens WHERE timer = ? AND key = ?')
  const remove = db.prepare('DELETE FROM first_opens WHERE timer = ? AND key = ?')
  const insert = db.prepare('INSERT INTO first_opens (timer, key, deadline) VALUES (?, ?, ?)')
  const timerEntries = db.prepare('SELECT entries FROM first_opens_per_timer WHERE timer = ?')
  const totalEntries = db.prepare('SELECT entries FROM first_opens_total')
  const forgetBatch = db.prepare(
    `DELETE FROM first_opens WHERE (timer, key) IN (SELECT timer, key FROM first_opens WHERE deadline < ? ORDER BY deadline LIMIT ${FORGET_BATCH})`,
  )

  let forgetDueAt = -Infinity
  /** Deletes a batch of expired entries; true when more may be left. */
  const forgetExpired = (nowMs: number): boolean => {
    const more = Number(forgetBatch.run(nowMs - limits.keepAfterMs).changes) === FORGET_BATCH
    // While the expired outnumber a batch, every call takes its share of them.
    forgetDueAt = more ? nowMs : nowMs + FORGET_INTERVAL_MS
    return more
  }
  const fullness = (timer: string): 'timer_full' | 'store_full' | null => {
    if (Number(timerEntries.get(timer)?.entries ?? 0) >= limits.perTimer) return 'timer_full'
    if (Number(totalEntries.get()?.entries ?? 0) >= limits.total) return 'store_full'
    return null
  }

  const backend: Backend = {
    where: file,
    kind: 'sqlite',
    async claim(timer, key, deadline, nowMs) {
      return transaction(db, (): Preset => {
        const stored = held.get(timer, key)
        if (stored) {
          const storedDeadline = Number(stored.deadline)
          if (storedDeadline + limits.keepAfterMs >= nowMs) return { outcome: 'stored', deadline: storedDeadline }
          remove.run(timer, key)
        }
        if (nowMs >= forgetDueAt) forgetExpired(nowMs)
        let full = fullness(timer)
        if (full) {
          // A cap counts only the entries not yet forgotten; a request forgets a bounded share of them.
          for (let batch = 1; batch < FORGET_BATCHES_AT_CAP && forgetExpired(nowMs); batch++) continue
          full = fullness(timer)
          if (full) return { outcome: full }
        }
        insert.run(timer, key, deadline)
        return { outcome: 'created', deadline }
      })
    },
    async size(nowMs) {
      // One short transaction per batch, letting requests in between.
      while (transaction(db, () => forgetExpired(nowMs))) await nextTurn()
      return Number(totalEntries.get()?.entries ?? 0)
    },
    async close() {
      clearInterval(checkpoints)
      db.close()
    },
  }
  return storeWithRules(backend, limits, options.logger)
}

/**
 * One first open or preset, whole, in Redis. KEYS[1] holds the timer's entries (key, scored by
 * its deadline), KEYS[2] every timer's (`timer:key`, the same score): forgetting is a range of
 * scores, each cap a ZCARD. ARGV: key, timer:key, deadline, the newest deadline still kept, the
 * caps, and how long the sets must live for this entry (raised, never lowered, so an idle
 * timer's set disappears once all its entries are forgotten).
 */
const REDIS_CLAIM = `
local timerSet, allSet = KEYS[1], KEYS[2]
local key, entry, deadline, keptFrom = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local perTimer, total, lifetime = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
redis.call('ZREMRANGEBYSCORE', timerSet, '-inf', '(' .. keptFrom)
redis.call('ZREMRANGEBYSCORE', allSet, '-inf', '(' .. keptFrom)
local stored = redis.call('ZSCORE', timerSet, key)
if stored then return {'stored', stored} end
if redis.call('ZCARD', timerSet) >= perTimer then return {'timer_full'} end
if redis.call('ZCARD', allSet) >= total then return {'store_full'} end
redis.call('ZADD', timerSet, deadline, key)
redis.call('ZADD', allSet, deadline, entry)
for _, set in ipairs(KEYS) do
  if redis.call('PTTL', set) < lifetime then redis.call('PEXPIRE', set, lifetime) end
end
return {'created', deadline}
`
const REDIS_CLAIM_SHA = createHash('sha1').update(REDIS_CLAIM).digest('hex')
/** Added to a set's lifetime: the clocks of the processes sharing Redis differ by a little. */
const REDIS_LIFETIME_MARGIN_MS = 60_000

/**
 * First opens in Redis, shared by every process connected to it. The connection is the caller's;
 * when Redis is away or slow, calls reject (the caller shows the full time meanwhile).
 */
export function redisFirstOpens(options: { redis: Redis; limits: FirstOpenLimits; logger: Logger; prefix?: string }): FirstOpenStore {
  const { redis, limits } = options
  const prefix = options.prefix ?? 'lt:'
  // One hash tag for every key, so that a Redis Cluster keeps them together for the script.
  const allSet = `${prefix}{first-opens}`
  const timerSet = (timer: string) => `${allSet}:${timer}`

  const runClaim = async (keys: string[], args: (string | number)[]): Promise<string[]> => {
    try {
      return (await redis.evalsha(REDIS_CLAIM_SHA, keys.length, ...keys, ...args)) as string[]
    } catch (error) {
      // Redis forgets scripts when it restarts: the first call after sends it whole.
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error
      return (await redis.eval(REDIS_CLAIM, keys.length, ...keys, ...args)) as string[]
    }
  }

  const backend: Backend = {
    where: 'Redis',
    kind: 'redis',
    async claim(timer, key, deadline, nowMs) {
      const keptFrom = nowMs - limits.keepAfterMs
      const lifetime = Math.max(1, Math.ceil(deadline + limits.keepAfterMs - nowMs)) + REDIS_LIFETIME_MARGIN_MS
      const [outcome, stored] = await runClaim([timerSet(timer), allSet], [key, `${timer}:${key}`, deadline, keptFrom, limits.perTimer, limits.total, lifetime])
      if (outcome === 'stored' || outcome === 'created') return { outcome, deadline: Number(stored) }
      if (outcome === 'timer_full' || outcome === 'store_full') return { outcome }
      throw new Error(`the first-open script answered ${String(outcome)}`)
    },
    async size(nowMs) {
      const replies = await redis
        .multi()
        .zremrangebyscore(allSet, '-inf', `(${nowMs - limits.keepAfterMs}`)
        .zcard(allSet)
        .exec()
      const [forgotten, counted] = replies ?? []
      const error = forgotten?.[0] ?? counted?.[0]
      if (error) throw error
      return Number(counted?.[1])
    },
    // The connection is the caller's to close.
    async close() {},
  }
  return storeWithRules(backend, limits, options.logger)
}
