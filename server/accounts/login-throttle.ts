/**
 * Where consecutive failed log-ins per email are counted: the dashboard's database on one
 * machine, Redis when the site runs as several processes (falling back to the database while
 * Redis is away). The delay they cause is worked out by Accounts.
 */
import type { SharedCounters } from '../process/shared-counters.js'
import type { Database } from '../dashboard/db.js'

export interface FailedLogins {
  failures: number
  lastFailedAt: number
}

export interface LoginThrottleStore {
  read(emailHash: string): Promise<FailedLogins | null>
  noteFailure(emailHash: string, at: number): Promise<void>
  clear(emailHash: string): Promise<void>
}

export function databaseThrottle(db: Database): LoginThrottleStore {
  return {
    async read(emailHash) {
      const row = db.prepare('SELECT failures, last_failed_at FROM login_throttle WHERE email_hash = ?').get(emailHash)
      return row ? { failures: Number(row.failures), lastFailedAt: Number(row.last_failed_at) } : null
    },
    async noteFailure(emailHash, at) {
      db.prepare(
        `INSERT INTO login_throttle (email_hash, failures, last_failed_at) VALUES (?, 1, ?)
         ON CONFLICT (email_hash) DO UPDATE SET failures = failures + 1, last_failed_at = excluded.last_failed_at`,
      ).run(emailHash, at)
    },
    async clear(emailHash) {
      db.prepare('DELETE FROM login_throttle WHERE email_hash = ?').run(emailHash)
    },
  }
}

/** A run of failures is forgotten a day after the last one (the delay stops growing at 5 minutes). */
const FAILURES_KEPT_MS = 24 * 60 * 60_000

export function sharedThrottle(counters: SharedCounters, local: LoginThrottleStore): LoginThrottleStore {
  const key = (emailHash: string) => `lt:${emailHash}`
  return {
    read: (emailHash) =>
      counters.orLocal(
        async () => {
          const [failures, last] = await counters.redis.hmget(key(emailHash), 'failures', 'last')
          return failures ? { failures: Number(failures), lastFailedAt: Number(last) } : null
        },
        () => local.read(emailHash),
      ),
    noteFailure: (emailHash, at) =>
      counters.orLocal(
        async () => {
          await counters.redis.multi().hincrby(key(emailHash), 'failures', 1).hset(key(emailHash), 'last', at).pexpire(key(emailHash), FAILURES_KEPT_MS).exec()
        },
        () => local.noteFailure(emailHash, at),
      ),
    clear: (emailHash) =>
      counters.orLocal(
        async () => {
          await counters.redis.del(key(emailHash))
          // A success also clears what was counted here while Redis was away.
          await local.clear(emailHash)
        },
        () => local.clear(emailHash),
      ),
  }
}
