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
    // Links such as these are in no table here; the engine's data resolves them (Node's ICU, as a browser's).
    expect(zoneChoices('US/Eastern', ['America/New_York', 'Europe/Paris'])).toEqual(['US/Eastern', 'Europe/Paris'])
    expect(zoneChoices('Asia/Dacca', ['Asia/Dhaka'])).toEqual(['Asia/Dacca'])
    expect(zoneChoices('America/Montreal', ['America/Toronto', 'Europe/Paris'])).toEqual(['America/Montreal', 'Europe/Paris'])
    const resolve = vi.fn((zone: string) => (zone === 'Etc/Alias' ? 'Europe/Paris' : undefined))
    expect(zoneChoices('Etc/Alias', ['Europe/Paris', 'Asia/Tokyo'], resolve)).toEqual(['Etc/Alias', 'Asia/Tokyo'])
    // A zone the list names needs no lookup.
    zoneChoices('Asia/Tokyo', ['Asia/Tokyo'], resolve)
    expect(resolve).toHaveBeenCalledTimes(1)
  })

  it('puts a zone the list lacks first, and an unknown name too', () => {
    expect(zoneChoices('Asia/Tokyo', ['Europe/Paris'])).toEqual(['Asia/Tokyo', 'Europe/Paris'])
    expect(zoneChoices('Mars/Olympus', ['Europe/Paris'])).toEqual(['Mars/Olympus', 'Europe/Paris'])
  })
})
