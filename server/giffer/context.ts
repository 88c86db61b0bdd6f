/**
 * What every route of the giffer shares: the configuration, the render pool and cache, the
 * upload store and the URLs browsers see. Made once per service by `createGifferContext`.
 */
import path from 'node:path'
import type { Logger } from 'pino'
import type { Box } from '../process/box.js'
import { HttpError, ServiceBusyError } from '../process/errors.js'
import { RenderCache, renderKey, type CachedRender } from './cache.js'
import { redisFirstOpens, sqliteFirstOpens, type FirstOpenStore } from './live/first-opens.js'
import { redisSavedTimers, sqliteSavedTimers, type SavedTimerStore } from './live/saved-store.js'
import { SavedTimers } from './live/saved-timers.js'
import { NewKeyBudget, type UnstoredCounts } from './live/key-limits.js'
import type { GifferConfig } from './config.js'
import type { PhotoHeader, RenderJob } from './jobs.js'
import type { PhotoReader } from './photo-source.js'
import { PHOTO_LONG_SIDE } from '../../shared/generators/slideshow/slideshow.js'
import { RenderPool, type UrgentOptions } from './pool.js'
import { signingKeys, type SigningKeys } from './signing.js'
import { LocalUploadStore, uploadCeiling, uploadDir } from './uploads/local-store.js'
import type { Reducer } from './uploads/rules.js'
import { S3UploadStore } from './uploads/s3-store.js'
import type { UploadStore } from './uploads/store.js'

export interface GifferContext {
  config: GifferConfig
  logger: Logger
  /** The render threads; null in a box too small to draw images (`renderImage` then refuses every image). */
  pool: RenderPool | null
  cache: RenderCache
  /** Sign upload policies and live-timer URLs, and check them. */
  keys: SigningKeys
  /** The path prefix browsers see (`/giffer` through the site). */
  publicPath: string
  /**
   * The base of the URLs handed to pages (upload targets, uploaded files): the path alone while
   * the giffer is reached on the site's own origin, so they stay same-origin whichever host name
   * the visitor used; the absolute URL when it has an origin of its own.
   */
  base: string
  /** The absolute base URL on the public origin, for links that leave the site (live timers go into emails). */
  absoluteBase: string
  /** Where uploads are kept: S3 when configured, else the local folder. */
  store: UploadStore
  /** The local folder's own upload target; null when uploads go to S3. */
  local: LocalUploadStore | null
  /** Evergreen live timers' first opens: in Redis when the processes share one, else in a SQLite file in the state folder. */
  firstOpens: FirstOpenStore
  /** Timers kept by id, changeable after the email is sent, in the same store as the first opens. */
  savedTimers: SavedTimers
  /** What bounds evergreen timers' new keys beyond the store's caps, and the count of keys left unstored. */
  live: { newKeys: NewKeyBudget; unstoredKeys: UnstoredCounts }
  /** Origins whose upload URLs slideshows accept, besides relative URLs. */
  ownOrigins: string[]
  /** The site's origin, allowed to read answers of the local upload target on another origin; null on the same one. */
  corsOrigin: string | null
  now: () => number
}

export function createGifferContext(config: GifferConfig): GifferContext {
  const logger = config.logger.child({ module: 'giffer' })
  const { sizing } = config
  const pool = sizing.tooSmallForRenders
    ? null
    : new RenderPool({
        workers: sizing.renderThreads,
        rssLimitBytes: sizing.rssLimitBytes,
        queueMax: config.queueMax,
        jobTimeoutMs: config.jobTimeoutMs,
        releaseIdleMs: config.releaseIdleMs,
        budget: config.budget,
        logger,
        observer: config.renderObserver,
      })
  const keys = signingKeys(config.secret, config.previousSecret)
  const absoluteBase = `${config.publicOrigin}${config.publicPath}`
  const ownOrigin = !config.siteOrigin || config.siteOrigin === config.publicOrigin
  const base = ownOrigin ? config.publicPath : absoluteBase
  const reduce = uploadReducer(pool, sizing)
  const local = config.s3
    ? null
    : new LocalUploadStore({
        dir: uploadDir(config.stateDir),
        ceiling: uploadCeiling(uploadDir(config.stateDir), config.uploadCeiling),
        uploadUrl: `${base}/uploads`,
        keys,
        now: config.now,
        logger,
        reduce,
      })
  return {
    config,
    logger,
    pool,
    cache: new RenderCache(sizing.renderCacheBytes),
    keys,
    publicPath: config.publicPath,
    base,
    absoluteBase,
    store: config.s3 ? new S3UploadStore({ ...config.s3, logger, budget: config.budget, reduce }) : local!,
    local,
    firstOpens: firstOpenStore(config, logger),
    savedTimers: new SavedTimers(savedTimerStore(config), logger, config.now),
    live: {
      newKeys: new NewKeyBudget(config.liveNewKeysPerAddress, config.rateLimitStore?.('liveNewKeys')),
      unstoredKeys: { timer_full: 0, store_full: 0, address_limit: 0 },
    },
    ownOrigins: [config.publicOrigin, ...(config.siteOrigin && !ownOrigin ? [config.siteOrigin] : [])],
    corsOrigin: ownOrigin ? null : config.siteOrigin!,
    now: config.now,
  }
}

