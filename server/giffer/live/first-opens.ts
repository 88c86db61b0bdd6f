/**
 * The first opens of evergreen live timers ("48 hours from when you open this"): the deadline each
 * recipient of a timer got the first time the image was requested, so that every later request,
 * from any process sharing the store, shows the same deadline. Two stores behind one interface,
 * chosen once at start by the caller: a SQLite file on this machine's disk (kept across restarts,
 * shared by the processes of this machine), or Redis (shared by every process of a deployment).
 *
 * Most opens are repeats, so an open reads first, taking no write lock: a key that has a deadline
 * gets it with nothing written. Only a key without one goes on to the claim, which checks the key
 * again inside its write (a SQLite transaction, a Redis script), so that concurrent first opens of
 * one key, in one process or in several, agree on one deadline.
 *
 * Forgetting is what bounds the store: an entry is forgotten once the clock passes its deadline
 * by `keepAfterMs`; a later open of that recipient then starts a new countdown. Forgotten entries
 * are deleted off the request path, by a sweep in each store that deletes a bounded batch at a
 * time, again soon while more are left, otherwise once a minute. A request deletes nothing but
 * the forgotten entry of its own key, and, at a cap (which counts the entries not yet swept), one
 * bounded batch of forgotten entries before it is refused.
 *
 * The caps hold the store to `total` entries, and one timer to `perTimer`. Keys past a cap, and
 * keys the caller declines to store (`mayCreate`), share one overflow deadline per timer: the
 * store keeps, per timer, the candidate of the first overflowing open, and every later overflowing
 * key of that timer gets it until it has passed; the next overflowing open then starts a new one
 * (a recipient who comes after it would otherwise be shown a timer that ended before they ever
 * opened the email). Such a recipient thus sees a countdown that moves,
 * never the full time drawn anew at every open, and a flood of keys that fills a cap cannot freeze
 * later recipients at the full time. At most `OVERFLOW_TIMERS_MAX` timers hold an overflow deadline
 * at once, whatever a flood does; past that, the overflow deadline is the end of the current window
 * of the timer's own length counted from the Unix epoch: still a moving countdown, and the same in
 * every process, with nothing stored. Nothing that arrives later moves a stored entry. A full cap
 * is said in the log at most once a minute, since it is a limit being reached, not a fault.
 *
 * Every rule reads the clock it is given (`nowMs`), never the machine's; the sweep reads the
 * store's own clock (`now`).
 */
import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { openSqlite, transaction, type Database, type Row } from '../../process/sqlite.js'
import { Throttle } from '../../process/throttle.js'

export interface FirstOpenLimits {
  /** Keys kept per timer; a new key past it gets the timer's overflow deadline, unstored. */
  perTimer: number
  /** Keys kept in all, every timer together. */
  total: number
  /** How long an entry is kept after its deadline has passed, in ms (then forgotten). */
  keepAfterMs: number
}

export type FirstOpen =
  /** It already had one (`stored`: that deadline), or this call stored the candidate (`created`). */
  | { outcome: 'stored' | 'created'; deadline: number }
  /** Not stored: a cap was reached, or `mayCreate` declined. `deadline` is the timer's overflow deadline. */
  | { outcome: 'timer_full' | 'store_full' | 'declined'; deadline: number }

export type Preset = { outcome: 'created'; deadline: number } | { outcome: 'stored'; deadline: number } | { outcome: 'timer_full' | 'store_full' }

export interface FirstOpenStore {
  /** Where entries are kept, for the start-up line: 'Redis', or the SQLite file's path. */
  readonly where: string
  /** 'sqlite' is this machine's disk (lost where a deploy replaces it, unseen by other machines); 'redis' is shared by every process. */
  readonly kind: 'redis' | 'sqlite'
  /**
   * The deadline `key` of `timer` has; when it has none, `candidate` is stored and returned.
   * `candidate - nowMs` is the timer's own time, the same at every call for one timer.
   * `mayCreate` is asked only for a key without a deadline, before anything is written: false
   * stores nothing and answers `declined` with the timer's overflow deadline.
   * Concurrent calls for one key (in this process or in others sharing the store) all get one deadline.
   * `timer` and `key` are opaque ASCII strings the caller already made (keyed hashes, <= 64 chars): the store never sees raw recipient keys.
   */
  firstOpen(timer: string, key: string, candidate: number, nowMs: number, mayCreate?: () => boolean | Promise<boolean>): Promise<FirstOpen>
  /**
   * The deadline `key` of `timer` has, when it has one not yet forgotten; else null. A read only:
   * it never stores, and never gives the timer's overflow deadline. For keys stored under an
   * earlier reading of recipient keys, looked up before the key as read now is opened.
   */
  storedDeadline(timer: string, key: string, nowMs: number): Promise<number | null>
  /** Sets a key's deadline ahead of its first open (a shop's back end matching a coupon); never moves one already set. */
  preset(timer: string, key: string, deadline: number, nowMs: number): Promise<Preset>
  /** Entries kept now, every timer together (leaving out the forgotten, swept or not). */
  size(nowMs: number): Promise<number>
  close(): Promise<void>
}

