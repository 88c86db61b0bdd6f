import { describe, expect, it } from 'vitest'
import type { Box } from '../../server/process/box.js'
import { describeSizing, MARGIN_SHARE, RENDER_THREAD_BYTES, sizeForBox } from '../../server/process/sizing.js'

const MiB = 2 ** 20

/** A box of `mib` MiB showing `cpus` CPUs with no quota, on a large machine. */
function box(mib: number, cpus: number, more: Partial<Box> = {}): Box {
  return { memoryBytes: mib * MiB, memoryFrom: 'cgroup v1', cpus, cpusFrom: 'affinity', machine: { memoryBytes: 64 * 1024 * MiB, cpus }, ...more }
}

/** A box whose CPUs come from a cgroup v2 quota on a machine showing 8. */
const quotaBox = (mib: number, cpus: number) => box(mib, cpus, { cpusFrom: 'cgroup v2 quota', memoryFrom: 'cgroup v2', machine: { memoryBytes: 64 * 1024 * MiB, cpus: 8 } })

describe('sizeForBox', () => {
  it('gives a 256 MiB box with 1 CPU one render thread, a native budget, caches smaller than a 2 GiB box and 20 to 500 cached pages', () => {
    const small = sizeForBox(box(256, 1), 'site', { renders: true })
    const large = sizeForBox(box(2048, 1), 'site', { renders: true })
    expect(small.renderThreads).toBe(1)
    expect(small.nativeBudgetBytes).toBeGreaterThan(0)
    expect(small.renderCacheBytes).toBeGreaterThan(0)
    expect(small.renderCacheBytes).toBeLessThan(large.renderCacheBytes)
    expect(small.pageCache.bytes).toBeLessThan(large.pageCache.bytes)
    expect(small.answerMemoryBytes).toBeLessThan(large.answerMemoryBytes)
    expect(small.pageCache.entries).toBeGreaterThanOrEqual(20)
    expect(small.pageCache.entries).toBeLessThanOrEqual(500)
    expect(small.warnings).toEqual([])
  })

  it('plans no more than the box less its margin: native budget, render threads and caches together', () => {
    for (const mib of [256, 512, 1024, 2048, 8192]) {
      const sizing = sizeForBox(box(mib, 8), 'site', { renders: true })
      const planned = sizing.nativeBudgetBytes + sizing.renderThreads * RENDER_THREAD_BYTES + sizing.renderCacheBytes + sizing.pageCache.bytes + sizing.answerMemoryBytes
      expect(planned).toBeLessThan(mib * MiB * (1 - MARGIN_SHARE))
      expect(sizing.rssLimitBytes).toBe(Math.floor(mib * MiB * (1 - MARGIN_SHARE)))
    }
  })

  it('gives a 512 MiB box that shows 8 CPUs and no quota fewer than 7 render threads: memory caps what the CPUs ask', () => {
    const sizing = sizeForBox(box(512, 8), 'site', { renders: true })
    expect(sizing.renderThreadsAsked).toBe(7)
    expect(sizing.renderThreads).toBeGreaterThanOrEqual(1)
    expect(sizing.renderThreads).toBeLessThan(7)
    expect(sizing.warnings).toEqual([])
  })

  it('never gives more render threads than the CPUs ask (cores less one, at least one), however large the box', () => {
    for (const mib of [256, 512, 1024, 4096, 65536]) {
      for (const cpus of [1, 2, 4, 8, 32]) {
        const sizing = sizeForBox(box(mib, cpus), 'giffer', { renders: true })
        expect(sizing.renderThreads).toBeGreaterThanOrEqual(1)
        expect(sizing.renderThreads).toBeLessThanOrEqual(Math.max(1, cpus - 1))
      }
    }
    expect(sizeForBox(box(65536, 8), 'giffer', { renders: true }).renderThreads).toBe(7)
  })

  it('caps GIFFER_WORKERS above what memory holds and says so, naming GIFFER_WORKERS', () => {
    const sizing = sizeForBox(box(512, 8), 'site', { renders: true, workers: 16 })
    const fromCpus = sizeForBox(box(512, 8), 'site', { renders: true })
    expect(sizing.renderThreadsAsked).toBe(16)
    expect(sizing.renderThreads).toBe(fromCpus.renderThreads)
    expect(sizing.renderThreads).toBeLessThan(16)
    expect(sizing.warnings).toHaveLength(1)
    expect(sizing.warnings[0]).toContain('GIFFER_WORKERS=16')
    expect(sizing.warnings[0]).toContain(`using ${sizing.renderThreads}`)
    expect(sizing.warnings[0]).toContain('512 MB')
  })

  it('uses GIFFER_WORKERS as given, even above the CPUs, when memory holds it, with no warning', () => {
    const sizing = sizeForBox(box(8192, 2), 'giffer', { renders: true, workers: 6 })
    expect(sizing.renderThreads).toBe(6)
    expect(sizing.renderThreadsAsked).toBe(6)
    expect(sizing.warnings).toEqual([])
    const small = sizeForBox(box(512, 8), 'site', { renders: true, workers: 2 })
    expect(small.renderThreads).toBe(2)
    expect(small.warnings).toEqual([])
  })

  it('lets explicit GIFFER_RSS_LIMIT_MB, GIFFER_CACHE_MB and PAGE_CACHE_ENTRIES win over the box', () => {
    const sizing = sizeForBox(box(256, 1), 'site', { renders: true, rssLimitBytes: 900 * MiB, renderCacheBytes: 3 * MiB, pageCacheEntries: 7 })
    expect(sizing.rssLimitBytes).toBe(900 * MiB)
    expect(sizing.renderCacheBytes).toBe(3 * MiB)
    expect(sizing.pageCache.entries).toBe(7)
    const larger = sizeForBox(box(256, 1), 'site', { renders: true, pageCacheEntries: 5000 })
    expect(larger.pageCache.entries).toBe(5000)
  })

  it('gives no render threads and no render cache to a site that proxies the image service', () => {
    const sizing = sizeForBox(box(1024, 4), 'site', { renders: false, renderCacheBytes: 32 * MiB })
    expect(sizing).toMatchObject({ renderThreads: 0, renderThreadsAsked: 0, renderCacheBytes: 0 })
    expect(sizing.nativeBudgetBytes).toBeGreaterThan(sizeForBox(box(1024, 4), 'site', { renders: true }).nativeBudgetBytes)
    expect(sizing.pageCache.entries).toBeGreaterThan(0)
  })

  it('says nothing of GIFFER_WORKERS in a site that proxies the image service: it runs no render threads to cap', () => {
    expect(sizeForBox(box(512, 8), 'site', { renders: false, workers: 4 }).warnings).toEqual([])
  })

  it('gives the dashboard no render threads, no render cache and no page cache, but a native budget for password hashes', () => {
    const sizing = sizeForBox(box(512, 2), 'dashboard', { renders: false })
    expect(sizing).toMatchObject({ renderThreads: 0, renderThreadsAsked: 0, renderCacheBytes: 0, pageCache: { entries: 0, bytes: 0 }, answerMemoryBytes: 0 })
    expect(sizing.nativeBudgetBytes).toBeGreaterThan(0)
  })

  it('gives the image service alone no page cache', () => {
    const sizing = sizeForBox(box(2048, 4), 'giffer', { renders: true })
    expect(sizing.pageCache).toEqual({ entries: 0, bytes: 0 })
    expect(sizing.answerMemoryBytes).toBe(0)
    expect(sizing.renderCacheBytes).toBeGreaterThan(0)
  })

  it('gives 1 render thread for a quota of 0.5 CPU, 1 for 1.5 and 2 for 3', () => {
    const threads = (cpus: number) => sizeForBox(quotaBox(4096, cpus), 'giffer', { renders: true }).renderThreads
    expect(threads(0.5)).toBe(1)
    expect(threads(1.5)).toBe(1)
    expect(threads(3)).toBe(2)
  })

  it('never gives a bigger box a smaller native budget: 256, 512, 1024 and 2048 MiB', () => {
    for (const role of ['site', 'giffer', 'dashboard'] as const) {
      for (const cpus of [1, 2, 8]) {
        const budgets = [256, 512, 1024, 2048].map((mib) => sizeForBox(box(mib, cpus), role, { renders: role !== 'dashboard' }).nativeBudgetBytes)
        for (let i = 1; i < budgets.length; i++) expect(budgets[i]).toBeGreaterThan(budgets[i - 1]!)
      }
    }
  })
})

