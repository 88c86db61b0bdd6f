/**
 * What every route of the giffer shares: the configuration, the render pool and cache, the
 * upload store and the URLs browsers see. Made once per service by `createGifferContext`.
 */
import path from 'node:path'
import type { Request } from 'express'
import type { Logger } from 'pino'
import { HttpError } from '../errors.js'
import { RenderCache, renderKey, type CachedRender } from './cache.js'
import type { GifferConfig } from './config.js'
import type { RenderJob } from './jobs.js'
import { RenderPool } from './pool.js'
import { LocalUploadStore, S3UploadStore, type UploadStore } from './uploads.js'

export interface GifferContext {
  config: GifferConfig
  logger: Logger
  pool: RenderPool
  cache: RenderCache
  /** Signs upload policies and live-timer URLs. */
  secret: string
  /**
   * The path prefix browsers see. Browsers reach the giffer on the site's own origin: relative
   * URLs keep uploads same-origin whichever host name the visitor used.
   */
  base: string
  /** The absolute base URL, for links that leave the site (live timers go into emails). */
  absoluteBase(req: Request): string
  /** Where uploads are kept: S3 when configured, else the local folder. */
  store: UploadStore
  /** The local folder's own upload target; null when uploads go to S3. */
  local: LocalUploadStore | null
  /** Origins whose upload URLs slideshows accept, besides relative URLs. */
  ownOrigins: string[]
  now: () => number
}

export function createGifferContext(config: GifferConfig): GifferContext {
  const logger = config.logger.child({ module: 'giffer' })
  const pool = new RenderPool({
    workers: config.workers,
    rssLimitBytes: config.rssLimitBytes,
    queueMax: config.queueMax,
    jobTimeoutMs: config.jobTimeoutMs,
    releaseIdleMs: config.releaseIdleMs,
    logger,
    observer: config.renderObserver,
  })
  const local = config.s3
    ? null
    : new LocalUploadStore({
        dir: path.join(config.stateDir, 'uploads'),
        uploadUrl: `${config.publicPath}/uploads`,
        secret: config.secret,
        now: config.now,
      })
  return {
    config,
    logger,
    pool,
    cache: new RenderCache(config.cacheBytes),
    secret: config.secret,
    base: config.publicPath,
    absoluteBase: (req) => `${config.publicOrigin ?? `${req.protocol}://${req.get('host')}`}${config.publicPath}`,
    store: config.s3 ? new S3UploadStore(config.s3) : local!,
    local,
    ownOrigins: config.publicOrigin ? [config.publicOrigin] : [],
    now: config.now,
  }
}

/**
 * A rendered image by content address: from the cache, joined to an identical render in flight,
 * or drawn by the pool now. The worker's refusals (too large, unreadable) become 4xx errors.
 */
export async function renderImage(
  context: GifferContext,
  kind: string,
  descriptor: unknown,
  job: RenderJob,
  ttlMs?: number,
): Promise<CachedRender & { key: string }> {
  const key = renderKey(kind, descriptor)
  const { image, source } = await context.cache.getOrRender(
    key,
    async () => {
      const result = await context.pool.run(job)
      if (!result.ok) throw new HttpError(result.status, result.code, result.message, result.field)
      return result
    },
    ttlMs,
  )
  return { image, source, key }
}
