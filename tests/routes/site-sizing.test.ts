/**
 * The site sizes itself once, at start, and hands its sizing and its one memory budget to the
 * image service and the dashboard it runs: neither works them out again. In a box too small to
 * draw images it says so, and every image it is asked for is refused in those words.
 */
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import type { Box } from '../../server/process/box.js'
import { testSite } from './app.js'

const made = vi.hoisted(() => ({ budgets: 0 }))

vi.mock('../../server/process/memory-budget.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../server/process/memory-budget.js')>()
  class CountedBudget extends actual.MemoryBudget {
    constructor(totalBytes: number) {
      super(totalBytes)
      made.budgets++
    }
  }
  return { ...actual, MemoryBudget: CountedBudget }
})

vi.mock('../../server/process/sizing.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../server/process/sizing.js')>()
  return { ...actual, sizeForBox: vi.fn(actual.sizeForBox), sizeProcess: vi.fn(actual.sizeProcess) }
})

const { sizeForBox, sizeProcess } = await import('../../server/process/sizing.js')

const MiB = 2 ** 20
const box = (mib: number): Box => ({ memoryBytes: mib * MiB, memoryFrom: 'cgroup v2', cpus: 2, cpusFrom: 'cgroup v2 quota', machine: { memoryBytes: 64 * 1024 * MiB, cpus: 8 } })

describe('the site in a 1 GB box', () => {
  it('sizes itself once and makes one memory budget, which its image service draws with', async () => {
    made.budgets = 0
    vi.mocked(sizeProcess).mockClear()
    vi.mocked(sizeForBox).mockClear()
    const site = testSite({}, { box: box(1024) })
    onTestFinished(() => site.close())
    // The image service starts on its first image.
    await request(site.app).post('/giffer/countdown/create').send({ delay: 60 }).expect(200)
    const health = await request(site.app).get('/giffer/healthz').expect(200)
    expect(health.body.pool.memory.budget).toBe(site.sizing.nativeBudgetBytes)
    expect(vi.mocked(sizeProcess)).toHaveBeenCalledTimes(1)
    // Only through sizeProcess: nothing sizes a box of its own.
    expect(vi.mocked(sizeForBox)).not.toHaveBeenCalled()
    expect(made.budgets).toBe(1)
  })
})

describe('the site in a 180 MB box', () => {
  let site: ReturnType<typeof testSite>
  beforeAll(() => {
    site = testSite({}, { box: box(180) })
  })
  afterAll(() => site.close())

  it('starts no render thread and refuses every image with 503, saying how much memory it has and needs', async () => {
    expect(site.sizing).toMatchObject({ renderThreads: 0, tooSmallForRenders: { smallestBoxMb: 200 } })
    const res = await request(site.app).post('/giffer/countdown/create').send({ delay: 60 })
    expect(res.status).toBe(503)
    expect(res.body.error).toEqual({ code: 'too_small_for_renders', message: 'This server has 180 MB of memory and needs at least 200 MB to draw images.' })
    expect(res.headers['retry-after']).toBe('3600')
  })

  it('still serves its pages', async () => {
    await request(site.app).get('/').expect(200)
  })
})
