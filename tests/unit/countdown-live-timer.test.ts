import { describe, expect, it } from 'vitest'
import { countdownSettingsFromQuery, liveTimerChoicesFromQuery } from '../../server/generators/countdown/query.js'
import { loadGeneratorContent } from '../../server/generators/content.js'
import { contentDir } from '../../server/project-root.js'
import { amountOnBlur, amountWhileTyping, convertAmount, COUNTDOWN_DEFAULTS } from '../../shared/generators/countdown/countdown.js'
import {
  countdownPageQuery,
  defaultLiveTimerChoices,
  delayCapsFor,
  liveTimerBody,
  liveTimerNotes,
  liveTimerQuery,
  MERGE_TAGS,
  PLATFORMS,
  previewUrl,
  withMergeTag,
  withVisitorDefaults,
  type LiveTimerChoices,
} from '../../shared/generators/countdown/live-timer.js'

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

describe("an evergreen timer's time", () => {
  const caps = delayCapsFor('evergreen')
  it('stops the amount field at 90 days in every unit, where a timer of one date stops at 99', () => {
    expect(amountWhileTyping('99', 'days', caps)).toBe('90')
    expect(amountOnBlur('5000', 'hours', caps)).toBe(2160)
    expect(convertAmount(90, 'days', 'minutes', caps)).toBe(129_600)
    expect(amountWhileTyping('99', 'days', delayCapsFor('fixed'))).toBe('99')
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

  it('has one tag of each platform for each kind of timer that takes one', () => {
    expect(MERGE_TAGS).toEqual({
      evergreen: { mailchimp: '*|UNIQID|*', klaviyo: '{{ person.id }}', hubspot: '{{ contact.hs_object_id }}', brevo: '{{ contact.EMAIL }}', activecampaign: '%SUBSCRIBERID%', other: 'RECIPIENT_ID' },
      'per-recipient': {
        mailchimp: '*|DEADLINE|*',
        klaviyo: "{{ person|lookup:'Deadline' }}",
        hubspot: '{{ contact.deadline }}',
        brevo: '{{ contact.DEADLINE }}',
        activecampaign: '%DEADLINE%',
        other: 'DEADLINE_DATE',
      },
    })
    for (const platform of PLATFORMS) expect(withMergeTag('x&r=', 'evergreen', platform)).toBe(`x&r=${MERGE_TAGS.evergreen[platform]}`)
    expect(withMergeTag('x&until=', 'per-recipient', 'klaviyo')).toBe("x&until={{ person|lookup:'Deadline' }}")
    expect(withMergeTag('x?until=2026-12-24T00%3A00%3A00Z', 'fixed', 'klaviyo')).toBe('x?until=2026-12-24T00%3A00%3A00Z')
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

describe('the choices in the page address', () => {
  const defaults = defaultLiveTimerChoices(now, 'Europe/Berlin')
  const fonts = loadGeneratorContent(contentDir).fonts.gif
  /** What a server reads back from the address, with the visitor's day and zone filled in as the browser does. */
  const reopen = (query: string) => withVisitorDefaults(liveTimerChoicesFromQuery(new URLSearchParams(query), now), new URLSearchParams(query), defaults)

  it('leaves out a timer of one date that shows zeros, so the address stays as it was', () => {
    expect(liveTimerQuery(defaults, defaults)).toBe('')
    expect(countdownPageQuery(COUNTDOWN_DEFAULTS, defaults, defaults)).toBe('')
    expect(reopen('')).toEqual(defaults)
  })

  it('keeps the type first, then what it uses and differs from the defaults, and always the zone of the types that use one', () => {
    expect(liveTimerQuery(choices({ type: 'evergreen', expired: 'hide' }), defaults)).toBe('timer=evergreen&expired=hide')
    expect(liveTimerQuery(choices({ type: 'per-recipient', to: '2027-01-31' }), defaults)).toBe('timer=per-recipient&to=2027-01-31&tz=Europe%2FBerlin')
    expect(liveTimerQuery(choices({ type: 'recurring', at: '09:30', weekdays: [6, 0], expired: 'hide' }), defaults)).toBe('timer=recurring&at=09%3A30&weekdays=0%2C6&tz=Europe%2FBerlin')
    expect(liveTimerQuery(choices({ type: 'recurring' }), defaults)).toBe('timer=recurring&tz=Europe%2FBerlin')
    expect(countdownPageQuery({ ...COUNTDOWN_DEFAULTS, amount: 2, unit: 'hours' }, choices({ type: 'evergreen' }), defaults)).toBe('timer=evergreen&amount=2&unit=hours')
  })

  it.each<[string, Partial<LiveTimerChoices>]>([
    ['one date, hidden once over', { expired: 'hide' }],
    ['evergreen with a message', { type: 'evergreen', expired: 'message', message: 'Too late, sorry' }],
    ['a date from the list', { type: 'per-recipient', from: '2026-12-01', to: '2027-02-28', timeZone: 'America/New_York', expired: 'zeros' }],
    ['every weekend at 9:30 in Tokyo', { type: 'recurring', at: '09:30', weekdays: [0, 6], timeZone: 'Asia/Tokyo' }],
  ])('reads back %s as it was chosen', (_name, patch) => {
    const chosen = choices(patch)
    expect(reopen(liveTimerQuery(chosen, defaults))).toEqual(chosen)
  })

  it('reads back the look and the time left with the choices, and an evergreen time of more than 90 days as 90', () => {
    const settings = { ...COUNTDOWN_DEFAULTS, amount: 12, unit: 'hours' as const, color: '#ff0000' }
    const query = new URLSearchParams(countdownPageQuery(settings, choices({ type: 'evergreen' }), defaults))
    expect(countdownSettingsFromQuery(query, fonts, now)).toEqual(settings)
    expect(countdownSettingsFromQuery(new URLSearchParams('timer=evergreen&amount=99&unit=days'), fonts, now).amount).toBe(90)
    expect(countdownSettingsFromQuery(new URLSearchParams('amount=99&unit=days'), fonts, now).amount).toBe(99)
  })

  it('falls back to the default of each choice a link gets wrong, and takes the days as the form sends them without its script', () => {
    expect(reopen('timer=weekly&from=2026-02-30&at=25:00&weekdays=1,9&tz=Mars/Olympus&expired=burn&message=x')).toEqual(defaults)
    expect(reopen('timer=recurring&weekdays=5&weekdays=1&weekdays=5').weekdays).toEqual([1, 5])
    expect(reopen(`timer=evergreen&expired=message&message=${'x'.repeat(61)}`)).toMatchObject({ expired: 'message', message: '' })
  })

  it("ignores a holiday's date for the types that do not count to one date", () => {
    expect(countdownSettingsFromQuery(new URLSearchParams('timer=recurring&date=2026-12-25'), fonts, now).date).toBeNull()
  })
})