describe('describeSizing', () => {
  it("names the site's memory and where it came from, the CPUs, the render threads, the budget and password hashes", () => {
    const sizing = sizeForBox(box(512, 8), 'site', { renders: true })
    const { message, fields } = describeSizing(sizing)
    const budgetMb = Math.round(sizing.nativeBudgetBytes / MiB)
    expect(message).toContain('512 MB (cgroup v1)')
    expect(message).toContain('8 CPUs (affinity)')
    expect(message).toContain(`${sizing.renderThreads} render threads`)
    expect(message).toContain(`${budgetMb} MB for renders and password hashes`)
    expect(message).toContain(`page cache ${sizing.pageCache.entries} pages`)
    expect(fields).toMatchObject({ box: { memoryMb: 512, memoryFrom: 'cgroup v1', cpus: 8, cpusFrom: 'affinity' }, renderThreads: sizing.renderThreads, nativeBudgetMb: budgetMb })
  })

  it('names a CPU quota with what the machine shows, and one render thread in the singular', () => {
    const { message } = describeSizing(sizeForBox(quotaBox(1024, 1.5), 'site', { renders: true }))
    expect(message).toContain('1024 MB (cgroup v2)')
    expect(message).toContain('1.5 CPUs (cgroup v2 quota; the machine shows 8)')
    expect(message).toContain('1 render thread,')
  })

  it('says "password hashes" for the dashboard, with no render threads', () => {
    const sizing = sizeForBox(box(512, 2), 'dashboard', { renders: false })
    const { message } = describeSizing(sizing)
    expect(message).toContain(`${Math.round(sizing.nativeBudgetBytes / MiB)} MB for password hashes`)
    expect(message).not.toContain('render')
  })

  it('does not say "password hashes" for the image service', () => {
    const sizing = sizeForBox(box(1024, 4), 'giffer', { renders: true })
    const { message } = describeSizing(sizing, ['uploads up to 2 GB'])
    expect(message).toContain('1024 MB (cgroup v1)')
    expect(message).toContain('4 CPUs (affinity)')
    expect(message).toContain(`${sizing.renderThreads} render threads`)
    expect(message).toContain(`${Math.round(sizing.nativeBudgetBytes / MiB)} MB for renders`)
    expect(message).not.toContain('password hashes')
    expect(message).not.toContain('page cache')
    expect(message).toMatch(/uploads up to 2 GB$/)
  })
})
