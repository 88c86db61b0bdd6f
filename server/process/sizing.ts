/**
 * How a process sizes itself from its box (`server/process/box.ts`): render threads, the memory
 * renders and password hashes may take, and the caches. Everything here follows the box unless
 * its variable is set; an explicit render thread count is still capped by memory, with a
 * warning, because more threads than the memory holds is how a small instance gets killed.
 *
 * The memory a process may plan with is its box less a margin (the kernel counts the pages of the
 * files it reads and writes against the same limit, and the allocator keeps some slack), less
 * what the process itself holds at rest under traffic, less its caches. What remains is the
 * native budget: each render thread costs its own share while it lives (a JavaScript heap, the
 * canvas library, the fonts it loaded), and the rest is shared by the jobs running at any moment,
 * each admitted by its estimated peak (`server/giffer/render-memory.ts`), and by password hashes.
 */
import type { Logger } from 'pino'
import type { Box } from './box.js'

const MB = 2 ** 20

/** What processes run: the site (with or without the image service in it), the image service alone, the dashboard alone. */
export type ProcessRole = 'site' | 'giffer' | 'dashboard'

/** Kept free of every plan: the kernel's page cache of the process's own files, allocator slack. */
export const MARGIN_SHARE = 0.1
/**
 * What each kind of process holds at rest and under traffic, before its caches and renders: for
 * the site, 110 MB measured at start in a 256 MB box, plus what serving pages adds (with the
 * render thread, its largest job and the caches, the box's peak stayed near 210 MB of 256).
 */
const PROCESS_RESERVE: Record<ProcessRole, number> = { site: 120 * MB, giffer: 80 * MB, dashboard: 72 * MB }
const ROLE_NAMES: Record<ProcessRole, string> = { site: 'site', giffer: 'image service', dashboard: 'dashboard' }
/** One render thread's own memory while it lives: its JavaScript heap, the canvas library's state and the fonts it loaded. */
export const RENDER_THREAD_BYTES = 32 * MB
/** What each thread should find for its jobs: threads beyond what leaves every one of them this much would only wait. */
const JOB_SHARE_BYTES = 40 * MB

// Caches: a share of the box, never more than their fixed sizes on a large one (a 2-3 GB box).
const RENDER_CACHE = { share: 0.02, max: 64 * MB }
const PAGE_CACHE = { share: 0.03, max: 64 * MB, maxEntries: 500, minEntries: 20, entryBytes: 64 * 1024 }
const ANSWER_MEMORY = { share: 0.02, max: 16 * MB }

export interface SizingSettings {
  /** Whether this process draws images itself (the in-process or standalone image service). */
  renders: boolean
  /** GIFFER_WORKERS: render threads asked for; still capped by memory. */
  workers?: number
  /** GIFFER_RSS_LIMIT_MB in bytes. */
  rssLimitBytes?: number
  /** GIFFER_CACHE_MB in bytes. */
  renderCacheBytes?: number
  /** PAGE_CACHE_ENTRIES. */
  pageCacheEntries?: number
}

export interface Sizing {
  box: Box
  role: ProcessRole
  /** Render threads: the CPUs found (one left to the event loop), or GIFFER_WORKERS, capped by memory. 0 when the process draws no images. */
  renderThreads: number
  /** What GIFFER_WORKERS or the CPUs asked for, before the memory cap. */
  renderThreadsAsked: number
  /** Memory shared by the render jobs and password hashes running at one time. */
  nativeBudgetBytes: number
  /** Resident memory past which render threads are replaced between jobs (GIFFER_RSS_LIMIT_MB). */
  rssLimitBytes: number
  renderCacheBytes: number
  pageCache: { entries: number; bytes: number }
  answerMemoryBytes: number
  /** What the operator asked for that the box cannot hold, in words. */
  warnings: string[]
}

const share = (box: Box, cache: { share: number; max: number }) => Math.min(cache.max, Math.floor(box.memoryBytes * cache.share))

