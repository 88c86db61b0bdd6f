import { Writable } from 'node:stream'
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express'
import type { Logger } from 'pino'
import { renderToPipeableStream } from 'react-dom/server'
import {
  createStaticHandler,
  createStaticRouter,
  isRouteErrorResponse,
  matchRoutes,
  StaticRouterProvider,
  type StaticHandler,
  type StaticHandlerContext,
} from 'react-router'
import { ShellContext } from '../../shared/layout/shell.js'
import { createRoutes, type ActionFor, type LoaderFor } from '../../shared/routes.js'
import { serializePageState } from '../../shared/router-state.js'
import type { DocumentAssets } from '../../shared/site.js'
import { sheetsFor, type ClientAssets } from './manifest.js'
import { PERSONAL, setPageHeaders, type PageCache } from './page-cache.js'
import { errorBody, HttpError } from '../process/errors.js'
import { isDecodablePath } from '../../shared/pages.js'

/** How long a render may stream before it is cut off. */
const RENDER_TIMEOUT_MS = 10_000
/** Longer queries are rendered but not cached: they are almost never repeated. */
const MAX_CACHED_URL_LENGTH = 300

export interface PageHandlerOptions {
  loaderFor: LoaderFor
  /** Handlers of forms posted to pages without JavaScript; their requests arrive with a parsed urlencoded body. */
  actionFor?: ActionFor
  client: ClientAssets | null
  cache: PageCache
  origin: string
  logger: Logger
}

