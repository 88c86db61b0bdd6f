/**
 * The first-open store shared by two real processes, each on the real clock moved by its own
 * offset (so that their candidates differ), started together at a barrier and opening the same
 * keys at once, one in order and one in reverse: the processes of a machine on one SQLite file,
 * and those of a deployment on one Redis.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FirstOpen } from '../../server/giffer/live/first-opens.js'
import type { FirstOpenProcessSetup } from '../support/first-open-process.js'
import { runFirstOpenProcesses } from '../support/first-open-processes.js'
import { startRedis, type TestRedis } from '../support/redis.js'

const KEYS = Array.from({ length: 200 }, (_, i) => `recipient-${i}`)
const HOUR = 3_600_000
/** The second process's clock is this far ahead of the first's. */
const OFFSET_MS = 1_500

let dir: string
let redis: TestRedis

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'first-opens-processes-'))
  redis = await startRedis()
})

afterAll(async () => {
  await redis?.stop()
  await rm(dir, { recursive: true, force: true })
})

/** What two processes on `store` answered for every key: the first opened them in order, the second in reverse. */
async function openedByTwoProcesses(store: FirstOpenProcessSetup['store']): Promise<[FirstOpen, FirstOpen][]> {
  const setup = (offsetMs: number): FirstOpenProcessSetup => ({ store, limits: { perTimer: 10_000, total: 10_000, keepAfterMs: HOUR }, offsetMs, timer: 'timer', forMs: HOUR })
  const answers = await runFirstOpenProcesses([setup(0), setup(OFFSET_MS)], [{ open: KEYS }, { open: [...KEYS].reverse() }], 30_000)
  const [inOrder, reversed] = answers.map((answer) => ('opened' in answer ? answer.opened : []))
  return KEYS.map((_, i) => [inOrder![i]!, reversed![KEYS.length - 1 - i]!])
}

describe.each([
  { backend: 'one SQLite file', store: (): FirstOpenProcessSetup['store'] => ({ kind: 'sqlite', file: path.join(dir, 'live-timers.sqlite') }) },
  { backend: 'one Redis', store: (): FirstOpenProcessSetup['store'] => ({ kind: 'redis', url: redis.url }) },
])('two processes on $backend', ({ store }) => {
  it('give every key one deadline, stored by exactly one of them, when both open the same 200 keys at once', { timeout: 40_000 }, async () => {
    const opened = await openedByTwoProcesses(store())
    expect(opened).toHaveLength(KEYS.length)
    for (const [first, second] of opened) {
      expect(first.deadline).toBe(second.deadline)
      expect([first.outcome, second.outcome].sort()).toEqual(['created', 'stored'])
    }
  })
})
