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
  type StaticHandlerContext,
} from 'react-router'
import { ShellContext } from '../../shared/layout/shell.js'
import { createRoutes, type ActionFor, type LoaderFor } from '../../shared/routes.js'
import { serializePageState } from '../../shared/router-state.js'
import type { DocumentAssets } from '../../shared/site.js'
import type { ClientAssets } from './manifest.js'
import { PERSONAL, setPageHeaders, type PageCache } from './page-cache.js'
import { errorBody, HttpError } from '../errors.js'
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
  // `trust proxy` reads it) goes along for the form handlers' calls to the dashboard.
  const headers = { accept: req.get('accept') ?? '*/*', cookie: req.get('cookie') ?? '', 'x-forwarded-for': req.ip ?? '' }
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

/** Pages that carry something of the visitor's own (a reset link's token) are never stored. */
const isPrivate = (context: StaticHandlerContext) =>
  context.matches.some((match) => (match.route.handle as { private?: boolean } | undefined)?.private)

export function createPageHandler({ loaderFor, actionFor, client, cache, origin, logger }: PageHandlerOptions) {
  const manifest = client?.manifest
  const css = client?.css ?? ''
  const staticHandler = createStaticHandler(createRoutes(loaderFor, actionFor))
  /** Whether the page at a path takes a form: its deepest route has an action. */
  const acceptsPost = (path: string) => {
    const matches = matchRoutes(staticHandler.dataRoutes, path)
    return Boolean(matches?.at(-1)?.route.action)
  }

  const assetsFor = (context: StaticHandlerContext): DocumentAssets => {
    if (!manifest) return { modules: [] }
    const modules = context.matches.flatMap((match) => {
      const module = (match.route.handle as { module?: string } | undefined)?.module
      return module ? (manifest.modules[module] ?? []) : []
    })
    return { modules: [...new Set([...manifest.app, ...modules])] }
  }

  /** The browser's loaders ask for one route's data as JSON: `?_data={routeId}`. */
  async function sendRouteData(req: ExpressRequest, res: ExpressResponse, routeId: string, signal: AbortSignal) {
    const url = new URL(origin + req.originalUrl)
    url.searchParams.delete('_data')
    try {
      const result = await staticHandler.queryRoute(new Request(url, { signal }), { routeId })
      res.set('Cache-Control', cache.cacheControl).json(result ?? null)
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

  return async function handlePage(req: ExpressRequest, res: ExpressResponse) {
    if (!isDecodablePath(req.path)) throw new HttpError(400, 'invalid_path', 'The path is not valid percent-encoding.', 'path')
    // Pages are read; a few take a form (POST). This is the last handler, so other methods end here.
    if (req.method !== 'GET' && req.method !== 'HEAD' && !(req.method === 'POST' && acceptsPost(req.path))) {
      res.status(405).set('Allow', acceptsPost(req.path) ? 'GET, HEAD, POST' : 'GET, HEAD').type('text/plain').send('Method not allowed')
      return
    }
    const controller = new AbortController()
    // A client that goes away stops the loaders and, once it has begun, the render.
    res.on('close', () => {
      if (!res.writableFinished) controller.abort()
    })
    const started = performance.now()

    const routeId = req.query._data
    if (routeId !== undefined) {
      if (typeof routeId !== 'string' || !/^[a-z0-9-]{1,40}$/.test(routeId)) {
        res.status(400).json(errorBody('invalid_parameter', '_data: must be a route id', '_data'))
        return
      }
      return sendRouteData(req, res, routeId, controller.signal)
    }

    // 1. Run the loaders of every matched route. A client that leaves meanwhile makes React
    //    Router throw its abort: that is not a failure of the page, so nothing is logged or sent.
    let context: Awaited<ReturnType<typeof staticHandler.query>>
    try {
      context = await staticHandler.query(toFetchRequest(req, origin, controller.signal))
    } catch (error) {
      if (controller.signal.aborted) return
      throw error
    }
    const loaded = performance.now()
    if (controller.signal.aborted) return
    if (context instanceof Response) {
      const location = context.headers.get('Location')
      for (const cookie of context.headers.getSetCookie()) res.append('Set-Cookie', cookie)
      if (context.status >= 300 && context.status < 400 && location) return res.set('Cache-Control', 'no-store').redirect(context.status, location)
      res.status(context.status).end()
      return
    }

    // A HEAD request learns the status and headers; there is no body to render.
    if (req.method === 'HEAD') {
      res.status(context.statusCode)
      setPageHeaders(res, isPrivate(context) ? PERSONAL : cache.cacheControl)
      res.setHeader('Server-Timing', serverTiming(loaded - started))
      res.end()
      return
    }

    // 2. Render the document around the matched routes and stream it out.
    const router = createStaticRouter(staticHandler.dataRoutes, context)
    const assets = assetsFor(context)
    const shell = { assets, css, pageState: serializePageState(context) }
    const cacheKey = req.originalUrl
    const personal = req.method === 'POST' || isPrivate(context)
    const cacheable = cache.enabled && !personal && context.statusCode === 200 && cacheKey.length <= MAX_CACHED_URL_LENGTH
    let failed = false
    let timeout: NodeJS.Timeout | undefined

    const stream = renderToPipeableStream(
      <ShellContext value={shell}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </ShellContext>,
      {
        bootstrapModules: manifest ? [manifest.boot] : [],
        // Every page's data is loaded before rendering and nothing suspends, so the shell is the
        // whole page: people and crawlers alike get it in one piece.
        onShellReady() {
          res.status(context.statusCode)
          setPageHeaders(res, personal ? PERSONAL : cache.cacheControl)
          for (const [name, value] of context.actionHeaders ? Object.values(context.actionHeaders).flatMap((headers) => [...headers]) : []) {
            if (name.toLowerCase() === 'retry-after') res.setHeader('Retry-After', value)
          }
          res.setHeader('Server-Timing', serverTiming(loaded - started, performance.now() - loaded))
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
          if (!controller.signal.aborted) logger.error({ err: error }, 'page render error')
        },
      },
    )
    timeout = setTimeout(() => stream.abort(), RENDER_TIMEOUT_MS)
    controller.signal.addEventListener('abort', () => {
      clearTimeout(timeout)
      stream.abort()
    })
  }
}
