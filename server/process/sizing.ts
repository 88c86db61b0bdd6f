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
 * A box that cannot hold one render thread and the largest countdown beside the rest starts no
 * thread, keeps no render cache and says so at start, naming the smallest box that would draw.
 *
 * Each process calls `sizeProcess` once at start and hands the sizing and its budget down.
 */
import type { Logger } from 'pino'
import type { Box } from './box.js'
import { MemoryBudget } from './memory-budget.js'

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
/**
 * The least a box must leave beside its one render thread to be worth starting it: the largest
 * countdown (captions, scale 2; `server/giffer/render-memory.ts` estimates 13.5 MB), so every
 * live timer fits. A box that cannot hold that draws no countdown, the service's most common
 * image, and starts no thread.
 * Smaller than a thread's full share on purpose: a VM sold as 256 MB shows the process about
 * 225 MB, which leaves a site 35 MB beside its thread, enough for countdowns, text and most
 * scrolling texts.
 */
export const SMALLEST_JOB_BYTES = 14 * MB

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
  /**
   * Set when the process should draw images but its box cannot hold one render thread and the
   * largest countdown beside what it holds already: the smallest box, in whole MB, that could. It
   * then starts no render thread and refuses every image, saying so.
   */
  tooSmallForRenders: { smallestBoxMb: number } | null
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

const share = (memoryBytes: number, cache: { share: number; max: number }) => Math.min(cache.max, Math.floor(memoryBytes * cache.share))
const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`

/** How a box of this much memory is shared out before render threads: what the process may plan with, its caches, and what is left. */
function planFor(memoryBytes: number, role: ProcessRole, settings: SizingSettings) {
  const usable = memoryBytes * (1 - MARGIN_SHARE)
  const serves = role === 'site'
  const renderCacheBytes = settings.renders ? (settings.renderCacheBytes ?? share(memoryBytes, RENDER_CACHE)) : 0
  const pageBytes = serves ? share(memoryBytes, PAGE_CACHE) : 0
  const answerMemoryBytes = serves ? share(memoryBytes, ANSWER_MEMORY) : 0
  const held = PROCESS_RESERVE[role] + pageBytes + answerMemoryBytes
  /** What the render cache, the threads and the budget share. */
  const forRenders = Math.max(0, usable - held)
  return { usable, renderCacheBytes, pageBytes, answerMemoryBytes, forRenders }
}

/** Whether a box of this much memory holds one render thread and the smallest job beside the process, its caches and the render cache. */
const drawsImages = (memoryBytes: number, role: ProcessRole, settings: SizingSettings) => {
  const plan = planFor(memoryBytes, role, settings)
  return plan.forRenders - plan.renderCacheBytes >= RENDER_THREAD_BYTES + SMALLEST_JOB_BYTES
}

/** The smallest box, in whole MB, that draws images for this role and these settings: what is left for renders grows with the box, so a search finds the first that fits. */
function smallestBoxForRendersMb(role: ProcessRole, settings: SizingSettings): number {
  let fits = 1
  while (!drawsImages(fits * MB, role, settings)) fits *= 2
  let short = fits / 2
  while (fits - short > 1) {
    const middle = Math.floor((short + fits) / 2)
    if (drawsImages(middle * MB, role, settings)) fits = middle
    else short = middle
  }
  return fits
}

/** The settings given above what the box can honour: taken as given, since an explicit setting wins, but said. */
function settingsAboveTheBox(box: Box, role: ProcessRole, settings: SizingSettings, plan: ReturnType<typeof planFor>): string[] {
  if (!settings.renders) return []
  const warnings: string[] = []
  if (settings.rssLimitBytes !== undefined && settings.rssLimitBytes >= box.memoryBytes) {
    warnings.push(
      `GIFFER_RSS_LIMIT_MB=${Math.round(settings.rssLimitBytes / MB)} is not below the box's ${mb(box.memoryBytes)}: render threads will never be replaced before the kernel kills the process.`,
    )
  }
  // The render cache and the render threads share what the process and its other caches leave.
  if (settings.renderCacheBytes !== undefined && settings.renderCacheBytes > plan.forRenders) {
    const others = role === 'site' ? ' and its other caches' : ''
    warnings.push(
      `GIFFER_CACHE_MB=${Math.round(settings.renderCacheBytes / MB)} is more than the ${mb(plan.forRenders)} a box of ${mb(box.memoryBytes)} leaves for the render cache and the render threads together ` +
        `(after its margin, the ${ROLE_NAMES[role]}'s own ${mb(PROCESS_RESERVE[role])}${others}): nothing is left to draw with.`,
    )
  }
  return warnings
}

/** The warning of a box too small to draw images: what it has, what it needs, what happens meanwhile. */
function tooSmallWarning(box: Box, role: ProcessRole, settings: SizingSettings, smallestBoxMb: number): string {
  const withCache = settings.renderCacheBytes === undefined ? '' : ` with GIFFER_CACHE_MB=${Math.round(settings.renderCacheBytes / MB)}`
  const instead = role === 'site' ? ', or set GIFFER_URL to an image service with more memory' : ''
  return (
    `This box has ${mb(box.memoryBytes)}: too small for the ${ROLE_NAMES[role]} to draw images, which needs at least ${smallestBoxMb} MB${withCache} ` +
    `(one render thread and the largest countdown beside its own ${mb(PROCESS_RESERVE[role])} and its caches). No render thread is started, and every image ` +
    `is answered 503 too_small_for_renders. Give the process at least ${smallestBoxMb} MB${instead}.`
  )
}

