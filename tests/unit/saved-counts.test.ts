/** Counting saved timers' opens: readers told from the User-Agent, counts written in batches, kept when a write fails, bounded. */
import { pino } from 'pino'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CELLS_MAX, FLUSH_INTERVAL_MS, readerOf, SavedTimerCounts } from '../../server/giffer/live/saved-counts.js'
import { CountsNotWritten, HOUR_MS, type Counts, type SavedTimerStore } from '../../server/giffer/live/saved-store.js'

const silent = pino({ level: 'silent' })
const NOW = Date.UTC(2026, 5, 1, 12, 30)

function fakeStore(fail = () => false) {
  const batches: Map<string, Map<number, Partial<Counts>>>[] = []
  const store = {
    add: vi.fn(async (batch: Map<string, Map<number, Partial<Counts>>>) => {
      if (fail()) throw new Error('store away')
      batches.push(batch)
    }),
  } as unknown as SavedTimerStore
  return { store, batches }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('readers', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)', 'gmail'],
    ['Mozilla/5.0', 'apple_privacy'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)', 'other'],
    ['YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html', 'yahoo'],
    ['Mozilla/4.0 (compatible; ms-office; MSOffice 16)', 'outlook'],
    ['Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.5026; Pro)', 'outlook'],
    ['', 'other'],
    [undefined, 'other'],
  ])('%s is %s', (agent, reader) => {
    expect(readerOf(agent)).toBe(reader)
  })
})

describe('counting', () => {
  it('writes the counts of each timer and hour in one batch, at most the flush interval late', async () => {
    vi.useFakeTimers({ now: NOW })
    const { store, batches } = fakeStore()
    const counts = new SavedTimerCounts(store, silent)
    counts.count('timer-a', { event: 'open', first: true, expired: false, reader: 'gmail' })
    counts.count('timer-a', { event: 'open', first: false, expired: true, reader: 'apple_privacy' })
    counts.count('timer-a', { event: 'click' })
    counts.count('timer-b', { event: 'open', first: false, expired: false, reader: 'other' })
    expect(batches).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS)
    const hour = Math.floor(NOW / HOUR_MS) * HOUR_MS
    expect(batches).toEqual([
      new Map<string, Map<number, Partial<Counts>>>([
        ['timer-a', new Map([[hour, { opens: 2, gmail: 1, first_opens: 1, apple_privacy: 1, expired_opens: 1, clicks: 1 }]])],
        ['timer-b', new Map([[hour, { opens: 1, other: 1 }]])],
      ]),
    ])
    // Nothing waits: the next interval writes nothing.
    await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS)
    expect(batches).toHaveLength(1)
    await counts.close()
  })

  it('keeps a batch the store could not take for the next one', async () => {
    vi.useFakeTimers({ now: NOW })
    let away = true
    const { store, batches } = fakeStore(() => away)
    const counts = new SavedTimerCounts(store, silent)
    counts.count('timer-a', { event: 'click' })
    await counts.flush()
    expect(batches).toHaveLength(0)
    counts.count('timer-a', { event: 'click' })
    away = false
    await counts.flush()
    expect([...batches[0]!.get('timer-a')!.values()]).toEqual([{ clicks: 2 }])
    await counts.close()
  })

  it('drops counts past the waiting cap rather than grow, and forgets a removed timer', async () => {
    vi.useFakeTimers({ now: NOW })
    const { store, batches } = fakeStore()
    const counts = new SavedTimerCounts(store, silent)
    for (let i = 0; i <= CELLS_MAX; i++) counts.count(`timer-${i}`, { event: 'click' })
    expect(counts.dropped).toBe(1)
    counts.forget('timer-0')
    expect(counts.waiting('timer-0').size).toBe(0)
    counts.count('timer-new', { event: 'click' })
    expect(counts.dropped).toBe(1)
    await counts.close()
    expect(batches[0]!.size).toBe(CELLS_MAX)
  })

  it('gives back only the hours a store could not write, so that none is counted twice', async () => {
    vi.useFakeTimers({ now: NOW })
    const written: Map<string, Map<number, Partial<Counts>>>[] = []
    let calls = 0
    const store = {
      add: vi.fn(async (batch: Map<string, Map<number, Partial<Counts>>>) => {
        calls++
        if (calls === 1) throw new CountsNotWritten(new Map([['timer-b', batch.get('timer-b')!]]), new Error('one script failed'))
        written.push(batch)
      }),
    } as unknown as SavedTimerStore
    const counts = new SavedTimerCounts(store, silent)
    counts.count('timer-a', { event: 'click' })
    counts.count('timer-b', { event: 'click' })
    await counts.flush()
    await counts.flush()
    expect(written).toHaveLength(1)
    expect([...written[0]!.keys()]).toEqual(['timer-b'])
    await counts.close()
  })

  it('writes at close what arrived while a batch was being written', async () => {
    let release: () => void = () => undefined
    const written: number[] = []
    const store = {
      add: vi.fn(async (batch: Map<string, Map<number, Partial<Counts>>>) => {
        if (written.length === 0) await new Promise<void>((resolve) => (release = resolve))
        written.push([...batch.values()].flatMap((hours) => [...hours.values()]).reduce((sum, cell) => sum + (cell.clicks ?? 0), 0))
      }),
    } as unknown as SavedTimerStore
    const counts = new SavedTimerCounts(store, silent)
    counts.count('timer-a', { event: 'click' })
    const first = counts.flush()
    counts.count('timer-a', { event: 'click' })
    counts.count('timer-a', { event: 'click' })
    const closed = counts.close()
    release()
    await first
    await closed
    expect(written).toEqual([1, 2])
  })
})
