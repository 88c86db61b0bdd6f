/**
 * The live countdown: a GIF whose frame 0 shows the time left when it is fetched, for emails.
 * Its URL carries the timer's look, its kind and the bounds of that kind, signed so that none of
 * them can be altered; only the recipient's own part (`r=` or `until=`, filled in by the sending
 * platform's merge tag) is left open. Four kinds:
 * - fixed: one deadline for everyone;
 * - evergreen: each recipient key's own deadline, its first open plus `for` seconds;
 * - per-recipient: the deadline in `until=`, accepted between the signed `from` and `to`;
 * - recurring: the next `at` on one of `weekdays`, in `tz`, again and again.
 */
import { createHmac } from 'node:crypto'
import { END_MESSAGE_MAX_LENGTH, END_MESSAGES, captionLanguage } from '../../../shared/generators/countdown/captions.js'
import { COUNTDOWN_MAX_SECONDS, DELAY_CAPS, DELAY_MAX_SECONDS } from '../../../shared/generators/countdown/countdown.js'
import { HttpError, badRequest } from '../../process/errors.js'
import { nearestWeight } from '../fonts.js'
import type { CountdownJob, Rgb } from '../jobs.js'
import { z } from 'zod'
import { countdownJob, liveStyleSchema, readLiveStyle, wholeNumber, type CountdownStyle } from '../schemas.js'
import { signerOf, type SigningKeys } from '../signing.js'
import { isTimeZone, nextOccurrence, parseDeadline, parseTimeOfDay, readRecipientDeadline, type TimeOfDay } from './deadlines.js'

const SIGNATURE_CHARS = 32
const SIGNATURE_PURPOSE = 'giffer live countdown v1'

export const LIVE_KINDS = ['fixed', 'evergreen', 'per-recipient', 'recurring'] as const
export type LiveKind = (typeof LIVE_KINDS)[number]

/** The shortest and longest time an evergreen timer gives each recipient, in seconds: a minute to 90 days. */
export const EVERGREEN_SECONDS = { min: 60, max: 90 * 86_400 } as const
/** How far ahead the latest date a per-recipient timer accepts may be, in days. */
export const PER_RECIPIENT_MAX_DAYS = 400
/** Every day of the week, Sunday 0. */
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6] as const

const dateTime = (example: string) => z.string({ error: `must be a date and time like ${example}` }).trim().min(1).max(64)

/** `countdown/live-url`: the style of the timer, its kind with what that kind needs, and what it shows once the time is up. */
export const liveUrlSchema = liveStyleSchema.extend({
  kind: z.enum(LIVE_KINDS, { error: `must be one of ${LIVE_KINDS.join(', ')}` }).default('fixed'),
  until: dateTime('2025-12-24T18:00:00Z').optional(),
  tz: z.string({ error: 'must be a time zone like Europe/Berlin' }).trim().max(64).optional(),
  for: wholeNumber(EVERGREEN_SECONDS.min, EVERGREEN_SECONDS.max).optional(),
  from: dateTime('2025-12-01T00:00:00Z').optional(),
  to: dateTime('2026-03-01T00:00:00Z').optional(),
  at: z.string({ error: 'must be a time of day like 14:00' }).trim().max(5).optional(),
  weekdays: z
    .union([z.array(wholeNumber(0, 6)), z.string().trim().regex(/^[0-6](,[0-6])*$/).transform((list) => list.split(',').map(Number))], {
      error: 'must be days of the week as numbers 0-6 (Sunday 0), like [1,2,3,4,5]',
    })
    .refine((days) => days.length > 0, 'must name at least one day')
    .optional(),
  expired: z.enum(['zeros', 'message', 'hide'], { error: 'must be zeros, message or hide' }).default('zeros'),
  message: z.string({ error: 'must be text' }).max(200).optional(),
})
export type LiveUrlInput = z.output<typeof liveUrlSchema>

/** The parameter each kind leaves unsigned, for the sending platform to fill in per recipient. */
const OPEN_PARAMETER: Partial<Record<LiveKind, string>> = { evergreen: 'r', 'per-recipient': 'until' }
const OPEN_PARAMETERS = new Set(Object.values(OPEN_PARAMETER))

