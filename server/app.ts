import fs from 'node:fs'
import path from 'node:path'
import express, { type RequestHandler } from 'express'
import helmet from 'helmet'
import type { Logger } from 'pino'
import { canonicalPath } from './canonical.js'
import { pages } from '../shared/pages.js'
import { createApiRouter } from './api/router.js'
import { loadHolidayDefinitions } from './holidays/api.js'
import { loadPriceList, type PriceList } from './pricing/api.js'
import type { Config } from './config.js'
import { loadContent } from './content/store.js'
import { createDashboard, type Dashboard } from './dashboard/router.js'
import { createErrorHandler } from './errors.js'
import { connectSharedCounters } from './shared-counters.js'
import { aiSettings } from './dashboard/config.js'
import { localGateway, remoteGateway } from './accounts/gateway.js'
import { accountLimiters, DEFAULT_LIMITS } from './accounts/rate-limits.js'
import { authActions } from './accounts/form-actions.js'
import { pageForms } from './accounts/forms.js'
import type { DashboardOptions } from './dashboard/context.js'
import { createGifferRouter, type GifferRouter } from './giffer/router.js'
import { gifferOptionsFromEnv } from './giffer/config.js'
import { createLogger, requestLogger } from './logger.js'
import { createUpstreamProxy } from './upstream-proxy.js'
import { robotsTxt, sitemapXml } from './seo.js'
import { siteMetrics } from './site-metrics.js'
import { loadGalleries } from './gallery/catalogs.js'
import { thumbnailRouter } from './gallery/thumbnails.js'
import { cloneLinks } from './gallery/clone-links.js'
import { widgetCatalog } from './gallery/widget-catalog.js'
import { emailCatalog, EMAIL_ASSETS_PATH } from './gallery/email-catalog.js'
import { createPageHandler } from './ssr/handler.js'
import { createServerLoaders } from './ssr/loaders.js'
import { loadClientAssets } from './ssr/manifest.js'
import { PageCache, serveCachedPages } from './ssr/page-cache.js'
import { dashboardReferralTracker, visitTracking, type TrackingOptions } from './tracking/middleware.js'
import { compressResponses, IMMUTABLE } from './http-cache.js'
import { GENERATED } from './project-root.js'

export interface AppOverrides {
  logger?: Logger
  /** Replaces the price list read from data/ (tests use it to make prices fail). */
  prices?: PriceList
  now?: () => Date
  /** Replaces the partner tracking call made for a visitor's first `?ref=`. */
  trackReferral?: TrackingOptions['trackReferral']
  /** Settings of the local dashboard that tests change (a database in memory, a cheaper scrypt, limits). */
  dashboard?: Partial<Pick<DashboardOptions, 'databaseFile' | 'scryptCost' | 'limits' | 'now'>>
}


