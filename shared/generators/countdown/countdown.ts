/**
 * The countdown generator's rules: delay units and their caps, what the amount field accepts,
 * unit conversion, quick picks of upcoming holidays, and the image service request. Plain
 * functions, used by the page, its server loader and the tests alike.
 */
import type { Holiday } from '../../holidays/holidays.js'
import { CAPTION_MAX_LENGTH, COUNTDOWN_SIZE, countdownHeight } from './timer-basics.js'
import { escapeHtml } from '../html.js'

export { CAPTION_MAX_LENGTH, COUNTDOWN_SIZE, countdownHeight }

export const DELAY_UNITS = ['days', 'hours', 'minutes'] as const
export type DelayUnit = (typeof DELAY_UNITS)[number]

/** Minutes in one of each unit: every conversion goes through minutes. */
export const MINUTES_PER_UNIT: Readonly<Record<DelayUnit, number>> = { days: 1440, hours: 60, minutes: 1 }

/** The longest delay in each unit; a kind of timer may have its own, shorter ones. */
export type DelayCaps = Readonly<Record<DelayUnit, number>>

/** The longest delay in each unit: 99 days, the image service's limit. */
export const DELAY_CAPS: DelayCaps = { days: 99, hours: 2376, minutes: 142_560 }

/** The longest delay in seconds (99 days): what the image service accepts. */
export const DELAY_MAX_SECONDS = DELAY_CAPS.days * MINUTES_PER_UNIT.days * 60

/**
 * The longest time left a countdown image draws, in seconds: 999 days 23:59:59, three digits of
 * days. A live timer's deadline may lie further ahead than the generator's delay; what is left
 * beyond this is drawn as this.
 */
export const COUNTDOWN_MAX_SECONDS = 1000 * MINUTES_PER_UNIT.days * 60 - 1

/** Frames of a countdown GIF, one a second. */
export const COUNTDOWN_DURATION = 120
/** Pixels per CSS pixel of the GIF: sharp on high-density screens. */
export const COUNTDOWN_SCALE = 2
/** Quick picks reach this many days ahead (today is 0). */
export const QUICK_PICK_WINDOW_DAYS = 99

const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS
const DAY_MS = 24 * HOUR_MS

export function isDelayUnit(value: unknown): value is DelayUnit {
  return typeof value === 'string' && (DELAY_UNITS as readonly string[]).includes(value)
}

/**
 * Keys the amount field refuses: anything printable that is not a digit (dot, comma, minus and
 * plus among them). Editing keys (Backspace, arrows, Tab) have longer names and pass.
 */
export function isBlockedAmountKey(key: string): boolean {
  return key.length === 1 && !/[0-9]/.test(key)
}

/** Whole amounts only, never above the unit's cap. */
export function capAmount(amount: number, unit: DelayUnit, caps: DelayCaps = DELAY_CAPS): number {
  return Math.min(Math.max(Math.floor(amount), 0), caps[unit])
}

/**
 * The amount field's text while typing (or after a paste): digits only, without leading zeros,
 * capped. Empty stays empty, so the visitor can clear the field and type anew.
 */
export function amountWhileTyping(text: string, unit: DelayUnit, caps: DelayCaps = DELAY_CAPS): string {
  const digits = text.replace(/\D+/g, '').replace(/^0+(?=\d)/, '').slice(0, 7)
  return digits === '' ? '' : String(capAmount(Number(digits), unit, caps))
}

/** On leaving the field: empty or below 1 becomes 1; anything else is kept, capped. */
export function amountOnBlur(text: string, unit: DelayUnit, caps: DelayCaps = DELAY_CAPS): number {
  const amount = Number(text.replace(/\D+/g, '').slice(0, 7) || '0')
  return amount < 1 ? 1 : capAmount(amount, unit, caps)
}

/** The same delay in another unit, rounded to a whole number, at least 1 and capped. */
export function convertAmount(amount: number, from: DelayUnit, to: DelayUnit, caps: DelayCaps = DELAY_CAPS): number {
  const converted = Math.round((amount * MINUTES_PER_UNIT[from]) / MINUTES_PER_UNIT[to])
  return Math.max(1, capAmount(converted, to, caps))
}

/** What the image service is sent: the delay in seconds. */
export function delaySeconds(amount: number, unit: DelayUnit, caps: DelayCaps = DELAY_CAPS): number {
  return capAmount(amount, unit, caps) * MINUTES_PER_UNIT[unit] * 60
}

/**
 * The amount and unit for a moment `msAhead` milliseconds away: days when more than 7 days
 * away, hours when 8 hours or more, otherwise minutes (at least 1); always rounded up, so the
 * timer never reaches zero before the moment does.
 */
export function delayForTimeLeft(msAhead: number): { amount: number; unit: DelayUnit } {
  if (msAhead > 7 * DAY_MS) return { amount: capAmount(Math.ceil(msAhead / DAY_MS), 'days'), unit: 'days' }
  if (msAhead >= 8 * HOUR_MS) return { amount: capAmount(Math.ceil(msAhead / HOUR_MS), 'hours'), unit: 'hours' }
  return { amount: Math.max(1, capAmount(Math.ceil(msAhead / MINUTE_MS), 'minutes')), unit: 'minutes' }
}

/** "2025-12-25" → that day's midnight in the visitor's time zone. */
function localMidnight(isoDate: string): Date {
  const [year, month, day] = isoDate.split('-').map(Number)
  return new Date(year!, month! - 1, day!)
}

