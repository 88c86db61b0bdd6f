/**
 * `GET countdown/live.gif|png?…&sig=`: the live timer, drawn for the time left when it is fetched.
 *
 * A validly signed URL is in people's inboxes, and mail proxies (Gmail's, Apple's) keep whatever
 * they get, an error included. So past the signature check nothing answers 429 or 5xx, and every
 * answer comes within `liveAnswerMs` (2.5 s), one deadline for the whole request: the first-open store's
 * wait, the drawing, and the fallbacks when the drawing is late or refused (an image of the timer
 * drawn a moment ago, a still frame drawn ahead of the line, and last a transparent pixel that no
 * one keeps).
 */
import type { Request, Response } from 'express'
import { HttpError, errorAnswer } from '../../process/errors.js'
import { Throttle } from '../../process/throttle.js'
import { withTimeout } from '../../process/timeout.js'
import { renderKey, type CachedRender } from '../cache.js'
import { renderImage, type GifferContext } from '../context.js'
import type { CountdownJob } from '../jobs.js'
import { clientGone, sendImage, type Handler } from '../routes/http.js'
import { pixelHeaders, TRANSPARENT_PIXEL, type LiveFormat } from './pixel.js'
import { liveBucket, liveTimerJob, readLiveParams, readLiveTimer, RECIPIENT_KEY_MAX, recipientKey, recipientKeyHash, scheduledDeadline, type LiveBucket, type LiveTimer } from './timer.js'

/** The longest wait for the first-open store; past it the recipient sees the full time, unstored. */
export const FIRST_OPEN_WAIT_MS = 1_000
/** Time kept back from the drawing for a still frame, should the drawing be late. */
const STILL_FRAME_RESERVE_MS = 700
/** How long browsers, proxies and the render cache keep a timer whose time is up. */
const EXPIRED_TIMER_MAX_AGE = 3600
/**
 * How long the render cache keeps a running timer's image. An image shows a time left, not a
 * moment: the evergreen image of a full duration, say, is every recipient's first open.
 */
const LIVE_IMAGE_KEEP_MS = 10 * 60_000
/** How many steps back a busy server looks for an image of the same timer it drew a moment ago. */
const LAST_DRAWN_STEPS = 12
/** A failing store, or a timer this release cannot read, is said in the log at most this often. */
const WARNING_INTERVAL_MS = 60_000

function sendPixel(res: Response, format: LiveFormat, cacheControl: string, headers: Record<string, string> = {}): void {
  res.set({ ...pixelHeaders(format, cacheControl), ...headers })
  res.send(TRANSPARENT_PIXEL[format])
}

/** `promise`, or its rejection with `signal`'s reason once that aborts, whichever comes first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  let onAbort: () => void = () => undefined
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
  })
  // A render given up on goes on for the cache and the requests joined to it; its outcome is theirs.
  promise.catch(() => undefined)
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort))
}

/** An answer a mail proxy would keep: busy, too large for this server, out of time, or a fault of ours. */
function keptByMailProxies(error: unknown): boolean {
  const { status } = errorAnswer(error)
  return status === 429 || status === 413 || status >= 500
}

/** This request's own time is up. */
class AnswerLate extends Error {
  constructor() {
    super('the live timer was not drawn within its time')
  }
}

/**
 * A signal that aborts when the client goes, or with AnswerLate once `ms` have passed. Its timer
 * is held here: a composite of AbortSignal.timeout() may be collected before it fires (the timeout
 * signal is held only weakly), and the wait would then last until the drawing ends. `clear` ends it.
 */
export function timeLimit(gone: AbortSignal, ms: number): { signal: AbortSignal; clear(): void } {
  const limit = new AbortController()
  const onGone = () => limit.abort(gone.reason)
  const timer = setTimeout(() => limit.abort(new AnswerLate()), Math.max(0, ms))
  if (gone.aborted) onGone()
  else gone.addEventListener('abort', onGone, { once: true })
  return {
    signal: limit.signal,
    clear() {
      clearTimeout(timer)
      gone.removeEventListener('abort', onGone)
    },
  }
}

/** What an open did beside its answer: whether it stored the recipient's first open. */
interface Seen {
  first: boolean
}