/**
 * How the upload stores make a photo render-sized: in a render thread, or, in a box too small to
 * draw, not at all (the photo is refused as every image is there: it cannot be made safe to serve).
 */
function uploadReducer(pool: RenderPool | null, sizing: GifferConfig['sizing']): Reducer {
  if (pool) return (read, photo, signal) => reduceUpload(pool, read, photo, signal)
  return async () => {
    throw tooSmallToDraw(sizing.box, sizing.tooSmallForRenders?.smallestBoxMb ?? 0)
  }
}

/**
 * An upload made render-sized in a render thread, within the memory budget like any render: a
 * busy service answers 503, a photo this server could never reduce 413, each naming the file. The
 * photo's bytes are read through `read` only once the job has its thread and memory.
 */
async function reduceUpload(pool: RenderPool, read: PhotoReader, photo: PhotoHeader, signal?: AbortSignal): Promise<Uint8Array> {
  const result = await pool.run({ kind: 'reduce-photo', photo, longSide: PHOTO_LONG_SIDE }, read, signal).catch((error: unknown) => {
    // Larger than this server's memory could ever reduce: the file is what to change.
    if (error instanceof HttpError && error.status === 413 && !error.field) throw new HttpError(413, error.code, error.message, 'file')
    throw error
  })
  if (!result.ok) throw new HttpError(result.status, result.code, result.message, 'file')
  return result.body
}

/** Where the first opens of evergreen timers are kept: the shared Redis, or a file of this machine's. */
export function firstOpenStore(config: GifferConfig, logger: Logger): FirstOpenStore {
  const { perTimer, total, keepAfterDays } = config.liveTimerKeys
  const limits = { perTimer, total, keepAfterMs: keepAfterDays * 86_400_000 }
  if (config.redis) return redisFirstOpens({ redis: config.redis, limits, logger, now: config.now })
  return sqliteFirstOpens({ file: path.join(config.stateDir, FIRST_OPENS_FILE), limits, logger, now: config.now })
}

/** The SQLite file of first opens in the state folder. */
export const FIRST_OPENS_FILE = 'live-timers.sqlite'

/**
 * Where saved timers are kept: the shared Redis, or a SQLite file of this machine's beside the
 * first opens' (a file of its own, so that a save or a batch of counts never waits behind a
 * flood of first opens for the file's one write lock).
 */
export function savedTimerStore(config: GifferConfig): SavedTimerStore {
  const limits = { maxTimers: config.savedTimers.max, keepHours: config.savedTimers.statsDays * 24 }
  if (config.redis) return redisSavedTimers({ redis: config.redis, limits, now: config.now })
  return sqliteSavedTimers({ file: path.join(config.stateDir, SAVED_TIMERS_FILE), limits, now: config.now })
}

export const SAVED_TIMERS_FILE = 'saved-timers.sqlite'

/** Seconds a client is told to wait in a box too small to draw: an hour, as only its operator can change it. */
const TOO_SMALL_RETRY_SECONDS = 3600

/**
 * Every image's answer in a box too small to draw one: a 503, since this server cannot serve it,
 * with a Retry-After of an hour (the operator was warned at start; each refusal is not a fault).
 */
function tooSmallToDraw(box: Box, smallestBoxMb: number): ServiceBusyError {
  const has = Math.round(box.memoryBytes / 2 ** 20)
  return new ServiceBusyError('too_small_for_renders', `This server has ${has} MB of memory and needs at least ${smallestBoxMb} MB to draw images.`, TOO_SMALL_RETRY_SECONDS)
}

/**
 * The render pool, or the refusal of a box too small to draw images: called before any work for
 * an image (a slideshow's reads of its photos' headers included), so such a box does none.
 */
export function renderPool(context: GifferContext): RenderPool {
  if (context.pool) return context.pool
  const { box, tooSmallForRenders } = context.config.sizing
  throw tooSmallToDraw(box, tooSmallForRenders?.smallestBoxMb ?? 0)
}

/**
 * A rendered image by content address: from the cache, joined to an identical render in flight,
 * or drawn by the pool now; `signal` aborts when the request's client goes away. The worker's
 * refusals (too large, unreadable) become 4xx errors; in a box too small to draw images, every
 * image is refused with 503 `too_small_for_renders`.
 */
export async function renderImage(
  context: GifferContext,
  kind: string,
  descriptor: unknown,
  job: RenderJob,
  { ttlMs, photos, signal, urgent }: { ttlMs?: number; photos?: PhotoReader; signal?: AbortSignal; urgent?: UrgentOptions } = {},
): Promise<CachedRender & { key: string }> {
  const pool = renderPool(context)
  const key = renderKey(kind, descriptor)
  const { image, source } = await context.cache.getOrRender(
    key,
    async (everyoneGone) => {
      // Dropped from the line if every request for it has gone before a thread takes it.
      const result = await pool.run(job, photos, everyoneGone, urgent)
      if (!result.ok) throw new HttpError(result.status, result.code, result.message, result.field)
      return result
    },
    { ttlMs, signal },
  )
  return { image, source, key }
}
