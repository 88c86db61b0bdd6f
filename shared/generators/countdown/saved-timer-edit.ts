/**
 * A saved timer's edit page: the timer as the image service shows it, the calls with the edit key
 * read from the address's fragment, the form's values and what a change sends, and the counts as a
 * chart's hours and as CSV. Nothing of the countdown generator's own rules: the page loads only
 * what it shows. Plain functions, used by the page and the tests.
 */
import type { LiveTimerType } from './timer-basics.js'
import { failureOf, GIFFER_BASE } from '../giffer-client.js'

/** A saved timer as the image service shows it, with its addresses. */
export interface SavedTimerView {
  id: string
  version: number
  kind: LiveTimerType
  name?: string
  link?: string
  link_expired?: string
  until?: string
  tz?: string
  for?: number
  from?: string
  to?: string
  at?: string
  weekdays?: number[]
  expired: 'zeros' | 'message' | 'hide'
  message?: string
  font: string
  font_weight: number
  color: string
  background: string
  days: string
  hours: string
  minutes: string
  seconds: string
  url: string
  png_url: string
  link_url: string
}

/** The edit key in an address's fragment (`#key=…`), or null. */
export function keyFromHash(hash: string): string | null {
  const key = new URLSearchParams(hash.replace(/^#/, '')).get('key')
  return key && /^[A-Za-z0-9_-]{20,200}$/.test(key) ? key : null
}

// ---------------------------------------------------------------------------------------------
// The edit page's calls

/** One call of the saved-timer API with the edit key; JSON back, or nothing for 204. */
export async function savedTimerCall<T>(path: string, key: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const response = await fetch(`${GIFFER_BASE}countdown/${path}`, {
    method: init.method ?? 'GET',
    headers: { Accept: 'application/json', Authorization: `Bearer ${key}`, ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal,
  })
  if (!response.ok) throw await failureOf(response)
  return (response.status === 204 ? undefined : await response.json()) as T
}

// ---------------------------------------------------------------------------------------------
// Counts

export interface Counts {
  opens: number
  first_opens: number
  expired_opens: number
  clicks: number
  readers: { gmail: number; apple_privacy: number; yahoo: number; outlook: number; other: number }
}

export interface TimerStats {
  total: Counts
  hours: (Counts & { hour: string })[]
}

export const READER_NAMES: Readonly<Record<keyof Counts['readers'], string>> = {
  gmail: 'Gmail',
  apple_privacy: 'Apple Mail privacy protection',
  yahoo: 'Yahoo Mail',
  outlook: 'Outlook',
  other: 'Other readers',
}

const HOUR_MS = 3_600_000

/** The last `count` hours up to `now`, oldest first, each with its counts (none where nothing was counted). */
export function lastHours(stats: TimerStats, now: Date, count: number): { hour: Date; opens: number }[] {
  const last = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS
  const opens = new Map(stats.hours.map((hour) => [Date.parse(hour.hour), hour.opens]))
  return Array.from({ length: count }, (_, i) => {
    const at = last - (count - 1 - i) * HOUR_MS
    return { hour: new Date(at), opens: opens.get(at) ?? 0 }
  })
}

const CSV_COLUMNS = ['hour', 'opens', 'first_opens', 'expired_opens', 'clicks', 'gmail', 'apple_privacy', 'yahoo', 'outlook', 'other'] as const

/** Every counted hour as CSV, one row an hour (UTC), a header first. */
export function statsCsv(stats: TimerStats): string {
  const readers = Object.keys(READER_NAMES) as (keyof Counts['readers'])[]
  const rows = stats.hours.map((hour) => [hour.hour, hour.opens, hour.first_opens, hour.expired_opens, hour.clicks, ...readers.map((reader) => hour.readers[reader])].join(','))
  return [CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n'
}

// ---------------------------------------------------------------------------------------------
// The edit form's values

/** An instant as a `datetime-local` value in a time zone: `YYYY-MM-DDTHH:MM`. */
export function wallClock(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(iso))
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? '00'
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`
}

/** An evergreen timer's seconds in the largest unit that holds them whole. */
export function evergreenAmount(seconds: number): { amount: number; unit: 'days' | 'hours' | 'minutes' } {
  if (seconds % 86_400 === 0) return { amount: seconds / 86_400, unit: 'days' }
  if (seconds % 3_600 === 0) return { amount: seconds / 3_600, unit: 'hours' }
  return { amount: Math.max(1, Math.round(seconds / 60)), unit: 'minutes' }
}

export const UNIT_SECONDS = { days: 86_400, hours: 3_600, minutes: 60 } as const

/** Fields sent together when any of them changes: a date is read in its zone, a message with its choice. */
const TOGETHER = [
  ['until', 'tz'],
  ['from', 'to', 'tz'],
  ['at', 'weekdays', 'tz'],
  ['expired', 'message'],
] as const
/** Fields an emptied input clears. */
const CLEARABLE = new Set(['name', 'link', 'link_expired', 'message'])

/** What a `PATCH` sends: the form's values that differ from those it was loaded with, and their companions. */
export function changedFields(before: Record<string, unknown>, draft: Record<string, unknown>): Record<string, unknown> {
  const differs = (name: string) => JSON.stringify(before[name] ?? '') !== JSON.stringify(draft[name] ?? '')
  const names = new Set(Object.keys(draft).filter(differs))
  for (const group of TOGETHER) if (group.some((name) => names.has(name))) for (const name of group) if (name in draft) names.add(name)
  return Object.fromEntries([...names].map((name) => [name, draft[name] === '' && CLEARABLE.has(name) ? null : draft[name]]))
}

/**
 * The image the edit page shows beside the form: this version of the timer (an address of its
 * own, so the browser never shows an earlier one), as a test send would see it, marked as a
 * preview so that the owner's looks are not counted as opens.
 */
export function editPreviewUrl(timer: SavedTimerView): string {
  const url = timer.kind === 'per-recipient' && timer.to ? timer.url + encodeURIComponent(timer.to) : timer.url
  return `${url}${url.includes('?') ? '&' : '?'}preview=1&v=${timer.version}`
}

/** The edit form's values, as its inputs hold them. */
export interface TimerDraft {
  name: string
  link: string
  link_expired: string
  font: string
  font_weight: number
  color: string
  background: string
  days: string
  hours: string
  minutes: string
  seconds: string
  expired: 'zeros' | 'message' | 'hide'
  message: string
  /** One date: a `datetime-local` value in `tz`. */
  until: string
  tz: string
  /** Evergreen: the time each subscriber gets. */
  amount: number
  unit: keyof typeof UNIT_SECONDS
  /** A date from the list: the accepted range, `YYYY-MM-DD` in `tz`. */
  from: string
  to: string
  /** Recurring: the time of day and the days of the week. */
  at: string
  weekdays: number[]
}

/** The form's values for a loaded timer; dates of one moment are shown in the visitor's own zone. */
export function draftOf(timer: SavedTimerView, browserZone: string): TimerDraft {
  const tz = timer.kind === 'fixed' ? browserZone : (timer.tz ?? 'UTC')
  const { amount, unit } = evergreenAmount(timer.for ?? 3_600)
  return {
    name: timer.name ?? '',
    link: timer.link ?? '',
    link_expired: timer.link_expired ?? '',
    font: timer.font,
    font_weight: timer.font_weight,
    color: timer.color,
    background: timer.background,
    days: timer.days,
    hours: timer.hours,
    minutes: timer.minutes,
    seconds: timer.seconds,
    expired: timer.expired,
    message: timer.message ?? '',
    until: timer.until ? wallClock(timer.until, tz) : '',
    tz,
    amount,
    unit,
    from: timer.from ? wallClock(timer.from, tz).slice(0, 10) : '',
    to: timer.to ? wallClock(timer.to, tz).slice(0, 10) : '',
    at: timer.at ?? '14:00',
    weekdays: timer.weekdays ?? [1, 2, 3, 4, 5],
  }
}

/** The form's values as the image service takes them, for the timer's kind. */
export function requestOf(draft: TimerDraft, kind: LiveTimerType): Record<string, unknown> {
  const { name, link, link_expired, font, font_weight, color, background, days, hours, minutes, seconds } = draft
  const common = { name, link, link_expired, font, font_weight, color, background, days, hours, minutes, seconds }
  const expiry = kind === 'recurring' ? {} : { expired: draft.expired, message: draft.message }
  switch (kind) {
    case 'fixed':
      return { ...common, ...expiry, until: draft.until, tz: draft.tz }
    case 'evergreen':
      return { ...common, ...expiry, for: draft.amount * UNIT_SECONDS[draft.unit] }
    case 'per-recipient':
      return { ...common, ...expiry, from: `${draft.from}T00:00`, to: `${draft.to}T23:59`, tz: draft.tz }
    case 'recurring':
      return { ...common, at: draft.at, weekdays: [...draft.weekdays].sort((a, b) => a - b), tz: draft.tz }
  }
}
