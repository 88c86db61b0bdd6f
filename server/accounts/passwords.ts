/**
 * Password hashing with scrypt at N=2^17, r=8, p=1 (128 MiB and a few hundred milliseconds a
 * hash), or where the process's box cannot spare that much memory, one of the settings OWASP
 * lists as equally strong with less memory and more passes (N=2^16, p=2: 64 MiB; N=2^15, p=3:
 * 32 MiB…). The parameters travel in the stored string, `scrypt$17$8$1$salt$hash`, so the cost
 * can change while old hashes still verify. A hash is made again at log-in only when today's cost
 * is stronger than its own, never weaker: processes on boxes of different sizes would otherwise
 * rehash an account back and forth, and a move to a smaller box would quietly weaken them all.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import type { Logger } from 'pino'
import { ServiceBusyError } from '../process/errors.js'
import type { MemoryBudget } from '../process/memory-budget.js'

export interface ScryptCost {
  /** log2 of N, the CPU and memory cost. */
  logN: number
  r: number
  p: number
}

export const DEFAULT_COST: ScryptCost = { logN: 17, r: 8, p: 1 }
/** OWASP's scrypt settings of equal strength, most memory first: each halving of N adds passes. */
export const EQUAL_COSTS: readonly ScryptCost[] = [DEFAULT_COST, { logN: 16, r: 8, p: 2 }, { logN: 15, r: 8, p: 3 }, { logN: 14, r: 8, p: 5 }, { logN: 13, r: 8, p: 10 }]
const KEY_LENGTH = 32
const SALT_BYTES = 16

/** Memory one hash holds while it runs: 128 · N · r bytes. */
export const hashMemory = ({ logN, r }: ScryptCost) => 128 * 2 ** logN * r
/** What scrypt may allocate for one hash: its memory plus room. */
const maxmemFor = (cost: ScryptCost) => hashMemory(cost) + 32 * 1024 * 1024

/**
 * The strongest-in-memory of the equal settings whose hash takes at most half the memory budget,
 * so a log-in leaves room for what else runs; the least memory when even that is more.
 */
export function costForBudget(budgetBytes: number): ScryptCost {
  return EQUAL_COSTS.find((cost) => hashMemory(cost) <= budgetBytes / 2) ?? EQUAL_COSTS.at(-1)!
}

function scrypt(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** cost.logN, r: cost.r, p: cost.p, maxmem: maxmemFor(cost) }
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)))
  })
}

/**
 * Whether `a` is a stronger cost than `b`: more memory is stronger (memory is what makes scrypt
 * costly to attack in parallel); at equal memory, more passes.
 */
export function isStronger(a: ScryptCost, b: ScryptCost): boolean {
  const memoryA = hashMemory(a)
  const memoryB = hashMemory(b)
  return memoryA > memoryB || (memoryA === memoryB && a.r * a.p > b.r * b.p)
}

interface StoredHash {
  cost: ScryptCost
  salt: Buffer
  key: Buffer
}

