/**
 * The giffer: the image service behind the free generators (DESIGN.md §1, §5).
 *
 *   const giffer = createGifferRouter(options)   // options: GifferOptions (config.ts)
 *   app.use('/giffer', giffer)                   // or at '/' when standalone (main.ts)
 *   await giffer.close()                         // on shutdown: finish jobs, stop the workers
 *
 * Paths (SPEC.md §7 "Generator calls"):
 *   POST scrollingtext/create            GIF    GET  text/preview?…            PNG
 *   POST countdown/create                GIF    POST countdown/live-url        {url, png_url, until}
 *   GET  countdown/live.gif?…&sig=       GIF    GET  countdown/live.png?…&sig= PNG
 *   POST uploads/sign                    {url, key, fields}
 *   POST uploads                         the local upload target (multipart, S3 presigned-POST fields)
 *   GET  uploads/resolve?key=            {url}  GET  uploads/{date}/{folder}/{name}  the uploaded file
 *   POST slideshow/create-row | create-trio | create-overlay                    GIF
 *   GET  fonts                           the font list           GET healthz  pool state
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import express, { type NextFunction, type Request, type Response } from 'express'
import { HttpError, badRequest } from '../errors.js'
import { RenderCache, renderKey } from './cache.js'
import { GIFFER_DEFAULTS, defaultRssLimitBytes, defaultWorkers, type GifferOptions } from './config.js'
import { gifferErrorHandler } from './errors.js'
import { fontCatalogue, nearestWeight } from './fonts.js'
import type { CountdownJob, RenderJob, RenderedImage, Rgb, SlideshowJob, SlideshowMode } from './jobs.js'
import { COUNTDOWN_MAX_SECONDS, JSON_BODY_LIMIT, textImagePadding } from './limits.js'
import { liveBucket, parseDeadline, signLiveParams, verifyLiveParams } from './live-timer.js'
import { RenderPool, type PoolStats } from './pool.js'
import {
  countdownSchema,
  liveStyleSchema,
  liveUrlSchema,
  parseFlickerPattern,
  parseInput,
  scrollingTextSchema,
  slideshowSchema,
  textPreviewSchema,
} from './schemas.js'
import { LocalUploadStore, S3UploadStore, UPLOAD_KEY, uploadKeyFromUrl, type UploadStore } from './uploads.js'

export interface GifferRouter extends express.Router {
  /** Lets running jobs finish, then stops the render workers. */
  close(): Promise<void>
  readonly stats: PoolStats
}

const IMMUTABLE = 'public, max-age=31536000, immutable'
const EXPIRED_TIMER_MAX_AGE = 3600

function hex([r, g, b]: Rgb): string {
  return [r, g, b].map((n) => n.toString(16).padStart(2, '0')).join('')
}

/** The secret from the options, or one kept in the data folder so restarts and sibling processes agree. */
function loadOrCreateSecret(options: GifferOptions): string {
  if (options.secret) return options.secret
  const file = path.join(options.dataDir, 'giffer-secret')
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    mkdirSync(options.dataDir, { recursive: true })
    try {
      writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 })
      options.logger.warn({ file }, 'GIFFER_SECRET is not set: created a random secret in the data folder')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    return readFileSync(file, 'utf8').trim()
  }
}

function sendImage(req: Request, res: Response, image: RenderedImage, key: string, cacheControl: string, source: string): void {
  const extension = image.contentType === 'image/gif' ? 'gif' : 'png'
  res.set({
    'Content-Type': image.contentType,
    'Cache-Control': cacheControl,
    ETag: `"${key.slice(0, 32)}"`,
    'Content-Disposition': `inline; filename="image.${extension}"`,
    'X-Giffer-Cache': source,
    // Mail clients and other sites embed these images.
    'Cross-Origin-Resource-Policy': 'cross-origin',
  })
  if (req.method === 'GET' && req.fresh) {
    res.status(304).end()
    return
  }
  res.send(Buffer.from(image.body.buffer, image.body.byteOffset, image.body.byteLength))
}

/** POST bodies are JSON (or empty); anything else would only fail later with a confusing field. */
function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0
  if (hasBody && !req.is('application/json')) {
    next(new HttpError(415, 'unsupported_media_type', 'Send the parameters as application/json.', 'body'))
    return
  }
  next()
}

/** Express 5 hands async errors to the error handler; this only narrows the type. */
type Handler = (req: Request, res: Response) => Promise<void>

