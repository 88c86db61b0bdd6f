import fs from 'node:fs'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import path from 'node:path'
import express, { type Express, type RequestHandler } from 'express'
import helmet from 'helmet'
import type { Logger } from 'pino'
import { canonicalPath } from './canonical.js'
import { createApiRouter } from './api/router.js'
import type { PriceList } from './pricing/api.js'
import { AnswerMemory } from './process/answer-memory.js'
import type { Config } from './process/config.js'
import { createDashboard, type Dashboard } from './dashboard/router.js'
import { dashboardSettings } from './dashboard/config.js'
import { plainTextErrorHandler } from './process/errors.js'
import { connectSharedCounters, redisDependency, type SharedCounters } from './process/shared-counters.js'
import { localGateway, remoteGateway, type AccountsGateway } from './accounts/gateway.js'
import { accountLimiters, DEFAULT_LIMITS, type AccountLimiters } from './accounts/rate-limits.js'
import { authActions } from './accounts/form-actions.js'
import { pageForms } from './accounts/forms.js'
import type { DashboardOptions } from './dashboard/context.js'
import { createGifferRouter, type GifferRouter } from './giffer/router.js'
import { gifferBrowserOrigins, gifferOptionsFromEnv, renderSizingFromEnv } from './giffer/config.js'
import { liveImageFormat, LIVE_PROXY_WAIT_MS, sendUndrawnPixel } from './giffer/live/pixel.js'
import { clientAddress, createLogger, requestIdOf, requestLog, requestLogger, type TrustProxy } from './process/logger.js'
import { untrustedForwardingWarning } from './process/proxy-trust.js'
import { httpDependency, liveness, Readiness } from './process/readiness.js'
import { createUpstreamProxy, serviceUrl } from './process/upstream-proxy.js'
import { readBox, type Box } from './process/box.js'
import type { MemoryBudget } from './process/memory-budget.js'
import { sizeProcess, type Sizing } from './process/sizing.js'
import { seoRoutes } from './seo.js'
import { siteMetrics } from './process/site-metrics.js'
import { loadSiteData, type SiteData } from './site-data.js'
import { thumbnailRouter } from './gallery/thumbnails.js'
import { cloneLinks } from './gallery/clone-links.js'
import { EMAIL_ASSETS_PATH } from './gallery/email-catalog.js'
import { createPageHandler } from './ssr/handler.js'
import { createServerLoaders } from './ssr/loaders.js'
import { loadClientAssets, type ClientAssets } from './ssr/manifest.js'
import { cachedPageReplay, PageCache, serveCachedPages } from './ssr/page-cache.js'
import { dashboardReferralTracker, visitTracking, type TrackingOptions } from './tracking/middleware.js'
import { compressResponses, IMMUTABLE } from './process/http-cache.js'
import { GENERATED } from './project-root.js'

export interface AppOverrides {
  logger?: Logger
  /** Replaces the content folder (config `contentDir`, `<root>/data`): tests point the site at a changed copy. */
  contentDir?: string
  /** The site's data, already read from the content folder (tests share one copy between sites). */
  data?: SiteData
  /** Replaces the price list read from the content folder (tests use it to make prices fail). */
  prices?: PriceList
  now?: () => Date
  /** Replaces the partner tracking call made for a visitor's first `?ref=`. */
  trackReferral?: TrackingOptions['trackReferral']
  /** Settings of the local dashboard that tests change (a database in memory, a cheaper scrypt, limits). */
  dashboard?: Partial<Pick<DashboardOptions, 'databaseFile' | 'scryptCost' | 'limits' | 'now' | 'mailRetry'>>
  /** The box the process sizes itself for; unset: read from its cgroup (server/process/box.ts). Tests give a small one. */
  box?: Box
}

function securityHeaders(config: Config, client: ClientAssets | null): RequestHandler {
  const https = config.publicOrigin.startsWith('https:')
  // Uploads posted to a bucket, images from the image service's own origin: opened only when configured.
  const giffer = gifferBrowserOrigins(config, config.publicOrigin)
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // Two inline scripts, the header's menus and the boot script, allowed by their hashes;
        // router state travels in a JSON script tag, which never runs.
        scriptSrc: ["'self'", ...(client?.scriptHashSources ?? [])],
        // Each part of the stylesheet a page may inline is allowed by its hash (the same header
        // for every page), nothing else inline; 'self' for the parts the next page fetches.
        styleSrc: ["'self'", ...(client ? client.cssHashSources : [])],
        imgSrc: ["'self'", 'data:', 'blob:', ...giffer.images],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...giffer.uploads],
        frameSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    // The social sign-in popup passes through the provider's origin and must still reach its
    // opener with postMessage; same-origin would cut that link.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  })
}

