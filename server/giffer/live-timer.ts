/**
 * The live countdown: a GIF whose frame 0 shows the time left when it is fetched, for emails
 * that count down to a real deadline. Its URL carries the deadline and the style, signed so
 * that it cannot be altered; responses are cached per time bucket.
 */
import { createHmac } from 'node:crypto'
import { DELAY_CAPS, DELAY_MAX_SECONDS } from '../../shared/generators/countdown/countdown.js'
import { HttpError, badRequest } from '../process/errors.js'
import { nearestWeight } from './fonts.js'
import type { CountdownJob, Rgb } from './jobs.js'
import { countdownJob, type CountdownStyle } from './schemas.js'
import { signedByAny, type SigningKeys } from './signing.js'

const SIGNATURE_CHARS = 32
const SIGNATURE_PURPOSE = 'giffer live countdown v1'

const OFFSET_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/i
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** How far `zone` is ahead of UTC at the instant `utcMs`, in milliseconds. */
export function zoneOffsetMs(utcMs: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs))
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value)
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'))
  return asUtc - Math.floor(utcMs / 1000) * 1000
}

/**
 * The instant a deadline names. Either an ISO 8601 date-time with an offset (`…Z`,
 * `…+02:00`), or a wall-clock date-time (`2025-12-24T18:00`, or a date meaning midnight)
 * together with an IANA time zone (`Europe/Berlin`): a deadline without a zone is refused
 * rather than guessed. A wall-clock time skipped by a DST change resolves to the instant the
 * clocks jumped over it; a repeated one to its first occurrence.
 */
export function parseDeadline(until: string, tz: string | undefined): number {
  const withOffset = OFFSET_DATE_TIME.exec(until)
  if (withOffset) {
    if (tz) throw badRequest('tz', 'must be left out when until has an offset')
    const ms = Date.parse(until)
    if (!Number.isFinite(ms) || !validCalendar(withOffset)) throw badRequest('until', 'is not a real date and time')
    return ms
  }
  const local = LOCAL_DATE_TIME.exec(until)
  if (!local) throw badRequest('until', 'must be an ISO 8601 date-time, like 2025-12-24T18:00:00Z')
  if (!tz) throw badRequest('tz', 'is required when until has no offset (for example Europe/Berlin or UTC)')
  if (!isTimeZone(tz)) throw badRequest('tz', `unknown time zone "${tz.slice(0, 40)}"`)
  if (!validCalendar(local)) throw badRequest('until', 'is not a real date and time')
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = local
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s))
  // Two passes settle the offset that is in force at the resulting instant.
  let utc = wall - zoneOffsetMs(wall, tz)
  utc = wall - zoneOffsetMs(utc, tz)
  return utc
}

function validCalendar(match: RegExpExecArray): boolean {
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = match
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)))
  return (
    date.getUTCFullYear() === Number(y) &&
    date.getUTCMonth() === Number(mo) - 1 &&
    date.getUTCDate() === Number(d) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(s) < 60
  )
}

/** Query parameters in a fixed order: the text the signature covers. */
export function canonicalQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((key) => key !== 'sig')
    .sort()
    .map((key) => `${encodeURIComponent(key)}=${encodeURIComponent(params[key]!)}`)
    .join('&')
}

/** HMAC-SHA-256 over every parameter but `sig`: changing, adding or removing any one breaks it. */
export function signLiveParams(params: Record<string, string>, secret: string): string {
  return createHmac('sha256', secret)
    .update(`${SIGNATURE_PURPOSE}\n${canonicalQuery(params)}`)
    .digest('base64url')
    .slice(0, SIGNATURE_CHARS)
}

/** Accepts a signature by any accepted key (the current one, and the previous one while a new one is rolled in). */
export function verifyLiveParams(params: Record<string, string>, keys: SigningKeys): void {
  if (!signedByAny(params.sig ?? '', keys, (secret) => signLiveParams(params, secret))) throw new HttpError(403, 'bad_signature', 'This timer link is not valid: it was changed or not made here.', 'sig')
}

export interface LiveBucket {
  /** Seconds left at the start of the bucket: what frame 0 shows. */
  remainingSeconds: number
  /** When the bucket ends (ms): responses may be cached until then. */
  expiresAt: number
  /** Identifies the bucket in the render cache. */
  id: number
}

/**
 * Requests are grouped into buckets of `bucketSeconds`; all requests in one bucket get the same
 * image, rendered once. The time shown is the time left at the start of the bucket, rounded
 * up to whole seconds, so a timer is never behind by more than one bucket.
 */
export function liveBucket(deadlineMs: number, nowMs: number, bucketSeconds: number): LiveBucket {
  const bucketMs = bucketSeconds * 1000
  const id = Math.floor(nowMs / bucketMs)
  const start = id * bucketMs
  return {
    remainingSeconds: Math.max(0, Math.ceil((deadlineMs - start) / 1000)),
    expiresAt: start + bucketMs,
    id,
  }
}

function hex([r, g, b]: Rgb): string {
  return [r, g, b].map((n) => n.toString(16).padStart(2, '0')).join('')
}

/**
 * The query of a new live timer, signed: the deadline in UTC and every style value explicitly,
 * defaults included. The deadline must be in the future and at most 99 days ahead.
 */
export function liveTimerQuery(style: CountdownStyle, deadline: number, nowMs: number, secret: string): { query: string; until: string } {
  if (deadline <= nowMs) throw badRequest('until', 'is in the past')
  if (deadline - nowMs > DELAY_MAX_SECONDS * 1000) throw badRequest('until', `must be at most ${DELAY_CAPS.days} days ahead`)
  const params: Record<string, string> = {
    until: new Date(deadline).toISOString().replace(/\.000Z$/, 'Z'),
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
  return { query: new URLSearchParams({ ...params, sig: signLiveParams(params, secret) }).toString(), until: params.until! }
}

/**
 * The live timer of one bucket: frame 0 shows the time left at the start of the bucket, and the
 * GIF runs on for at most `duration` frames, stopping at zero. Once expired, a single frame.
 */
export function liveTimerJob(style: CountdownStyle, bucket: LiveBucket, format: CountdownJob['format']): CountdownJob {
  const expired = bucket.remainingSeconds === 0
  return countdownJob(style, {
    remainingSeconds: bucket.remainingSeconds,
    frames: expired ? 1 : Math.min(style.duration, bucket.remainingSeconds + 1),
    format,
  })
}
