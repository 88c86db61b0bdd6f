import { describe, expect, it } from 'vitest'
import { ServiceBusyError } from '../../server/process/errors.js'
import { checkPassword, PASSWORD_MESSAGES } from '../../server/accounts/password-policy.js'
import { costForBudget, DEFAULT_COST, EQUAL_COSTS, hashMemory, PasswordHasher } from '../../server/accounts/passwords.js'
import { MemoryBudget } from '../../server/process/memory-budget.js'

const CHEAP = { logN: 10, r: 8, p: 1 }

describe('password hashing', () => {
  it('hashes at N=2^17, r=8, p=1 by default with the parameters in the string, and verifies', async () => {
    expect(DEFAULT_COST).toEqual({ logN: 17, r: 8, p: 1 })
    const hasher = new PasswordHasher()
    const stored = await hasher.hash('violet kettle zebra 42')
    expect(stored).toMatch(/^scrypt\$17\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
    expect(await hasher.verify('violet kettle zebra 42', stored)).toBe(true)
    expect(await hasher.verify('violet kettle zebra 43', stored)).toBe(false)
    expect(hasher.needsRehash(stored)).toBe(false)
  }, 20_000)

  it('salts every hash', async () => {
    const hasher = new PasswordHasher(CHEAP)
    expect(await hasher.hash('same password')).not.toBe(await hasher.hash('same password'))
  })

  it('verifies a hash made at an older, lower cost and asks for it to be made again', async () => {
    const old = await new PasswordHasher(CHEAP).hash('amber otter lantern')
    const today = new PasswordHasher({ logN: 11, r: 8, p: 1 })
    expect(await today.verify('amber otter lantern', old)).toBe(true)
    expect(today.needsRehash(old)).toBe(true)
  })

  it('treats Unicode forms of one password alike (NFKC)', async () => {
    const hasher = new PasswordHasher(CHEAP)
    const stored = await hasher.hash('caf\u00e9 au lait 9')
    expect(await hasher.verify('cafe\u0301 au lait 9', stored)).toBe(true)
  })

  it.each(['', 'bcrypt$x', 'scrypt$30$8$1$c2FsdA$a2V5', 'scrypt$17$0$1$c2FsdA$a2V5', 'scrypt$x$8$1$c2FsdA$a2V5'])('refuses an unreadable or out-of-range hash %j without throwing', async (stored) => {
    expect(await new PasswordHasher(CHEAP).verify('anything', stored)).toBe(false)
  })

  it('runs two hashes at once and queues the rest; past the queue it answers busy', async () => {
    const hasher = new PasswordHasher(CHEAP, { concurrency: 1, queueMax: 1 })
    const first = hasher.hash('one one one one')
    const second = hasher.hash('two two two two')
    await expect(hasher.hash('three three three')).rejects.toBeInstanceOf(ServiceBusyError)
    await expect(Promise.all([first, second])).resolves.toHaveLength(2)
    await expect(hasher.hash('four four four four')).resolves.toMatch(/^scrypt\$10\$/)
  })

  it('takes the strongest of the equally strong scrypt settings whose memory is at most half the budget', () => {
    expect(costForBudget(2 ** 30)).toEqual({ logN: 17, r: 8, p: 1 })
    expect(costForBudget(200 * 2 ** 20)).toEqual({ logN: 16, r: 8, p: 2 })
    expect(costForBudget(52 * 2 ** 20)).toEqual({ logN: 14, r: 8, p: 5 })
    expect(costForBudget(0)).toEqual(EQUAL_COSTS.at(-1))
    for (const cost of EQUAL_COSTS) expect(hashMemory(cost)).toBe(128 * 2 ** cost.logN * cost.r)
  })

  it('starts a hash only once its scrypt memory fits the budget it shares with renders', async () => {
    const budget = new MemoryBudget(hashMemory(CHEAP) * 2)
    const hasher = new PasswordHasher(CHEAP, { budget })
    // A render holds most of the budget: the hash waits for it.
    const release = await budget.reserve(budget.totalBytes)
    let done = false
    const hashed = hasher.hash('waits its turn 7').then((stored) => ((done = true), stored))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(done).toBe(false)
    release()
    await expect(hashed).resolves.toMatch(/^scrypt\$10\$/)
    expect(budget.inUse).toBe(0)
  })

  it('verifies a hash made on a bigger box, whose memory is more than the whole budget, once nothing else holds any', async () => {
    const stored = await new PasswordHasher({ logN: 12, r: 8, p: 1 }).hash('bigger box 123')
    const hasher = new PasswordHasher(CHEAP, { budget: new MemoryBudget(hashMemory(CHEAP)) })
    expect(await hasher.verify('bigger box 123', stored)).toBe(true)
    expect(hasher.needsRehash(stored)).toBe(true)
  })

  it('spends a verification on an unknown account too', async () => {
    const hasher = new PasswordHasher(CHEAP)
    await expect(hasher.verifyDummy('whatever it is')).resolves.toBeUndefined()
  })
})

describe('password rules', () => {
  it.each([
    ['short12', 'a@example.com', PASSWORD_MESSAGES.tooShort],
    ['🦊🐙🦉🐝🦋🐢🐬', 'a@example.com', PASSWORD_MESSAGES.tooShort],
    ['x'.repeat(129), 'a@example.com', PASSWORD_MESSAGES.tooLong],
    ['password1', 'a@example.com', PASSWORD_MESSAGES.common],
    ['Qwerty123', 'a@example.com', PASSWORD_MESSAGES.common],
    ['jonathan.smith77', 'Jonathan.Smith+news@example.com', PASSWORD_MESSAGES.containsEmail],
  ])('refuses %j (email %s)', (password, email, message) => {
    expect(checkPassword(password, email)).toBe(message)
  })

  it('refuses an easily guessed password with the estimator’s reason', () => {
    expect(checkPassword('aaaaaaaaaaaa', 'a@example.com')).toMatch(/^This password is too easy to guess\./)
  })

  it.each(['violet kettle zebra 42', 'Tr0ub4dor&3xyz!', '🦊🐙🦉🐝🦋🐢🐬🦔', 'Lighthouse-Ferry-Quilt'])('accepts %j', (password) => {
    expect(checkPassword(password, 'mary@example.com')).toBeNull()
  })
})