/** A full timer, or a full store, is said in the log at most this often. */
const CAP_WARNING_INTERVAL_MS = 60_000
/** The longest timer or key name: a keyed hash, written out. */
const NAME_MAX = 64
/** Printable ASCII without spaces, as hashes and signatures are written. */
const NAME = /^[!-~]+$/
/** Timers holding an overflow deadline at once, at most; past them the overflow deadline is a window of the epoch. */
export const OVERFLOW_TIMERS_MAX = 10_000
/**
 * Forgotten entries (or overflow deadlines) deleted in one go, by the sweep or by a request at a
 * cap: one short write, however many a mass expiry left. Keys are keyed hashes, so each row
 * deleted sits on a page of its own: in SQLite about 20 µs and 5 KB of WAL a row (a batch of 100
 * took 2 ms at the median and 11 ms at the 99th percentile, 300 took 6 and 35 ms, on a file of
 * 500,000 entries on two busy vCPUs), held as the write lock and as this process's event loop.
 */
export const FORGET_BATCH = 100
/**
 * How soon the sweep runs again while its batch came back full (and first after the store opens):
 * a mass expiry goes at 1,000 entries a second per process, holding SQLite's write lock about 2%
 * of the time and writing about 5 MB of WAL a second, less than 500 first opens a second do.
 */
const FORGET_AGAIN_MS = 100
/**
 * The window of a full timer's keys read for its own forgotten entries, when none of them are
 * among the store's oldest (SQLite): this many keys from the claimed key on, and as many from the
 * timer's first key, about 0.15 ms when none is forgotten. Read at most once per FORGET_AGAIN_MS
 * per timer, so that a flood of new keys at a full timer does not read it at every claim.
 */
const TIMER_WINDOW_KEYS = 500
/** How often the sweep looks for forgotten entries while there are fewer than a batch. */
const FORGET_INTERVAL_MS = 60_000

/** What a backend's claim did: found or stored the key's deadline, or stored nothing (with the timer's overflow deadline when asked, null when none could be kept). */
type Claimed = { outcome: 'stored' | 'created'; deadline: number } | { outcome: 'timer_full' | 'store_full' | 'declined'; overflow: number | null }

/** What a claim is for: a first open (overflow at a cap), a preset (no overflow), or a declined first open (stores no entry). */
type ClaimFor = 'open' | 'preset' | 'decline'

