import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { costForBudget } from '../../server/accounts/passwords.js'
import { renderMemory } from '../../server/giffer/render-memory.js'
import { countdownSchema } from '../../server/giffer/schemas.js'
import type { Box } from '../../server/process/box.js'
import { describeSizing, MARGIN_SHARE, RENDER_THREAD_BYTES, sizeForBox, sizeProcess, SMALLEST_JOB_BYTES } from '../../server/process/sizing.js'
import { projectRoot } from '../../server/project-root.js'

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

describe('a box too small to draw images', () => {
  it('starts no render thread in a 180 MB site and says which box would draw: 200 MB, with 199 still too small', () => {
    const sizing = sizeForBox(box(180, 1), 'site', { renders: true })
    expect(sizing).toMatchObject({ renderThreads: 0, renderCacheBytes: 0, tooSmallForRenders: { smallestBoxMb: 200 } })
    expect(sizing.warnings).toEqual([
      'This box has 180 MB: too small for the site to draw images, which needs at least 200 MB (one render thread and the largest countdown beside its own 120 MB and its caches). ' +
        'No render thread is started, and every image is answered 503 too_small_for_renders. Give the process at least 200 MB, or set GIFFER_URL to an image service with more memory.',
    ])
    expect(sizeForBox(box(199, 1), 'site', { renders: true }).tooSmallForRenders).toEqual({ smallestBoxMb: 200 })
    const smallest = sizeForBox(box(200, 1), 'site', { renders: true })
    expect(smallest).toMatchObject({ renderThreads: 1, tooSmallForRenders: null, warnings: [] })
    expect(smallest.nativeBudgetBytes).toBeGreaterThanOrEqual(SMALLEST_JOB_BYTES)
  })

  it('needs 144 MB for the image service alone, with 143 too small', () => {
    expect(sizeForBox(box(143, 1), 'giffer', { renders: true })).toMatchObject({ renderThreads: 0, tooSmallForRenders: { smallestBoxMb: 144 } })
    expect(sizeForBox(box(144, 1), 'giffer', { renders: true })).toMatchObject({ renderThreads: 1, tooSmallForRenders: null })
    expect(sizeForBox(box(100, 1), 'giffer', { renders: true }).warnings[0]).toMatch(/^This box has 100 MB: too small for the image service to draw images, which needs at least 144 MB .* Give the process at least 144 MB\.$/)
  })

  it('holds the largest countdown (captions, scale 2) beside the one thread: every live timer fits the smallest box that draws', () => {
    const largest = countdownSchema.parse({ delay: 3600, days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds', scale: 2 })
    const { bytes } = renderMemory(largest)
    expect(bytes).toBeLessThanOrEqual(SMALLEST_JOB_BYTES)
    expect(bytes).toBeGreaterThan(SMALLEST_JOB_BYTES - 2 ** 20)
  })

  it('gives the memory a thread would have had to password hashes, and counts an explicit GIFFER_CACHE_MB in the box it asks for', () => {
    const tooSmall = sizeForBox(box(180, 1), 'site', { renders: true })
    const proxied = sizeForBox(box(180, 1), 'site', { renders: false })
    expect(tooSmall.nativeBudgetBytes).toBe(proxied.nativeBudgetBytes)
    expect(describeSizing(tooSmall).message).toMatch(/chose no render thread \(drawing images needs at least 200 MB\), 33 MB for password hashes, page cache/)
    const withCache = (mib: number) => sizeForBox(box(mib, 1), 'site', { renders: true, renderCacheBytes: 200 * MiB })
    expect(withCache(430).tooSmallForRenders).toEqual({ smallestBoxMb: 431 })
    expect(withCache(430).warnings).toEqual([expect.stringContaining('needs at least 431 MB with GIFFER_CACHE_MB=200 (')])
    expect(withCache(431)).toMatchObject({ renderThreads: 1, renderCacheBytes: 200 * MiB, tooSmallForRenders: null })
  })

  it('never calls the dashboard too small: it draws no images, its budget is for password hashes alone', () => {
    expect(sizeForBox(box(128, 1), 'dashboard', { renders: false })).toMatchObject({ renderThreads: 0, tooSmallForRenders: null, warnings: [] })
    expect(sizeForBox(box(128, 1), 'site', { renders: false })).toMatchObject({ tooSmallForRenders: null, warnings: [] })
  })
})

describe('settings above the box', () => {
  it('takes a GIFFER_RSS_LIMIT_MB at or above the box, and warns that the threads will never be replaced in time', () => {
    const sizing = sizeForBox(box(512, 2), 'site', { renders: true, rssLimitBytes: 600 * MiB })
    expect(sizing.rssLimitBytes).toBe(600 * MiB)
    expect(sizing.warnings).toEqual(["GIFFER_RSS_LIMIT_MB=600 is not below the box's 512 MB: render threads will never be replaced before the kernel kills the process."])
    expect(sizeForBox(box(512, 2), 'site', { renders: true, rssLimitBytes: 512 * MiB }).warnings).toHaveLength(1)
    expect(sizeForBox(box(512, 2), 'site', { renders: true, rssLimitBytes: 480 * MiB }).warnings).toEqual([])
  })

  it('warns of a GIFFER_CACHE_MB larger than the memory left for the render cache and threads, and of the box it leaves too small to draw', () => {
    const sizing = sizeForBox(box(512, 2), 'site', { renders: true, renderCacheBytes: 400 * MiB })
    expect(sizing.warnings).toEqual([
      "GIFFER_CACHE_MB=400 is more than the 315 MB a box of 512 MB leaves for the render cache and the render threads together (after its margin, the site's own 120 MB and its other caches): nothing is left to draw with.",
      expect.stringMatching(/^This box has 512 MB: too small for the site to draw images, which needs at least 666 MB with GIFFER_CACHE_MB=400 \(/),
    ])
    expect(sizeForBox(box(512, 2), 'giffer', { renders: true, renderCacheBytes: 600 * MiB }).warnings[0]).toBe(
      "GIFFER_CACHE_MB=600 is more than the 381 MB a box of 512 MB leaves for the render cache and the render threads together (after its margin, the image service's own 80 MB): nothing is left to draw with.",
    )
  })

  it('takes a GIFFER_CACHE_MB the box can hold beside a render thread as given, without a word', () => {
    const sizing = sizeForBox(box(512, 2), 'site', { renders: true, renderCacheBytes: 200 * MiB })
    expect(sizing).toMatchObject({ renderThreads: 1, renderCacheBytes: 200 * MiB, warnings: [] })
  })

  it('says nothing of the render settings of a process that draws no images', () => {
    expect(sizeForBox(box(512, 2), 'site', { renders: false, rssLimitBytes: 900 * MiB, renderCacheBytes: 900 * MiB }).warnings).toEqual([])
  })
})

describe('sizeProcess', () => {
  it("makes the process's one memory budget of the sizing's size", () => {
    const { sizing, budget } = sizeProcess(box(512, 2), 'site', { renders: true })
    expect(budget.totalBytes).toBe(sizing.nativeBudgetBytes)
    expect(sizing).toEqual(sizeForBox(box(512, 2), 'site', { renders: true }))
  })
})

/**
 * README.md's "What the process chooses, by platform": each row's box, as its "memory, CPUs it
 * finds" column says, and the figures the other columns publish.
 */
function readmePlatformRows(): { instance: string; memoryMb: number; cpus: number; published: string[] }[] {
  const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8')
  const after = readme.slice(readme.indexOf('What the process chooses, by platform'))
  const table = after.slice(after.indexOf('\n|')).split('\n\n')[0]!.trim().split('\n').slice(2)
  return table.map((line) => {
    const [instance, finds, ...rest] = line.split('|').slice(1, -1).map((cell) => cell.trim())
    // The figures the sizing makes; the last column says where first opens go on that platform.
    const published = rest.slice(0, 4)
    const memory = /([\d.]+)\s*(MB|GB|MiB|GiB)\b/.exec(finds!)
    const cpus = /([\d.]+)\s*CPUs?\b/.exec(finds!)
    if (!memory || !cpus) throw new Error(`README row "${instance}": no memory or CPUs in "${finds}"`)
    const memoryMb = Number(memory[1]) * (memory[2]!.startsWith('G') ? 1024 : 1)
    return { instance: instance!, memoryMb, cpus: Number(cpus[1]), published }
  })
}

/** The figures of one row as the README writes them: render threads, budget, scrypt, caches. */
function figuresFor(memoryMb: number, cpus: number): string[] {
  const sizing = sizeForBox(box(memoryMb, cpus), 'site', { renders: true })
  const mb = (bytes: number) => `${Math.round(bytes / MiB)} MB`
  const { logN, p } = costForBudget(sizing.nativeBudgetBytes)
  return [
    String(sizing.renderThreads),
    mb(sizing.nativeBudgetBytes),
    `N=2^${logN}${p === 1 ? '' : `, p=${p}`}`,
    `${mb(sizing.renderCacheBytes)}, ${sizing.pageCache.entries} pages in ${mb(sizing.pageCache.bytes)}`,
  ]
}

describe("README's table of what the site chooses by platform", () => {
  const rows = readmePlatformRows()

  it('lists the platforms people deploy on', () => {
    expect(rows.length).toBeGreaterThanOrEqual(6)
  })

  it.each(rows.map((row) => [row.instance, row] as const))('publishes what the site chooses on %s', (_instance, { memoryMb, cpus, published }) => {
    expect(published).toEqual(figuresFor(memoryMb, cpus))
  })
})
