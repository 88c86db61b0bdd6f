/**
 * `POST countdown/create`: a countdown GIF. `POST countdown/live-url`: a signed live-timer URL.
 * `GET countdown/live.gif|png?…&sig=`: the live timer, drawn for the time left when fetched.
 * `POST countdown/live-deadline`: a shop's back end sets a recipient's evergreen deadline ahead.
 */
import { timingSafeEqual } from 'node:crypto'
import type { Request, Response, Router } from 'express'
import { z } from 'zod'
import { HttpError, badRequest, errorAnswer } from '../../process/errors.js'
import { parseRequest } from '../../process/validation.js'
import { renderKey } from '../cache.js'
import { renderImage, type GifferContext } from '../context.js'
import type { CountdownJob } from '../jobs.js'
import { parseDeadline } from '../live/deadlines.js'
import { liveBucket, liveTimerJob, liveUrlSchema, mintLiveTimer, readLiveTimer, recipientKeyHash, scheduledDeadline, type LiveBucket, type LiveTimer } from '../live/timer.js'
import { countdownSchema } from '../schemas.js'
import { DELAY_CAPS, DELAY_MAX_SECONDS } from '../../../shared/generators/countdown/countdown.js'
import { clientGone, postJson, sendImage, type Handler } from './http.js'
import { IMMUTABLE } from '../../process/http-cache.js'

/** How long browsers, proxies and the render cache keep a timer whose time is up. */
const EXPIRED_TIMER_MAX_AGE = 3600
/**
 * How long the render cache keeps a running timer's image. An image shows a time left, not a
 * moment: the evergreen image of a full duration, say, is every recipient's first open.
 */
const LIVE_IMAGE_KEEP_MS = 10 * 60_000
/** How many steps back a busy server looks for an image of the same timer it drew a moment ago. */
const LAST_DRAWN_STEPS = 12
/** How long a busy server waits for a still frame drawn ahead of the line, before the transparent pixel. */
const STILL_FRAME_WAIT_MS = 3_000
/** The longest recipient key stored; a longer one (no platform's tag makes one) shows the full time, unstored. */
const RECIPIENT_KEY_MAX = 512
/** How long a request waits for the first-open store before showing the full time. */
const FIRST_OPEN_WAIT_MS = 1_000
/** A store that fails is said in the log at most this often. */
const STORE_WARNING_INTERVAL_MS = 60_000

/**
 * A transparent pixel, by format: what a timer set to hide shows once its time is up, and what a
 * timer that cannot be drawn at all shows for now.
 */
const TRANSPARENT_PIXEL = {
  gif: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  png: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4nGNgAAIAAAUAAXpeqz8AAAAASUVORK5CYII=', 'base64'),
}

type Format = keyof typeof TRANSPARENT_PIXEL

function sendPixel(res: Response, format: Format, cacheControl: string, headers: Record<string, string> = {}): void {
  res.set({ 'Content-Type': `image/${format}`, 'Cache-Control': cacheControl, 'Cross-Origin-Resource-Policy': 'cross-origin', ...headers })
  res.send(TRANSPARENT_PIXEL[format])
}

/** The query parameters, each given once: what the signature covers. */
function singleParams(query: Record<string, unknown>): Record<string, string> {
  // No prototype: a parameter named `__proto__` is just a parameter.
  const params: Record<string, string> = Object.create(null)
  for (const [name, value] of Object.entries(query)) {
    if (typeof value !== 'string') throw badRequest(name, 'must be given once')
    params[name] = value
  }
  return params
}

