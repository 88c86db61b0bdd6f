import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { checkLogin, forgetLoginCheck, LOGIN_CHECK_CACHE_MS } from '../../shared/accounts/session.js'

/** A tab's session storage. */
function memoryStorage(): Storage {
  const items = new Map<string, string>()
  return {
    get length() {
      return items.size
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  }
}

/** A fetch whose answers the test gives, one at a time. */
function pendingFetch() {
  const answers: ((body: unknown) => void)[] = []
  const fetch = vi.fn(
    () =>
      new Promise<Response>((resolve) => {
        answers.push((body) => resolve(new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } })))
      }),
  )
  return { fetch, answer: (index: number, body: unknown) => answers[index]!(body) }
}

describe('checkLogin', () => {
  beforeEach(() => {
    vi.stubGlobal('window', { sessionStorage: memoryStorage() })
    forgetLoginCheck()
  })
  afterEach(() => {
    forgetLoginCheck()
    vi.unstubAllGlobals()
  })

  it('asks the server once for the parts of a page that ask at the same moment, then remembers the answer for a minute', async () => {
    const server = pendingFetch()
    vi.stubGlobal('fetch', server.fetch)
    const header = checkLogin(1_000)
    const preview = checkLogin(1_000)
    expect(server.fetch).toHaveBeenCalledTimes(1)
    server.answer(0, { status: 'ok', user: { id: 7 } })
    expect(await header).toEqual({ status: 'ok', user: { id: 7 } })
    expect(await preview).toEqual({ status: 'ok', user: { id: 7 } })
    expect(await checkLogin(1_000 + LOGIN_CHECK_CACHE_MS - 1)).toEqual({ status: 'ok', user: { id: 7 } })
    expect(server.fetch).toHaveBeenCalledTimes(1)
    const later = checkLogin(1_000 + LOGIN_CHECK_CACHE_MS)
    expect(server.fetch).toHaveBeenCalledTimes(2)
    server.answer(1, { status: 'ok' })
    expect(await later).toEqual({ status: 'ok' })
  })

  it('after a log-in asks again, and an answer to the question asked before it is not kept', async () => {
    const server = pendingFetch()
    vi.stubGlobal('fetch', server.fetch)
    const before = checkLogin(1_000)
    forgetLoginCheck()
    const after = checkLogin(1_000)
    expect(server.fetch).toHaveBeenCalledTimes(2)
    server.answer(1, { status: 'ok', user: { id: 7 } })
    expect(await after).toEqual({ status: 'ok', user: { id: 7 } })
    server.answer(0, { status: 'ok' })
    expect(await before).toEqual({ status: 'ok' })
    // The later answer, the logged-in one, is what the next minute is told.
    expect(await checkLogin(2_000)).toEqual({ status: 'ok', user: { id: 7 } })
    expect(server.fetch).toHaveBeenCalledTimes(2)
  })

  it('gives the answer when the tab cannot keep it (storage full or refused), and asks again next time', async () => {
    const full = memoryStorage()
    full.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
    }
    vi.stubGlobal('window', { sessionStorage: full })
    const fetch = vi.fn(() => Promise.resolve(new Response(JSON.stringify({ status: 'ok', user: { id: 7 } }))))
    vi.stubGlobal('fetch', fetch)
    expect(await checkLogin(1_000)).toEqual({ status: 'ok', user: { id: 7 } })
    expect(await checkLogin(1_000)).toEqual({ status: 'ok', user: { id: 7 } })
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('says nobody is known when the server cannot be asked, and asks again next time', async () => {
    const fetch = vi.fn(() => Promise.reject(new TypeError('offline')))
    vi.stubGlobal('fetch', fetch)
    expect(await checkLogin(1_000)).toBeNull()
    expect(await checkLogin(1_000)).toBeNull()
    expect(fetch).toHaveBeenCalledTimes(2)
  })
})
