import { describe, expect, it } from 'vitest'
import { COUNTDOWN_DEFAULTS } from '../../shared/generators/countdown/countdown.js'
import { defaultLiveTimerChoices, liveTimerBody, liveTimerNotes, MERGE_TAGS, previewUrl, withMergeTag, type LiveTimerChoices } from '../../shared/generators/countdown/live-timer.js'

const now = new Date(2026, 10, 28, 12, 0, 0)
const choices = (patch: Partial<LiveTimerChoices>): LiveTimerChoices => ({ ...defaultLiveTimerChoices(now, 'Europe/Berlin'), ...patch })
const style = { font: 'roboto', font_weight: 700, color: '#111827', background: '#ffffff', days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds', duration: 120, scale: 2 }

describe('the live timer request of each type', () => {
  it('one date: the deadline from now, and the expiry', () => {
    expect(liveTimerBody(COUNTDOWN_DEFAULTS, choices({ expired: 'hide' }), now, 'Europe/Berlin')).toEqual({
      ...style,
      kind: 'fixed',
      until: new Date(now.getTime() + 3 * 86_400_000).toISOString(),
      expired: 'hide',
    })
  })

  it("from each subscriber's first open: the amount as seconds, at most 90 days", () => {
    expect(liveTimerBody({ ...COUNTDOWN_DEFAULTS, amount: 48, unit: 'hours' }, choices({ type: 'evergreen', expired: 'message', message: ' Gone ' }), now, 'UTC')).toEqual({
      ...style,
      kind: 'evergreen',
      for: 172_800,
      expired: 'message',
      message: 'Gone',
    })
    expect(liveTimerBody({ ...COUNTDOWN_DEFAULTS, amount: 99, unit: 'days' }, choices({ type: 'evergreen' }), now, 'UTC')).toMatchObject({ for: 7_776_000 })
  })

  it('a date from the list: the whole first and last days, in the chosen zone', () => {
    expect(liveTimerBody(COUNTDOWN_DEFAULTS, choices({ type: 'per-recipient', from: '2026-12-01', to: '2027-01-31' }), now, 'UTC')).toEqual({
      ...style,
      kind: 'per-recipient',
      from: '2026-12-01T00:00',
      to: '2027-01-31T23:59',
      tz: 'Europe/Berlin',
      expired: 'zeros',
    })
  })

  it('every day or week: the time, the days in order and the zone, and no expiry', () => {
    expect(liveTimerBody(COUNTDOWN_DEFAULTS, choices({ type: 'recurring', at: '09:15', weekdays: [5, 1, 0], expired: 'hide' }), now, 'UTC')).toEqual({
      ...style,
      kind: 'recurring',
      at: '09:15',
      weekdays: [0, 1, 5],
      tz: 'Europe/Berlin',
    })
  })
})

describe('links with merge tags', () => {
  const url = 'https://example.com/giffer/countdown/live.gif?kind=evergreen&sig=abc&r='
  it("ends an evergreen link in the platform's subscriber tag, and a per-recipient one in its date field", () => {
    expect(withMergeTag(url, 'evergreen', 'mailchimp')).toBe(`${url}*|UNIQID|*`)
    expect(withMergeTag(url, 'evergreen', 'activecampaign')).toBe(`${url}%SUBSCRIBERID%`)
    expect(withMergeTag('x&until=', 'per-recipient', 'brevo')).toBe('x&until={{ contact.DEADLINE }}')
    expect(withMergeTag('x?sig=1', 'recurring', 'brevo')).toBe('x?sig=1')
    expect(Object.keys(MERGE_TAGS.evergreen)).toEqual(['mailchimp', 'klaviyo', 'hubspot', 'brevo', 'activecampaign', 'other'])
  })

  it('previews a per-recipient timer for the latest date accepted', () => {
    expect(previewUrl('x&until=', choices({ type: 'per-recipient', to: '2027-01-31' }))).toBe('x&until=2027-01-31T23%3A59')
    expect(previewUrl(url, choices({ type: 'evergreen' }))).toBe(url)
  })

  it('tells evergreen users about Apple Mail and test sends', () => {
    const notes = liveTimerNotes(choices({ type: 'evergreen' })).join(' ')
    expect(notes).toContain('Apple Mail loads images when the email arrives')
    expect(notes).toContain('Test sends usually leave the merge tag empty')
  })
})