/** The answers of one format's live timers, and what they share: the warnings, and the drawings in flight per look. */
export class LiveTimerAnswers {
  private readonly warnings = new Throttle(WARNING_INTERVAL_MS)
  private readonly kind: string
  /** The look (style, expiry, format) whose still frame is being drawn ahead of the line, and which still: at most one per look at a time. */
  private readonly stillsInFlight = new Map<string, string>()
  /**
   * The images of each look being drawn in the ordinary line: at most a quarter of the line per
   * look. A per-recipient timer's every `until=` can be an image of its own, so without this one
   * URL with made-up dates would fill the line and turn every other generator away.
   */
  private readonly rendersInFlight = new Map<string, Set<string>>()
  private readonly rendersPerLook: number

  constructor(
    readonly context: GifferContext,
    readonly format: LiveFormat,
  ) {
    this.kind = `live-${format}`
    this.rendersPerLook = Math.max(1, Math.floor(context.config.queueMax / 4))
  }

  /** A timer's look: its job without the time it shows. */
  private lookOf(job: CountdownJob): string {
    return renderKey(this.kind, { ...job, remainingSeconds: 0, frames: 0 })
  }

  /** The whole image of the time left, drawn in the ordinary line, unless its look already has its share of the line. */
  private drawing(job: CountdownJob, ttlMs: number, gone: AbortSignal, signal: AbortSignal): Promise<CachedRender & { key: string }> {
    const key = renderKey(this.kind, job)
    const look = this.lookOf(job)
    const inFlight = this.rendersInFlight.get(look) ?? new Set<string>()
    // A drawn image, or one being drawn for another request, costs the line nothing more.
    if (!this.context.cache.peek(key) && !inFlight.has(key)) {
      if (inFlight.size >= this.rendersPerLook) throw new HttpError(503, 'timer_busy', 'This timer has its share of the line being drawn.')
      inFlight.add(key)
      this.rendersInFlight.set(look, inFlight)
    }
    const render = renderImage(this.context, this.kind, job, job, { ttlMs, signal: gone })
    void render
      .finally(() => {
        inFlight.delete(key)
        if (inFlight.size === 0 && this.rendersInFlight.get(look) === inFlight) this.rendersInFlight.delete(look)
      })
      .catch(() => undefined)
    return untilAborted(render, signal)
  }

  /**
   * The deadline of this request: an evergreen timer's from the first-open store (the first open
   * of a key stores now + its time; a missing key, as in a test send, or a store that fails or is
   * late shows the full time, unstored), any other's from its URL and the clock. Null shows the
   * expiry image.
   */
  private async deadlineOf(req: Request, timer: LiveTimer, nowMs: number, waitMs: number, seen: Seen): Promise<number | null> {
    const scheduled = scheduledDeadline(timer, nowMs)
    if (timer.schedule.kind !== 'evergreen' || scheduled === null) return scheduled
    const key = recipientKey(timer.open)
    if (!key) return scheduled
    const { firstOpens, live } = this.context
    const firstOpen = async () => {
      // A key stored as it was read before keys were normalised (untrimmed case, a space for a
      // `+`) keeps that deadline. This read can go once every such entry is forgotten: at most
      // the longest evergreen time plus LIVE_TIMER_KEEP_DAYS after the release that normalised keys.
      const asBefore = timer.open.trim()
      if (asBefore !== key && asBefore.length <= RECIPIENT_KEY_MAX) {
        const before = await firstOpens.storedDeadline(timer.id, recipientKeyHash(timer, asBefore), nowMs)
        if (before !== null) return { outcome: 'stored' as const, deadline: before }
      }
      // A HEAD (a link checker, a scanner) reads a stored deadline but never starts a recipient's time.
      if (req.method === 'HEAD') return { outcome: 'stored' as const, deadline: (await firstOpens.storedDeadline(timer.id, recipientKeyHash(timer, key), nowMs)) ?? scheduled }
      return firstOpens.firstOpen(timer.id, recipientKeyHash(timer, key), scheduled, nowMs, () => live.newKeys.take(req.ip ?? '', timer.id))
    }
    try {
      const opened = await withTimeout(firstOpen(), Math.max(0, waitMs), 'the first-open store')
      seen.first = opened.outcome === 'created'
      if (opened.outcome === 'declined') live.unstoredKeys.address_limit++
      else if (opened.outcome === 'timer_full' || opened.outcome === 'store_full') live.unstoredKeys[opened.outcome]++
      return opened.deadline
    } catch (error) {
      if (this.warnings.allow(Date.now(), 'store')) this.context.logger.warn({ err: error, store: firstOpens.where }, 'live timers: the first-open store failed or was late; evergreen timers show their full time until it answers')
      return scheduled
    }
  }

