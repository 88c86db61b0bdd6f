import { pino } from 'pino'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { ServiceBusyError } from '../../server/process/errors.js'
import { checkPassword, PASSWORD_MESSAGES } from '../../server/accounts/password-policy.js'
import { costForBudget, DEFAULT_COST, EQUAL_COSTS, hashMemory, isStronger, PasswordHasher } from '../../server/accounts/passwords.js'
import type { Box } from '../../server/process/box.js'
import { MemoryBudget } from '../../server/process/memory-budget.js'
import { testSite } from '../routes/app.js'
import { ORIGIN, PASSWORD, register } from './helpers.js'

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

  it('does not check a hash made on a bigger box whose memory is more than the whole budget: 503 with Retry-After, and one warning naming what to change', async () => {
    const stored = await new PasswordHasher({ logN: 12, r: 8, p: 1 }).hash('bigger box 123')
    const warnings: string[] = []
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg as string) })
    const budget = new MemoryBudget(hashMemory(CHEAP))
    const hasher = new PasswordHasher(CHEAP, { budget, logger })
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await hasher.verify('bigger box 123', stored).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(ServiceBusyError)
      expect(refused).toMatchObject({ status: 503, code: 'hash_too_large', retryAfterSeconds: 300, message: 'Signing in to this account is not possible on this server right now. Please try again later.' })
    }
    expect(warnings).toEqual([
      'a password hash at scrypt N=2^12, r=8, p=1 needs 4 MB and this process has 1 MB for password hashes: the log-ins (or sign-ups) that need one answer 503. ' +
        'Give the process a larger box (the budget follows its memory: see the start-up line), or run the dashboard (npm run dashboard) on a box that holds it and point DASHBOARD_URL at it.',
    ])
    // Nothing was held for it, and nothing is waiting.
    expect(budget.inUse).toBe(0)
    expect(budget.queued).toBe(0)
  })

  it('makes a hash again only at a stronger cost: never weaker, and boxes of different sizes do not trade an account back and forth', async () => {
    const small = new PasswordHasher({ logN: 10, r: 8, p: 5 })
    const large = new PasswordHasher({ logN: 11, r: 8, p: 2 })
    const fromSmall = await small.hash('two boxes 1234')
    const fromLarge = await large.hash('two boxes 1234')
    // More memory is stronger: the larger box strengthens the small box's hash…
    expect(large.needsRehash(fromSmall)).toBe(true)
    // …and the small box leaves the larger box's alone.
    expect(small.needsRehash(fromLarge)).toBe(false)
    expect(small.needsRehash(fromSmall)).toBe(false)
    expect(large.needsRehash(fromLarge)).toBe(false)
    // At equal memory, more passes are stronger.
    expect(isStronger({ logN: 10, r: 8, p: 2 }, { logN: 10, r: 8, p: 1 })).toBe(true)
    expect(isStronger({ logN: 10, r: 8, p: 1 }, { logN: 10, r: 8, p: 2 })).toBe(false)
    expect(isStronger({ logN: 16, r: 8, p: 2 }, DEFAULT_COST)).toBe(false)
    expect(small.needsRehash('not a hash')).toBe(false)
  })

  it('gives up waiting for memory after its deadline with 503 busy, holding nothing', async () => {
    const budget = new MemoryBudget(hashMemory(CHEAP))
    const hasher = new PasswordHasher(CHEAP, { budget, waitMs: 100 })
    const release = await budget.reserve(budget.totalBytes)
    const refused = await hasher.hash('waits too long 1').catch((error: unknown) => error)
    expect(refused).toMatchObject({ status: 503, code: 'busy' })
    expect(budget.queued).toBe(0)
    release()
    expect(budget.inUse).toBe(0)
    await expect(hasher.hash('after the wait 12')).resolves.toMatch(/^scrypt\$10\$/)
  })

  it('gives up waiting for a turn after its deadline with 503 busy, and the turn passes on', async () => {
    const budget = new MemoryBudget(hashMemory(CHEAP))
    const hasher = new PasswordHasher(CHEAP, { budget, concurrency: 1, waitMs: 150 })
    // The one turn is taken by a hash that waits for memory a render holds.
    const release = await budget.reserve(budget.totalBytes)
    const first = hasher.hash('holds the turn 1').catch((error: unknown) => error)
    const second = hasher.hash('waits its turn 2').catch((error: unknown) => error)
    expect(await second).toMatchObject({ status: 503, code: 'busy' })
    expect(await first).toMatchObject({ status: 503, code: 'busy' })
    release()
    await expect(hasher.hash('after the wait 34')).resolves.toMatch(/^scrypt\$10\$/)
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

describe('log-in with a hash this box cannot check', () => {
  it('answers 503 with Retry-After and the message, and keeps the hash as it was', async () => {
    // A 256 MB box: its budget is far below the 1 GiB a hash at N=2^20 needs.
    const box: Box = { memoryBytes: 256 * 2 ** 20, memoryFrom: 'cgroup v2', cpus: 1, cpusFrom: 'cgroup v2 quota', machine: { memoryBytes: 8 * 2 ** 30, cpus: 8 } }
    const site = testSite({ GIFFER_URL: 'http://giffer.internal:3001' }, { box, dashboard: { scryptCost: CHEAP } })
    const { app } = site
    const db = site.dashboard!.context.db
    const { email } = await register(app)
    const bigger = `scrypt$20$8$1$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(32).toString('base64url')}`
    db.prepare('UPDATE users SET password_hash = ? WHERE email = ?').run(bigger, email)
    const response = await request(app).post('/app/api/v1/users/login?dual=1').set(ORIGIN).send({ email, password: PASSWORD })
    expect(response.status).toBe(503)
    expect(response.headers['retry-after']).toBe('300')
    expect(response.body).toEqual({ message: 'Signing in to this account is not possible on this server right now. Please try again later.' })
    expect(db.prepare('SELECT password_hash FROM users WHERE email = ?').get(email)).toEqual({ password_hash: bigger })
  })
})