/** Calendar days from the visitor's today to a date: 0 today, 1 tomorrow, negative when past. */
export function daysAhead(isoDate: string, now: Date): number {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate())
  // Rounded: a day with a daylight-saving change is 23 or 25 hours long.
  return Math.round((localMidnight(isoDate).getTime() - today.getTime()) / DAY_MS)
}

/**
 * The moment a countdown to a holiday ends: the start of that day in the visitor's time zone;
 * on the day itself, its end (the last hours of a holiday sale).
 */
export function holidayDeadline(isoDate: string, now: Date): Date {
  const start = localMidnight(isoDate)
  if (start.getTime() > now.getTime()) return start
  const [year, month, day] = isoDate.split('-').map(Number)
  return new Date(year!, month! - 1, day! + 1)
}

/** The amount and unit that count down to a holiday from `now`. */
export function delayToHoliday(isoDate: string, now: Date): { amount: number; unit: DelayUnit } {
  return delayForTimeLeft(holidayDeadline(isoDate, now).getTime() - now.getTime())
}

export interface QuickPick extends Holiday {
  daysAhead: number
}

/** The holidays 0 to 99 days ahead of the visitor's today, nearest first. */
export function quickPicks(holidays: readonly Holiday[], now: Date): QuickPick[] {
  return holidays
    .map((holiday) => ({ ...holiday, daysAhead: daysAhead(holiday.value, now) }))
    .filter((pick) => pick.daysAhead >= 0 && pick.daysAhead <= QUICK_PICK_WINDOW_DAYS)
    .sort((a, b) => a.daysAhead - b.daysAhead)
}

/** Everything the countdown form holds; the page keeps it in its URL. */
export interface CountdownSettings {
  amount: number
  unit: DelayUnit
  /** The holiday (or date) counted down to, when the delay came from one; ISO calendar date. */
  date: string | null
  font: string
  weight: number
  /** Colours as `#rrggbb`. */
  color: string
  background: string
  captions: boolean
  days: string
  hours: string
  minutes: string
  seconds: string
}

export const COUNTDOWN_DEFAULTS: Readonly<CountdownSettings> = {
  amount: 3,
  unit: 'days',
  date: null,
  font: 'roboto',
  weight: 700,
  color: '#111827',
  background: '#ffffff',
  captions: true,
  days: 'Days',
  hours: 'Hours',
  minutes: 'Minutes',
  seconds: 'Seconds',
}

/**
 * The settings as the page's query string: only what differs from the defaults, colours without
 * their `#`. The server reads the same names back (server/generators/countdown/query.ts); the
 * form's fields carry them too, so it also works before its script has loaded.
 */
export function countdownQuery(settings: CountdownSettings): string {
  const query = new URLSearchParams()
  const defaults = COUNTDOWN_DEFAULTS
  if (settings.date) query.set('date', settings.date)
  else {
    if (settings.amount !== defaults.amount) query.set('amount', String(settings.amount))
    if (settings.unit !== defaults.unit) query.set('unit', settings.unit)
  }
  if (settings.font !== defaults.font) query.set('font', settings.font)
  if (settings.weight !== defaults.weight) query.set('weight', String(settings.weight))
  if (settings.color !== defaults.color) query.set('color', settings.color.replace('#', ''))
  if (settings.background !== defaults.background) query.set('background', settings.background.replace('#', ''))
  if (!settings.captions) query.set('captions', '0')
  else for (const part of ['days', 'hours', 'minutes', 'seconds'] as const) if (settings[part] !== defaults[part]) query.set(part, settings[part])
  return query.toString()
}

/** The body of `POST /giffer/countdown/create`. */
export function countdownRequest(settings: CountdownSettings) {
  const caption = (text: string) => (settings.captions ? text.trim() : '')
  return {
    delay: delaySeconds(settings.amount, settings.unit),
    font: settings.font,
    font_weight: settings.weight,
    color: settings.color,
    background: settings.background,
    days: caption(settings.days),
    hours: caption(settings.hours),
    minutes: caption(settings.minutes),
    seconds: caption(settings.seconds),
    duration: COUNTDOWN_DURATION,
    style: 'solid' as const,
    scale: COUNTDOWN_SCALE,
  }
}

/** A date's calendar day in the local time of the machine running this (the visitor's browser). */
export function localIsoDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/**
 * The body of `POST /giffer/countdown/live-url`: the same style and a real deadline. A holiday
 * counts to its deadline as a wall-clock time in the visitor's zone; a plain delay counts from now.
 */
export function liveTimerRequest(settings: CountdownSettings, now: Date, timeZone: string) {
  const { delay: _delay, style: _style, ...style } = countdownRequest(settings)
  if (settings.date) {
    const deadline = holidayDeadline(settings.date, now)
    return { ...style, until: `${localIsoDate(deadline)}T00:00`, tz: timeZone }
  }
  return { ...style, until: new Date(now.getTime() + delaySeconds(settings.amount, settings.unit) * 1000).toISOString() }
}

/** The HTML to paste into an email: the live GIF, and its still PNG for Outlook on Windows. */
export function liveTimerSnippet(urls: { url: string; png_url: string }, withCaptions: boolean, alt = 'Countdown timer'): string {
  const { width } = COUNTDOWN_SIZE
  const height = countdownHeight(withCaptions)
  const image = (src: string, style: string) => `<img src="${escapeHtml(src)}" width="${width}" height="${height}" alt="${escapeHtml(alt)}" style="${style}">`
  return [
    `<!--[if mso]>${image(urls.png_url, 'display:block;border:0')}<![endif]-->`,
    `<!--[if !mso]><!-->${image(urls.url, 'display:block;border:0;max-width:100%;height:auto')}<!--<![endif]-->`,
  ].join('\n')
}
