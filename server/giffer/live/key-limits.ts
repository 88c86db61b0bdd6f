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
 * An address's new keys across every timer, per minute, as a multiple of its share for one timer:
 * a mail proxy's address carries the first opens of several senders' sends at once, while one
 * address minting timers of its own to fill the store gets no further than this.
 */
export const ADDRESS_TIMERS_SHARE = 5

/**
 * New keys per address, per minute: for one timer (`perMinute`), and across every timer
 * (ADDRESS_TIMERS_SHARE times as many). Counted in this process's memory, or in the store given
 * (Redis, shared by every process, through the shared counters). A key already stored is never
 * counted; only a key that would be stored is. IPv6 addresses count per /56, the block one
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

  /** Counts one new key of `timer` from `address`; false once the address has added its share this minute, to this timer or to all. */
  async take(address: string, timer: string): Promise<boolean> {
    const block = ipKeyGenerator(address, 56)
    const forTimer = await this.store.increment(`${block}|${timer}`)
    if (forTimer.totalHits > this.perMinute) return false
    const forAll = await this.store.increment(`${block}|*`)
    return forAll.totalHits <= this.perMinute * ADDRESS_TIMERS_SHARE
  }

  close(): void {
    void this.store.shutdown?.()
  }
}

/** Opens whose new key was left unstored since the process started, by why: read when /metrics is scraped. */
export type UnstoredCounts = Record<UnstoredReason, number>
