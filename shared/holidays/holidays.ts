/** Holiday rules and their next occurrence. All dates are calendar dates in UTC ("2026-11-26"). */
import type { HolidayDefinition } from './schema.js'

export type { HolidayDefinition } from './schema.js'

/** A holiday at its next occurrence, as /api/holidays lists it. */
export interface Holiday {
  title: string
  /** ISO calendar date of the next occurrence. */
  value: string
}

const MS_PER_DAY = 86_400_000

export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** Parses "YYYY-MM-DD" strictly; returns null for anything that is not a real calendar date. */
export function parseIsoDate(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!match) return null
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? date
    : null
}

/** Western (Gregorian) Easter Sunday: the anonymous Gregorian computus (Meeus/Jones/Butcher). */
export function easterSunday(year: number): Date {
  const a = year % 19
  const b = Math.floor(year / 100)
  const c = year % 100
  const d = Math.floor(b / 4)
  const e = b % 4
  const f = Math.floor((b + 8) / 25)
  const g = Math.floor((b - f + 1) / 3)
  const h = (19 * a + b - d - g + 15) % 30
  const i = Math.floor(c / 4)
  const k = c % 4
  const l = (32 + 2 * e + 2 * i - h - k) % 7
  const m = Math.floor((a + 11 * h + 22 * l) / 451)
  const month = Math.floor((h + l - 7 * m + 114) / 31)
  const day = ((h + l - 7 * m + 114) % 31) + 1
  return new Date(Date.UTC(year, month - 1, day))
}

/** The nth given weekday (0 = Sunday) of a month, e.g. the 4th Thursday of November. */
export function nthWeekday(year: number, month: number, weekday: number, nth: number): Date {
  const first = new Date(Date.UTC(year, month - 1, 1))
  const offset = (weekday - first.getUTCDay() + 7) % 7
  return new Date(Date.UTC(year, month - 1, 1 + offset + (nth - 1) * 7))
}

/** The date a holiday falls on in a given year. */
export function dateInYear(
  definition: HolidayDefinition,
  year: number,
  all: readonly HolidayDefinition[],
  depth = 0,
): Date {
  const { rule } = definition
  switch (rule.kind) {
    case 'fixed':
      return new Date(Date.UTC(year, rule.month - 1, rule.day))
    case 'nth-weekday':
      return nthWeekday(year, rule.month, rule.weekday, rule.nth)
    case 'easter':
      return easterSunday(year)
    case 'days-after': {
      const base = all.find((candidate) => candidate.title === rule.holiday)
      if (!base || depth > all.length) throw new Error(`Holiday "${definition.title}" refers to unknown "${rule.holiday}"`)
      return new Date(dateInYear(base, year, all, depth + 1).getTime() + rule.days * MS_PER_DAY)
    }
  }
}

/** The first occurrence of the holiday on or after `from`. */
export function nextOccurrence(definition: HolidayDefinition, from: Date, all: readonly HolidayDefinition[]): Date {
  const year = from.getUTCFullYear()
  const thisYear = dateInYear(definition, year, all)
  return thisYear.getTime() >= from.getTime() ? thisYear : dateInYear(definition, year + 1, all)
}

/** Every holiday at its next occurrence on or after `from`, nearest first (ties keep the list order). */
export function upcomingHolidays(definitions: readonly HolidayDefinition[], from: Date): Holiday[] {
  return definitions
    .map((definition, index) => ({ definition, index, date: nextOccurrence(definition, from, definitions) }))
    .sort((a, b) => a.date.getTime() - b.date.getTime() || a.index - b.index)
    .map(({ definition, date }) => ({ title: definition.title, value: isoDate(date) }))
}

/** Today's calendar date in UTC, as a Date at midnight. */
export function todayUtc(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
}
