/**
 * What bounds the recipient keys of evergreen timers beyond the store's caps: how many new keys
 * one address may add to one timer per minute, and the count of keys left unstored, by why.
 */
import { ipKeyGenerator, MemoryStore, type Options, type Store } from 'express-rate-limit'

/** Why a new recipient key was not stored: its timer or the store was full, or its address had added its share this minute. */
export type UnstoredReason = 'timer_full' | 'store_full' | 'address_limit'
export const UNSTORED_REASONS: readonly UnstoredReason[] = ['timer_full', 'store_full', 'address_limit']

const MINUTE_MS = 60_000

/**
 * New keys per address and timer, per minute: counted in this process's memory, or in the store
 * given (Redis, shared by every process, through the shared counters). A key already stored is
 * never counted; only a key that would be stored is. IPv6 addresses count per /56, the block one
 * customer gets, as the other per-address limits do.
 */
export class NewKeyBudget {
  private readonly store: Store

  constructor(
    private readonly perMinute: number,
    store?: Store,
  ) {
    this.store = store ?? new MemoryStore()
    void this.store.init?.({ windowMs: MINUTE_MS } as Options)
  }

  /** Counts one new key of `timer` from `address`; false once the address has added its share this minute. */
  async take(address: string, timer: string): Promise<boolean> {
    const { totalHits } = await this.store.increment(`${ipKeyGenerator(address, 56)}|${timer}`)
    return totalHits <= this.perMinute
  }

  close(): void {
    void this.store.shutdown?.()
  }
}

/** Opens whose new key was left unstored since the process started, by why: read when /metrics is scraped. */
export type UnstoredCounts = Record<UnstoredReason, number>
