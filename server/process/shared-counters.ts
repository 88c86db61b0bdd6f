/**
 * Counts that every process of the site must share: the per-address limits and the per-email
 * log-in delay. With REDIS_URL they live in Redis, so N processes give an address the stated
 * budget once (and a restart forgets nothing); without it, in this process's memory.
 *
 * Redis that goes away never takes the site down: each count falls back to this process's own
 * memory (an address then gets the budget once per process, not without limit), one warning is
 * logged per interval, and the shared counts are used again as soon as Redis answers.
 */
import type { Dependency } from './readiness.js'
import { createHash } from 'node:crypto'
import { MemoryStore, type IncrementResponse, type Options, type Store } from 'express-rate-limit'
import { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { RedisStore } from 'rate-limit-redis'

/** How often an outage is written to the log while it lasts. */
export const OUTAGE_LOG_INTERVAL_MS = 30_000
/** A Redis that does not answer in this long counts as away for that request. */
const COMMAND_TIMEOUT_MS = 500

export interface SharedCounters {
  readonly redis: Redis
  /** An express-rate-limit store for one named limit, shared through Redis, local while it is away. */
  rateLimitStore(name: string): Store
  /** Runs `shared`; when Redis fails, notes the outage and runs `local` instead. */
  orLocal<T>(shared: () => Promise<T>, local: () => T | Promise<T>): Promise<T>
  close(): Promise<void>
}

/** Logs the first failure of an outage and then one summary per interval; says when it is over. */
class OutageLog {
  private failures = 0
  private lastLogged = 0
  private down = false

  constructor(
    private readonly logger: Logger,
    private readonly now = Date.now,
  ) {}

  failed(error: unknown) {
    this.failures++
    const now = this.now()
    if (!this.down || now - this.lastLogged >= OUTAGE_LOG_INTERVAL_MS) {
      this.logger.warn({ err: error, failures: this.failures }, 'shared counters (Redis) unavailable: counting in this process')
      this.lastLogged = now
      this.failures = 0
    }
    this.down = true
  }

  recovered() {
    if (!this.down) return
    this.down = false
    this.logger.info('shared counters (Redis) back: counting across processes again')
  }
}

/**
 * rate-limit-redis loads its scripts once, when the limiter starts; if Redis is away then, that
 * failure would stick. A script's id is its SHA-1, so a load that fails answers with the id it
 * would have had: the first call after Redis returns gets NOSCRIPT, and the store loads it then.
 */
function sendCommand(redis: Redis) {
  return async (command: string, ...args: string[]) => {
    if (command.toUpperCase() === 'SCRIPT' && args[0]?.toUpperCase() === 'LOAD' && args[1] !== undefined) {
      try {
        return (await redis.call(command, ...args)) as string
      } catch {
        return createHash('sha1').update(args[1]).digest('hex')
      }
    }
    return redis.call(command, ...args) as Promise<never>
  }
}

/** Redis first; this process's own memory while Redis fails. */
class SharedOrLocalStore implements Store {
  private readonly local = new MemoryStore()
  readonly localKeys = false

  constructor(
    private readonly shared: RedisStore,
    private readonly counters: Pick<SharedCounters, 'orLocal'>,
  ) {}

  get prefix() {
    return this.shared.prefix
  }

  init(options: Options) {
    this.shared.init(options)
    this.local.init(options)
  }

  increment(key: string): Promise<IncrementResponse> {
    return this.counters.orLocal(
      () => this.shared.increment(key),
      () => this.local.increment(key),
    )
  }

  decrement(key: string): Promise<void> {
    return this.counters.orLocal(
      () => this.shared.decrement(key),
      () => this.local.decrement(key),
    )
  }

  resetKey(key: string): Promise<void> {
    return this.counters.orLocal(
      () => this.shared.resetKey(key),
      () => this.local.resetKey(key),
    )
  }

  shutdown() {
    this.local.shutdown()
  }
}

export function connectSharedCounters(url: string, logger: Logger): SharedCounters {
  const outages = new OutageLog(logger)
  const redis = new Redis(url, {
    // Fail at once while disconnected, rather than queue: a request never waits for Redis.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    // Keep trying to come back, at most every two seconds.
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  })
  redis.on('error', (error) => outages.failed(error))
  redis.on('ready', () => outages.recovered())

  const counters: SharedCounters = {
    redis,
    rateLimitStore(name) {
      return new SharedOrLocalStore(new RedisStore({ sendCommand: sendCommand(redis), prefix: `rl:${name}:` }), counters)
    },
    async orLocal(shared, local) {
      try {
        const result = await shared()
        outages.recovered()
        return result
      } catch (error) {
        outages.failed(error)
        return local()
      }
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect())
    },
  }
  return counters
}

/** Redis as `/readyz` reports it: the counts fall back to each process's memory while it is away. */
export function redisDependency(counters: SharedCounters): Dependency {
  return { name: 'redis', optional: true, reachable: async () => counters.redis.status === 'ready' }
}
