/**
 * What the first-open store of evergreen live timers costs, measured on its own (no HTTP, no
 * drawing): each function returns its figures and one line of text for scripts/bench-live-timers.ts.
 *
 * - `sqliteEntryBytes`, `redisEntryBytes`: the bytes one entry costs, with names as long as real
 *   ones (timer ids of 16 characters, recipient keys of 22 base64url characters).
 * - `twoProcessesOnOneFile`: two processes of a machine on one SQLite file, each opening its share
 *   at a steady rate, half of them repeats of keys already stored, while both sweep a backlog of
 *   forgotten entries: the latency of an open, each process's event-loop delay, and how long the
 *   file's write lock was held at a stretch (what a write of either waits for at most).
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'
import { pino } from 'pino'
import { redisFirstOpens, sqliteFirstOpens, type FirstOpenLimits, type FirstOpenStore } from '../../server/giffer/live/first-opens.js'
import { openSqlite } from '../../server/process/sqlite.js'
import type { LoadFigures, Spread } from '../../tests/support/first-open-process.js'
import { runFirstOpenProcesses } from '../../tests/support/first-open-processes.js'
import { startRedis } from '../../tests/support/redis.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** Entries stored to weigh one. */
const WEIGHED_ENTRIES = 100_000
/** The timers they are spread over. */
const WEIGHED_TIMERS = 10
/** Far above what any measure here stores: no cap is reached. */
const UNCAPPED: FirstOpenLimits = { perTimer: 10_000_000, total: 10_000_000, keepAfterMs: 30 * DAY }
const logger = pino({ level: 'silent' })

/** A timer id as the image service makes one: the first 16 characters of a base64url signature. */
const timerId = () => randomBytes(12).toString('base64url')
/** A recipient key as the image service keeps one: a keyed hash, 22 base64url characters. */
const recipientKey = () => randomBytes(16).toString('base64url').slice(0, 22)

/** Stores `count` new keys over `timers` timers, a thousand at a time, letting the store's timers (the WAL checkpoint) run in between. */
async function storeEntries(store: FirstOpenStore, count: number, timers: string[], nowMs: number, forMs: number): Promise<string[]> {
  const keys: string[] = []
  for (let from = 0; from < count; from += 1_000) {
    const chunk = Array.from({ length: Math.min(1_000, count - from) }, recipientKey)
    const opened = await Promise.all(chunk.map((key, i) => store.firstOpen(timers[(from + i) % timers.length]!, key, nowMs + forMs, nowMs)))
    if (opened.some((open) => open.outcome !== 'created')) throw new Error('a key meant to be stored was not')
    keys.push(...chunk)
    await nextTurn()
  }
  return keys
}

export interface EntryBytes {
  bytesPerEntry: number
  line: string
}

/** The SQLite file's size after `WEIGHED_ENTRIES` entries, checkpointed (the store closed), per entry. */
export async function sqliteEntryBytes(): Promise<EntryBytes> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'first-open-bytes-'))
  try {
    const file = path.join(dir, 'live-timers.sqlite')
    const store = sqliteFirstOpens({ file, limits: UNCAPPED, logger })
    await storeEntries(store, WEIGHED_ENTRIES, Array.from({ length: WEIGHED_TIMERS }, timerId), Date.now(), DAY)
    // The last connection to close checkpoints the whole WAL into the file and removes it.
    await store.close()
    const bytesPerEntry = (await stat(file)).size / WEIGHED_ENTRIES
    return { bytesPerEntry, line: `first-open store, SQLite: ${bytesPerEntry.toFixed(0)} bytes per entry (file size after ${WEIGHED_ENTRIES.toLocaleString('en')} entries over ${WEIGHED_TIMERS} timers, checkpointed)` }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Redis's `used_memory` grown by `WEIGHED_ENTRIES` entries, per entry, in a throwaway Redis. */
export async function redisEntryBytes(): Promise<EntryBytes> {
  const server = await startRedis()
  const redis = new Redis(server.url)
  try {
    const usedMemory = async () => Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))?.[1] ?? NaN)
    const store = redisFirstOpens({ redis, limits: UNCAPPED, logger })
    // The scripts loaded first, so that only entries count.
    await store.firstOpen(timerId(), recipientKey(), Date.now() + DAY, Date.now())
    await redis.flushdb()
    const before = await usedMemory()
    await storeEntries(store, WEIGHED_ENTRIES, Array.from({ length: WEIGHED_TIMERS }, timerId), Date.now(), DAY)
    const bytesPerEntry = ((await usedMemory()) - before) / WEIGHED_ENTRIES
    await store.close()
    return { bytesPerEntry, line: `first-open store, Redis: ${bytesPerEntry.toFixed(0)} bytes per entry (used_memory grown by ${WEIGHED_ENTRIES.toLocaleString('en')} entries over ${WEIGHED_TIMERS} timers)` }
  } finally {
    redis.disconnect()
    await server.stop()
  }
}

