/**
 * The giffer: the image service behind the free generators, the site's scrolling-text, text,
 * countdown and slideshow images.
 *
 *   const giffer = createGifferRouter(options)   // options: GifferOptions (config.ts), with the process's sizing and budget
 *   app.use('/giffer', giffer)                   // or at '/' when standalone (main.ts)
 *   await giffer.close()                         // on shutdown: finish jobs, stop the workers
 *
 * Paths, one module each under routes/:
 *   POST scrollingtext/create            GIF    GET  text/preview?…            PNG
 *   POST countdown/create                GIF    POST countdown/live-url        {url, png_url, until}
 *   GET  countdown/live.gif?…&sig=       GIF    GET  countdown/live.png?…&sig= PNG
 *   POST uploads/sign                    {url, key, fields}
 *   POST uploads                         the local upload target (multipart, S3 presigned-POST fields)
 *   GET  uploads/resolve?key=            {url}  GET  uploads/{date}/{folder}/{name}  the uploaded file
 *   POST slideshow/create-row | create-trio | create-overlay                    GIF
 *   GET  fonts                           the font list           GET healthz  pool state
 */
import express from 'express'
import { HttpError } from '../process/errors.js'
import { resolveGifferConfig, type GifferOptions } from './config.js'
import { createGifferContext, type GifferContext } from './context.js'
import { gifferErrorHandler } from './errors.js'
import type { UnstoredCounts } from './live/key-limits.js'
import type { PoolStats } from './pool.js'
import { countdownRoutes } from './routes/countdown.js'
import { metaRoutes } from './routes/meta.js'
import { scrollingTextRoutes } from './routes/scrolling-text.js'
import { slideshowRoutes } from './routes/slideshow.js'
import { textPreviewRoutes } from './routes/text-preview.js'
import { uploadRoutes } from './routes/uploads.js'

export interface GifferRouter extends express.Router {
  /** Lets running jobs finish, then stops the render workers. */
  close(): Promise<void>
  /** The render pool's numbers; undefined in a box too small to draw images, which starts no pool. */
  readonly stats: PoolStats | undefined
  /** Evergreen timers' recipient keys left unstored since the start, by why. */
  readonly unstoredKeys: UnstoredCounts
}

const ROUTES: ((router: express.Router, context: GifferContext) => void)[] = [
  metaRoutes,
  scrollingTextRoutes,
  textPreviewRoutes,
  countdownRoutes,
  uploadRoutes,
  slideshowRoutes,
]

export function createGifferRouter(options: GifferOptions): GifferRouter {
  const context = createGifferContext(resolveGifferConfig(options))
  const router = express.Router() as GifferRouter
  for (const addRoutes of ROUTES) addRoutes(router, context)
  router.use((_req, _res, next) => next(new HttpError(404, 'not_found', 'No such giffer path.')))
  router.use(gifferErrorHandler)

  router.close = async () => {
    context.store.close()
    context.live.newKeys.close()
    await context.firstOpens.close()
    await context.savedTimers.close()
    await context.savedTimers.store.close()
    await context.pool?.close()
  }
  Object.defineProperty(router, 'stats', { get: () => context.pool?.stats })
  Object.defineProperty(router, 'unstoredKeys', { get: () => context.live.unstoredKeys })
  return router
}
