/**
 * `POST countdown/live-deadline`: a shop's back end sets a recipient's evergreen deadline ahead of
 * the first open (to match a coupon's end), so the timer shows that deadline from the first open.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { Request, Router } from 'express'
import { z } from 'zod'
import { HttpError, ServiceBusyError, badRequest } from '../../process/errors.js'
import { withTimeout } from '../../process/timeout.js'
import { parseRequest } from '../../process/validation.js'
import type { GifferContext } from '../context.js'
import { postJson } from '../routes/http.js'
import { FIRST_OPEN_WAIT_MS } from './answer.js'
import { parseDeadline } from './deadlines.js'
import { RECIPIENT_KEY_MAX, readLiveParams, readLiveTimer, recipientKey, recipientKeyHash, type LiveTimer } from './timer.js'

/** What a shop's back end sends to set a recipient's deadline ahead of the first open. */
const liveDeadlineSchema = z.object({
  url: z.string({ error: 'is required: the evergreen timer link' }).trim().min(1).max(4096),
  r: z.string({ error: 'is required: the recipient key the link gets in r=' }).trim().min(1, 'is required: the recipient key the link gets in r=').max(RECIPIENT_KEY_MAX),
  until: z.string({ error: 'is required: a date and time like 2025-12-24T18:00:00Z' }).trim().min(1).max(64),
  tz: z.string({ error: 'must be a time zone like Europe/Berlin' }).trim().max(64).optional(),
})

/** Seconds a client is told to wait when the store did not answer in time. */
const STORE_RETRY_SECONDS = 5
/** Seconds a client is told to wait when the store is full: entries are forgotten as their deadlines pass. */
const FULL_RETRY_SECONDS = 3600

const sha256 = (text: string) => createHash('sha256').update(text).digest()

/**
 * The pre-set token as a bearer token: what only the shop's own servers know. Both sides are
 * hashed before the comparison, so that neither its time nor its length tells anything of the
 * token. Unset, the API is off.
 */
function requirePresetToken(req: Request, context: GifferContext): void {
  const expected = context.config.presetToken
  if (!expected) throw new HttpError(404, 'preset_off', 'Setting deadlines ahead is off on this server: its operator sets LIVE_TIMER_PRESET_TOKEN to turn it on.')
  const token = /^Bearer (.+)$/i.exec(req.get('authorization') ?? '')?.[1]?.trim()
  if (!token) throw new HttpError(401, 'unauthorized', 'Send the pre-set token as Authorization: Bearer <token>.', 'authorization')
  if (!timingSafeEqual(sha256(token), sha256(expected))) throw new HttpError(403, 'forbidden', 'This is not the pre-set token.', 'authorization')
}

/** The timer a link names, from its query; 400 naming `url` when it is not an evergreen timer of this service. */
function evergreenTimerOf(url: string, context: GifferContext): LiveTimer {
  let parsed: URL
  try {
    parsed = new URL(url, context.absoluteBase)
  } catch {
    throw badRequest('url', 'must be a live timer link')
  }
  let timer: LiveTimer
  try {
    // Read as an open of the image reads it: the same parameters count.
    timer = readLiveTimer(readLiveParams(parsed.search.slice(1)), context.keys)
  } catch (error) {
    if (error instanceof HttpError) throw badRequest('url', 'is not a live timer link made here, or was changed')
    throw error
  }
  if (timer.schedule.kind !== 'evergreen') throw badRequest('url', 'is not an evergreen timer (one counted from each recipient’s first open)')
  return timer
}

export function presetRoutes(router: Router, context: GifferContext): void {
  postJson(router, '/countdown/live-deadline', async (req, res) => {
    requirePresetToken(req, context)
    const input = parseRequest(liveDeadlineSchema, req.body)
    const timer = evergreenTimerOf(input.url, context)
    const now = context.now()
    const deadline = parseDeadline(input.until, input.tz)
    if (deadline <= now) throw badRequest('until', 'is in the past')
    // Within the timer's own bounds: no recipient gets longer than its first open would give.
    if (timer.schedule.kind === 'evergreen' && deadline - now > timer.schedule.seconds * 1000) {
      throw badRequest('until', `must be at most the timer's own time ahead (${timer.schedule.seconds} seconds from now)`)
    }
    // The key as an open of the image reads it, so that the two meet in the store.
    const key = recipientKey(input.r)
    if (!key) throw badRequest('r', 'is required: the recipient key the link gets in r=')
    const preset = await withTimeout(context.firstOpens.preset(timer.id, recipientKeyHash(timer, key), deadline, now), FIRST_OPEN_WAIT_MS * 5, 'the first-open store').catch((error: unknown) => {
      // A store that is away or slow: the shop's back end tries again, as after any 503.
      context.logger.warn({ err: error, store: context.firstOpens.where }, 'live timers: a pre-set deadline could not be stored')
      throw new ServiceBusyError('store_unavailable', 'The first-open store did not answer in time; try again in a moment.', STORE_RETRY_SECONDS)
    })
    const iso = (ms: number) => new Date(ms).toISOString()
    switch (preset.outcome) {
      case 'created':
        res.status(201).json({ r: input.r, until: iso(preset.deadline) })
        return
      case 'stored':
        res.status(409).json({ error: { code: 'already_set', message: `This recipient's deadline is already set, to ${iso(preset.deadline)}: it is never moved.`, field: 'r' }, until: iso(preset.deadline) })
        return
      default:
        throw new ServiceBusyError(
          preset.outcome,
          preset.outcome === 'timer_full' ? 'This timer keeps as many recipients as it may; more are taken as earlier ones are forgotten.' : 'The first-open store is full; more are taken as earlier entries are forgotten.',
          FULL_RETRY_SECONDS,
        )
    }
  })
}
