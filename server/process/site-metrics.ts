/**
 * What the site counts for `/metrics` (server/process/metrics.ts), besides the process metrics:
 *
 *   http_request_duration_seconds{route,method,status}   route: a page id or a mount's name
 *   page_cache_hits_total, page_cache_misses_total
 *   giffer_*                                            the in-process image service (giffer/metrics.ts)
 */
import { Counter, Registry } from 'prom-client'
import { pageIdAt } from '../../shared/pages.js'
import { VISIT_BEACON_PATH } from '../../shared/tracking/tracking.js'
import { EMAIL_ASSETS_PATH } from '../gallery/email-catalog.js'
import { gifferMetrics } from '../giffer/metrics.js'
import type { RenderObserver } from '../giffer/pool.js'
import type { GifferRouter } from '../giffer/router.js'
import { countEach, metricsEndpoint, requestTimer } from './metrics.js'
import type { PageCache } from '../ssr/page-cache.js'

/**
 * The `route` label: the mounts of app.ts by their first segment, the files of public/ and the
 * site's own files as `static`, clone links as `clone`, page-view reports as `track`, pages by
 * their page id (`not-found` for unknown paths) and `other` for paths that do not decode.
 */
export function siteRouteOf(publicNames: Iterable<string>): (pathname: string) => string {
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
  for (const entry of publicNames) prefixes.set(entry.toLowerCase(), 'static')
  return (pathname) => {
    const slash = pathname.indexOf('/', 1)
    // Express matches mounts ignoring case.
    return prefixes.get(pathname.slice(1, slash === -1 ? undefined : slash).toLowerCase()) ?? pageIdAt(pathname) ?? 'other'
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
  /** The names at the top of public/, served at the root. */
  publicNames: Iterable<string>
  cache: PageCache
  /** METRICS_TOKEN: when set, scrapes must bring it. */
  token: string | undefined
}

/** The site's metrics: mount `endpoint` before `countRequests`, so that scrapes are not counted. */
export function siteMetrics({ publicNames, cache, token }: SiteMetricsOptions) {
  const registry = new Registry()
  pageCacheMetrics(registry, cache)
  const countRequest = requestTimer(registry, siteRouteOf(publicNames))
  return {
    endpoint: metricsEndpoint([registry], token),
    countRequests: countEach(countRequest),
    /** What countRequests does for one request, for answers sent before Express (server/process/answer-memory.ts). */
    countRequest,
    /** Adds the in-process image service's families; gives what its render pool reports to. */
    watchGiffer: (giffer: () => Pick<GifferRouter, 'stats' | 'unstoredKeys'> | undefined): RenderObserver => gifferMetrics(registry, () => giffer()?.stats, () => giffer()?.unstoredKeys),
  }
}