/**
 * A live timer's query parameters, as read for its signature. The recipient's own part (`r=`,
 * `until=`) may come more than once: the URL handed out already ends in `&r=`, and a sender who
 * appends `&r=*|UNIQID|*` anyway means the last value filled in, so the last non-empty one counts.
 * Any other parameter given twice is not a URL this service made: 400 naming it.
 *
 * Email editors often escape the `&` of an image URL twice, so `&sig=` arrives as `&amp;sig=`
 * (or `&amp;amp;sig=`): a name written with leading `amp;`, in any case, is read without them,
 * and such a link is the link it was made as.
 */
export function readLiveParams(query: string): Record<string, string> {
  // No prototype: a parameter named `__proto__` is just a parameter.
  const params: Record<string, string> = Object.create(null)
  for (const [name, value] of new URLSearchParams(query.replace(/(^|&)(?:amp;)+/gi, '$1'))) {
    if (OPEN_PARAMETERS.has(name)) {
      if (value.trim() || !(name in params)) params[name] = value
    } else if (name in params) {
      throw badRequest(name, 'must be given once')
    } else {
      params[name] = value
    }
  }
  return params
}

/** What the image shows once the time is up: zeros, a message in the timer's style, or nothing (a transparent pixel). */
export type Expiry = { kind: 'zeros' } | { kind: 'message'; text: string } | { kind: 'hide' }

export type LiveSchedule =
  | { kind: 'fixed'; until: number }
  | { kind: 'evergreen'; seconds: number }
  | { kind: 'per-recipient'; from: number; to: number; tz: string | undefined }
  | { kind: 'recurring'; at: TimeOfDay; weekdays: number[]; tz: string }
  /** Signed by this service but not readable by this release (a zone it no longer knows, say): shows the expiry image. */
  | { kind: 'unreadable'; reason: string }

/** A live timer as its signed URL describes it. */
export interface LiveTimer {
  style: CountdownStyle
  schedule: LiveSchedule
  expiry: Expiry
  /** Names the timer in the first-open store: a part of its signature, so every copy of the URL names the same timer. */
  id: string
  /** The key that signed it: recipient keys are hashed with it. */
  secret: string
  /** The recipient's own part of the URL (`r=` or `until=`), as sent; empty when there is none. */
  open: string
  /**
   * A saved evergreen timer whose time was changed: what every recipient's deadline moves by
   * (ms), the stored ones included, which were stored with the time it was saved with.
   */
  shiftMs?: number
  /** A saved timer, which its owner can change at any time: its answers are kept briefly, ended ones too. */
  changeable?: true
}

/** Query parameters in a fixed order, without `sig` and the kind's open parameter: the text the signature covers. */
export function canonicalQuery(params: Record<string, string>): string {
  const open = OPEN_PARAMETER[params.kind as LiveKind]
  return Object.keys(params)
    .filter((key) => key !== 'sig' && key !== open)
    .sort()
    .map((key) => `${encodeURIComponent(key)}=${encodeURIComponent(params[key]!)}`)
    .join('&')
}

/** HMAC-SHA-256 over every parameter but `sig` and the open one: changing, adding or removing any other breaks it. */
export function signLiveParams(params: Record<string, string>, secret: string): string {
  return createHmac('sha256', secret)
    .update(`${SIGNATURE_PURPOSE}\n${canonicalQuery(params)}`)
    .digest('base64url')
    .slice(0, SIGNATURE_CHARS)
}

/** The key, of those accepted (the current one, and the previous one while a new one is rolled in), that signed these parameters. */
function signingSecret(params: Record<string, string>, keys: SigningKeys): string {
  const secret = signerOf(params.sig ?? '', keys, (key) => signLiveParams(params, key))
  if (!secret) throw new HttpError(403, 'bad_signature', 'This timer link is not valid: it was changed or not made here.', 'sig')
  return secret
}

/** A signed value this service wrote itself: one that does not read back is not readable by this release. */
function signed<T>(value: T | null | undefined, name: string): T {
  if (value === null || value === undefined) throw new Error(`a signed live timer has an unreadable ${name}`)
  return value
}

/** A finite instant in ms, or the error of an unreadable one. */
function instant(ms: number, name: string): number {
  if (!Number.isFinite(ms)) throw new Error(`a signed live timer has an unreadable ${name}`)
  return ms
}