/** What one backend does. */
interface Backend {
  where: string
  kind: FirstOpenStore['kind']
  /** The key's deadline when it has one not yet forgotten, read without any write. */
  deadlineOf(timer: string, key: string, nowMs: number): Promise<number | null>
  /** The timer's overflow deadline when it has one not yet forgotten, read without any write. */
  overflowOf(timer: string, nowMs: number): Promise<number | null>
  /** In one write: the key's deadline if it has one; else `deadline` stored, unless declined or a cap is reached. */
  claim(timer: string, key: string, deadline: number, nowMs: number, claimFor: ClaimFor): Promise<Claimed>
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

/**
 * The overflow deadline kept nowhere: the end of the current window of the timer's own length,
 * counted from the Unix epoch. It moves as a countdown does and every process works out the same.
 */
function windowDeadline(candidate: number, nowMs: number): number {
  const forMs = Math.round(candidate - nowMs)
  if (forMs < 1) return candidate
  return Math.ceil((nowMs + 1) / forMs) * forMs
}

/** A limit reached: a timer's cap, the store's, or the number of timers that may hold an overflow deadline. */
type Limit = 'timer_full' | 'store_full' | 'overflow_full'

/** Says a full timer at most once a minute per timer, and each other limit at most once a minute. */
function limitWarnings(logger: Logger, limits: FirstOpenLimits, where: string) {
  const warnings = new Throttle(CAP_WARNING_INTERVAL_MS)
  // Throttled by name: a timer's own, or one no timer has (a timer has no colon).
  return (limit: Limit, timer: string, nowMs: number) => {
    if (!warnings.allow(nowMs, limit === 'timer_full' ? timer : `:${limit}`)) return
    if (limit === 'timer_full') {
      logger.warn({ timer, perTimer: limits.perTimer, store: where }, "live timers: an evergreen timer keeps as many recipients as it may; new ones share the timer's overflow deadline, unstored")
    } else if (limit === 'store_full') {
      logger.warn({ total: limits.total, store: where }, "live timers: the first-open store is full; new recipients of evergreen timers share their timer's overflow deadline, unstored, until entries are forgotten")
    } else {
      logger.warn({ timers: OVERFLOW_TIMERS_MAX, store: where }, "live timers: as many timers as may hold an overflow deadline hold one; unstored recipients of others are shown the end of the current window of their timer's time")
    }
  }
}

/** The rules both backends share: the checks of what comes in, the order of a first open, the overflow deadline and the warnings of limits reached. */
function storeWithRules(backend: Backend, limits: FirstOpenLimits, logger: Logger): FirstOpenStore {
  const warn = limitWarnings(logger, limits, backend.where)
  const check = (timer: string, key: string, deadline: number, nowMs: number, what: string) => {
    checkName(timer, 'timer')
    checkName(key, 'key')
    checkDeadline(deadline, what)
    checkNow(nowMs)
  }
  /** A declined key: its deadline when one was stored meanwhile, else the overflow deadline, read when kept, claimed when not. */
  const decline = async (timer: string, key: string, candidate: number, nowMs: number): Promise<Claimed> => {
    const [stored, overflow] = await Promise.all([backend.deadlineOf(timer, key, nowMs), backend.overflowOf(timer, nowMs)])
    if (stored !== null) return { outcome: 'stored', deadline: stored }
    if (overflow !== null) return { outcome: 'declined', overflow }
    return backend.claim(timer, key, candidate, nowMs, 'decline')
  }
  return {
    where: backend.where,
    kind: backend.kind,
    async firstOpen(timer, key, candidate, nowMs, mayCreate) {
      check(timer, key, candidate, nowMs, 'candidate')
      const stored = await backend.deadlineOf(timer, key, nowMs)
      if (stored !== null) return { outcome: 'stored', deadline: stored }
      const claimed = mayCreate && !(await mayCreate()) ? await decline(timer, key, candidate, nowMs) : await backend.claim(timer, key, candidate, nowMs, 'open')
      if ('deadline' in claimed) return claimed
      if (claimed.outcome !== 'declined') warn(claimed.outcome, timer, nowMs)
      if (claimed.overflow !== null) return { outcome: claimed.outcome, deadline: claimed.overflow }
      warn('overflow_full', timer, nowMs)
      return { outcome: claimed.outcome, deadline: windowDeadline(candidate, nowMs) }
    },
    async storedDeadline(timer, key, nowMs) {
      checkName(timer, 'timer')
      checkName(key, 'key')
      checkNow(nowMs)
      return backend.deadlineOf(timer, key, nowMs)
    },
    async preset(timer, key, deadline, nowMs) {
      check(timer, key, deadline, nowMs, 'deadline')
      const claimed = await backend.claim(timer, key, deadline, nowMs, 'preset')
      if ('deadline' in claimed) return claimed
      if (claimed.outcome === 'declined') throw new Error('a preset is never declined')
      warn(claimed.outcome, timer, nowMs)
      return { outcome: claimed.outcome }
    },
    async size(nowMs) {
      checkNow(nowMs)
      return backend.size(nowMs)
    },
    close: () => backend.close(),
  }
}

/**
 * Runs `sweepOnce` off the request path, on an unref'd timer: again soon while it says so (more
 * are left, or it skipped its round), otherwise once a minute, until the returned function stops it.
 */
function startSweeping(sweepOnce: () => boolean | Promise<boolean>, logger: Logger, where: string): () => void {
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  const after = (delayMs: number) => {
    if (stopped) return
    timer = setTimeout(sweep, delayMs)
    timer.unref()
  }
  const sweep = async () => {
    let more = false
    try {
      more = await sweepOnce()
    } catch (error) {
      // Tried again in a minute: at most one warning a minute.
      if (!stopped) logger.warn({ err: error, store: where }, 'live timers: the first-open store could not delete forgotten entries')
    }
    after(more ? FORGET_AGAIN_MS : FORGET_INTERVAL_MS)
  }
  after(FORGET_AGAIN_MS)
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}

/** Waited on while opening the file: another process may hold it while this one sets it up. */
const SQLITE_OPEN_BUSY_TIMEOUT_MS = 5_000
/**
 * How long one try of a write waits, inside the driver, for another process's write to end. The
 * driver is synchronous, so this wait holds the event loop; reads never wait on it (WAL). A claim
 * holds the file 0.04 ms at the median and 0.3 ms at the 99th percentile, a sweep batch 2 ms at
 * the median (see FORGET_BATCH); two processes at 1,000 opens a second in all, both sweeping,
 * held it 1 to 5% of the time (scripts/lib/bench-first-open-store.ts). SQLite tries at 0, 1 and
 * 3 ms, so one try outlasts a claim or a typical batch; a longer hold (a burst of new keys in the
 * other process, a writer descheduled on a busy machine: up to 57 ms seen) is waited out between
 * tries, with the event loop free, rather than inside one.
 */
const SQLITE_BUSY_TIMEOUT_MS = 3
/**
 * A process opening many new keys at once writes them back to back, holding the file nearly all
 * of the time: another process's try of 3 ms rarely finds it free. So a write that finds the file
 * busy tries again after this pause, which leaves the event loop to other requests, for up to
 * SQLITE_WRITE_WAIT_MS from when it was asked for; and this store's writes go one transaction at
 * a time, so that only one try at a time holds the event loop waiting.
 */
const SQLITE_WRITE_RETRY_MS = 2
/**
 * How long a write may wait for the file in all before its call fails (the caller shows the full
 * time). It is counted from when the write was asked for, not from when its turn came: while the
 * last try found the file locked, a write past it fails without a try of its own, so a long lock
 * held elsewhere costs this process one try at a time, never one for each write queued behind it.
 * When the last try found the file free, a late write is still tried: it will not wait.
 */
const SQLITE_WRITE_WAIT_MS = 500
/**
 * Writes of one store waiting their turn (the one being tried among them), at most: past them a
 * write fails at once, as one that waited too long does. A lock held elsewhere fails what waited
 * SQLITE_WRITE_WAIT_MS anyway, so the queue holds the new keys of the last half second; the bound
 * only tells beyond 4,000 new keys a second in one process, a flood, whose writes then fail at
 * once rather than pile up. A thousand opens at once, with the sweep's write beside them, fit.
 */
export const SQLITE_WRITES_WAITING_MAX = 2_000
/**
 * Waiting writes settled in one turn of the event loop, at most: committed in one transaction
 * (one lock taken, and one commit, for all of them, so that a burst of new keys drains between
 * the holds of another process rather than one key per turn), or failed untried. A claim takes
 * about 20 µs inside the transaction, so a full batch holds the file about as long as a sweep
 * batch (see FORGET_BATCH); and the requests of a batch go on with their answers together.
 */
const SQLITE_WRITE_BATCH = 50
/** How often the WAL is checkpointed into the database file. */
const SQLITE_CHECKPOINT_INTERVAL_MS = 1_000
/** What the WAL is cut back to after a checkpoint. */
const SQLITE_WAL_LIMIT_BYTES = 4 * 2 ** 20

/**
 * The counts are kept by triggers in the transaction that adds or deletes an entry (or an overflow
 * deadline), so a cap is checked in O(log n) and can never drift from the rows, whichever process
 * wrote them.
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
  CREATE TABLE IF NOT EXISTS first_opens_overflow (
    timer TEXT PRIMARY KEY,
    deadline INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS first_opens_overflow_by_deadline ON first_opens_overflow (deadline);
  CREATE TABLE IF NOT EXISTS first_opens_overflow_total (
    only INTEGER PRIMARY KEY CHECK (only = 1),
    timers INTEGER NOT NULL
  );
  INSERT OR IGNORE INTO first_opens_overflow_total (only, timers) VALUES (1, 0);
  CREATE TRIGGER IF NOT EXISTS first_opens_overflow_counted AFTER INSERT ON first_opens_overflow BEGIN
    UPDATE first_opens_overflow_total SET timers = timers + 1;
  END;
  CREATE TRIGGER IF NOT EXISTS first_opens_overflow_uncounted AFTER DELETE ON first_opens_overflow BEGIN
    UPDATE first_opens_overflow_total SET timers = timers - 1;
  END;
`

/** SQLITE_BUSY from either driver: another connection holds the file's write lock. */
function isBusy(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown }
  return (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) || (typeof errcode === 'number' && (errcode & 0xff) === 5)
}

