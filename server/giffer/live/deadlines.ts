/**
 * When a live timer ends: a deadline written as a date and time (with an offset, or as a wall
 * clock in a named zone), one read from a recipient's merge field, or the next time of a weekly
 * schedule. Plain functions of the clock they are given.
 */
import { badRequest } from '../../process/errors.js'

const OFFSET_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/i
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/

const DAY_MS = 86_400_000

/** Formatters cached at most: a zone name can be written in any letter case, and each spelling is a name of its own. */
const ZONE_FORMATTERS_MAX = 1_000
/** One formatter per zone name: building one costs far more than using it, and a recurring timer reads its zone on every open. */
const zoneFormatters = new Map<string, Intl.DateTimeFormat>()

/** The formatter of `zone`'s calendar and 24-hour clock; throws a RangeError for an unknown zone (which is not kept). */
function zoneFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = zoneFormatters.get(zone)
  if (formatter) return formatter
  formatter = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  })
  // The oldest name gives way: the zones in real use come back at once.
  if (zoneFormatters.size >= ZONE_FORMATTERS_MAX) zoneFormatters.delete(zoneFormatters.keys().next().value!)
  zoneFormatters.set(zone, formatter)
  return formatter
}

export function isTimeZone(zone: string): boolean {
  try {
    zoneFormatter(zone)
    return true
  } catch {
    return false
  }
}

/** The calendar date and wall-clock time in `zone` at the instant `utcMs`. */
function wallClock(utcMs: number, zone: string) {
  const parts = zoneFormatter(zone).formatToParts(new Date(utcMs))
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value)
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') }
}

/** How far `zone` is ahead of UTC at the instant `utcMs`, in milliseconds. */
export function zoneOffsetMs(utcMs: number, zone: string): number {
  const { year, month, day, hour, minute, second } = wallClock(utcMs, zone)
  return Date.UTC(year, month - 1, day, hour, minute, second) - Math.floor(utcMs / 1000) * 1000
}

/**
 * The instant a deadline names. Either an ISO 8601 date-time with an offset (`…Z`,
 * `…+02:00`), or a wall-clock date-time (`2025-12-24T18:00`, or a date meaning midnight)
 * together with an IANA time zone (`Europe/Berlin`): a deadline without a zone is refused
 * rather than guessed. A wall-clock time the clocks skip when they go forward is read later by
 * the length of the jump, as the clocks show it after it (New York's or Berlin's 02:30 as 03:30,
 * Lord Howe's 02:15 as 02:45); a time they show twice when they go back is the first of the two.
 * `field` names the parameter in the errors.
 */
export function parseDeadline(until: string, tz: string | undefined, field = 'until'): number {
  const withOffset = OFFSET_DATE_TIME.exec(until)
  if (withOffset) {
    if (tz) throw badRequest('tz', `must be left out when ${field} has an offset`)
    const ms = Date.parse(until)
    if (!Number.isFinite(ms) || !validCalendar(withOffset)) throw badRequest(field, 'is not a real date and time')
    return ms
  }
  const local = LOCAL_DATE_TIME.exec(until)
  if (!local) throw badRequest(field, 'must be an ISO 8601 date-time, like 2025-12-24T18:00:00Z')
  if (!tz) throw badRequest('tz', `is required when ${field} has no offset (for example Europe/Berlin or UTC)`)
  if (!isTimeZone(tz)) throw badRequest('tz', `unknown time zone "${tz.slice(0, 40)}"`)
  if (!validCalendar(local)) throw badRequest(field, 'is not a real date and time')
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = local
  return wallClockInstant(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)), tz)
}

/**
 * The instant a wall-clock time (given as if it were UTC) names in `tz`. The zone's offsets a day
 * before and a day after it (clocks change far less often than that) are each tried: those the
 * zone really has at the instant they give are the answers, the earlier one when the clocks show
 * the time twice. None when the clocks skip it: read with the offset before the jump, it lands as
 * far after the jump as the time was after the gap's start.
 */
function wallClockInstant(wall: number, tz: string): number {
  const before = zoneOffsetMs(wall - DAY_MS, tz)
  const after = zoneOffsetMs(wall + DAY_MS, tz)
  const instants = [wall - before, wall - after].filter((instant) => zoneOffsetMs(instant, tz) === wall - instant)
  return instants.length > 0 ? Math.min(...instants) : wall - before
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

/** A Unix time in seconds (9 to 11 digits: 1973 to 5138) or in milliseconds (13 digits). */
const UNIX_SECONDS = /^\d{9,11}$/
const UNIX_MILLISECONDS = /^\d{13}$/

/**
 * A recipient's deadline as a sending platform fills it into `until=`: an ISO date-time with an
 * offset, a date or date-time read in the timer's zone `tz`, or a Unix time. Platforms and mail
 * apps bend these on the way, so a space stands for the `T`, and for the `+` of an offset (an
 * unencoded `+` in a query is a space). Anything else, or nothing, is null: the timer then shows
 * its expiry image rather than an error a mail proxy would keep.
 */
export function readRecipientDeadline(value: string | undefined, tz: string | undefined): number | null {
  const text = (value ?? '').trim()
  if (!text || text.length > 64) return null
  if (UNIX_SECONDS.test(text)) return Number(text) * 1000
  if (UNIX_MILLISECONDS.test(text)) return Number(text)
  const iso = text.replace(/^(\d{4}-\d{2}-\d{2}) (?=\d)/, '$1T').replace(/ (\d{2}:?\d{2})$/, '+$1')
  try {
    return parseDeadline(iso, OFFSET_DATE_TIME.test(iso) ? undefined : tz)
  } catch {
    return null
  }
}

/** A time of day on a 24-hour clock. */
export interface TimeOfDay {
  hour: number
  minute: number
}

/** `HH:MM` on a 24-hour clock, or null. */
export function parseTimeOfDay(text: string): TimeOfDay | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text)
  return match ? { hour: Number(match[1]), minute: Number(match[2]) } : null
}

/**
 * The next instant after `nowMs` when the clocks of `tz` show `at` on one of `weekdays`
 * (0 Sunday … 6 Saturday). Days are counted on the zone's calendar, so a schedule keeps its wall
 * clock across DST changes. A time the clocks skip that day is read later by the length of the
 * jump, as the clocks show it after it (02:30 becomes 03:30 where they jump an hour, 02:45 where
 * they jump half an hour); a time they show twice comes once, at the first of the two.
 */
export function nextOccurrence(nowMs: number, at: TimeOfDay, weekdays: readonly number[], tz: string): number {
  const today = wallClock(nowMs, tz)
  // Eight days: today's time may have passed, and a weekly schedule comes round again within seven more.
  for (let ahead = 0; ahead <= 7; ahead++) {
    const date = Date.UTC(today.year, today.month - 1, today.day + ahead)
    if (!weekdays.includes(new Date(date).getUTCDay())) continue
    const instant = wallClockInstant(date + (at.hour * 60 + at.minute) * 60_000, tz)
    if (instant > nowMs) return instant
  }
  // Only reached with no weekday at all, which the signed URL cannot carry.
  return nowMs + 7 * DAY_MS
}
