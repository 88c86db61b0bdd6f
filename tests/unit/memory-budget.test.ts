import { describe, expect, it } from 'vitest'
import { LargerThanBudget, MemoryBudget } from '../../server/process/memory-budget.js'

const PENDING = Symbol('pending')

/** What the promise settled with after a few ticks: its value, `{ rejected: reason }`, or PENDING. */
async function settled<T>(promise: Promise<T>): Promise<T | { rejected: unknown } | typeof PENDING> {
  const tick = new Promise<typeof PENDING>((resolve) => setTimeout(() => resolve(PENDING), 0))
  return Promise.race([promise.then((value) => value, (reason: unknown) => ({ rejected: reason })), tick])
}

const isGranted = async (promise: Promise<() => void>) => typeof (await settled(promise)) === 'function'

describe('MemoryBudget', () => {
  it('grants a reservation that fits at once and counts it in use', async () => {
    const budget = new MemoryBudget(100)
    const release = await budget.reserve(60)
    expect(budget.inUse).toBe(60)
    expect(await isGranted(budget.reserve(40))).toBe(true)
    expect(budget.inUse).toBe(100)
    release()
    expect(budget.inUse).toBe(40)
  })

  it('makes a reservation that does not fit wait until enough is released', async () => {
    const budget = new MemoryBudget(100)
    const first = await budget.reserve(50)
    const second = await budget.reserve(30)
    const waiting = budget.reserve(60)
    expect(await settled(waiting)).toBe(PENDING)
    expect(budget.queued).toBe(1)

    second()
    expect(await settled(waiting)).toBe(PENDING)
    expect(budget.inUse).toBe(50)

    first()
    expect(await isGranted(waiting)).toBe(true)
    expect(budget.inUse).toBe(60)
    expect(budget.queued).toBe(0)
  })

  it('serves waiters first come first served: a small request behind a large waiting one does not pass it', async () => {
    const budget = new MemoryBudget(100)
    const order: string[] = []
    const held = await budget.reserve(70)
    const large = budget.reserve(80).then((release) => (order.push('large'), release))
    const small = budget.reserve(10).then((release) => (order.push('small'), release))
    expect(await settled(small)).toBe(PENDING)
    expect(await settled(large)).toBe(PENDING)
    expect(budget.queued).toBe(2)

    held()
    const releaseLarge = await large
    expect(await isGranted(small)).toBe(true)
    expect(order).toEqual(['large', 'small'])
    expect(budget.inUse).toBe(90)
    releaseLarge()
    expect(budget.inUse).toBe(10)
  })

  it('makes a new request that would fit wait behind one already waiting', async () => {
    const budget = new MemoryBudget(100)
    const held = await budget.reserve(60)
    const large = budget.reserve(50)
    const late = budget.reserve(5)
    expect(await settled(late)).toBe(PENDING)
    held()
    expect(await isGranted(large)).toBe(true)
    expect(await isGranted(late)).toBe(true)
  })

  it('refuses at once a request larger than the whole budget, even when nothing holds any, saying how much it needs', async () => {
    const budget = new MemoryBudget(100 * 2 ** 20)
    const refused = await settled(budget.reserve(250 * 2 ** 20))
    expect(refused).toEqual({ rejected: expect.any(LargerThanBudget) })
    const error = (refused as { rejected: LargerThanBudget }).rejected
    expect(error).toMatchObject({ status: 503, code: 'larger_than_budget' })
    expect(error.message).toBe('This needs about 250 MB of memory and this server has 100 MB for it.')
    expect(budget.inUse).toBe(0)
    expect(budget.queued).toBe(0)
    expect(budget.canEverHold(100 * 2 ** 20)).toBe(true)
    expect(budget.canEverHold(100 * 2 ** 20 + 1)).toBe(false)
  })

  it('grants nothing in a budget of 0', async () => {
    const budget = new MemoryBudget(0)
    expect(await settled(budget.reserve(1))).toEqual({ rejected: expect.any(LargerThanBudget) })
  })

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -1])('throws at once for a reservation of %s bytes, and the count stays whole', async (bytes) => {
    const budget = new MemoryBudget(100)
    const held = await budget.reserve(40)
    expect(() => budget.reserve(bytes)).toThrow(RangeError)
    expect(budget.inUse).toBe(40)
    expect(await isGranted(budget.reserve(60))).toBe(true)
    held()
    expect(budget.inUse).toBe(60)
  })

  it.each([Number.NaN, Number.POSITIVE_INFINITY, -1])('refuses a budget of %s bytes', (bytes) => {
    expect(() => new MemoryBudget(bytes)).toThrow(RangeError)
  })

  it('gives the bytes back once when released twice', async () => {
    const budget = new MemoryBudget(100)
    const first = await budget.reserve(40)
    await budget.reserve(50)
    first()
    first()
    expect(budget.inUse).toBe(50)
    const waiting = budget.reserve(60)
    expect(await settled(waiting)).toBe(PENDING)
  })

  it("rejects a waiting request with its signal's reason when aborted, and lets those behind it go if they now fit", async () => {
    const budget = new MemoryBudget(100)
    await budget.reserve(60)
    const controller = new AbortController()
    const large = budget.reserve(80, controller.signal)
    const small = budget.reserve(30)
    const tooLarge = budget.reserve(50)
    expect(await settled(small)).toBe(PENDING)

    const reason = new Error('client went away')
    controller.abort(reason)
    expect(await settled(large)).toEqual({ rejected: reason })
    expect(await isGranted(small)).toBe(true)
    expect(await settled(tooLarge)).toBe(PENDING)
    expect(budget.inUse).toBe(90)
    expect(budget.queued).toBe(1)
  })

  it('takes an aborted request out of the line wherever it stands', async () => {
    const budget = new MemoryBudget(100)
    const held = await budget.reserve(100)
    const controller = new AbortController()
    const first = budget.reserve(40)
    const middle = budget.reserve(40, controller.signal)
    const last = budget.reserve(60)
    controller.abort('gone')
    expect(await settled(middle)).toEqual({ rejected: 'gone' })
    expect(budget.queued).toBe(2)

    held()
    expect(await isGranted(first)).toBe(true)
    expect(await isGranted(last)).toBe(true)
    expect(budget.inUse).toBe(100)
  })

  it('keeps a granted reservation when its signal aborts afterwards', async () => {
    const budget = new MemoryBudget(100)
    const controller = new AbortController()
    const release = await budget.reserve(70, controller.signal)
    controller.abort(new Error('too late'))
    expect(budget.inUse).toBe(70)
    release()
    expect(budget.inUse).toBe(0)
  })

  it('rejects at once with the reason of a signal already aborted, holding nothing', async () => {
    const budget = new MemoryBudget(100)
    const reason = new Error('already gone')
    const request = budget.reserve(10, AbortSignal.abort(reason))
    expect(await settled(request)).toEqual({ rejected: reason })
    expect(budget.inUse).toBe(0)
    expect(budget.queued).toBe(0)
  })
})