/** A write asked of the SQLite store, waiting its turn. */
interface QueuedWrite {
  work: () => unknown
  /** performance.now() when it was asked for. */
  askedAt: number
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/** SQLITE_BUSY of a write that was not tried: the file stayed locked, or too many writes wait for it. */
function notWritten(message: string): Error {
  return Object.assign(new Error(message), { code: 'SQLITE_BUSY' })
}

/**
 * The writes of one SQLite store, in the order asked, a batch at a time, the event loop turning
 * before every batch, so that requests are answered while writes wait. A write that has waited
 * SQLITE_WRITE_WAIT_MS while the file is locked fails untried, and one asked for while
 * SQLITE_WRITES_WAITING_MAX wait fails at once. Up to SQLITE_WRITE_BATCH waiting writes are
 * committed together; should one of them fail for any reason but a lock (a full disk, a fault),
 * the whole transaction is undone and each of them fails.
 */
function sqliteWrites(db: Database) {
  const waiting: QueuedWrite[] = []
  let draining: Promise<void> | null = null
  let foundLocked = false

  const drain = async () => {
    try {
      while (waiting.length > 0) {
        await nextTurn()
        // While the file is found locked, the writes past their wait (the oldest, so the first
        // ones) fail untried, a batch a turn.
        const at = performance.now()
        const late = (queued: QueuedWrite | undefined) => foundLocked && queued !== undefined && at - queued.askedAt >= SQLITE_WRITE_WAIT_MS
        if (late(waiting[0])) {
          for (let failed = 0; failed < SQLITE_WRITE_BATCH && late(waiting[0]); failed++) {
            waiting.shift()!.reject(notWritten(`the first-open store's SQLite file stayed locked by another process for ${SQLITE_WRITE_WAIT_MS} ms`))
          }
          continue
        }
        const batch = waiting.slice(0, SQLITE_WRITE_BATCH)
        let results: unknown[]
        try {
          results = transaction(db, () => batch.map((queued) => queued.work()))
        } catch (error) {
          foundLocked = isBusy(error)
          if (foundLocked) {
            await sleep(SQLITE_WRITE_RETRY_MS)
            continue
          }
          waiting.splice(0, batch.length)
          for (const queued of batch) queued.reject(error)
          continue
        }
        foundLocked = false
        waiting.splice(0, batch.length)
        batch.forEach((queued, i) => queued.resolve(results[i]))
      }
    } finally {
      draining = null
    }
  }

  return {
    /** Runs `work` in a write transaction, after the writes asked for before it. */
    write<T>(work: () => T): Promise<T> {
      if (waiting.length >= SQLITE_WRITES_WAITING_MAX) {
        return Promise.reject(notWritten(`the first-open store has ${SQLITE_WRITES_WAITING_MAX} writes waiting for its SQLite file`))
      }
      return new Promise<T>((resolve, reject) => {
        waiting.push({ work, askedAt: performance.now(), resolve: resolve as (value: unknown) => void, reject })
        draining ??= drain()
      })
    },
    /** Writes waiting, the one being tried among them. */
    waiting: () => waiting.length,
    /** Resolves once no write waits. */
    async settled() {
      while (draining) await draining
    },
  }
}

/** A row's deadline when it is not yet forgotten at `keptFrom` (the oldest deadline still kept). */
function keptDeadline(row: Row | undefined, keptFrom: number): number | null {
  if (!row) return null
  const deadline = Number(row.deadline)
  return deadline >= keptFrom ? deadline : null
}

/**
 * Opens (creating it if need be) the first-open store's SQLite file, in WAL, with its schema, and
 * starts checkpointing it: the caller clears `checkpoints` before it closes `db`.
 */
function openFirstOpensFile(file: string, logger: Logger): { db: Database; checkpoints: NodeJS.Timeout } {
  mkdirSync(path.dirname(file), { recursive: true })
  const db = openSqlite(file)
  // busy_timeout first: another process may hold the file while this one switches it to WAL.
  // SQLite checkpoints the WAL into the file (with its fsyncs) inside whichever commit passes 1000
  // pages, which would stall that open and every request behind it for tens of milliseconds. Here
  // the WAL is checkpointed on a timer instead, between requests, without waiting on readers, and
  // cut back to a few megabytes after each checkpoint (it would otherwise keep its largest size).
  db.exec(`PRAGMA busy_timeout = ${SQLITE_OPEN_BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = ${SQLITE_WAL_LIMIT_BYTES};`)
  transaction(db, () => db.exec(SQLITE_SCHEMA))
  db.exec(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`)
  const checkpoints = setInterval(() => {
    try {
      db.exec('PRAGMA wal_checkpoint(PASSIVE)')
    } catch (error) {
      logger.warn({ err: error, file }, 'live timers: the first-open store could not checkpoint its WAL')
    }
  }, SQLITE_CHECKPOINT_INTERVAL_MS)
  checkpoints.unref()
  return { db, checkpoints }
}

/**
 * The statements of the SQLite store, prepared once, and the caps' rules written with them:
 * `capReached` and `overflowDeadline` run inside a claim's write transaction.
 */
function firstOpenStatements(db: Database, limits: FirstOpenLimits) {
  const entryOf = db.prepare('SELECT deadline FROM first_opens WHERE timer = ? AND key = ?')
  const overflowOf = db.prepare('SELECT deadline FROM first_opens_overflow WHERE timer = ?')
  const removeEntry = db.prepare('DELETE FROM first_opens WHERE timer = ? AND key = ?')
  const insertEntry = db.prepare('INSERT INTO first_opens (timer, key, deadline) VALUES (?, ?, ?)')
  const setOverflow = db.prepare('INSERT INTO first_opens_overflow (timer, deadline) VALUES (?, ?) ON CONFLICT (timer) DO UPDATE SET deadline = excluded.deadline')
  const timerEntries = db.prepare('SELECT entries FROM first_opens_per_timer WHERE timer = ?')
  const totalEntries = db.prepare('SELECT entries FROM first_opens_total')
  const overflowTimers = db.prepare('SELECT timers FROM first_opens_overflow_total')
  // One statement, so both counts come from one snapshot.
  const keptEntries = db.prepare('SELECT (SELECT entries FROM first_opens_total) - (SELECT count(*) FROM first_opens WHERE deadline < ?) AS entries')
  const forgetOldest = db.prepare(`DELETE FROM first_opens WHERE (timer, key) IN (SELECT timer, key FROM first_opens WHERE deadline < ? ORDER BY deadline LIMIT ${FORGET_BATCH})`)
  // A timer's forgotten entries among the oldest batch: the deadline index finds them without
  // reading the timer's other entries (up to `perTimer` of them).
  const forgetOfTimer = db.prepare(
    `DELETE FROM first_opens WHERE timer = ? AND key IN (SELECT key FROM (SELECT timer, key FROM first_opens WHERE deadline < ? ORDER BY deadline LIMIT ${FORGET_BATCH}) WHERE timer = ?)`,
  )
  // A timer's forgotten entries among a window of its keys, found on the primary key: from the key
  // being claimed on, then from the timer's first key (the window wraps round). Keys are keyed
  // hashes, so a window is a fair sample of the timer's keys, wherever the claimed key falls.
  const forgetInTimerWindow = db.prepare(
    `DELETE FROM first_opens WHERE timer = ? AND key IN (SELECT key FROM (
      SELECT * FROM (SELECT key, deadline FROM first_opens WHERE timer = ? AND key >= ? ORDER BY key LIMIT ${TIMER_WINDOW_KEYS})
      UNION ALL
      SELECT * FROM (SELECT key, deadline FROM first_opens WHERE timer = ? AND key < ? ORDER BY key LIMIT ${TIMER_WINDOW_KEYS})
    ) WHERE deadline < ? LIMIT ${FORGET_BATCH})`,
  )
  const timerWindows = new Throttle(FORGET_AGAIN_MS)
  const forgetOverflows = db.prepare(`DELETE FROM first_opens_overflow WHERE timer IN (SELECT timer FROM first_opens_overflow WHERE deadline < ? ORDER BY deadline LIMIT ${FORGET_BATCH})`)

  const fullness = (timer: string): 'timer_full' | 'store_full' | null => {
    if (Number(timerEntries.get(timer)?.entries ?? 0) >= limits.perTimer) return 'timer_full'
    if (Number(totalEntries.get()?.entries ?? 0) >= limits.total) return 'store_full'
    return null
  }
  /**
   * The cap a new entry of `key` would pass, if any, once a batch of forgotten entries has made
   * what room it can. A full timer none of whose entries are among the store's oldest forgotten
   * (its own expired after others') looks in a window of its keys, at most once per
   * FORGET_AGAIN_MS: on this process's clock, since it bounds work, not what a recipient is shown.
   */
  const capReached = (timer: string, key: string, keptFrom: number) => {
    const full = fullness(timer)
    if (!full) return null
    if (full === 'store_full') {
      forgetOldest.run(keptFrom)
    } else if (Number(forgetOfTimer.run(timer, keptFrom, timer).changes) === 0 && timerWindows.allow(performance.now(), timer)) {
      forgetInTimerWindow.run(timer, timer, key, timer, key, keptFrom)
    }
    return fullness(timer)
  }
  /** Inside a claim: the timer's overflow deadline, `candidate` when it has none still to come; null when too many timers hold one. */
  const overflowDeadline = (timer: string, candidate: number, nowMs: number): number | null => {
    const row = overflowOf.get(timer)
    const kept = keptDeadline(row, nowMs + 1)
    if (kept !== null) return kept
    if (!row && Number(overflowTimers.get()?.timers ?? 0) >= OVERFLOW_TIMERS_MAX) {
      forgetOverflows.run(nowMs + 1)
      if (Number(overflowTimers.get()?.timers ?? 0) >= OVERFLOW_TIMERS_MAX) return null
    }
    setOverflow.run(timer, candidate)
    return candidate
  }

  return { entryOf, overflowOf, removeEntry, insertEntry, keptEntries, forgetOldest, forgetOverflows, capReached, overflowDeadline }
}

/**
 * First opens in a SQLite file, shared by the processes of this machine that open it: a repeat
 * open is one read, which WAL never makes wait; a first open is one `BEGIN IMMEDIATE`
 * transaction, so two of them for one key never both store.
 */
export function sqliteFirstOpens(options: { file: string; limits: FirstOpenLimits; logger: Logger; now?: () => number }): FirstOpenStore {
  const { file, limits, logger } = options
  const now = options.now ?? Date.now
  const { db, checkpoints } = openFirstOpensFile(file, logger)
  const { entryOf, overflowOf, removeEntry, insertEntry, keptEntries, forgetOldest, forgetOverflows, capReached, overflowDeadline } = firstOpenStatements(db, limits)

  const writes = sqliteWrites(db)
  const { write } = writes

  const stopSweeping = startSweeping(
    () => {
      // Never behind a full queue: this round is skipped, and looked at again soon.
      if (writes.waiting() >= SQLITE_WRITES_WAITING_MAX) return true
      return write(() => {
        const at = now()
        const entries = Number(forgetOldest.run(at - limits.keepAfterMs).changes)
        const overflows = Number(forgetOverflows.run(at + 1).changes)
        return entries === FORGET_BATCH || overflows === FORGET_BATCH
      })
    },
    logger,
    file,
  )

  const backend: Backend = {
    where: file,
    kind: 'sqlite',
    // Outside any transaction: a read of the last commit, never waiting on a writer.
    deadlineOf: async (timer, key, nowMs) => keptDeadline(entryOf.get(timer, key), nowMs - limits.keepAfterMs),
    // An overflow deadline counts until it has passed.
    overflowOf: async (timer, nowMs) => keptDeadline(overflowOf.get(timer), nowMs + 1),
    async claim(timer, key, deadline, nowMs, claimFor) {
      const keptFrom = nowMs - limits.keepAfterMs
      return write((): Claimed => {
        const row = entryOf.get(timer, key)
        const stored = keptDeadline(row, keptFrom)
        if (stored !== null) return { outcome: 'stored', deadline: stored }
        if (claimFor === 'decline') return { outcome: 'declined', overflow: overflowDeadline(timer, deadline, nowMs) }
        // The forgotten entry of this key, which this open replaces.
        if (row) removeEntry.run(timer, key)
        const full = capReached(timer, key, keptFrom)
        if (!full) {
          insertEntry.run(timer, key, deadline)
          return { outcome: 'created', deadline }
        }
        return { outcome: full, overflow: claimFor === 'open' ? overflowDeadline(timer, deadline, nowMs) : null }
      })
    },
    size: async (nowMs) => Number(keptEntries.get(nowMs - limits.keepAfterMs)?.entries ?? 0),
    async close() {
      stopSweeping()
      clearInterval(checkpoints)
      await writes.settled()
      db.close()
    },
  }
  return storeWithRules(backend, limits, logger)
}

/**
 * Deletes forgotten entries named `timer:key` (at most a batch) from the all-timers set and from
 * their timers' sets, which are named after the all-timers set and share its hash tag.
 */
const REDIS_FORGET_ENTRIES = `
local function forgetEntries(allSet, names)
  for _, name in ipairs(names) do
    local colon = string.find(name, ':', 1, true)
    redis.call('ZREM', allSet .. ':' .. string.sub(name, 1, colon - 1), string.sub(name, colon + 1))
  end
  if #names > 0 then redis.call('ZREM', allSet, unpack(names)) end
  return #names
end
`

/**
 * One claim, whole, in Redis. KEYS: the timer's entries (key, scored by its deadline), every
 * timer's (`timer:key`, the same score), and the overflow deadlines (timer, scored by it): a cap
 * is a ZCARD, forgetting a range of scores. ARGV: timer, key, deadline, the oldest deadline still
 * kept, the caps, the batch, how long the sets must live for this entry (raised, never lowered,
 * so an idle timer's set disappears once all its entries are forgotten), what the claim is for,
 * and the earliest overflow deadline still to come.
 */
const REDIS_CLAIM = `${REDIS_FORGET_ENTRIES}
local timerSet, allSet, overflowSet = KEYS[1], KEYS[2], KEYS[3]
local timer, key, deadline, keptFrom = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local perTimer, total, overflowMax, batch = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local lifetime, claimFor, overflowFrom = tonumber(ARGV[9]), ARGV[10], ARGV[11]
local function kept(score) return score and tonumber(score) >= tonumber(keptFrom) end
local function liveFor(set)
  if redis.call('PTTL', set) < lifetime then redis.call('PEXPIRE', set, lifetime) end
end
local forgotten = '(' .. keptFrom
local stored = redis.call('ZSCORE', timerSet, key)
if kept(stored) then return {'stored', stored} end
local full = 'declined'
if claimFor ~= 'decline' then
  -- The forgotten entry of this key, which this open replaces.
  if stored then forgetEntries(allSet, {timer .. ':' .. key}) end
  -- A cap counts the entries not yet swept: at one, a batch of the forgotten goes first.
  full = nil
  if redis.call('ZCARD', timerSet) >= perTimer then
    local keys = redis.call('ZRANGEBYSCORE', timerSet, '-inf', forgotten, 'LIMIT', 0, batch)
    for i, forgottenKey in ipairs(keys) do keys[i] = timer .. ':' .. forgottenKey end
    forgetEntries(allSet, keys)
    if redis.call('ZCARD', timerSet) >= perTimer then full = 'timer_full' end
  end
  if not full and redis.call('ZCARD', allSet) >= total then
    forgetEntries(allSet, redis.call('ZRANGEBYSCORE', allSet, '-inf', forgotten, 'LIMIT', 0, batch))
    if redis.call('ZCARD', allSet) >= total then full = 'store_full' end
  end
  if not full then
    redis.call('ZADD', timerSet, deadline, key)
    redis.call('ZADD', allSet, deadline, timer .. ':' .. key)
    liveFor(timerSet)
    liveFor(allSet)
    return {'created', deadline}
  end
  if claimFor == 'preset' then return {full} end
end
local overflow = redis.call('ZSCORE', overflowSet, timer)
if overflow and tonumber(overflow) >= tonumber(overflowFrom) then return {full, overflow} end
if not overflow and redis.call('ZCARD', overflowSet) >= overflowMax then
  local timers = redis.call('ZRANGEBYSCORE', overflowSet, '-inf', '(' .. overflowFrom, 'LIMIT', 0, batch)
  if #timers > 0 then redis.call('ZREM', overflowSet, unpack(timers)) end
  if redis.call('ZCARD', overflowSet) >= overflowMax then return {full} end
end
redis.call('ZADD', overflowSet, deadline, timer)
liveFor(overflowSet)
return {full, deadline}
`

/** One batch of the sweep: KEYS the all-timers set and the overflow deadlines; ARGV the oldest deadline kept, the batch and the earliest overflow deadline still to come. */
const REDIS_SWEEP = `${REDIS_FORGET_ENTRIES}
local allSet, overflowSet = KEYS[1], KEYS[2]
local forgotten, batch = '(' .. ARGV[1], tonumber(ARGV[2])
local entries = forgetEntries(allSet, redis.call('ZRANGEBYSCORE', allSet, '-inf', forgotten, 'LIMIT', 0, batch))
local timers = redis.call('ZRANGEBYSCORE', overflowSet, '-inf', '(' .. ARGV[3], 'LIMIT', 0, batch)
if #timers > 0 then redis.call('ZREM', overflowSet, unpack(timers)) end
return {entries, #timers}
`
/** Added to a set's lifetime: the clocks of the processes sharing Redis differ by a little. */
const REDIS_LIFETIME_MARGIN_MS = 60_000

const sha1 = (script: string) => createHash('sha1').update(script).digest('hex')
const REDIS_SCRIPTS = { claim: { body: REDIS_CLAIM, sha: sha1(REDIS_CLAIM) }, sweep: { body: REDIS_SWEEP, sha: sha1(REDIS_SWEEP) } }

/**
 * First opens in Redis, shared by every process connected to it. The connection is the caller's;
 * when Redis is away or slow, calls reject (the caller shows the full time meanwhile).
 */
export function redisFirstOpens(options: { redis: Redis; limits: FirstOpenLimits; logger: Logger; prefix?: string; now?: () => number }): FirstOpenStore {
  const { redis, limits, logger } = options
  const now = options.now ?? Date.now
  const prefix = options.prefix ?? 'lt:'
  // One hash tag for every key, so that a Redis Cluster keeps them together for the scripts.
  const allSet = `${prefix}{first-opens}`
  const timerSet = (timer: string) => `${allSet}:${timer}`
  // Not `${allSet}:…`, which a timer could name.
  const overflowSet = `${allSet}-overflow`

  const run = async (script: keyof typeof REDIS_SCRIPTS, keys: string[], args: (string | number)[]): Promise<unknown[]> => {
    const { body, sha } = REDIS_SCRIPTS[script]
    try {
      return (await redis.evalsha(sha, keys.length, ...keys, ...args)) as unknown[]
    } catch (error) {
      // Redis forgets scripts when it restarts: the first call after sends it whole.
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error
      return (await redis.eval(body, keys.length, ...keys, ...args)) as unknown[]
    }
  }
  const kept = (score: string | null, nowMs: number) => (score !== null && Number(score) >= nowMs - limits.keepAfterMs ? Number(score) : null)

  const stopSweeping = startSweeping(
    async () => {
      const at = now()
      const [entries, overflows] = (await run('sweep', [allSet, overflowSet], [at - limits.keepAfterMs, FORGET_BATCH, at + 1])) as number[]
      return entries === FORGET_BATCH || overflows === FORGET_BATCH
    },
    logger,
    'Redis',
  )

  const backend: Backend = {
    where: 'Redis',
    kind: 'redis',
    deadlineOf: async (timer, key, nowMs) => kept(await redis.zscore(timerSet(timer), key), nowMs),
    // An overflow deadline counts until it has passed.
    overflowOf: async (timer, nowMs) => {
      const score = await redis.zscore(overflowSet, timer)
      return score !== null && Number(score) > nowMs ? Number(score) : null
    },
    async claim(timer, key, deadline, nowMs, claimFor) {
      const keptFrom = nowMs - limits.keepAfterMs
      const lifetime = Math.max(1, Math.ceil(deadline + limits.keepAfterMs - nowMs)) + REDIS_LIFETIME_MARGIN_MS
      const args = [timer, key, deadline, keptFrom, limits.perTimer, limits.total, OVERFLOW_TIMERS_MAX, FORGET_BATCH, lifetime, claimFor, nowMs + 1]
      const [outcome, score] = (await run('claim', [timerSet(timer), allSet, overflowSet], args)) as [string, string | undefined]
      if (outcome === 'stored' || outcome === 'created') return { outcome, deadline: Number(score) }
      if (outcome === 'timer_full' || outcome === 'store_full' || outcome === 'declined') return { outcome, overflow: score === undefined ? null : Number(score) }
      throw new Error(`the first-open script answered ${String(outcome)}`)
    },
    size: async (nowMs) => redis.zcount(allSet, nowMs - limits.keepAfterMs, '+inf'),
    // The connection is the caller's to close.
    async close() {
      stopSweeping()
    },
  }
  return storeWithRules(backend, limits, logger)
}