  /** The deadline, or the expiry image's null when the timer's schedule cannot be read or worked out: never an error. */
  private async safeDeadlineOf(req: Request, timer: LiveTimer, nowMs: number, waitMs: number, seen: Seen): Promise<number | null> {
    try {
      if (timer.schedule.kind === 'unreadable') throw new Error(timer.schedule.reason)
      const deadline = await this.deadlineOf(req, timer, nowMs, waitMs, seen)
      return deadline === null ? null : deadline + (timer.shiftMs ?? 0)
    } catch (error) {
      if (this.warnings.allow(Date.now(), 'schedule')) this.context.logger.error({ err: error }, 'live timers: a signed timer cannot be read by this release; it shows its expiry image')
      return null
    }
  }

  /** A single frame of the time left, drawn ahead of the line: one per look at a time, else none. */
  private async stillFrame(job: CountdownJob, signal: AbortSignal, ttlMs: number): Promise<CachedRender & { key: string }> {
    const still: CountdownJob = { ...job, frames: 1 }
    const look = this.lookOf(still)
    const key = renderKey(this.kind, still)
    // The same still for another request joins it in the cache; another time of the same look waits its turn elsewhere.
    const drawing = this.stillsInFlight.get(look)
    if (drawing !== undefined && drawing !== key) throw new HttpError(503, 'still_frame_busy', 'A still frame of this timer is being drawn for another time left.')
    if (signal.aborted) throw signal.reason
    this.stillsInFlight.set(look, key)
    try {
      const urgent = { urgent: true, timeoutMs: this.context.config.jobTimeoutMs }
      return await untilAborted(renderImage(this.context, this.kind, still, still, { ttlMs, signal, urgent }), signal)
    } finally {
      if (this.stillsInFlight.get(look) === key) this.stillsInFlight.delete(look)
    }
  }