/** public/ as listed once at start-up: its files by URL path, and the names at its top. */
interface PublicFolder {
  dir: string
  files: Set<string>
  topNames: string[]
}

function listPublic(dir: string): PublicFolder {
  const entries = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).map((entry) => ({
    isFile: entry.isFile(),
    url: '/' + path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
  }))
  return {
    dir,
    files: new Set(entries.filter((entry) => entry.isFile).map((entry) => entry.url)),
    topNames: entries.filter((entry) => entry.url.indexOf('/', 1) === -1).map((entry) => entry.url.slice(1)),
  }
}

/**
 * The files of public/, served as they are. The folder is listed once at start-up, so the other
 * requests (pages, the API) pass by without a file-system lookup each.
 */
function publicFiles({ dir, files }: PublicFolder): RequestHandler {
  const serve = express.static(dir, { index: false, maxAge: '1d' })
  return (req, res, next) => (files.has(req.path) ? serve(req, res, next) : next())
}

/** Sends /pricing to /pricing/ (and /aurora/ to /aurora) with 301, keeping the query. */
const canonicalRedirect: RequestHandler = (req, res, next) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return next()
  const target = canonicalPath(req.path)
  if (target === null) return next()
  const query = req.originalUrl.indexOf('?')
  res.redirect(301, target + (query === -1 ? '' : req.originalUrl.slice(query)))
}

/** What the mounts share, made once by createApp. */
interface Site {
  config: Config
  overrides: AppOverrides
  logger: Logger
  /** Everything read from the content folder at start-up. */
  data: SiteData
  client: ClientAssets | null
  /** public/, listed once for the files mount and the metrics' route names. */
  publicFolder: PublicFolder
  /** With REDIS_URL, the counts every process must share; otherwise each process counts alone. */
  sharedCounters: SharedCounters | null
  cache: PageCache
  /** What the process chose for its box: render threads, memory budget, cache sizes. */
  sizing: Sizing
  /** The process's one native memory budget, which render jobs and password hashes share. */
  budget: MemoryBudget
  metrics: ReturnType<typeof siteMetrics>
  /** What `/readyz` answers: draining after SIGTERM, and the state of the services the site calls. */
  readiness: Readiness
}

function siteOf(config: Config, overrides: AppOverrides): Site {
  const logger = overrides.logger ?? createLogger(config)
  const loaded = overrides.data ?? loadSiteData(overrides.contentDir ?? config.contentDir)
  const data = overrides.prices ? { ...loaded, prices: overrides.prices } : loaded
  const client = loadClientAssets(config.rootDir)
  if (!client && config.NODE_ENV === 'production') {
    logger.warn('dist/manifest.json is missing: pages are served without scripts and styles. Run `npm run build`.')
  }
  const publicFolder = listPublic(path.join(config.rootDir, 'public'))
  const sharedCounters = config.REDIS_URL ? connectSharedCounters(config.REDIS_URL, logger) : null
  // Sized once, here: the image service and the dashboard in this process take what is handed to them.
  const { sizing, budget } = sizeProcess(overrides.box ?? readBox(), 'site', {
    renders: !config.GIFFER_URL,
    ...renderSizingFromEnv(config),
    pageCacheEntries: config.PAGE_CACHE_ENTRIES,
  })
  const cache = new PageCache(sizing.pageCache.entries, { maxAge: config.PAGE_SHARED_MAX_AGE, staleWhileRevalidate: config.PAGE_STALE_WHILE_REVALIDATE }, sizing.pageCache.bytes)
  const metrics = siteMetrics({ publicNames: publicFolder.topNames, cache, token: config.METRICS_TOKEN })
  // Pages need none of these: each is reported, none makes the process unready.
  const readiness = new Readiness([
    ...(sharedCounters ? [redisDependency(sharedCounters)] : []),
    ...(config.GIFFER_URL ? [httpDependency('giffer', serviceUrl(config.GIFFER_URL, 'healthz').href)] : []),
    ...(config.DASHBOARD_URL ? [httpDependency('dashboard', serviceUrl(config.DASHBOARD_URL, 'api/v2/users/login_check').href)] : []),
  ])
  return { config, overrides, logger, data, client, publicFolder, sharedCounters, cache, sizing, budget, metrics, readiness }
}

/**
 * Request log, health check, metrics and security headers, ahead of everything. Gives what the
 * request log and the metrics do for an answer sent before Express (server/process/answer-memory.ts),
 * which returns the request's id.
 */
