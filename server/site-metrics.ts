/**
 * What the site counts for `/metrics` (server/metrics.ts), besides the process metrics:
 *
 *   http_request_duration_seconds{route,method,status}   route: a page id or a mount's name
 *   page_cache_hits_total, page_cache_misses_total
 *   giffer_*                                            the in-process image service (giffer/metrics.ts)
 */
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { Counter, Registry } from 'prom-client'
import { isDecodablePath } from '../shared/canonical.js'
import { pageIdAt, pages } from '../shared/pages.js'
import { VISIT_BEACON_PATH } from '../shared/tracking.js'
import { EMAIL_ASSETS_PATH } from './gallery/email-catalog.js'
import { gifferMetrics } from './giffer/metrics.js'
import type { PoolStats, RenderObserver } from './giffer/pool.js'
import { metricsEndpoint, requestDurations } from './metrics.js'
import type { PageCache } from './ssr/page-cache.js'

/** The names at the top of public/, served at the root by express.static. */
function publicEntries(rootDir: string): string[] {
  try {
    return readdirSync(path.join(rootDir, 'public'))
  } catch {
    return []
  }
}

/**
 * The page id at a path, without matching the path itself: matching ranks every route on each
 * call (about a millisecond), too slow for every request. A path is first reduced to its shape:
 * each segment kept where some page has that word at that place (as routes match, ignoring case),
 * any other segment replaced by one placeholder, which matches the same parameters it does. There
 * are a few hundred shapes at most, so each is matched once and remembered.
 */
function pageIdsByShape(): (pathname: string) => string {
  const wordsAt: Set<string>[] = []
  let depth = 0
  for (const page of pages) {
    const segments = (page.path ?? '').split('/').filter(Boolean)
    depth = Math.max(depth, segments.length)
    segments.forEach((segment, at) => {
      if (!segment.startsWith(':') && segment !== '*') (wordsAt[at] ??= new Set()).add(segment.toLowerCase())
    })
  }
  const byShape = new Map<string, string>()
  return (pathname) => {
    if (pathname.includes('%') && !isDecodablePath(pathname)) return 'other'
    // Deeper than every page, a path is not found whatever its segments: one shape for them all.
    const segments = pathname.split('/').filter(Boolean).slice(0, depth + 1)
    const shape = segments.map((segment, at) => (wordsAt[at]?.has(segment.toLowerCase()) ? segment.toLowerCase() : '_')).join('/')
    let id = byShape.get(shape)
    if (id === undefined) {
      id = pageIdAt(`/${shape}`) ?? 'other'
      byShape.set(shape, id)
    }
    return id
  }
}

/** Paths whose route name is remembered as it is, most visits being to a few pages; then started afresh. */
const KNOWN_PATHS_MAX = 2000

/**
 * The `route` label: the mounts of app.ts by their first segment, the files of public/ and the
 * site's own files as `static`, clone links as `clone`, page-view reports as `track`, pages by
 * their page id (`not-found` for unknown paths) and `other` for paths that do not decode.
 */
export function siteRouteOf(rootDir: string): (pathname: string) => string {
  const prefixes = new Map<string, string>([
    ['giffer', 'giffer'],
    ['app', 'app'],
    ['api', 'api'],
    ['assets', 'assets'],
    ['thumbnails', 'thumbnails'],
    [EMAIL_ASSETS_PATH.slice(1), 'static'],
    ['robots.txt', 'static'],
    ['sitemap.xml', 'static'],
    ['t', 'clone'],
    ['te', 'clone'],
    [VISIT_BEACON_PATH.split('/')[1]!, 'track'],
  ])
  for (const entry of publicEntries(rootDir)) prefixes.set(entry.toLowerCase(), 'static')
  const pageIdOf = pageIdsByShape()
  const known = new Map<string, string>()
  return (pathname) => {
    let route = known.get(pathname)
    if (route !== undefined) return route
    const slash = pathname.indexOf('/', 1)
    // Express matches mounts ignoring case.
    route = prefixes.get(pathname.slice(1, slash === -1 ? undefined : slash).toLowerCase()) ?? pageIdOf(pathname)
    if (known.size >= KNOWN_PATHS_MAX) known.clear()
    known.set(pathname, route)
    return route
  }
}

/** The page cache's own counts, read when scraped. */
function pageCacheMetrics(registry: Registry, cache: PageCache): void {
  new Counter({
    name: 'page_cache_hits_total',
    help: 'Page requests answered from the page cache (304s included).',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(cache.hits)
    },
  })
  new Counter({
    name: 'page_cache_misses_total',
    help: 'Pages rendered that the page cache could keep, because it did not have them.',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(cache.misses)
    },
  })
}

export interface SiteMetricsOptions {
  rootDir: string
  cache: PageCache
  /** METRICS_TOKEN: when set, scrapes must bring it. */
  token: string | undefined
}

/** The site's metrics: mount `endpoint` before `countRequests`, so that scrapes are not counted. */
export function siteMetrics({ rootDir, cache, token }: SiteMetricsOptions) {
  const registry = new Registry()
  pageCacheMetrics(registry, cache)
  return {
    endpoint: metricsEndpoint([registry], token),
    countRequests: requestDurations(registry, siteRouteOf(rootDir)),
    /** Adds the in-process image service's families; gives what its render pool reports to. */
    watchGiffer: (stats: () => PoolStats | undefined): RenderObserver => gifferMetrics(registry, stats),
  }
}