/** The parts of `scrypt$logN$r$p$salt$hash`, or null for a string this code cannot read or would not run. */
function parseHash(stored: string): StoredHash | null {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null
  const [logN, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
  if (![logN, r, p].every(Number.isInteger) || logN < 10 || logN > 22 || r < 1 || r > 32 || p < 1 || p > 16) return null
  return { cost: { logN, r, p }, salt: Buffer.from(parts[4]!, 'base64url'), key: Buffer.from(parts[5]!, 'base64url') }
}

const MB = 2 ** 20
/** How long a hash may wait for its turn and its memory before the request gets 503. */
const WAIT_MS = 10_000
/** Seconds a visitor is told to wait when a hash cannot be checked here: an operator must act first. */
const TOO_LARGE_RETRY_SECONDS = 300

const busy = () => new ServiceBusyError('busy', 'Too many sign-ins at once. Try again in a moment.', 2)

export interface HasherOptions {
  /** Hashes at once; the rest wait their turn. */
  concurrency?: number
  queueMax?: number
  /** How long a hash may wait for its turn and its memory (10 s); then 503 busy. */
  waitMs?: number
  /**
   * The native memory hashes share with renders: a hash starts once its memory fits. A stored
   * hash whose memory is more than the whole budget (made on a bigger box) is not checked here.
   */
  budget?: MemoryBudget
  /** Where the operator is told of hashes this box cannot check. */
  logger?: Logger
}

/**
 * At most this many hashes at once (each holds its scrypt memory while it runs), each within the
 * memory budget; the rest wait their turn, up to a bounded queue and a deadline, beyond which the
 * request gets 503 with Retry-After.
 */
export class PasswordHasher {
  private running = 0
  private readonly waiting: (() => void)[] = []
  private dummy: Promise<string> | undefined
  private readonly concurrency: number
  private readonly queueMax: number
  private readonly waitMs: number
  private readonly budget: MemoryBudget | undefined
  private readonly logger: Logger | undefined
  /** Costs already warned about, so that each is written once, not at every log-in. */
  private readonly warned = new Set<string>()

  constructor(
    readonly cost: ScryptCost = DEFAULT_COST,
    { concurrency = 2, queueMax = 64, waitMs = WAIT_MS, budget, logger }: HasherOptions = {},
  ) {
    this.concurrency = concurrency
    this.queueMax = queueMax
    this.waitMs = waitMs
    this.budget = budget
    this.logger = logger
  }

  /**
   * A stored hash whose memory is more than this box's whole budget: checking it would take
   * memory the box does not have (a 128 MiB hash beside a site in 256 MB gets it killed). The
   * visitor gets a 503 that says to come back; the operator a warning naming what to change.
   */
  private tooLarge(cost: ScryptCost): ServiceBusyError {
    const key = `${cost.logN}$${cost.r}$${cost.p}`
    if (!this.warned.has(key)) {
      this.warned.add(key)
      const needs = Math.ceil(hashMemory(cost) / MB)
      const has = Math.floor((this.budget?.totalBytes ?? 0) / MB)
      this.logger?.warn(
        { scrypt: cost, needsMb: needs, budgetMb: has },
        `a password hash at scrypt N=2^${cost.logN}, r=${cost.r}, p=${cost.p} needs ${needs} MB and this process has ${has} MB for password hashes: ` +
          `the log-ins (or sign-ups) that need one answer 503. Give the process a larger box (the budget follows its memory: see the start-up line), ` +
          `or run the dashboard (npm run dashboard) on a box that holds it and point DASHBOARD_URL at it.`,
      )
    }
    return new ServiceBusyError('hash_too_large', 'Signing in to this account is not possible on this server right now. Please try again later.', TOO_LARGE_RETRY_SECONDS)
  }

  /** Waits for one of the `concurrency` turns, up to the queue's length and the deadline. */
  private takeTurn(deadline: AbortSignal): Promise<void> {
    if (this.running < this.concurrency) {
      this.running++
      return Promise.resolve()
    }
    if (this.waiting.length >= this.queueMax) return Promise.reject(busy())
    return new Promise((resolve, reject) => {
      const turn = () => {
        deadline.removeEventListener('abort', onDeadline)
        resolve()
      }
      const onDeadline = () => {
        this.waiting.splice(this.waiting.indexOf(turn), 1)
        reject(busy())
      }
      deadline.addEventListener('abort', onDeadline, { once: true })
      this.waiting.push(turn)
    })
  }

  /** Hands the turn to the next in line, or gives it back. */
  private passTurn(): void {
    const next = this.waiting.shift()
    if (next) next()
    else this.running--
  }

  private async slot<T>(cost: ScryptCost, work: () => Promise<T>): Promise<T> {
    const memory = hashMemory(cost)
    if (this.budget && !this.budget.canEverHold(memory)) throw this.tooLarge(cost)
    const deadline = AbortSignal.timeout(this.waitMs)
    await this.takeTurn(deadline)
    try {
      const release = await this.budget?.reserve(memory, deadline).catch((error: unknown) => {
        throw deadline.aborted ? busy() : error
      })
      try {
        return await work()
      } finally {
        release?.()
      }
    } finally {
      this.passTurn()
    }
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES)
    const key = await this.slot(this.cost, () => scrypt(password, salt, this.cost))
    const { logN, r, p } = this.cost
    return `scrypt$${logN}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`
  }

  /**
   * Whether the password matches the stored hash; false for a hash this code cannot read. A hash
   * too large for this box's memory is not checked: 503 `hash_too_large`, with Retry-After.
   */
  async verify(password: string, stored: string): Promise<boolean> {
    const parsed = parseHash(stored)
    if (!parsed) return false
    const key = await this.slot(parsed.cost, () => scrypt(password, parsed.salt, parsed.cost))
    return key.length === parsed.key.length && timingSafeEqual(key, parsed.key)
  }

  /** Whether today's cost is stronger than the hash's own, so it should be made again. */
  needsRehash(stored: string): boolean {
    const parsed = parseHash(stored)
    return parsed !== null && isStronger(this.cost, parsed.cost)
  }

  /**
   * Verifies against a hash of a random password: an unknown email then costs what a known one
   * costs, so the answer's timing does not tell whether an account exists.
   */
  async verifyDummy(password: string): Promise<void> {
    this.dummy ??= this.hash(randomBytes(16).toString('hex'))
    await this.verify(password, await this.dummy)
  }
}
