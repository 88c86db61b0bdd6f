const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/**
 * "2025-03-09" → "March 9, 2025", the same on the server and in every browser (no locale or time
 * zone involved, so hydration always matches).
 */
export function formatCalendarDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number)
  return `${MONTHS[(month ?? 1) - 1]} ${day}, ${year}`
}

interface TemporalNow {
  Now?: { timeZoneId?: () => string }
}

/**
 * The time zone this runs in, by its IANA name ("Europe/Paris"): in a browser the visitor's, on
 * the server its own. Temporal answers at once; Intl only after building a date formatter, which
 * loads the locale's date patterns first (about 50 ms on a slow phone, in the middle of
 * hydration), so Intl is what a runtime without Temporal uses.
 */
export function browserTimeZone(): string {
  const temporal = (globalThis as { Temporal?: TemporalNow }).Temporal
  let zone: string | undefined
  try {
    zone = temporal?.Now?.timeZoneId?.()
  } catch {
    zone = undefined
  }
  return zone || Intl.DateTimeFormat().resolvedOptions().timeZone
}