function securityHeaders(config: Config, inlineStyleSource?: string): RequestHandler {
  const https = config.publicOrigin.startsWith('https:')
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // No inline script at all: router state travels in a JSON script tag, which never runs.
        scriptSrc: ["'self'"],
        // The one inline stylesheet is allowed by its hash, nothing else inline.
        styleSrc: ["'self'", ...(inlineStyleSource ? [inlineStyleSource] : [])],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
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

/**
 * The files of public/, served as they are. The folder is listed once at start-up, so the other
 * requests (pages, the API) pass by without a file-system lookup each.
 */
function publicFiles(dir: string): RequestHandler {
  const files = new Set(
    fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => '/' + path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')),
  )
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

export function createApp(config: Config, overrides: AppOverrides = {}) {
  const logger = overrides.logger ?? createLogger(config)
  const dataDir = path.join(config.rootDir, 'data')
  const content = loadContent(dataDir)
  const prices = overrides.prices ?? loadPriceList(dataDir)
  const holidays = loadHolidayDefinitions(dataDir)
  const gallery = loadGalleries(dataDir)
  const client = loadClientAssets(config.rootDir)
  if (!client && config.NODE_ENV === 'production') {
    logger.warn('dist/manifest.json is missing: pages are served without scripts and styles. Run `npm run build`.')
  }
  // With REDIS_URL, the counts every process must share; otherwise each process counts alone.
  const sharedCounters = config.REDIS_URL ? connectSharedCounters(config.REDIS_URL, logger) : null
  const cache = new PageCache(config.PAGE_CACHE_ENTRIES, { maxAge: config.PAGE_SHARED_MAX_AGE, staleWhileRevalidate: config.PAGE_STALE_WHILE_REVALIDATE })

  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', config.TRUST_PROXY)

  app.use(requestLogger(logger))
  app.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' })
  })
  // Prometheus text for operators, ahead of cookies and the page cache; scrapes and probes are not counted.
  const metrics = siteMetrics({ rootDir: config.rootDir, cache, token: config.METRICS_TOKEN })
  app.get('/metrics', metrics.endpoint)
  app.use(metrics.countRequests)
  app.use(securityHeaders(config, client?.cssHashSource))

  // The image service answers before the page machinery: its URLs have no canonical slash, and
  // its images carry no cookies so that caches may keep them.
  let giffer: GifferRouter | undefined
  if (config.GIFFER_URL) {
    app.use('/giffer', createUpstreamProxy({ target: config.GIFFER_URL, name: 'giffer', timeoutMs: config.UPSTREAM_TIMEOUT_MS, logger }))
  } else {
    // Created on first use, so a process that never draws an image starts no render threads.
    const gifferOptions = gifferOptionsFromEnv(config, { dataDir: config.dataDir, publicPath: '/giffer', publicOrigin: config.publicOrigin, logger, renderObserver: metrics.watchGiffer(() => giffer?.stats) })
    app.use('/giffer', (req, res, next) => {
      giffer ??= createGifferRouter(gifferOptions)
      giffer(req, res, next)
    })
  }
  // The dashboard's paths are its own (no canonical slash, no page cookies), proxied or local.
  let dashboard: Dashboard | undefined
  if (config.DASHBOARD_URL) {
    app.use('/app', createUpstreamProxy({ target: config.DASHBOARD_URL, name: 'dashboard', timeoutMs: config.UPSTREAM_TIMEOUT_MS, logger }))
  } else {
    dashboard = createDashboard({
      sharedCounters,
      dataDir: config.dataDir,
      siteOrigin: config.publicOrigin,
      appUrl: config.APP_URL,
      smtpUrl: config.SMTP_URL,
      mailFrom: config.MAIL_FROM,
      showOutbox: config.NODE_ENV !== 'production' || config.DASHBOARD_OUTBOX,
      ai: aiSettings(config),
      logger,
      ...overrides.dashboard,
    })
    app.use('/app', dashboard.router)
  }
  const localDashboard = dashboard?.context
  // The site's JSON: no canonical slash, no cookies, no page cache; only compression on the way.
  app.use('/api', compressResponses(), createApiRouter({ prices, holidays, now: overrides.now }))
  app.use(canonicalRedirect)
  app.use(serveCachedPages(cache))
  // After the page cache: a repeat visit is answered before these two paths are even looked at.
  app.use(
    visitTracking({
      origin: config.publicOrigin,
      trackReferral:
        overrides.trackReferral ??
        (config.DASHBOARD_URL
          ? dashboardReferralTracker(config.DASHBOARD_URL)
          : async (code: string) => localDashboard!.recordReferral(code, true)),
      logger,
      now: overrides.now,
    }),
  )
  app.use(compressResponses())

  app.use(
    '/assets',
    express.static(path.join(config.rootDir, 'dist', 'public', 'assets'), {
      index: false,
      fallthrough: false,
      setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE),
    }),
  )
  app.use(publicFiles(path.join(config.rootDir, 'public')))

  app.use('/thumbnails', thumbnailRouter(dataDir, gallery.thumbnails))
  // The email templates' images: fixed names, so a day's caching; mail clients fetch them too.
  app.use(EMAIL_ASSETS_PATH, express.static(path.join(dataDir, GENERATED, 'emails', 'assets'), { index: false, fallthrough: false, maxAge: '1d' }))
  app.use(
    cloneLinks([
      { kind: 'widgets', prefix: 't', exists: (hid) => Boolean(widgetCatalog().byId(hid)) },
      { kind: 'emails', prefix: 'te', exists: (hid) => Boolean(emailCatalog().byId(hid)) },
    ]),
  )

  const staticPaths = pages.filter((page) => !page.path?.match(/[:*]/) && !('private' in page) && !('bare' in page)).map((page) => `/${page.path ?? ''}`)
  const sitemap = sitemapXml(config.publicOrigin, [...staticPaths, ...content.paths(), ...gallery.widgets.paths(), ...gallery.emails.paths()])
  app.get('/sitemap.xml', (_req, res) => {
    res.type('application/xml').set('Cache-Control', 'public, max-age=3600').send(sitemap)
  })
  const robots = robotsTxt(config.publicOrigin)
  app.get('/robots.txt', (_req, res) => {
    res.type('text/plain').set('Cache-Control', 'public, max-age=3600').send(robots)
  })

  const appOrigin = config.APP_URL ? new URL(config.APP_URL).origin : null
  const accounts = localDashboard
    ? localGateway(localDashboard)
    : remoteGateway(config.DASHBOARD_URL!, config.publicOrigin, config.UPSTREAM_TIMEOUT_MS)
  const actions = authActions({ accounts, origin: config.publicOrigin, appOrigin })
  app.use(
    pageForms({
      siteOrigin: config.publicOrigin,
      appOrigin,
      // The local dashboard's own counters; proxied, the site keeps its own as well.
      limiters: localDashboard?.limiters ?? accountLimiters({ ...DEFAULT_LIMITS, ...overrides.dashboard?.limits }, sharedCounters),
    }),
  )
  app.use(
    createPageHandler({
      loaderFor: createServerLoaders({
        content,
        prices,
        origin: config.publicOrigin,
        appOrigin,
        appBase: config.APP_URL ?? `${config.publicOrigin}/app/`,
        accounts,
        gallery,
        dataDir,
        holidays,
        now: overrides.now ?? (() => new Date()),
      }),
      actionFor: (routeId) => actions[routeId],
      client,
      cache,
      origin: config.publicOrigin,
      logger,
    }),
  )

  // The last stop of the one error path: what no mount answered in its own shape, as plain text.
  app.use(
    createErrorHandler('request failed', (res, answer) => {
      res.status(answer.status).type('text/plain').send(answer.status === 500 ? 'Something went wrong.' : answer.message)
    }),
  )

  /** Lets the image service finish its jobs and stop its threads; call after the server closes. */
  const close = async () => {
    await Promise.all([giffer?.close(), dashboard?.close()])
    await sharedCounters?.close()
  }

  return { app, logger, close, dashboard }
}