/** The sizes of everything that follows the box, for a process of this role. */
export function sizeForBox(box: Box, role: ProcessRole, settings: SizingSettings): Sizing {
  const plan = planFor(box.memoryBytes, role, settings)
  const warnings = settingsAboveTheBox(box, role, settings, plan)
  const tooSmall = settings.renders && !drawsImages(box.memoryBytes, role, settings)
  const tooSmallForRenders = tooSmall ? { smallestBoxMb: smallestBoxForRendersMb(role, settings) } : null
  if (tooSmallForRenders) warnings.push(tooSmallWarning(box, role, settings, tooSmallForRenders.smallestBoxMb))
  // A box that draws nothing keeps no render cache: its memory goes to password hashes.
  const renderCacheBytes = tooSmall ? 0 : plan.renderCacheBytes
  const free = Math.max(0, plan.forRenders - renderCacheBytes)

  // One thread per CPU, one left to the event loop: a quota of 1.5 CPUs gives one thread.
  const cpuThreads = Math.max(1, Math.ceil(box.cpus) - 1)
  const asked = settings.renders ? (settings.workers ?? cpuThreads) : 0
  const memoryThreads = Math.max(1, Math.floor(free / (RENDER_THREAD_BYTES + JOB_SHARE_BYTES)))
  const renderThreads = tooSmall ? 0 : Math.min(asked, memoryThreads)
  if (!tooSmall && settings.renders && settings.workers !== undefined && renderThreads < settings.workers) {
    warnings.push(
      `GIFFER_WORKERS=${settings.workers} asks for more render threads than ${mb(box.memoryBytes)} holds: using ${renderThreads}. ` +
        `Each thread needs about ${mb(RENDER_THREAD_BYTES + JOB_SHARE_BYTES)} beside the ${ROLE_NAMES[role]}'s own ${mb(PROCESS_RESERVE[role])}.`,
    )
  }
  const pageEntries = settings.pageCacheEntries ?? (role === 'site' ? Math.max(PAGE_CACHE.minEntries, Math.min(PAGE_CACHE.maxEntries, Math.floor(plan.pageBytes / PAGE_CACHE.entryBytes))) : 0)
  return {
    box,
    role,
    renderThreads,
    renderThreadsAsked: asked,
    tooSmallForRenders,
    nativeBudgetBytes: Math.max(0, Math.floor(free - renderThreads * RENDER_THREAD_BYTES)),
    rssLimitBytes: settings.rssLimitBytes ?? Math.floor(plan.usable),
    renderCacheBytes,
    pageCache: { entries: pageEntries, bytes: plan.pageBytes },
    answerMemoryBytes: plan.answerMemoryBytes,
    warnings,
  }
}

/** What a process decides about its memory at start, made once and handed to everything that needs it. */
export interface ProcessSizing {
  sizing: Sizing
  /** The process's one native memory budget: render jobs and password hashes take from it. */
  budget: MemoryBudget
}

/**
 * The sizing of this process and its one memory budget. Each process (the site, the image
 * service, the dashboard) calls it once at start and hands both down; nothing sizes itself again.
 */
export function sizeProcess(box: Box, role: ProcessRole, settings: SizingSettings): ProcessSizing {
  const sizing = sizeForBox(box, role, settings)
  return { sizing, budget: new MemoryBudget(sizing.nativeBudgetBytes) }
}

const cpus = (count: number) => `${Number(count.toFixed(2))} ${count === 1 ? 'CPU' : 'CPUs'}`

/** The start-up line: what the process found and what it chose. */
export function describeSizing(sizing: Sizing, extra: string[] = []): { message: string; fields: Record<string, unknown> } {
  const { box } = sizing
  const found = `${mb(box.memoryBytes)} (${box.memoryFrom}), ${cpus(box.cpus)} (${box.cpusFrom}${box.cpusFrom === 'affinity' ? '' : `; the machine shows ${box.machine.cpus}`})`
  const draws = sizing.renderThreads > 0
  const budgetFor = [draws ? 'renders' : '', sizing.role !== 'giffer' ? 'password hashes' : ''].filter(Boolean).join(' and ')
  const chose = [
    sizing.tooSmallForRenders ? `no render thread (drawing images needs at least ${sizing.tooSmallForRenders.smallestBoxMb} MB)` : '',
    draws ? `${sizing.renderThreads} render ${sizing.renderThreads === 1 ? 'thread' : 'threads'}` : '',
    budgetFor ? `${mb(sizing.nativeBudgetBytes)} for ${budgetFor}` : '',
    draws ? `threads replaced past ${mb(sizing.rssLimitBytes)}` : '',
    draws ? `render cache ${mb(sizing.renderCacheBytes)}` : '',
    sizing.pageCache.bytes > 0 ? `page cache ${sizing.pageCache.entries} pages, ${mb(sizing.pageCache.bytes)}` : '',
    ...extra,
  ].filter(Boolean)
  return {
    message: `box: ${found}; chose ${chose.join(', ')}`,
    fields: {
      box: { memoryMb: Math.round(box.memoryBytes / MB), memoryFrom: box.memoryFrom, cpus: box.cpus, cpusFrom: box.cpusFrom, machineCpus: box.machine.cpus },
      renderThreads: sizing.renderThreads,
      smallestBoxForRendersMb: sizing.tooSmallForRenders?.smallestBoxMb,
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
