/**
 * Live timers' wall-clock times around DST changes, east and west of UTC, with hour and
 * half-hour jumps and changes at midnight. Each expected instant is written by hand with the
 * offset the zone's rules give it; the first test checks those offsets against the time zone
 * data this Node carries.
 */
import { describe, expect, it } from 'vitest'
import { isTimeZone, nextOccurrence, parseDeadline, readRecipientDeadline, type TimeOfDay } from '../../server/giffer/live/deadlines.js'

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6] as const
const MINUTE_MS = 60_000

interface ClockChange {
  /** The instant the clocks change, in UTC. */
  at: string
  /** The offset just before and just after it, as ISO 8601 writes it. */
  from: string
  to: string
}

interface RecurringCase {
  at: TimeOfDay
  /** When the timer is opened, the day before the change. */
  now: string
  /** Its next two deadlines: the change day's, then the day after's. */
  next: [string, string]
}

interface ZoneCase {
  zone: string
  /** Every change of the zone's clocks the cases below cross. */
  changes: ClockChange[]
  /** A time the clocks skip, and the instant it names: later by the jump. */
  skipped: [string, string]
  /** A time the clocks show twice, and the instant it names: the first of the two. */
  repeated: [string, string]
  /** A recipient's date as a sending platform fills it in, read in the timer's zone. */
  recipient: [string, string]
  /** A daily time that falls in the skipped hour on the day the clocks go forward. */
  recurringForward: RecurringCase
  /** A daily time that is shown twice on the day the clocks go back. */
  recurringBack: RecurringCase
}

const ZONES: ZoneCase[] = [
  {
    zone: 'America/New_York',
    changes: [
      { at: '2027-03-14T07:00:00Z', from: '-05:00', to: '-04:00' },
      { at: '2027-11-07T06:00:00Z', from: '-04:00', to: '-05:00' },
    ],
    skipped: ['2027-03-14T02:30', '2027-03-14T03:30-04:00'],
    repeated: ['2027-11-07T01:30', '2027-11-07T01:30-04:00'],
    recipient: ['2027-03-14 02:30', '2027-03-14T03:30-04:00'],
    recurringForward: { at: { hour: 2, minute: 30 }, now: '2027-03-13T12:00:00Z', next: ['2027-03-14T03:30-04:00', '2027-03-15T02:30-04:00'] },
    recurringBack: { at: { hour: 1, minute: 30 }, now: '2027-11-06T12:00:00Z', next: ['2027-11-07T01:30-04:00', '2027-11-08T01:30-05:00'] },
  },
  {
    zone: 'America/Los_Angeles',
    changes: [
      { at: '2026-03-08T10:00:00Z', from: '-08:00', to: '-07:00' },
      { at: '2026-11-01T09:00:00Z', from: '-07:00', to: '-08:00' },
    ],
    skipped: ['2026-03-08T02:30', '2026-03-08T03:30-07:00'],
    repeated: ['2026-11-01T01:30', '2026-11-01T01:30-07:00'],
    recipient: ['2026-03-08T02:59:59', '2026-03-08T03:59:59-07:00'],
    // The first minute the clocks skip.
    recurringForward: { at: { hour: 2, minute: 0 }, now: '2026-03-07T20:00:00Z', next: ['2026-03-08T03:00-07:00', '2026-03-09T02:00-07:00'] },
    recurringBack: { at: { hour: 1, minute: 0 }, now: '2026-10-31T20:00:00Z', next: ['2026-11-01T01:00-07:00', '2026-11-02T01:00-08:00'] },
  },
  {
    // Chile changes its clocks at midnight: forward from Saturday 24:00 to Sunday 01:00, back from Sunday 00:00 to Saturday 23:00.
    zone: 'America/Santiago',
    changes: [
      { at: '2026-04-05T03:00:00Z', from: '-03:00', to: '-04:00' },
      { at: '2026-09-06T04:00:00Z', from: '-04:00', to: '-03:00' },
      { at: '2027-04-04T03:00:00Z', from: '-03:00', to: '-04:00' },
      { at: '2027-09-05T04:00:00Z', from: '-04:00', to: '-03:00' },
    ],
    skipped: ['2026-09-06T00:30', '2026-09-06T01:30-03:00'],
    repeated: ['2026-04-04T23:30', '2026-04-04T23:30-03:00'],
    // A date alone means its midnight, which that day does not have.
    recipient: ['2026-09-06', '2026-09-06T01:00-03:00'],
    recurringForward: { at: { hour: 0, minute: 0 }, now: '2027-09-04T12:00:00Z', next: ['2027-09-05T01:00-03:00', '2027-09-06T00:00-03:00'] },
    recurringBack: { at: { hour: 23, minute: 30 }, now: '2027-04-03T12:00:00Z', next: ['2027-04-03T23:30-03:00', '2027-04-04T23:30-04:00'] },
  },
  {
    // Lord Howe Island moves its clocks by half an hour: forward from 02:00 to 02:30, back from 02:00 to 01:30.
    zone: 'Australia/Lord_Howe',
    changes: [
      { at: '2026-04-04T15:00:00Z', from: '+11:00', to: '+10:30' },
      { at: '2026-10-03T15:30:00Z', from: '+10:30', to: '+11:00' },
      { at: '2027-04-03T15:00:00Z', from: '+11:00', to: '+10:30' },
      { at: '2027-10-02T15:30:00Z', from: '+10:30', to: '+11:00' },
    ],
    skipped: ['2026-10-04T02:15', '2026-10-04T02:45+11:00'],
    repeated: ['2026-04-05T01:45', '2026-04-05T01:45+11:00'],
    recipient: ['2026-04-05T01:30', '2026-04-05T01:30+11:00'],
    recurringForward: { at: { hour: 2, minute: 15 }, now: '2027-10-02T12:00:00Z', next: ['2027-10-03T02:45+11:00', '2027-10-04T02:15+11:00'] },
    recurringBack: { at: { hour: 1, minute: 45 }, now: '2027-04-03T12:00:00Z', next: ['2027-04-04T01:45+11:00', '2027-04-05T01:45+10:30'] },
  },
  {
    zone: 'Europe/Berlin',
    changes: [
      { at: '2026-03-29T01:00:00Z', from: '+01:00', to: '+02:00' },
      { at: '2026-10-25T01:00:00Z', from: '+02:00', to: '+01:00' },
      { at: '2027-03-28T01:00:00Z', from: '+01:00', to: '+02:00' },
      { at: '2027-10-31T01:00:00Z', from: '+02:00', to: '+01:00' },
    ],
    skipped: ['2027-03-28T02:30', '2027-03-28T03:30+02:00'],
    repeated: ['2026-10-25T02:30', '2026-10-25T02:30+02:00'],
    recipient: ['2026-10-25 02:00', '2026-10-25T02:00+02:00'],
    recurringForward: { at: { hour: 2, minute: 30 }, now: '2026-03-28T12:00:00Z', next: ['2026-03-29T03:30+02:00', '2026-03-30T02:30+02:00'] },
    recurringBack: { at: { hour: 2, minute: 30 }, now: '2027-10-30T12:00:00Z', next: ['2027-10-31T02:30+02:00', '2027-11-01T02:30+01:00'] },
  },
]

