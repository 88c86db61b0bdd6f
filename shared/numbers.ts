/**
 * An integer with its thousands grouped by commas, as `toLocaleString('en-US')` writes it
 * (1234567 → "1,234,567"). Written out because a page's first locale-aware call loads the
 * browser's number formatting data, tens of milliseconds on a phone while the page starts.
 */
export function groupDigits(value: number): string {
  return String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}
