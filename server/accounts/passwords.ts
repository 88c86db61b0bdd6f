/**
 * Password hashing with scrypt at N=2^17, r=8, p=1 (128 MiB and a few hundred milliseconds a
 * hash). The parameters travel in the stored string, `scrypt$17$8$1$salt$hash`, so the cost can
 * rise later while old hashes still verify.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { ServiceBusyError } from '../process/errors.js'

export interface ScryptCost {
  /** log2 of N, the CPU and memory cost. */
  logN: number
  r: number
  p: number
}

export const DEFAULT_COST: ScryptCost = { logN: 17, r: 8, p: 1 }
const KEY_LENGTH = 32
const SALT_BYTES = 16

/** Memory one hash needs: 128 · N · r bytes, plus room. */
const maxmemFor = ({ logN, r }: ScryptCost) => 128 * 2 ** logN * r + 32 * 1024 * 1024

function scrypt(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** cost.logN, r: cost.r, p: cost.p, maxmem: maxmemFor(cost) }
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)))
  })
}

/**
 * At most this many hashes at once (each holds 128 MiB while it runs); the rest wait their
 * turn, up to a bounded queue, beyond which the request gets 503 with Retry-After.
 */
export class PasswordHasher {
  private running = 0
  private readonly waiting: (() => void)[] = []
  private dummy: Promise<string> | undefined

  constructor(
    readonly cost: ScryptCost = DEFAULT_COST,
    private readonly concurrency = 2,
    private readonly queueMax = 64,
  ) {}

  private async slot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queueMax) throw new ServiceBusyError('busy', 'Too many sign-ins at once. Try again in a moment.', 2)
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else {
      this.running++
    }
    try {
      return await work()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.running--
    }
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES)
    const key = await this.slot(() => scrypt(password, salt, this.cost))
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
    const key = await this.slot(() => scrypt(password, salt, { logN, r, p }))
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