const FALLBACK_500 = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Something went wrong</title></head><body><main><h1>Something went wrong</h1><p>We could not show this page. Please try again in a moment.</p><p><a href="/">Go to the home page</a></p></main></body></html>`

/** Writes React's output through to the response while keeping a copy of it for the page cache. */
class TeeToResponse extends Writable {
  readonly chunks: Buffer[] = []
  constructor(private readonly res: ExpressResponse) {
    super()
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void) {
    this.chunks.push(chunk)
    if (this.res.write(chunk)) callback()
    else this.res.once('drain', () => callback())
  }
  override _final(callback: () => void) {
    this.res.end()
    callback()
  }
  /** React calls this after each batch; compression then sends what it has. */
  flush() {
    ;(this.res as ExpressResponse & { flush?: () => void }).flush?.()
  }
}

/**
 * `Server-Timing` of a rendered page: the loaders, and the render up to the point where the
 * headers go out (every page's shell is the whole page, so that is nearly all of it).
 */
function serverTiming(loaderMs: number, renderMs?: number): string {
  const entries = [`loader;dur=${loaderMs.toFixed(1)}`]
  if (renderMs !== undefined) entries.push(`render;dur=${renderMs.toFixed(1)}`)
  return entries.join(', ')
}

function toFetchRequest(req: ExpressRequest, origin: string, signal: AbortSignal): Request {
  // The origin is configured, never taken from the Host header. The visitor's address (as
  // `trust proxy` reads it) and the request's id go along for the form handlers' calls to the dashboard.
  const headers = { accept: req.get('accept') ?? '*/*', cookie: req.get('cookie') ?? '', 'x-forwarded-for': req.ip ?? '', 'x-request-id': req.id }
  if (req.method !== 'POST') return new Request(origin + req.originalUrl, { method: 'GET', signal, headers })
  const fields = new URLSearchParams()
  const body: Record<string, unknown> = req.body && typeof req.body === 'object' ? req.body : {}
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') fields.append(name, value)
  return new Request(origin + req.originalUrl, {
    method: 'POST',
    signal,
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: fields,
  })
}

/** Pages that carry something of the visitor's own (a reset link's token) are never stored, nor is their route data. */
const isPrivate = (matches: { route: { handle?: unknown } }[]) => matches.some((match) => (match.route.handle as { private?: boolean } | undefined)?.private)

/** What every page request reads, made once by `createPageHandler`. */
interface PageDependencies {
  staticHandler: StaticHandler
  client: ClientAssets | null
  cache: PageCache
  origin: string
  logger: Logger
}

/** The moments a page's `Server-Timing` is measured from. */
interface PageTiming {
  started: number
  loaded: number
}

/** Whether the page at a path takes a form: its deepest route has an action. */
function acceptsPost(pages: PageDependencies, path: string): boolean {
  const matches = matchRoutes(pages.staticHandler.dataRoutes, path)
  return Boolean(matches?.at(-1)?.route.action)
}

/**
 * Refuses what no page answers: a path that is not valid percent-encoding (thrown, a 400), and a
 * method other than GET and HEAD, or POST to a page with a form (a 405). True when it answered.
 */
function refusedRequest(pages: PageDependencies, req: ExpressRequest, res: ExpressResponse): boolean {
  if (!isDecodablePath(req.path)) throw new HttpError(400, 'invalid_path', 'The path is not valid percent-encoding.', 'path')
  // Pages are read; a few take a form (POST). This is the last handler, so other methods end here.
  if (req.method === 'GET' || req.method === 'HEAD') return false
  const takesForm = acceptsPost(pages, req.path)
  if (req.method === 'POST' && takesForm) return false
  res.status(405).set('Allow', takesForm ? 'GET, HEAD, POST' : 'GET, HEAD').type('text/plain').send('Method not allowed')
  return true
}

/** A signal that aborts when the client goes away before the answer is complete. */
function abortedOnClose(res: ExpressResponse): AbortController {
  const controller = new AbortController()
  res.on('close', () => {
    if (!res.writableFinished) controller.abort()
  })
  return controller
}

/** The browser's loaders ask for one route's data as JSON: `?_data={routeId}`. */
async function sendRouteData(pages: PageDependencies, req: ExpressRequest, res: ExpressResponse, routeId: unknown, signal: AbortSignal) {
  if (typeof routeId !== 'string' || !/^[a-z0-9-]{1,40}$/.test(routeId)) {
    res.status(400).json(errorBody('invalid_parameter', '_data: must be a route id', '_data'))
    return
  }
  const url = new URL(pages.origin + req.originalUrl)
  url.searchParams.delete('_data')
  try {
    const result = await pages.staticHandler.queryRoute(new Request(url, { signal }), { routeId })
    const personal = isPrivate(matchRoutes(pages.staticHandler.dataRoutes, url.pathname) ?? [])
    res.set('Cache-Control', personal ? PERSONAL : pages.cache.cacheControl).json(result ?? null)
  } catch (thrown) {
    // The client went away: React Router throws the abort; there is nobody to answer.
    if (signal.aborted) return
    if (thrown instanceof Response || isRouteErrorResponse(thrown)) {
      const status = thrown.status
      res.status(status).json(errorBody(status === 404 ? 'not_found' : 'route_error', thrown.statusText || 'Not found'))
      return
    }
    throw thrown
  }
}

/**
 * Runs the loaders (and a posted form's action) of every matched route; undefined when the
 * client left meanwhile. React Router then throws its abort: that is not a failure of the page,
 * so nothing is logged or sent.
 */
async function runLoaders(pages: PageDependencies, req: ExpressRequest, signal: AbortSignal) {
  try {
    const context = await pages.staticHandler.query(toFetchRequest(req, pages.origin, signal))
    return signal.aborted ? undefined : context
  } catch (error) {
    if (signal.aborted) return undefined
    throw error
  }
}

/** A loader or action answered with a redirect or a bare status instead of data. */
function sendLoaderResponse(res: ExpressResponse, response: Response) {
  const location = response.headers.get('Location')
  for (const cookie of response.headers.getSetCookie()) res.append('Set-Cookie', cookie)
  if (response.status >= 300 && response.status < 400 && location) return res.set('Cache-Control', 'no-store').redirect(response.status, location)
  res.status(response.status).end()
}

/** The status and headers of a page, the same for HEAD and for the rendered document. */
function setPageResponseHeaders(res: ExpressResponse, context: StaticHandlerContext, cacheControl: string, timing: string) {
  res.status(context.statusCode)
  setPageHeaders(res, cacheControl)
  // A form handler that limits attempts says when to try again.
  for (const [name, value] of context.actionHeaders ? Object.values(context.actionHeaders).flatMap((headers) => [...headers]) : []) {
    if (name.toLowerCase() === 'retry-after') res.setHeader('Retry-After', value)
  }
  res.setHeader('Server-Timing', timing)
}

/** The page modules of the matched routes. */
const pageModules = (context: StaticHandlerContext) => context.matches.flatMap((match) => (match.route.handle as { module?: string } | undefined)?.module ?? [])

function assetsFor(pages: PageDependencies, context: StaticHandlerContext): DocumentAssets {
  const manifest = pages.client?.manifest
  if (!manifest) return { modules: [] }
  const modules = pageModules(context).flatMap((module) => manifest.modules[module] ?? [])
  return { menusScript: pages.client?.menusScript, modules: [...new Set([...manifest.app, ...modules])] }
}

/**
 * Renders the document around the matched routes and streams it out, keeping a copy for the
 * page cache when the page is the same for everyone, came out whole and its address is short.
 */
function streamPage(pages: PageDependencies, req: ExpressRequest, res: ExpressResponse, context: StaticHandlerContext, personal: boolean, timing: PageTiming, signal: AbortSignal) {
  const { cache, client, logger } = pages
  const shell = { assets: assetsFor(pages, context), css: client ? sheetsFor(client, pageModules(context)) : [], pageState: serializePageState(context) }
  const cacheKey = req.originalUrl
  const cacheable = cache.enabled && !personal && context.statusCode === 200 && cacheKey.length <= MAX_CACHED_URL_LENGTH
  let failed = false
  let timeout: NodeJS.Timeout | undefined

  const stream = renderToPipeableStream(
    <ShellContext value={shell}>
      <StaticRouterProvider router={createStaticRouter(pages.staticHandler.dataRoutes, context)} context={context} hydrate={false} />
    </ShellContext>,
    {
      // React writes it, as it is, after the page's last element.
      bootstrapScriptContent: client?.bootScript,
      // Every page's data is loaded before rendering and nothing suspends, so the shell is the
      // whole page: people and crawlers alike get it in one piece.
      onShellReady() {
        setPageResponseHeaders(res, context, personal ? PERSONAL : cache.cacheControl, serverTiming(timing.loaded - timing.started, performance.now() - timing.loaded))
        const tee = new TeeToResponse(res)
        tee.on('finish', () => {
          clearTimeout(timeout)
          if (cacheable && !failed) cache.store(cacheKey, context.statusCode, Buffer.concat(tee.chunks))
        })
        stream.pipe(tee)
      },
      onShellError(error) {
        clearTimeout(timeout)
        logger.error({ err: error }, 'page shell failed to render')
        if (!res.headersSent) res.status(500).type('html').send(FALLBACK_500)
      },
      onError(error) {
        failed = true
        if (!signal.aborted) logger.error({ err: error }, 'page render error')
      },
    },
  )
  timeout = setTimeout(() => stream.abort(), RENDER_TIMEOUT_MS)
  signal.addEventListener('abort', () => {
    clearTimeout(timeout)
    stream.abort()
  })
}

export function createPageHandler({ loaderFor, actionFor, client, cache, origin, logger }: PageHandlerOptions) {
  const pages: PageDependencies = { staticHandler: createStaticHandler(createRoutes(loaderFor, actionFor)), client, cache, origin, logger }

  return async function handlePage(req: ExpressRequest, res: ExpressResponse) {
    // 1. Refuse what no page answers: a malformed path, a method the page does not take.
    if (refusedRequest(pages, req, res)) return
    // 2. A client that goes away stops the loaders and, once it has begun, the render.
    const controller = abortedOnClose(res)
    const started = performance.now()
    // 3. The browser's own navigations ask for one route's data as JSON, not a document.
    if (req.query._data !== undefined) return sendRouteData(pages, req, res, req.query._data, controller.signal)

    // 4. Run the loaders of every matched route; they may answer with a redirect instead.
    const context = await runLoaders(pages, req, controller.signal)
    const timing = { started, loaded: performance.now() }
    if (!context) return
    if (context instanceof Response) return sendLoaderResponse(res, context)
    const personal = req.method === 'POST' || isPrivate(context.matches)

    // 5. A HEAD request learns the status and headers; there is no body to render.
    if (req.method === 'HEAD') {
      setPageResponseHeaders(res, context, personal ? PERSONAL : cache.cacheControl, serverTiming(timing.loaded - timing.started))
      res.end()
      return
    }

    // 6. Render and stream the document; 7. a page the same for everyone is kept in the cache.
    streamPage(pages, req, res, context, personal, timing, controller.signal)
  }
}