/** The schedule a signed URL describes; throws when this release cannot read it. */
function readSchedule(params: Record<string, string>, kind: string): LiveSchedule {
  switch (kind) {
    case 'fixed':
      return { kind, until: parseDeadline(signed(params.until, 'until'), params.tz) }
    case 'evergreen': {
      const seconds = Number(signed(params.for, 'for'))
      if (!Number.isSafeInteger(seconds) || seconds < 1) throw new Error('a signed live timer has an unreadable for')
      return { kind, seconds }
    }
    case 'per-recipient':
      return { kind, from: instant(Date.parse(signed(params.from, 'from')), 'from'), to: instant(Date.parse(signed(params.to, 'to')), 'to'), tz: params.tz }
    case 'recurring': {
      const tz = signed(params.tz, 'tz')
      if (!isTimeZone(tz)) throw new Error('a signed live timer has a time zone this server does not know')
      const weekdays = signed(params.weekdays, 'weekdays').split(',').map(Number)
      if (weekdays.length === 0 || weekdays.some((day) => !Number.isInteger(day) || day < 0 || day > 6)) throw new Error('a signed live timer has unreadable weekdays')
      return { kind, at: signed(parseTimeOfDay(params.at ?? ''), 'at'), weekdays, tz }
    }
    default:
      throw new Error(`a signed live timer has an unknown kind "${kind.slice(0, 20)}"`)
  }
}

/** What a timer's parameters describe past its signature: its look, its schedule and its expiry. */
export type LiveDefinition = Pick<LiveTimer, 'style' | 'schedule' | 'expiry'>

/**
 * A timer's look, schedule and expiry from its parameters (a signed URL's, or a saved timer's),
 * never refused: the timer is in emails already, so a style that no longer passes is read as the
 * nearest one that does, and a schedule this release cannot read shows the expiry image. URLs
 * minted before there were kinds carry neither `kind` nor `expired`: fixed, showing zeros.
 */
export function readLiveDefinition(params: Record<string, string>): LiveDefinition {
  const kind = params.kind ?? 'fixed'
  const schedule = ((): LiveSchedule => {
    try {
      return readSchedule(params, kind)
    } catch (error) {
      return { kind: 'unreadable', reason: error instanceof Error ? error.message : String(error) }
    }
  })()
  const expired = params.expired ?? 'zeros'
  const expiry: Expiry = expired === 'message' && params.message ? { kind: 'message', text: params.message } : expired === 'hide' ? { kind: 'hide' } : { kind: 'zeros' }
  return { style: readLiveStyle(params), schedule, expiry }
}

/** The parameter of `kind` left open for each recipient (`r`, `until`), if any. */
export const openParameterOf = (kind: string): string | undefined => OPEN_PARAMETER[kind as LiveKind]

/** The timer a signed URL describes, or 403 `bad_signature`; past the signature nothing is refused (`readLiveDefinition`). */
export function readLiveTimer(params: Record<string, string>, keys: SigningKeys): LiveTimer {
  const secret = signingSecret(params, keys)
  const open = openParameterOf(params.kind ?? 'fixed')
  return { ...readLiveDefinition(params), id: params.sig!.slice(0, 16), secret, open: open ? (params[open] ?? '') : '' }
}

/** The longest recipient key kept; a longer one (no platform's merge tag makes one) is not a key. */
export const RECIPIENT_KEY_MAX = 512

/**
 * A recipient key as every path reads it (an image's `r=`, a pre-set's `r`), or null when there
 * is none: trimmed; a space and `+` the same (an unencoded `+`, as in `anna+shop@example.com`,
 * arrives as a space in a query but stays `+` in JSON); Unicode NFC, so that one name typed two
 * ways is one key. An e-mail address is compared without regard to case: platforms and shops
 * write one address in different cases (`Anna@Shop.com` in an order, `anna@shop.com` in a
 * contact list), and no mail provider delivers two mailboxes that differ only by case. Other keys
 * (platforms' subscriber ids) are kept as sent: some are case-sensitive.
 */
export function recipientKey(raw: string): string | null {
  const key = raw.normalize('NFC').trim().replace(/ /g, '+')
  if (!key || key.length > RECIPIENT_KEY_MAX) return null
  return /^[^@\s]+@[^@\s]+$/.test(key) ? key.toLowerCase() : key
}