/** Says a failing first-open store once a minute, not at every open. */
function storeWarnings(context: GifferContext) {
  let lastWarned = -Infinity
  return (error: unknown) => {
    const now = Date.now()
    if (now - lastWarned < STORE_WARNING_INTERVAL_MS) return
    lastWarned = now
    context.logger.warn({ err: error, store: context.firstOpens.where }, 'live timers: the first-open store failed; evergreen timers show their full time until it answers')
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/**
 * The deadline of this request: an evergreen timer's from the first-open store (its first open
 * stores now + its time; a missing key, as in a test send, or a store that fails shows the full
 * time and stores nothing), any other's from its URL and the clock. Null shows the expiry image.
 */
async function deadlineOf(context: GifferContext, timer: LiveTimer, nowMs: number, onStoreError: (error: unknown) => void): Promise<number | null> {
  const deadline = scheduledDeadline(timer, nowMs)
  if (timer.schedule.kind !== 'evergreen') return deadline
  const key = timer.open.trim()
  if (!key || key.length > RECIPIENT_KEY_MAX) return deadline
  try {
    const opened = await withTimeout(context.firstOpens.firstOpen(timer.id, recipientKeyHash(timer, key), deadline!, nowMs), FIRST_OPEN_WAIT_MS, 'the first-open store')
    return opened.deadline
  } catch (error) {
    onStoreError(error)
    return deadline
  }
}

function liveTimer(context: GifferContext, format: Format): Handler {
  const onStoreError = storeWarnings(context)
  const { liveBucketSeconds } = context.config
  return async (req, res) => {
    const timer = readLiveTimer(singleParams(req.query), context.keys)
    const at = context.now()
    const deadline = await deadlineOf(context, timer, at, onStoreError)
    const expired = deadline === null || deadline <= at
    if (expired && timer.expiry.kind === 'hide') return sendPixel(res, format, `public, max-age=${EXPIRED_TIMER_MAX_AGE}`)
    const bucket: LiveBucket = expired ? liveBucket(0, at, liveBucketSeconds) : liveBucket(deadline, at, liveBucketSeconds)
    const job = liveTimerJob(timer.style, bucket, format, timer.expiry)
    const maxAge = expired ? EXPIRED_TIMER_MAX_AGE : Math.max(1, Math.ceil((bucket.expiresAt - at) / 1000))
    const ttlMs = expired ? EXPIRED_TIMER_MAX_AGE * 1000 : LIVE_IMAGE_KEEP_MS
    const kind = `live-${format}`
    const signal = clientGone(res)
    try {
      const rendered = await renderImage(context, kind, job, job, { ttlMs, signal })
      res.set('Expires', new Date(at + maxAge * 1000).toUTCString())
      return sendImage(req, res, rendered, `public, max-age=${maxAge}`)
    } catch (error) {
      if (!keptByMailProxies(error) || req.socket.destroyed) throw error
      const { status, code } = errorAnswer(error)
      // A fault of ours, which the error handler would have logged; busy and too small are said elsewhere.
      if (status === 500) context.logger.error({ err: error }, 'live timer not drawn')
      res.locals.errorCode = code
    }
    // A mail proxy keeps a 429 or 5xx and shows a broken image long after the server recovers:
    // a busy server answers with what it has, kept briefly. First an image of this timer drawn a
    // bucket or a few before (it shows a little more time than is left)...
    const briefly = `public, max-age=${Math.min(maxAge, liveBucketSeconds)}`
    for (let steps = 1; steps <= LAST_DRAWN_STEPS && !expired; steps++) {
      const earlier = liveTimerJob(timer.style, { ...bucket, remainingSeconds: bucket.remainingSeconds + steps * liveBucketSeconds }, format, timer.expiry)
      const key = renderKey(kind, earlier)
      const image = context.cache.peek(key)
      if (image) return sendImage(req, res, { image, source: 'hit', key }, briefly, { 'X-Giffer-Fallback': 'last-drawn' })
    }
    // ...then a single frame of the time left, drawn ahead of the line...
    const still: CountdownJob = { ...job, frames: 1 }
    try {
      const rendered = await renderImage(context, kind, still, still, { ttlMs, signal, urgent: { urgent: true, timeoutMs: Math.min(STILL_FRAME_WAIT_MS, context.config.jobTimeoutMs) } })
      return sendImage(req, res, rendered, briefly, { 'X-Giffer-Fallback': 'still' })
    } catch (error) {
      if (!keptByMailProxies(error) || req.socket.destroyed) throw error
    }
    // ...and when not even that can be drawn now, a transparent pixel kept by no one.
    sendPixel(res, format, 'no-store', { 'X-Giffer-Undrawn': String(res.locals.errorCode) })
  }
}

/** An answer a mail proxy would keep: busy, too large for this server, or a fault of ours. */
function keptByMailProxies(error: unknown): boolean {
  const { status } = errorAnswer(error)
  return status === 429 || status === 413 || status >= 500
}

/** What a shop's back end sends to set a recipient's deadline ahead of the first open. */
const liveDeadlineSchema = z.object({
  url: z.string({ error: 'is required: the evergreen timer link' }).trim().min(1).max(4096),
  r: z.string({ error: 'is required: the recipient key the link gets in r=' }).trim().min(1, 'is required: the recipient key the link gets in r=').max(RECIPIENT_KEY_MAX),
  until: z.string({ error: 'is required: a date and time like 2025-12-24T18:00:00Z' }).trim().min(1).max(64),
  tz: z.string({ error: 'must be a time zone like Europe/Berlin' }).trim().max(64).optional(),
})

/** The signing secret as a bearer token: what only the shop's own servers know. */
function requireSecret(req: Request, context: GifferContext): void {
  const header = req.get('authorization') ?? ''
  const token = /^Bearer (.+)$/i.exec(header)?.[1]?.trim()
  if (!token) throw new HttpError(401, 'unauthorized', 'Send the signing secret as Authorization: Bearer <secret>.', 'authorization')
  const given = Buffer.from(token)
  const known = context.keys.accepted.some((secret) => {
    const expected = Buffer.from(secret)
    return expected.length === given.length && timingSafeEqual(expected, given)
  })
  if (!known) throw new HttpError(403, 'forbidden', 'This secret is not the signing secret.', 'authorization')
}

/** The timer a link names, from its query; 400 naming `url` when it is not an evergreen timer of this service. */
function evergreenTimerOf(url: string, context: GifferContext): LiveTimer {
  let parsed: URL
  try {
    parsed = new URL(url, context.absoluteBase)
  } catch {
    throw badRequest('url', 'must be a live timer link')
  }
  const params: Record<string, string> = Object.create(null)
  for (const [name, value] of parsed.searchParams) {
    if (name in params) throw badRequest('url', `has ${name} more than once`)
    params[name] = value
  }
  let timer: LiveTimer
  try {
    timer = readLiveTimer(params, context.keys)
  } catch (error) {
    if (error instanceof HttpError) throw badRequest('url', 'is not a live timer link made here, or was changed')
    throw error
  }
  if (timer.schedule.kind !== 'evergreen') throw badRequest('url', 'is not an evergreen timer (one counted from each recipient’s first open)')
  return timer
}

export function countdownRoutes(router: Router, context: GifferContext): void {
  postJson(router, '/countdown/create', async (req, res) => {
    const job = parseRequest(countdownSchema, req.body)
    sendImage(req, res, await renderImage(context, 'countdown', job, job, { signal: clientGone(res) }), IMMUTABLE)
  })

  postJson(router, '/countdown/live-url', async (req, res) => {
    const input = parseRequest(liveUrlSchema, req.body)
    const { query, until } = mintLiveTimer(input, context.now(), context.keys.current)
    const liveBase = `${context.absoluteBase}/countdown`
    res.json({ url: `${liveBase}/live.gif?${query}`, png_url: `${liveBase}/live.png?${query}`, kind: input.kind, ...(until ? { until } : {}) })
  })

  postJson(router, '/countdown/live-deadline', async (req, res) => {
    requireSecret(req, context)
    const input = parseRequest(liveDeadlineSchema, req.body)
    const timer = evergreenTimerOf(input.url, context)
    const now = context.now()
    const deadline = parseDeadline(input.until, input.tz)
    if (deadline <= now) throw badRequest('until', 'is in the past')
    if (deadline - now > DELAY_MAX_SECONDS * 1000) throw badRequest('until', `must be at most ${DELAY_CAPS.days} days ahead`)
    const preset = await withTimeout(context.firstOpens.preset(timer.id, recipientKeyHash(timer, input.r), deadline, now), FIRST_OPEN_WAIT_MS * 5, 'the first-open store')
    const iso = (ms: number) => new Date(ms).toISOString()
    switch (preset.outcome) {
      case 'created':
        res.status(201).json({ r: input.r, until: iso(preset.deadline) })
        return
      case 'stored':
        res.status(409).json({ error: { code: 'already_set', message: `This recipient's deadline is already set, to ${iso(preset.deadline)}: it is never moved.`, field: 'r' }, until: iso(preset.deadline) })
        return
      default:
        throw new HttpError(507, preset.outcome, preset.outcome === 'timer_full' ? 'This timer keeps as many recipients as it may.' : 'The first-open store is full.', 'r')
    }
  })

  router.get('/countdown/live.gif', liveTimer(context, 'gif'))
  router.get('/countdown/live.png', liveTimer(context, 'png'))
}
