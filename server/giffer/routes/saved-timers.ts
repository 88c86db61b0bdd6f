/**
 * Saved timers: `POST countdown/timers`; `GET|PATCH|DELETE countdown/timers/{id}` and
 * `GET countdown/timers/{id}/stats` with the edit key; the images `GET countdown/t/{id}.gif|png`;
 * the link that knows the deadline, `GET countdown/t/{id}/go`.
 *
 * The image and the link are in emails: like a signed timer's image, a saved timer's never
 * answers an error a mail proxy would keep. An unknown or deleted id draws the expiry image.
 */
import type { NextFunction, Request, Response, Router } from 'express'
import { HttpError } from '../../process/errors.js'
import { perAddressLimit, perKeyLimit } from '../../process/rate-limit.js'
import { withTimeout } from '../../process/timeout.js'
import { parseRequest } from '../../process/validation.js'
import type { GifferContext } from '../context.js'
import { answerClock, answerLiveTimer, FIRST_OPEN_WAIT_MS, sendUnkeptPixel, type LiveTimerAnswers } from '../live/answer.js'
import type { LiveFormat } from '../live/pixel.js'
import { readerOf } from '../live/saved-counts.js'
import { SAVED_ID, savedLiveTimer, savedTimerSchema, timerView, type SavedDefinition } from '../live/saved.js'
import { SavedStoreUnavailable, statsView, type SavedTimers } from '../live/saved-timers.js'
import { readLiveStyle } from '../schemas.js'
import { openParameterOf, readLiveParams, recipientKey, recipientKeyHash, scheduledDeadline, type LiveTimer } from '../live/timer.js'
import { patchJson, postJson } from './http.js'

export interface SavedTimerLimits {
  /** Timers one address may save in an hour. */
  savesPerAddressPerHour: number
  /** Changes of one timer in a minute. */
  editsPerTimerPerMinute: number
}

const IMAGE = /^([A-Za-z0-9_-]{1,64})\.(gif|png)$/
/** How long the `go` link waits for the store before it answers 503 (a person clicked it, and may click again). */
const GO_WAIT_MS = 2_000

/** The image, link and edit URLs of a saved timer; an evergreen or per-recipient timer's end in its open parameter, ready for the merge tag. */
function urlsOf(context: GifferContext, id: string, definition: SavedDefinition): Record<string, string> {
  const base = `${context.absoluteBase}/countdown/t/${id}`
  const open = openParameterOf(definition.params.kind ?? 'fixed')
  const tail = open ? `?${open}=` : ''
  return { url: `${base}.gif${tail}`, png_url: `${base}.png${tail}`, link_url: `${base}/go${tail}` }
}

/** The recipient's part of a request (`r=`, `until=`) as a signed timer's is read; other parameters are not looked at. */
function openPart(req: Request, definition: SavedDefinition): string {
  const name = openParameterOf(definition.params.kind ?? 'fixed')
  if (!name) return ''
  const queryAt = req.url.indexOf('?')
  try {
    return readLiveParams(queryAt === -1 ? '' : req.url.slice(queryAt + 1))[name] ?? ''
  } catch {
    return ''
  }
}

/** What an unknown or deleted timer shows: the expiry image, zeros in the default look. */
const GONE_TIMER: LiveTimer = { style: readLiveStyle({}), schedule: { kind: 'fixed', until: 0 }, expiry: { kind: 'zeros' }, id: 'gone', secret: '', open: '' }

function imageRoute(context: GifferContext, saved: SavedTimers, answers: Record<LiveFormat, LiveTimerAnswers>) {
  return async (req: Request, res: Response) => {
    const left = answerClock(context)
    const [, id = '', format = 'gif'] = IMAGE.exec(String(req.params.file)) ?? []
    if (!id) throw new HttpError(404, 'not_found', 'No such timer image: the name is {id}.gif or {id}.png.')
    const looked = await saved.look(id, Math.min(FIRST_OPEN_WAIT_MS, left() - 700))
    if (looked === 'unavailable') return sendUnkeptPixel(res, format as LiveFormat, 'store_unavailable')
    if (!looked?.definition) return answerLiveTimer(answers[format as LiveFormat], req, res, GONE_TIMER, left)
    const { definition } = looked
    const timer = savedLiveTimer(id, definition, openPart(req, definition))
    const reader = readerOf(req.headers['user-agent'])
    // The edit page's own preview (`preview=1`) is the owner looking, and a HEAD (a link checker)
    // fetches no image: neither is an open of the email.
    const counted = req.query.preview === undefined && req.method === 'GET'
    await answerLiveTimer(answers[format as LiveFormat], req, res, timer, left, ({ first, expired }) => counted && saved.counts.count(id, { event: 'open', first, expired, reader }))
  }
}

/**
 * Whether the recipient's time is up, as their image would show it: an evergreen key's stored
 * deadline (a key not yet stored has its whole time ahead: a click does not start it), a
 * per-recipient date, the next recurring time, the one deadline of a fixed timer.
 */