/**
 * The recipient key (as `recipientKey` reads it) as the first-open store keeps it: an HMAC with
 * the key that signed the timer, never the key itself (keys are often e-mail addresses), tied to
 * the timer.
 */
export function recipientKeyHash(timer: LiveTimer, key: string): string {
  return createHmac('sha256', timer.secret).update(`live timer recipient\n${timer.id}\n${key}`).digest('base64url').slice(0, 22)
}

/** The instant a UTC date-time is written as in a URL: seconds, no milliseconds. */
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

function hex([r, g, b]: Rgb): string {
  return [r, g, b].map((n) => n.toString(16).padStart(2, '0')).join('')
}

/** Every style value, defaults included, as the URL carries it. */
function styleParams(style: CountdownStyle): Record<string, string> {
  return {
    font: style.font.id,
    font_weight: String(nearestWeight(style.font, style.font_weight)),
    color: hex(style.color),
    background: hex(style.background),
    days: style.days,
    hours: style.hours,
    minutes: style.minutes,
    seconds: style.seconds,
    duration: String(style.duration),
    scale: String(style.scale),
  }
}

/** The expiry a new timer asks for, checked: a message is at most 60 characters of text, in the captions' language when left empty. */
function expiryParams(input: LiveUrlInput): Record<string, string> {
  if (input.kind === 'recurring') {
    if (input.expired !== 'zeros') throw badRequest('expired', 'does not apply to a recurring timer: it starts again at each time')
    return {}
  }
  if (input.expired === 'zeros') return {}
  if (input.expired === 'hide') return { expired: 'hide' }
  const text = input.message?.trim() || END_MESSAGES[captionLanguage(input)]
  if ([...text].length > END_MESSAGE_MAX_LENGTH) throw badRequest('message', `must be at most ${END_MESSAGE_MAX_LENGTH} characters`)
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) throw badRequest('message', 'must be one line of text')
  return { expired: 'message', message: text }
}

/** The signed parameters of each kind, checked against the clock at minting. */
function scheduleParams(input: LiveUrlInput, nowMs: number): Record<string, string> {
  switch (input.kind) {
    case 'fixed': {
      if (!input.until) throw badRequest('until', 'is required: a date and time like 2025-12-24T18:00:00Z')
      const deadline = parseDeadline(input.until, input.tz)
      if (deadline <= nowMs) throw badRequest('until', 'is in the past')
      if (deadline - nowMs > DELAY_MAX_SECONDS * 1000) throw badRequest('until', `must be at most ${DELAY_CAPS.days} days ahead`)
      return { until: isoSeconds(deadline) }
    }
    case 'evergreen': {
      const seconds = input.for
      if (seconds === undefined) throw badRequest('for', 'is required: the seconds each recipient gets from their first open')
      return { kind: 'evergreen', for: String(seconds) }
    }
    case 'per-recipient': {
      if (!input.from) throw badRequest('from', 'is required: the earliest deadline accepted, like 2025-12-01T00:00:00Z')
      if (!input.to) throw badRequest('to', 'is required: the latest deadline accepted, like 2026-03-01T00:00:00Z')
      const from = parseDeadline(input.from, input.tz, 'from')
      const to = parseDeadline(input.to, input.tz, 'to')
      if (to <= from) throw badRequest('to', 'must be after from')
      if (to <= nowMs) throw badRequest('to', 'is in the past')
      if (to - nowMs > PER_RECIPIENT_MAX_DAYS * 86_400_000) throw badRequest('to', `must be at most ${PER_RECIPIENT_MAX_DAYS} days ahead`)
      return { kind: 'per-recipient', from: isoSeconds(from), to: isoSeconds(to), ...(input.tz ? { tz: input.tz } : {}) }
    }
    case 'recurring': {
      if (!input.at) throw badRequest('at', 'is required: a time of day like 14:00')
      if (!parseTimeOfDay(input.at)) throw badRequest('at', 'must be a time of day like 14:00 (24-hour clock)')
      if (!input.tz) throw badRequest('tz', 'is required for a recurring timer (for example Europe/Berlin or UTC)')
      if (!isTimeZone(input.tz)) throw badRequest('tz', `unknown time zone "${input.tz.slice(0, 40)}"`)
      const weekdays = [...new Set(input.weekdays ?? EVERY_DAY)].sort()
      return { kind: 'recurring', at: input.at, weekdays: weekdays.join(','), tz: input.tz }
    }
  }
}