/** The sizes of everything that follows the box, for a process of this role. */
export function sizeForBox(box: Box, role: ProcessRole, settings: SizingSettings): Sizing {
  const warnings: string[] = []
  const usable = box.memoryBytes * (1 - MARGIN_SHARE)
  const serves = role === 'site'
  const renderCacheBytes = settings.renders ? (settings.renderCacheBytes ?? share(box, RENDER_CACHE)) : 0
  const pageBytes = serves ? share(box, PAGE_CACHE) : 0
  const pageEntries = settings.pageCacheEntries ?? (serves ? Math.max(PAGE_CACHE.minEntries, Math.min(PAGE_CACHE.maxEntries, Math.floor(pageBytes / PAGE_CACHE.entryBytes))) : 0)
  const answerMemoryBytes = serves ? share(box, ANSWER_MEMORY) : 0
  const free = Math.max(0, usable - PROCESS_RESERVE[role] - renderCacheBytes - pageBytes - answerMemoryBytes)

  // One thread per CPU, one left to the event loop: a quota of 1.5 CPUs gives one thread.
  const cpuThreads = Math.max(1, Math.ceil(box.cpus) - 1)
  const asked = settings.renders ? (settings.workers ?? cpuThreads) : 0
  const memoryThreads = Math.max(1, Math.floor(free / (RENDER_THREAD_BYTES + JOB_SHARE_BYTES)))
  const renderThreads = Math.min(asked, memoryThreads)
  if (settings.renders && settings.workers !== undefined && renderThreads < settings.workers) {
    warnings.push(
      `GIFFER_WORKERS=${settings.workers} asks for more render threads than ${Math.round(box.memoryBytes / MB)} MB holds: using ${renderThreads}. ` +
        `Each thread needs about ${Math.round((RENDER_THREAD_BYTES + JOB_SHARE_BYTES) / MB)} MB beside the ${ROLE_NAMES[role]}'s own ${Math.round(PROCESS_RESERVE[role] / MB)} MB.`,
    )
  }
  const nativeBudgetBytes = Math.max(0, Math.floor(free - renderThreads * RENDER_THREAD_BYTES))
  return {
    box,
    role,
    renderThreads,
    renderThreadsAsked: asked,
    nativeBudgetBytes,
    rssLimitBytes: settings.rssLimitBytes ?? Math.floor(usable),
    renderCacheBytes,
    pageCache: { entries: pageEntries, bytes: pageBytes },
    answerMemoryBytes,
    warnings,
  }
}

const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`
const cpus = (count: number) => `${Number(count.toFixed(2))} ${count === 1 ? 'CPU' : 'CPUs'}`

/** The start-up line: what the process found and what it chose. */
export function describeSizing(sizing: Sizing, extra: string[] = []): { message: string; fields: Record<string, unknown> } {
  const { box } = sizing
  const found = `${mb(box.memoryBytes)} (${box.memoryFrom}), ${cpus(box.cpus)} (${box.cpusFrom}${box.cpusFrom === 'affinity' ? '' : `; the machine shows ${box.machine.cpus}`})`
  const chose = [
    sizing.renderThreadsAsked > 0 ? `${sizing.renderThreads} render ${sizing.renderThreads === 1 ? 'thread' : 'threads'}` : '',
    `${mb(sizing.nativeBudgetBytes)} for ${[sizing.renderThreadsAsked > 0 ? 'renders' : '', sizing.role !== 'giffer' ? 'password hashes' : ''].filter(Boolean).join(' and ')}`,
    sizing.renderThreadsAsked > 0 ? `threads replaced past ${mb(sizing.rssLimitBytes)}` : '',
    sizing.renderThreadsAsked > 0 ? `render cache ${mb(sizing.renderCacheBytes)}` : '',
    sizing.pageCache.bytes > 0 ? `page cache ${sizing.pageCache.entries} pages, ${mb(sizing.pageCache.bytes)}` : '',
    ...extra,
  ].filter(Boolean)
  return {
    message: `box: ${found}; chose ${chose.join(', ')}`,
    fields: {
      box: { memoryMb: Math.round(box.memoryBytes / MB), memoryFrom: box.memoryFrom, cpus: box.cpus, cpusFrom: box.cpusFrom, machineCpus: box.machine.cpus },
      renderThreads: sizing.renderThreads,
      nativeBudgetMb: Math.round(sizing.nativeBudgetBytes / MB),
      rssLimitMb: Math.round(sizing.rssLimitBytes / MB),
      renderCacheMb: Math.round(sizing.renderCacheBytes / MB),
      pageCache: { entries: sizing.pageCache.entries, mb: Math.round(sizing.pageCache.bytes / MB) },
    },
  }
}

/** Writes the start-up line, and a warning for each setting the box could not honour. */
export function logSizing(logger: Logger, sizing: Sizing, extra: string[] = []): void {
  const { message, fields } = describeSizing(sizing, extra)
  logger.info(fields, message)
  for (const warning of sizing.warnings) logger.warn(warning)
}