export function createGifferRouter(options: GifferOptions): GifferRouter {
  const logger = options.logger.child({ module: 'giffer' })
  const now = options.now ?? Date.now
  const secret = loadOrCreateSecret(options)
  // Browsers reach the giffer on the site's own origin: relative URLs keep uploads same-origin
  // whichever host name the visitor used. Live-timer URLs go into emails and must be absolute.
  const base = options.publicPath
  const absoluteBase = (req: Request) => `${options.publicOrigin ?? `${req.protocol}://${req.get('host')}`}${options.publicPath}`
  const workers = options.workers ?? defaultWorkers()
  const pool = new RenderPool({
    workers,
    rssLimitBytes: options.rssLimitBytes ?? defaultRssLimitBytes(workers),
    queueMax: options.queueMax ?? GIFFER_DEFAULTS.queueMax,
    jobTimeoutMs: options.jobTimeoutMs ?? GIFFER_DEFAULTS.jobTimeoutMs,
    logger,
  })
  const cache = new RenderCache(options.cacheBytes ?? GIFFER_DEFAULTS.cacheMb * 1024 * 1024)
  const liveBucketSeconds = options.liveBucketSeconds ?? GIFFER_DEFAULTS.liveBucketSeconds
  const local = options.s3
    ? null
    : new LocalUploadStore({ dir: path.join(options.dataDir, 'uploads'), uploadUrl: `${base}/uploads`, secret, now })
  const store: UploadStore = options.s3 ? new S3UploadStore(options.s3) : local!
  const ownOrigins = options.publicOrigin ? [options.publicOrigin] : []

  async function render(kind: string, descriptor: unknown, job: RenderJob, ttlMs?: number) {
    const key = renderKey(kind, descriptor)
    const { image, source } = await cache.getOrRender(
      key,
      async () => {
        const result = await pool.run(job)
        if (!result.ok) throw new HttpError(result.status, result.code, result.message, result.field)
        return result
      },
      ttlMs,
    )
    return { image, source, key }
  }

  const router = express.Router() as GifferRouter
  const json = express.json({ limit: JSON_BODY_LIMIT })
  const post = (route: string, handler: Handler) => router.post(route, requireJsonBody, json, handler)

  router.get('/fonts', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600')
    res.json({
      fonts: fontCatalogue
        .filter((font) => !font.groups.includes('fallback') && !font.groups.includes('icons'))
        .map(({ id, family, groups, weights, gothicStyle }) => ({ id, family, groups, weights, gothicStyle })),
    })
  })

  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store')
    res.json({ ok: true, pool: pool.stats })
  })

  post('/scrollingtext/create', async (req, res) => {
    const input = parseInput(scrollingTextSchema, req.body)
    const job: RenderJob = {
      kind: 'scrolling-text',
      text: input.text,
      divider: input.divider,
      iconStyle: input.icon_style,
      font: input.font.id,
      weight: nearestWeight(input.font, input.font_weight),
      color: input.color,
      dividerColor: input.divider_color ?? input.color,
      background: input.background,
      reverse: input.reverse,
      fontSize: input.font_size,
      flicker: parseFlickerPattern(input.flicker_pattern),
      width: input.width,
      scale: input.scale,
      framesMax: input.frames_max,
    }
    const { image, source, key } = await render('scrolling-text', job, job)
    sendImage(req, res, image, key, IMMUTABLE, source)
  })

  router.get('/text/preview', async (req, res) => {
    const input = parseInput(textPreviewSchema, req.query)
    const job: RenderJob = {
      kind: 'text-preview',
      lines: input.text,
      font: input.font.id,
      weight: nearestWeight(input.font, input.font_weight),
      fontSize: input.font_size,
      align: input.text_align,
      lineHeight: input.lineheight,
      color: input.color,
      padding: input.padding ?? textImagePadding(input.font_size),
      scale: input.scale,
      stroke: input.stroke_width > 0 ? { width: input.stroke_width, color: input.stroke } : null,
    }
    const { image, source, key } = await render('text-preview', job, job)
    sendImage(req, res, image, key, IMMUTABLE, source)
  })

  post('/countdown/create', async (req, res) => {
    const input = parseInput(countdownSchema, req.body)
    const job: CountdownJob = {
      kind: 'countdown',
      remainingSeconds: input.delay,
      frames: input.duration,
      font: input.font.id,
      weight: nearestWeight(input.font, input.font_weight),
      color: input.color,
      background: input.background,
      captions: { days: input.days, hours: input.hours, minutes: input.minutes, seconds: input.seconds },
      scale: input.scale,
      format: 'gif',
    }
    const { image, source, key } = await render('countdown', job, job)
    sendImage(req, res, image, key, IMMUTABLE, source)
  })

  post('/countdown/live-url', async (req, res) => {
    const input = parseInput(liveUrlSchema, req.body)
    const deadline = parseDeadline(input.until, input.tz)
    if (deadline <= now()) throw badRequest('until', 'is in the past')
    if (deadline - now() > COUNTDOWN_MAX_SECONDS * 1000) throw badRequest('until', 'must be at most 99 days ahead')
    const params: Record<string, string> = {
      until: new Date(deadline).toISOString().replace(/\.000Z$/, 'Z'),
      font: input.font.id,
      font_weight: String(nearestWeight(input.font, input.font_weight)),
      color: hex(input.color),
      background: hex(input.background),
      days: input.days,
      hours: input.hours,
      minutes: input.minutes,
      seconds: input.seconds,
      duration: String(input.duration),
      scale: String(input.scale),
    }
    const query = new URLSearchParams({ ...params, sig: signLiveParams(params, secret) }).toString()
    const liveBase = `${absoluteBase(req)}/countdown`
    res.json({ url: `${liveBase}/live.gif?${query}`, png_url: `${liveBase}/live.png?${query}`, until: params.until })
  })

  const liveTimer = (format: 'gif' | 'png'): Handler => async (req, res) => {
    const params: Record<string, string> = {}
    for (const [name, value] of Object.entries(req.query)) {
      if (typeof value !== 'string') throw badRequest(name, 'must be given once')
      params[name] = value
    }
    verifyLiveParams(params, secret)
    const style = parseInput(liveStyleSchema, params)
    if (!params.until) throw badRequest('until', 'is required')
    const deadline = parseDeadline(params.until, params.tz)
    const at = now()
    const bucket = liveBucket(deadline, at, liveBucketSeconds)
    const expired = bucket.remainingSeconds === 0
    const job: CountdownJob = {
      kind: 'countdown',
      remainingSeconds: bucket.remainingSeconds,
      frames: expired ? 1 : Math.min(style.duration, bucket.remainingSeconds + 1),
      font: style.font.id,
      weight: nearestWeight(style.font, style.font_weight),
      color: style.color,
      background: style.background,
      captions: { days: style.days, hours: style.hours, minutes: style.minutes, seconds: style.seconds },
      scale: style.scale,
      format,
    }
    const ttlMs = expired ? EXPIRED_TIMER_MAX_AGE * 1000 : bucket.expiresAt - at
    const { image, source, key } = await render(`live-${format}`, job, job, ttlMs)
    const maxAge = Math.max(1, Math.ceil(ttlMs / 1000))
    res.set('Expires', new Date(at + maxAge * 1000).toUTCString())
    sendImage(req, res, image, key, `public, max-age=${maxAge}`, source)
  }
  router.get('/countdown/live.gif', liveTimer('gif'))
  router.get('/countdown/live.png', liveTimer('png'))

  post('/uploads/sign', async (_req, res) => {
    res.set('Cache-Control', 'no-store')
    res.json(await store.sign())
  })

  router.post('/uploads', async (req, res) => {
    if (!local) throw new HttpError(404, 'not_found', 'Uploads go to S3: post them to the url from uploads/sign.')
    const key = await local.receive(req)
    // As S3 does: 204, and where the file now is.
    res.status(204).set('Location', `${base}/${key}`).end()
  })

  router.get('/uploads/resolve', async (req, res) => {
    const key = req.query.key
    if (typeof key !== 'string' || !UPLOAD_KEY.test(key)) {
      throw badRequest('key', 'must be the signed key with ${filename} replaced by the name of the file sent')
    }
    if (!(await store.describe(key))) throw new HttpError(404, 'not_found', 'No image was uploaded under this key.', 'key')
    res.set('Cache-Control', 'no-store')
    res.json({ url: `${base}/${key}` })
  })

  router.get('/uploads/:date/:folder/:name', async (req, res) => {
    const key = `uploads/${req.params.date}/${req.params.folder}/${req.params.name}`
    if (!UPLOAD_KEY.test(key)) throw new HttpError(404, 'not_found', 'No such upload.')
    const file = await store.open(key)
    if (!file) throw new HttpError(404, 'not_found', 'No such upload.')
    res.set({
      'Content-Type': file.upload.type,
      'Content-Length': String(file.upload.size),
      'Cache-Control': IMMUTABLE,
      'Content-Disposition': 'inline',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'",
      'Cross-Origin-Resource-Policy': 'cross-origin',
    })
    file.body.pipe(res)
  })

  const slideshow = (mode: SlideshowMode): Handler => async (req, res) => {
    const input = parseInput(slideshowSchema, req.body)
    const keys = input.images.map((url, i) => {
      const key = uploadKeyFromUrl(url, options.publicPath, ownOrigins)
      if (!key) throw badRequest(`images.${i}`, 'must be a URL returned by uploads/resolve')
      return key
    })
    const images = await Promise.all(
      keys.map(async (key, i) => {
        if (!(await store.describe(key))) throw badRequest(`images.${i}`, 'is not an uploaded image')
        return store.read(key)
      }),
    )
    const { images: _urls, ...style } = input
    const job: SlideshowJob = {
      kind: 'slideshow',
      mode,
      images,
      delayMs: style.delay,
      radius: style.radius,
      width: style.width,
      background: style.background,
      borderWidth: style.border_width,
      borderColor: style.border_color,
      spacing: style.spacing,
      count: mode === 'row' ? style.count : 3,
      tweak: style.tweak,
      overflow: mode === 'row' ? 0 : style.overflow,
      height: style.height,
      overlayColor: style.overlay_color,
      overlayOpacity: style.overlay_opacity,
    }
    const { images: _bytes, ...descriptor } = job
    const { image, source, key } = await render('slideshow', { ...descriptor, keys }, job)
    sendImage(req, res, image, key, IMMUTABLE, source)
  }
  post('/slideshow/create-row', slideshow('row'))
  post('/slideshow/create-trio', slideshow('trio'))
  post('/slideshow/create-overlay', slideshow('overlay'))

  router.use((_req, _res, next) => next(new HttpError(404, 'not_found', 'No such giffer path.')))
  router.use(gifferErrorHandler)

  router.close = () => pool.close()
  Object.defineProperty(router, 'stats', { get: () => pool.stats })
  return router
}