export interface MintedLiveTimer {
  /** The query of the GIF and PNG URLs; for evergreen and per-recipient timers it ends in the open parameter (`&r=`, `&until=`), empty. */
  query: string
  /** The fixed timer's deadline in UTC. */
  until?: string
}

/**
 * A new timer's parameters, checked against the clock: its schedule, every style value
 * explicitly, and its expiry. `parts` leaves out what is kept from before (a saved timer's
 * change that names no field of its schedule keeps the schedule it has, even one now past).
 */
export function liveParams(input: LiveUrlInput, nowMs: number, parts: { schedule: boolean } = { schedule: true }): Record<string, string> {
  return { ...(parts.schedule ? scheduleParams(input, nowMs) : {}), ...styleParams(input), ...expiryParams(input) }
}

/** A new live timer's query, signed: its schedule, every style value explicitly, and its expiry. */
export function mintLiveTimer(input: LiveUrlInput, nowMs: number, secret: string): MintedLiveTimer {
  const params = liveParams(input, nowMs)
  const query = new URLSearchParams({ ...params, sig: signLiveParams(params, secret) })
  const open = OPEN_PARAMETER[input.kind]
  if (open) query.append(open, '')
  return { query: query.toString(), until: params.until }
}

/**
 * The deadline of `timer` for this request, except evergreen ones (which the first-open store
 * keeps): null when the recipient's date is missing, unreadable or outside the accepted range,
 * which shows the expiry image.
 */
export function scheduledDeadline(timer: LiveTimer, nowMs: number): number | null {
  const { schedule } = timer
  switch (schedule.kind) {
    case 'fixed':
      return schedule.until
    case 'per-recipient': {
      const deadline = readRecipientDeadline(timer.open, schedule.tz)
      return deadline !== null && deadline >= schedule.from && deadline <= schedule.to ? deadline : null
    }
    case 'recurring':
      return nextOccurrence(nowMs, schedule.at, schedule.weekdays, schedule.tz)
    case 'evergreen':
      return nowMs + schedule.seconds * 1000
    case 'unreadable':
      return null
  }
}

export interface LiveBucket {
  /** The seconds frame 0 shows: the time left, rounded up to a whole bucket. */
  remainingSeconds: number
  /** When the time left drops below what this bucket shows (ms): responses may be kept until then. */
  expiresAt: number
}

/**
 * Requests are grouped by the time they have left, in steps of `bucketSeconds`: every request in
 * a step gets the same image, drawn once, however its deadline came about (one date for all, or
 * each recipient's first open). Frame 0 shows the time left rounded up to the step, so a timer is
 * never more than one step behind and never reaches zero early.
 */
export function liveBucket(deadlineMs: number, nowMs: number, bucketSeconds: number): LiveBucket {
  const leftMs = deadlineMs - nowMs
  if (leftMs <= 0) return { remainingSeconds: 0, expiresAt: Number.POSITIVE_INFINITY }
  const remainingSeconds = Math.ceil(leftMs / (bucketSeconds * 1000)) * bucketSeconds
  return { remainingSeconds, expiresAt: deadlineMs - (remainingSeconds - bucketSeconds) * 1000 }
}

/**
 * The live timer of one bucket: frame 0 shows the time left at the start of the bucket, and the
 * GIF runs on for at most `duration` frames, stopping at zero (or at the expiry message). Once
 * expired, a single frame.
 */
export function liveTimerJob(style: CountdownStyle, bucket: LiveBucket, format: CountdownJob['format'], expiry: Expiry): CountdownJob {
  const expired = bucket.remainingSeconds === 0
  const job = countdownJob(style, {
    // Past the largest time a countdown can show, every time left is the same picture: one render.
    remainingSeconds: Math.min(bucket.remainingSeconds, COUNTDOWN_MAX_SECONDS),
    frames: expired ? 1 : Math.min(style.duration, bucket.remainingSeconds + 1),
    format,
  })
  return expiry.kind === 'message' ? { ...job, endMessage: expiry.text } : job
}