export interface TwoProcessesOptions {
  /** Opens per second of both processes together. */
  perSecond: number
  seconds: number
  /** Keys stored before, that half of the opens repeat. */
  storedKeys: number
  /** Entries already forgotten when the processes start, which their sweeps delete meanwhile. */
  forgottenEntries: number
}

export interface WriteLockFigures {
  /** The share of tries that found the file held by a writer. */
  heldShare: number
  /** The longest stretch, in ms, in which every try found it held. */
  longestHeldMs: number
}

export interface TwoProcessesFigures {
  options: TwoProcessesOptions
  processes: LoadFigures[]
  writeLock: WriteLockFigures
  /** Forgotten entries the sweeps deleted while the processes ran. */
  swept: number
  lines: string[]
}

const TWO_PROCESSES: TwoProcessesOptions = { perSecond: 1_000, seconds: 20, storedKeys: 20_000, forgottenEntries: 60_000 }

/**
 * Tries to take the file's write lock, without waiting, about once a millisecond until `stop`
 * says so: how often a writer held it, and the longest stretch in which every try found it held
 * (to within the millisecond between tries). Each try holds the lock a few microseconds itself.
 */
async function watchWriteLock(file: string, stop: () => boolean): Promise<WriteLockFigures> {
  const db = openSqlite(file)
  db.exec('PRAGMA busy_timeout = 0')
  let tries = 0
  let held = 0
  let heldSince: number | null = null
  let longestHeldMs = 0
  while (!stop()) {
    tries++
    const at = performance.now()
    try {
      db.exec('BEGIN IMMEDIATE')
      db.exec('ROLLBACK')
      heldSince = null
    } catch {
      held++
      heldSince ??= at
      longestHeldMs = Math.max(longestHeldMs, at - heldSince)
    }
    await sleep(1)
  }
  db.close()
  return { heldShare: held / tries, longestHeldMs }
}

const spreadText = ({ p50, p99, max }: Spread) => `p50 ${p50.toFixed(2)} / p99 ${p99.toFixed(2)} / max ${max.toFixed(1)} ms`

/**
 * Two processes on one SQLite file at `perSecond` opens in all (half each), half of them repeats
 * of stored keys, for `seconds`, while their sweeps delete `forgottenEntries` forgotten entries.
 */
export async function twoProcessesOnOneFile(options: TwoProcessesOptions = TWO_PROCESSES): Promise<TwoProcessesFigures> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'first-open-processes-'))
  try {
    const file = path.join(dir, 'live-timers.sqlite')
    const timer = timerId()
    const forMs = DAY
    const limits: FirstOpenLimits = { perTimer: 10_000_000, total: 10_000_000, keepAfterMs: HOUR }
    // Stored ahead, on the clock of the run (the stored keys) and on one long past (the forgotten);
    // the sweeps of this store are stopped before they reach the forgotten.
    const seeding = sqliteFirstOpens({ file, limits, logger })
    const storedKeys = await storeEntries(seeding, options.storedKeys, [timer], Date.now(), forMs)
    const longAgo = Date.now() - forMs - 2 * HOUR
    await seeding.close()
    const old = sqliteFirstOpens({ file, limits, logger, now: () => longAgo })
    await storeEntries(old, options.forgottenEntries, [timerId(), timerId(), timerId()], longAgo, forMs)
    await old.close()
    const counter = sqliteFirstOpens({ file, limits, logger, now: () => longAgo })
    /** Entries not yet deleted that were forgotten before the run. */
    const forgotten = async () => (await counter.size(longAgo)) - (await counter.size(Date.now()))
    const forgottenBefore = await forgotten()

    let running = true
    const lock = watchWriteLock(file, () => !running)
    const perProcess = options.perSecond / 2
    const command = (prefix: string) => ({ load: { perSecond: perProcess, seconds: options.seconds, repeats: storedKeys, prefix } })
    const setup = { store: { kind: 'sqlite' as const, file }, limits, offsetMs: 0, timer, forMs }
    const answers = await runFirstOpenProcesses([setup, setup], [command('first-'), command('second-')], (options.seconds + 60) * 1000).finally(() => (running = false))
    const writeLock = await lock
    const swept = forgottenBefore - (await forgotten())
    await counter.close()

    const processes = answers.map((answer) => ('load' in answer ? answer.load : null)).filter((figures) => figures !== null)
    const lines = [
      `first-open store, two processes on one SQLite file, ${options.perSecond} opens/s in all for ${options.seconds} s, half repeats, sweeping ${options.forgottenEntries.toLocaleString('en')} forgotten entries:`,
      ...processes.map(
        (figures, i) =>
          `  process ${i + 1}: ${figures.opens} opens (${figures.failed} failed); repeat ${spreadText(figures.repeat)}; first ${spreadText(figures.first)}; event-loop delay ${spreadText(figures.eventLoopDelay)}`,
      ),
      `  write lock held ${(writeLock.heldShare * 100).toFixed(1)}% of tries, longest stretch ${writeLock.longestHeldMs.toFixed(1)} ms; ${swept.toLocaleString('en')} forgotten entries swept meanwhile`,
    ]
    return { options, processes, writeLock, swept, lines }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