function mountFront(app: Express, { config, logger, metrics, client, readiness }: Site): (req: IncomingMessage, res: ServerResponse) => string {
  const logRequest = requestLog(logger)
  app.use(requestLogger(logger, logRequest))
  app.use(untrustedForwardingWarning(app, logger))
  // Liveness (the process answers) and readiness (it takes traffic: 503 once it drains).
  app.get('/healthz', liveness)
  app.get('/readyz', readiness.route())
  // Prometheus text for operators, ahead of cookies and the page cache; scrapes and probes are not counted.
  app.get('/metrics', metrics.endpoint)
  app.use(metrics.countRequests)
  app.use(securityHeaders(config, client))
  return (req, res) => {
    const trust = app.get('trust proxy fn') as TrustProxy
    const id = requestIdOf(req, trust)
    logRequest(req, res, id, clientAddress(req, trust))
    metrics.countRequest(req, res)
    return id
  }
}

/**
 * The image service at /giffer, before the page machinery: its URLs have no canonical slash, and
 * its images carry no cookies so that caches may keep them. Proxied with GIFFER_URL; otherwise
 * in-process, created on first use, so a process that never draws an image starts no render threads.
 */
function mountGiffer(app: Express, { config, logger, metrics, sizing, budget, sharedCounters }: Site): { close(): Promise<void> } {
  if (config.GIFFER_URL) {
    // A live timer in an email answers an image in time even when the image service does not:
    // a mail proxy keeps an error image (server/giffer/live/pixel.ts).
    const liveTimers = { matches: liveImageFormat, waitMs: LIVE_PROXY_WAIT_MS, send: sendUndrawnPixel }
    app.use('/giffer', createUpstreamProxy({ target: config.GIFFER_URL, name: 'giffer', timeoutMs: config.UPSTREAM_TIMEOUT_MS, logger, fallback: liveTimers }))
    return { close: async () => {} }
  }
  let giffer: GifferRouter | undefined
  const options = gifferOptionsFromEnv(config, {
    stateDir: config.stateDir,
    publicPath: '/giffer',
    publicOrigin: config.publicOrigin,
    siteOrigin: config.publicOrigin,
    logger,
    renderObserver: metrics.watchGiffer(() => giffer),
    sizing,
    budget,
    rateLimitStore: sharedCounters ? (name) => sharedCounters.rateLimitStore(name) : undefined,
    redis: sharedCounters?.redis,
  })
  app.use('/giffer', (req, res, next) => {
    giffer ??= createGifferRouter(options)
    giffer(req, res, next)
  })
  return { close: async () => giffer?.close() }
}

/** The dashboard as the rest of the site sees it, local or proxied. */
interface DashboardMount {
  /** The in-process dashboard; undefined with DASHBOARD_URL. */
  local?: Dashboard
  /** The account calls of the page forms and loaders. */
  accounts: AccountsGateway
  /** The per-address counters of the page forms. */
  limiters: AccountLimiters
  /** Tells the dashboard of a visitor's first `?ref=`. */
  trackReferral: TrackingOptions['trackReferral']
  close(): Promise<void>
}

/** The dashboard at /app (its paths are its own: no canonical slash, no page cookies): proxied with DASHBOARD_URL, else local. */
function mountDashboard(app: Express, { config, overrides, logger, data, sharedCounters, readiness, budget }: Site): DashboardMount {
  if (config.DASHBOARD_URL) {
    app.use('/app', createUpstreamProxy({ target: config.DASHBOARD_URL, name: 'dashboard', timeoutMs: config.UPSTREAM_TIMEOUT_MS, logger }))
    return {
      accounts: remoteGateway(config.DASHBOARD_URL, config.publicOrigin, config.UPSTREAM_TIMEOUT_MS),
      // Proxied, the site keeps counters of its own for its page forms.
      limiters: accountLimiters({ ...DEFAULT_LIMITS, ...overrides.dashboard?.limits }, sharedCounters),
      trackReferral: dashboardReferralTracker(config.DASHBOARD_URL),
      close: async () => {},
    }
  }
  const local = createDashboard({
    ...dashboardSettings(config, { stateDir: config.stateDir, siteOrigin: config.publicOrigin }),
    data,
    sharedCounters,
    budget,
    logger,
    ...overrides.dashboard,
  })
  app.use('/app', local.router)
  readiness.watch(...local.dependencies)
  return {
    local,
    accounts: localGateway(local.context),
    limiters: local.context.limiters,
    trackReferral: async (code: string, address: string | undefined) => void local.context.recordReferral(code, true, address),
    close: () => local.close(),
  }
}

