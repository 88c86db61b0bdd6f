/**
 * Password hashing with scrypt at N=2^17, r=8, p=1 (128 MiB and a few hundred milliseconds a
 * hash), or where the process's box cannot spare that much memory, one of the settings OWASP
 * lists as equally strong with less memory and more passes (N=2^16, p=2: 64 MiB; N=2^15, p=3:
 * 32 MiB…). The parameters travel in the stored string, `scrypt$17$8$1$salt$hash`, so the cost
 * can change while old hashes still verify (and are made again at the next log-in).
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto'
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

export interface HasherOptions {
  /** Hashes at once; the rest wait their turn. */
  concurrency?: number
  queueMax?: number
  /**
   * The native memory hashes share with renders: a hash starts once its memory fits. A hash made
   * at a cost larger than the whole budget (on a bigger box) runs when nothing else holds any.
   */
  budget?: MemoryBudget
}

/**
 * At most this many hashes at once (each holds its scrypt memory while it runs), each within the
 * memory budget; the rest wait their turn, up to a bounded queue, beyond which the request gets
 * 503 with Retry-After.
 */
export class PasswordHasher {
  private running = 0
  private readonly waiting: (() => void)[] = []
  private dummy: Promise<string> | undefined
  private readonly concurrency: number
  private readonly queueMax: number
  private readonly budget: MemoryBudget | undefined

  constructor(
    readonly cost: ScryptCost = DEFAULT_COST,
    { concurrency = 2, queueMax = 64, budget }: HasherOptions = {},
  ) {
    this.concurrency = concurrency
    this.queueMax = queueMax
    this.budget = budget
  }

  private async slot<T>(cost: ScryptCost, work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queueMax) throw new ServiceBusyError('busy', 'Too many sign-ins at once. Try again in a moment.', 2)
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else {
      this.running++
    }
    try {
      const release = await this.budget?.reserve(hashMemory(cost))
      try {
        return await work()
      } finally {
        release?.()
      }
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.running--
    }
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES)
    const key = await this.slot(this.cost, () => scrypt(password, salt, this.cost))
    const { logN, r, p } = this.cost
    return `scrypt$${logN}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`
  }

  /** Whether the password matches the stored hash; false for a hash this code cannot read. */
  async verify(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$')
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false
    const [logN, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
    if (![logN, r, p].every(Number.isInteger) || logN < 10 || logN > 22 || r < 1 || r > 32 || p < 1 || p > 16) return false
    const salt = Buffer.from(parts[4]!, 'base64url')
    const expected = Buffer.from(parts[5]!, 'base64url')
    const key = await this.slot({ logN, r, p }, () => scrypt(password, salt, { logN, r, p }))
    return key.length === expected.length && timingSafeEqual(key, expected)
  }

  /** Whether the hash was made at a lower cost than today's, so it should be made again. */
  needsRehash(stored: string): boolean {
    const [, logN, r, p] = stored.split('$').map(Number)
    return logN !== this.cost.logN || r !== this.cost.r || p !== this.cost.p
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
