/**
 * `GET countdown/live.gif|png?…&sig=`: the live timer, drawn for the time left when it is fetched.
 * A validly signed URL never answers 429 or 5xx, which a mail proxy would keep: when the image
 * cannot be drawn in time, it answers with what it has (an image drawn a moment ago, a still
 * frame drawn ahead of the line) or a transparent pixel kept by no one.
 */
import type { Response } from 'express'
import { badRequest, errorAnswer } from '../../process/errors.js'
import { Throttle } from '../../process/throttle.js'
import { withTimeout } from '../../process/timeout.js'
import { renderKey } from '../cache.js'
import { renderImage, type GifferContext } from '../context.js'
import type { CountdownJob } from '../jobs.js'
import { clientGone, sendImage, type Handler } from '../routes/http.js'
import { pixelHeaders, TRANSPARENT_PIXEL, type LiveFormat } from './pixel.js'
import { liveBucket, liveTimerJob, readLiveTimer, recipientKeyHash, scheduledDeadline, type LiveBucket, type LiveTimer } from './timer.js'

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
export const RECIPIENT_KEY_MAX = 512
/** How long a request waits for the first-open store before showing the full time. */
export const FIRST_OPEN_WAIT_MS = 1_000
/** A store that fails is said in the log at most this often. */
const STORE_WARNING_INTERVAL_MS = 60_000

function sendPixel(res: Response, format: LiveFormat, cacheControl: string, headers: Record<string, string> = {}): void {
  res.set({ ...pixelHeaders(format, cacheControl), ...headers })
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

/** An answer a mail proxy would keep: busy, too large for this server, or a fault of ours. */
function keptByMailProxies(error: unknown): boolean {
  const { status } = errorAnswer(error)
  return status === 429 || status === 413 || status >= 500
}

export function liveTimerAnswer(context: GifferContext, format: LiveFormat): Handler {
  const storeWarnings = new Throttle(STORE_WARNING_INTERVAL_MS)
  const onStoreError = (error: unknown) => {
    if (!storeWarnings.allow(Date.now())) return
    context.logger.warn({ err: error, store: context.firstOpens.where }, 'live timers: the first-open store failed; evergreen timers show their full time until it answers')
  }
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