/** The site's JSON at /api: no canonical slash, no cookies, no page cache; only compression on the way. Gives where its answers are kept. */
function mountApi(app: Express, { data, overrides, sizing }: Site): AnswerMemory {
  const answers = new AnswerMemory(sizing.answerMemoryBytes)
  app.use('/api', compressResponses(), createApiRouter({ prices: data.prices, holidays: data.holidays, catalogs: data.galleries.catalogs, now: overrides.now, answers }))
  return answers
}

/** Canonical slashes, the page cache, then the page-view reports and compression for what the cache did not answer. */
function mountVisits(app: Express, { config, overrides, logger, cache }: Site, dashboard: DashboardMount) {
  app.use(canonicalRedirect)
  app.use(serveCachedPages(cache))
  // After the page cache: a repeat visit is answered before these two paths are even looked at.
  app.use(visitTracking({ origin: config.publicOrigin, trackReferral: overrides.trackReferral ?? dashboard.trackReferral, logger, now: overrides.now }))
  app.use(compressResponses())
}

/** Files: client bundles, public/, the gallery card images and email pictures, clone links, sitemap and robots.txt. */
function mountFiles(app: Express, { config, data, publicFolder }: Site) {
  const assets = path.join(config.rootDir, 'dist', 'public', 'assets')
  app.use('/assets', express.static(assets, { index: false, fallthrough: false, setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE) }))
  app.use(publicFiles(publicFolder))
  app.use('/thumbnails', thumbnailRouter(data.contentDir, data.galleries.thumbnails))
  // The email templates' images: fixed names, so a day's caching; mail clients fetch them too.
  // The emails' pictures are made to be shown anywhere: in a sent email (webmail loads them from
  // its own origin) and in the previews, whatever host name the visitor used.
  app.use(EMAIL_ASSETS_PATH, (_req, res, next) => {
    res.set('Cross-Origin-Resource-Policy', 'cross-origin')
    next()
  })
  app.use(EMAIL_ASSETS_PATH, express.static(path.join(data.contentDir, GENERATED, 'emails', 'assets'), { index: false, fallthrough: false, maxAge: '1d' }))
  const { catalogs } = data.galleries
  app.use(
    cloneLinks([
      { kind: 'widgets', prefix: 't', exists: (hid) => Boolean(catalogs.widgets.byId(hid)) },
      { kind: 'emails', prefix: 'te', exists: (hid) => Boolean(catalogs.emails.byId(hid)) },
    ]),
  )
  app.use(seoRoutes(config.publicOrigin, data))
}

/** The page forms' posts and the server-rendered pages, last. */
function mountPages(app: Express, { config, overrides, logger, data, client, cache }: Site, dashboard: DashboardMount) {
  const appOrigin = config.APP_URL ? new URL(config.APP_URL).origin : null
  const actions = authActions({ accounts: dashboard.accounts, origin: config.publicOrigin, appOrigin })
  app.use(pageForms({ siteOrigin: config.publicOrigin, appOrigin, limiters: dashboard.limiters }))
  const loaderFor = createServerLoaders({
    ...data,
    origin: config.publicOrigin,
    appOrigin,
    appBase: config.APP_URL ?? '/app/',
    accounts: dashboard.accounts,
    now: overrides.now ?? (() => new Date()),
  })
  app.use(createPageHandler({ loaderFor, actionFor: (routeId) => actions[routeId], client, cache, origin: config.publicOrigin, logger }))
}

/**
 * The site: each mount in the order requests meet them, each deciding once whether its part runs
 * in this process or is proxied. `listener` is what the HTTP server runs; `close` lets the image
 * service, the dashboard and the shared counters finish (call it after the server closes).
 */
export function createApp(config: Config, overrides: AppOverrides = {}) {
  const site = siteOf(config, overrides)
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', config.TRUST_PROXY)

  const observeFront = mountFront(app, site)
  const giffer = mountGiffer(app, site)
  const dashboard = mountDashboard(app, site)
  const answers = mountApi(app, site)
  mountVisits(app, site, dashboard)
  mountFiles(app, site)
  mountPages(app, site, dashboard)
  app.use(plainTextErrorHandler)

  const close = async () => {
    await Promise.all([giffer.close(), dashboard.close()])
    await site.sharedCounters?.close()
  }
  // What the HTTP server runs: repeats of kept API answers and cached pages before Express, logged
  // and counted as the front mount would; everything else through Express.
  const listener: RequestListener = (req, res) => {
    const answer = answers.match(req)
    if (answer) return answers.replay(req, res, answer, observeFront(req, res))
    const page = cachedPageReplay(site.cache, req)
    if (page) return page(res, observeFront(req, res))
    app(req, res)
  }

  return { app, listener, logger: site.logger, close, readiness: site.readiness, dashboard: dashboard.local, data: site.data, sizing: site.sizing }
}