/** The offset the time zone data gives `zone` at an instant, as `±hh:mm`: read from Intl, not from the code under test. */
function offsetAt(ms: number, zone: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date(ms)).find((part) => part.type === 'timeZoneName')!.value
  return name === 'GMT' ? '+00:00' : name.replace('GMT', '')
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())
const instant = (text: string) => iso(Date.parse(text))

describe.each(ZONES)('wall-clock deadlines in $zone', (zone) => {
  it('changes its clocks when this table says (the time zone data agrees)', () => {
    for (const change of zone.changes) {
      const at = Date.parse(change.at)
      expect([offsetAt(at - MINUTE_MS, zone.zone), offsetAt(at, zone.zone)], change.at).toEqual([change.from, change.to])
    }
  })

  it(`reads ${zone.skipped[0]}, which the clocks skip, later by the jump: ${zone.skipped[1]}`, () => {
    expect(iso(parseDeadline(zone.skipped[0], zone.zone))).toBe(instant(zone.skipped[1]))
  })

  it(`reads ${zone.repeated[0]}, which the clocks show twice, as the first of the two: ${zone.repeated[1]}`, () => {
    expect(iso(parseDeadline(zone.repeated[0], zone.zone))).toBe(instant(zone.repeated[1]))
  })

  it(`reads a recipient's "${zone.recipient[0]}" as ${zone.recipient[1]}`, () => {
    expect(iso(readRecipientDeadline(zone.recipient[0], zone.zone))).toBe(instant(zone.recipient[1]))
  })

  it('counts a daily time the clocks skip to after the jump that day, and to the same wall clock the day after', () => {
    const { at, now, next } = zone.recurringForward
    const first = nextOccurrence(Date.parse(now), at, EVERY_DAY, zone.zone)
    const second = nextOccurrence(first, at, EVERY_DAY, zone.zone)
    expect([iso(first), iso(second)]).toEqual(next.map(instant))
  })

  it('counts a daily time the clocks show twice to the first of the two, once, then to the same wall clock the day after', () => {
    const { at, now, next } = zone.recurringBack
    const first = nextOccurrence(Date.parse(now), at, EVERY_DAY, zone.zone)
    const second = nextOccurrence(first, at, EVERY_DAY, zone.zone)
    expect([iso(first), iso(second)]).toEqual(next.map(instant))
  })
})

describe('time zone names', () => {
  /** `Europe/Berlin` with the case of its k-th letter swapped when bit k of `n` is set: 4,096 spellings of one zone. */
  function berlinSpelling(n: number): string {
    let k = 0
    return 'Europe/Berlin'.replace(/[a-z]/gi, (c) => ((n >> k++) & 1 ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c))
  }

  it('takes a zone in any letter case, and still refuses an unknown one after many spellings', () => {
    for (let n = 0; n < 1_100; n++) expect(isTimeZone(berlinSpelling(n))).toBe(true)
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false)
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false)
    expect(() => parseDeadline('2026-12-24T18:00', 'Mars/Olympus_Mons')).toThrow(expect.objectContaining({ status: 400, field: 'tz' }))
    expect(iso(parseDeadline('2026-12-24T18:00', berlinSpelling(4_000)))).toBe(instant('2026-12-24T18:00+01:00'))
  })
})