  /**
   * The answer to a validly signed (or saved) timer: the image, a fallback, or the pixel; it
   * throws only when the client has gone. `observe` hears whether the open was the recipient's
   * first (an evergreen key stored now) and whether the time was up.
   */
  async answer(req: Request, res: Response, timer: LiveTimer, gone: AbortSignal, left: () => number, observe?: (open: Seen & { expired: boolean }) => void): Promise<void> {
    const { context, format, kind } = this
    const { liveBucketSeconds } = context.config
    const at = context.now()
    const seen: Seen = { first: false }
    const deadline = await this.safeDeadlineOf(req, timer, at, Math.min(FIRST_OPEN_WAIT_MS, left() - STILL_FRAME_RESERVE_MS), seen)
    const expired = deadline === null || deadline <= at
    observe?.({ ...seen, expired })
    // A saved timer can be changed after it ended (a sale extended): its ended image is kept no
    // longer than a running one, so that the change shows within seconds.
    const endedMaxAge = timer.changeable ? liveBucketSeconds : EXPIRED_TIMER_MAX_AGE
    if (expired && timer.expiry.kind === 'hide') return sendPixel(res, format, `public, max-age=${endedMaxAge}`)
    const bucket: LiveBucket = expired ? liveBucket(0, at, liveBucketSeconds) : liveBucket(deadline, at, liveBucketSeconds)
    const job = liveTimerJob(timer.style, bucket, format, timer.expiry)
    const maxAge = expired ? endedMaxAge : Math.max(1, Math.ceil((bucket.expiresAt - at) / 1000))
    const ttlMs = expired ? EXPIRED_TIMER_MAX_AGE * 1000 : LIVE_IMAGE_KEEP_MS
    let undrawn = 'answer_late'
    /** Goes on to the next fallback for an answer a mail proxy would keep, or for this request's time running out. */
    const fallBackFrom = (error: unknown) => {
      if (gone.aborted) throw error
      if (error instanceof AnswerLate) return
      if (!keptByMailProxies(error)) throw error
      const { status, code } = errorAnswer(error)
      // A fault of ours, which the error handler would have logged; busy and too small are said elsewhere.
      if (status === 500) context.logger.error({ err: error }, 'live timer not drawn')
      undrawn = code
    }
    const drawingTime = timeLimit(gone, left() - STILL_FRAME_RESERVE_MS)
    try {
      const rendered = await this.drawing(job, ttlMs, gone, drawingTime.signal)
      res.set('Expires', new Date(at + maxAge * 1000).toUTCString())
      return sendImage(req, res, rendered, `public, max-age=${maxAge}`)
    } catch (error) {
      fallBackFrom(error)
    } finally {
      drawingTime.clear()
    }
    // What a busy server has, kept briefly: first an image of this timer drawn a bucket or a few
    // before (it shows a little more time than is left)...
    const briefly = `public, max-age=${Math.min(maxAge, liveBucketSeconds)}`
    for (let steps = 1; steps <= LAST_DRAWN_STEPS && !expired; steps++) {
      const earlier = liveTimerJob(timer.style, { ...bucket, remainingSeconds: bucket.remainingSeconds + steps * liveBucketSeconds }, format, timer.expiry)
      const key = renderKey(kind, earlier)
      const image = context.cache.peek(key)
      if (image) return sendImage(req, res, { image, source: 'hit', key }, briefly, { 'X-Giffer-Fallback': 'last-drawn' })
    }
    // ...then a single frame of the time left, drawn ahead of the line...
    const stillTime = timeLimit(gone, left())
    try {
      return sendImage(req, res, await this.stillFrame(job, stillTime.signal, ttlMs), briefly, { 'X-Giffer-Fallback': 'still' })
    } catch (error) {
      fallBackFrom(error)
    } finally {
      stillTime.clear()
    }
    // ...and when not even that can be drawn in time, a transparent pixel kept by no one.
    res.locals.errorCode = undrawn
    sendPixel(res, format, 'no-store', { 'X-Giffer-Undrawn': undrawn })
  }
}

/** The time left of this request's answer, from its start: one deadline for the whole of it. */
export function answerClock(context: GifferContext): () => number {
  const started = performance.now()
  return () => context.config.liveAnswerMs - (performance.now() - started)
}

/**
 * Answers `timer` (`answers.answer`), and past it a fault of ours still with an image (the
 * no-store pixel), never a 5xx a mail proxy would keep.
 */
export async function answerLiveTimer(
  answers: LiveTimerAnswers,
  req: Request,
  res: Response,
  timer: LiveTimer,
  left: () => number,
  observe?: Parameters<LiveTimerAnswers['answer']>[5],
): Promise<void> {
  const gone = clientGone(res)
  try {
    await answers.answer(req, res, timer, gone, left, observe)
  } catch (error) {
    if (gone.aborted || res.headersSent) throw error
    answers.context.logger.error({ err: error }, 'live timer answer failed')
    res.locals.errorCode = 'internal_error'
    sendPixel(res, answers.format, 'no-store', { 'X-Giffer-Undrawn': 'internal_error' })
  }
}

/** The pixel that no one keeps, with why the timer was not drawn. */
export function sendUnkeptPixel(res: Response, format: LiveFormat, undrawn: string): void {
  res.locals.errorCode = undrawn
  sendPixel(res, format, 'no-store', { 'X-Giffer-Undrawn': undrawn })
}

export function liveTimerAnswer(context: GifferContext, answers: LiveTimerAnswers): Handler {
  return async (req, res) => {
    const left = answerClock(context)
    const queryAt = req.url.indexOf('?')
    // A URL that is not one of ours (changed, unsigned, a parameter twice) is the client's mistake: 4xx.
    const timer = readLiveTimer(readLiveParams(queryAt === -1 ? '' : req.url.slice(queryAt + 1)), context.keys)
    await answerLiveTimer(answers, req, res, timer, left)
  }
}
