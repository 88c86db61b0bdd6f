const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/**
 * "2025-03-09" → "March 9, 2025", the same on the server and in every browser (no locale or time
 * zone involved, so hydration always matches).
 */
export function formatCalendarDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number)
  return `${MONTHS[(month ?? 1) - 1]} ${day}, ${year}`
}
