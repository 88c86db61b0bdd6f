import { afterEach, describe, expect, it, vi } from 'vitest'
import { browserTimeZone, formatCalendarDate } from '../../shared/dates.js'
import { zoneChoices } from '../../shared/generators/countdown/zones.js'

describe('formatCalendarDate', () => {
  it('writes a calendar date in words, whatever the zone', () => {
    expect(formatCalendarDate('2025-03-09')).toBe('March 9, 2025')
    expect(formatCalendarDate('2024-12-31')).toBe('December 31, 2024')
  })
})

describe('browserTimeZone', () => {
  const global = globalThis as { Temporal?: unknown }
  const original = global.Temporal
  afterEach(() => {
    if (original === undefined) delete global.Temporal
    else global.Temporal = original
  })

  it("asks Temporal for the zone's name when the browser has it", () => {
    global.Temporal = { Now: { timeZoneId: () => 'Pacific/Auckland' } }
    expect(browserTimeZone()).toBe('Pacific/Auckland')
  })

  it('asks Intl without Temporal, or with one that has no Now.timeZoneId', () => {
    const intl = Intl.DateTimeFormat().resolvedOptions().timeZone
    delete global.Temporal
    expect(browserTimeZone()).toBe(intl)
    global.Temporal = { Now: {} }
    expect(browserTimeZone()).toBe(intl)
  })

  it('asks Intl when Temporal fails or names no zone', () => {
    const intl = Intl.DateTimeFormat().resolvedOptions().timeZone
    global.Temporal = { Now: { timeZoneId: () => '' } }
    expect(browserTimeZone()).toBe(intl)
    global.Temporal = {
      Now: {
        timeZoneId: () => {
          throw new RangeError('no zone')
        },
      },
    }
    expect(browserTimeZone()).toBe(intl)
  })
})

describe('zoneChoices', () => {
  it('keeps the list as it is when it names the zone', () => {
    expect(zoneChoices('Europe/Paris', ['America/New_York', 'Europe/Paris'])).toEqual(['America/New_York', 'Europe/Paris'])
  })

  it("gives the list's entry for the same zone the name it is known by here, instead of listing the zone twice", () => {
    // Temporal names the zone Asia/Kolkata where a browser's list may keep Asia/Calcutta, and the other way round.
    expect(zoneChoices('Asia/Kolkata', ['Asia/Calcutta', 'Europe/Paris'])).toEqual(['Asia/Kolkata', 'Europe/Paris'])
    expect(zoneChoices('Europe/Kiev', ['Europe/Kyiv', 'Europe/Paris'])).toEqual(['Europe/Kiev', 'Europe/Paris'])
    // Chromium's and Node's lists keep these old names, which Temporal gives under the new ones.
    expect(zoneChoices('America/Argentina/Buenos_Aires', ['America/Buenos_Aires', 'Europe/Paris'])).toEqual(['America/Argentina/Buenos_Aires', 'Europe/Paris'])
    expect(zoneChoices('America/Indiana/Indianapolis', ['America/Indianapolis'])).toEqual(['America/Indiana/Indianapolis'])
  })

  it("finds any other alias through the browser's own zone data", () => {
    const sameZone = vi.fn((zone: string, known: readonly string[]) => (zone === 'US/Eastern' && known.includes('America/New_York') ? 'America/New_York' : undefined))
    expect(zoneChoices('US/Eastern', ['America/New_York', 'Europe/Paris'], sameZone)).toEqual(['US/Eastern', 'Europe/Paris'])
    expect(zoneChoices('Mars/Olympus', ['Europe/Paris'], sameZone)).toEqual(['Mars/Olympus', 'Europe/Paris'])
    // A zone the list names, or one the table of renamed zones knows, needs no lookup.
    zoneChoices('Asia/Tokyo', ['Asia/Tokyo'], sameZone)
    zoneChoices('Asia/Kolkata', ['Asia/Calcutta'], sameZone)
    expect(sameZone).toHaveBeenCalledTimes(2)
  })

  it('in a browser whose date format gives a zone as written, asks Temporal which entry is the same zone', () => {
    const global = globalThis as { Temporal?: unknown }
    const original = global.Temporal
    // Node's date format gives the canonical name; this one leaves it as written, as Temporal's rules have it.
    const format = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (_locale: string, options: { timeZone: string }) {
      return { resolvedOptions: () => ({ timeZone: options.timeZone }) }
    } as never)
    const canonical: Record<string, string> = { 'US/Eastern': 'America/New_York', 'America/New_York': 'America/New_York', 'Europe/Paris': 'Europe/Paris' }
    global.Temporal = { Now: { instant: () => ({ toZonedDateTimeISO: (zone: string) => ({ zone: canonical[zone], equals: (other: { zone: string }) => other.zone === canonical[zone] }) }) } }
    try {
      expect(zoneChoices('US/Eastern', ['Europe/Paris', 'America/New_York'])).toEqual(['Europe/Paris', 'US/Eastern'])
      expect(zoneChoices('Asia/Tokyo', ['Europe/Paris'])).toEqual(['Asia/Tokyo', 'Europe/Paris'])
    } finally {
      format.mockRestore()
      global.Temporal = original
    }
  })

  it('puts a zone the list lacks first, and an unknown name too', () => {
    expect(zoneChoices('Asia/Tokyo', ['Europe/Paris'])).toEqual(['Asia/Tokyo', 'Europe/Paris'])
    expect(zoneChoices('Mars/Olympus', ['Europe/Paris'])).toEqual(['Mars/Olympus', 'Europe/Paris'])
  })
})
