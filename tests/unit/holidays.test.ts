import { describe, expect, it } from 'vitest'
import { loadHolidayDefinitions } from '../../server/holidays/api.js'
import { easterSunday, isoDate, nextOccurrence, parseIsoDate, upcomingHolidays } from '../../shared/holidays/holidays.js'
import { contentDir } from '../../server/project-root.js'

const definitions = loadHolidayDefinitions(contentDir)
const byTitle = (title: string) => definitions.find((definition) => definition.title === title)!
const YEARS = [2025, 2026, 2027, 2028, 2029, 2030, 2031, 2032]

/** Published dates (U.S. calendar; Western Easter), one per year 2025–2032. */
const KNOWN: Record<string, string[]> = {
  Easter: ['2025-04-20', '2026-04-05', '2027-03-28', '2028-04-16', '2029-04-01', '2030-04-21', '2031-04-13', '2032-03-28'],
  "Mother's Day": ['2025-05-11', '2026-05-10', '2027-05-09', '2028-05-14', '2029-05-13', '2030-05-12', '2031-05-11', '2032-05-09'],
  "Father's Day": ['2025-06-15', '2026-06-21', '2027-06-20', '2028-06-18', '2029-06-17', '2030-06-16', '2031-06-15', '2032-06-20'],
  'Labor Day (U.S.)': ['2025-09-01', '2026-09-07', '2027-09-06', '2028-09-04', '2029-09-03', '2030-09-02', '2031-09-01', '2032-09-06'],
  'Thanksgiving (U.S.)': ['2025-11-27', '2026-11-26', '2027-11-25', '2028-11-23', '2029-11-22', '2030-11-28', '2031-11-27', '2032-11-25'],
  'Black Friday': ['2025-11-28', '2026-11-27', '2027-11-26', '2028-11-24', '2029-11-23', '2030-11-29', '2031-11-28', '2032-11-26'],
  'Cyber Monday': ['2025-12-01', '2026-11-30', '2027-11-29', '2028-11-27', '2029-11-26', '2030-12-02', '2031-12-01', '2032-11-29'],
}

const jan1 = (year: number) => new Date(Date.UTC(year, 0, 1))

describe('holiday rules', () => {
  it('lists the 14 holidays of the spec', () => {
    expect(definitions.map((definition) => definition.title).sort()).toEqual(
      [
        'New Year',
        "Valentine's Day",
        "Women's Day",
        'Independence Day (U.S.)',
        'Halloween',
        "Singles' Day",
        'Christmas Sales',
        "Mother's Day",
        "Father's Day",
        'Labor Day (U.S.)',
        'Thanksgiving (U.S.)',
        'Black Friday',
        'Cyber Monday',
        'Easter',
      ].sort(),
    )
  })

  for (const [title, dates] of Object.entries(KNOWN)) {
    it(`puts ${title} on its published dates for 2025–2032`, () => {
      expect(YEARS.map((year) => isoDate(nextOccurrence(byTitle(title), jan1(year), definitions)))).toEqual(dates)
    })
  }

  it('computes Easter by the Gregorian computus, including the extreme dates', () => {
    expect(isoDate(easterSunday(2285))).toBe('2285-03-22')
    expect(isoDate(easterSunday(2038))).toBe('2038-04-25')
    expect(isoDate(easterSunday(1583))).toBe('1583-04-10')
  })

  it('keeps fixed-date holidays on their day', () => {
    for (const year of YEARS) {
      expect(isoDate(nextOccurrence(byTitle('Halloween'), jan1(year), definitions))).toBe(`${year}-10-31`)
      expect(isoDate(nextOccurrence(byTitle("Singles' Day"), jan1(year), definitions))).toBe(`${year}-11-11`)
    }
  })

  it('counts a holiday falling on the start date, and moves a passed one to next year', () => {
    const halloween = byTitle('Halloween')
    expect(isoDate(nextOccurrence(halloween, new Date('2026-10-31T00:00:00Z'), definitions))).toBe('2026-10-31')
    expect(isoDate(nextOccurrence(halloween, new Date('2026-11-01T00:00:00Z'), definitions))).toBe('2027-10-31')
  })

  it('resolves every holiday to its next occurrence, nearest first', () => {
    const list = upcomingHolidays(definitions, new Date('2026-11-22T00:00:00Z'))
    expect(list).toHaveLength(14)
    expect(list.slice(0, 5)).toEqual([
      { title: 'Thanksgiving (U.S.)', value: '2026-11-26' },
      { title: 'Black Friday', value: '2026-11-27' },
      { title: 'Cyber Monday', value: '2026-11-30' },
      { title: 'Christmas Sales', value: '2026-12-25' },
      { title: 'New Year', value: '2027-01-01' },
    ])
    expect(list.at(-1)).toEqual({ title: "Singles' Day", value: '2027-11-11' })
    const values = list.map((holiday) => holiday.value)
    expect(values).toEqual([...values].sort())
  })

  it('rolls Cyber Monday into the next year when Thanksgiving has passed', () => {
    const list = upcomingHolidays(definitions, new Date('2030-12-03T00:00:00Z'))
    expect(list.find((holiday) => holiday.title === 'Cyber Monday')?.value).toBe('2031-12-01')
  })
})

describe('parseIsoDate', () => {
  it('accepts real calendar dates only', () => {
    expect(parseIsoDate('2028-02-29')?.toISOString()).toBe('2028-02-29T00:00:00.000Z')
    for (const bad of ['2027-02-29', '2026-13-01', '2026-1-1', '26-01-01', '2026-01-01T00:00', '', 'today']) {
      expect(parseIsoDate(bad)).toBeNull()
    }
  })
})