async function expiredFor(context: GifferContext, timer: LiveTimer): Promise<boolean> {
  const at = context.now()
  if (timer.schedule.kind === 'evergreen') {
    const key = recipientKey(timer.open)
    if (!key) return false
    const stored = await withTimeout(context.firstOpens.storedDeadline(timer.id, recipientKeyHash(timer, key), at), GO_WAIT_MS, 'the first-open store').catch(() => null)
    return stored !== null && stored + (timer.shiftMs ?? 0) <= at
  }
  const deadline = scheduledDeadline(timer, at)
  return deadline === null || deadline <= at
}

function goRoute(context: GifferContext, saved: SavedTimers) {
  return async (req: Request, res: Response) => {
    const id = String(req.params.id)
    const looked = await saved.look(id, GO_WAIT_MS)
    if (looked === 'unavailable') throw new SavedStoreUnavailable()
    if (!looked?.definition) throw new HttpError(404, 'not_found', 'This timer no longer exists.')
    const { definition } = looked
    if (!definition.link) throw new HttpError(404, 'no_link', 'This timer has no link.')
    const timer = savedLiveTimer(id, definition, openPart(req, definition))
    const expired = await expiredFor(context, timer)
    if (req.method === 'GET') saved.counts.count(id, { event: 'click' })
    // Each recipient's answer, and it changes at the deadline: kept by no one.
    res.set('Cache-Control', 'no-store')
    res.redirect(302, expired ? (definition.link_expired ?? definition.link) : definition.link)
  }
}

/** Edit keys one address may get wrong in 10 minutes, every timer together; then 429. */
const KEY_FAILURES_PER_ADDRESS = 60

/** A timer's own paths: an id that cannot be one is answered as an unknown id is, before any limit counts it. */
function timerId(req: Request, _res: Response, next: NextFunction): void {
  next(SAVED_ID.test(String(req.params.id)) ? undefined : new HttpError(401, 'unauthorized', 'The edit key does not open this timer.', 'authorization'))
}

export function savedTimerRoutes(router: Router, context: GifferContext, saved: SavedTimers, answers: Record<LiveFormat, LiveTimerAnswers>, limits: SavedTimerLimits): void {
  const { rateLimitStore } = context.config
  const limitSaves = perAddressLimit({ limit: limits.savesPerAddressPerHour, windowMs: 3_600_000 }, rateLimitStore?.('savedTimerSaves'))
  // A timer's id is in every email that shows it: only changes made with its key count toward its
  // own limit, so that no reader can use up its owner's. Wrong keys count against their address.
  const limitEdits = perKeyLimit({ limit: limits.editsPerTimerPerMinute, windowMs: 60_000 }, (req) => `timer:${String(req.params.id)}`, rateLimitStore?.('savedTimerEdits'), undefined, 'succeeded')
  const limitWrongKeys = perAddressLimit({ limit: KEY_FAILURES_PER_ADDRESS, windowMs: 10 * 60_000 }, rateLimitStore?.('savedTimerKeys'), undefined, 'failed')
  const withKey = [timerId, limitWrongKeys]
  // The key is checked before a change counts toward the timer's limit: a request without it is
  // answered 401 before its body is read, so none can hold the owner's share open.
  const keyFirst = async (req: Request, _res: Response, next: NextFunction) => {
    await saved.authorised(String(req.params.id), req.headers.authorization)
    next()
  }
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store')

  router.post('/countdown/timers', limitSaves)
  postJson(router, '/countdown/timers', async (req, res) => {
    const input = parseRequest(savedTimerSchema, req.body)
    const { record, definition, editKey } = await saved.create(input)
    noStore(res).status(201).json({ id: record.id, ...urlsOf(context, record.id, definition), edit_key: editKey, timer: timerView(record, definition) })
  })
  router.get('/countdown/timers/:id', ...withKey, async (req, res) => {
    const { record, definition } = await saved.authorised(String(req.params.id), req.headers.authorization)
    noStore(res).json({ timer: { ...timerView(record, definition), ...urlsOf(context, record.id, definition) } })
  })
  router.patch('/countdown/timers/:id', ...withKey, keyFirst, limitEdits)
  patchJson(router, '/countdown/timers/:id', async (req, res) => {
    const { record, definition } = await saved.change(String(req.params.id), req.headers.authorization, req.body)
    noStore(res).json({ timer: { ...timerView(record, definition), ...urlsOf(context, record.id, definition) } })
  })
  router.delete('/countdown/timers/:id', ...withKey, keyFirst, limitEdits, async (req, res) => {
    await saved.remove(String(req.params.id), req.headers.authorization)
    noStore(res).status(204).end()
  })
  router.get('/countdown/timers/:id/stats', ...withKey, async (req, res) => {
    noStore(res).json(statsView(await saved.stats(String(req.params.id), req.headers.authorization)))
  })
  router.get('/countdown/t/:id/go', goRoute(context, saved))
  router.get('/countdown/t/:file', imageRoute(context, saved, answers))
}
