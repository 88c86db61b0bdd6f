/** The countdown page's saved timers: what is sent, the addresses handed out, the edit form's values and changes, and the counts as CSV. */
import { describe, expect, it } from 'vitest'
import { defaultLiveTimerChoices } from '../../shared/generators/countdown/live-timer.js'
import { editAddress, savedTimerBody, savedTimerSnippet, taggedAddresses } from '../../shared/generators/countdown/saved-timer.js'
import {
  changedFields,
  draftOf,
  editPreviewUrl,
  evergreenAmount,
  keyFromHash,
  lastHours,
  requestOf,
  statsCsv,
  wallClock,
  type SavedTimerView,
  type TimerStats,
} from '../../shared/generators/countdown/saved-timer-edit.js'
import type { CountdownSettings } from '../../shared/generators/countdown/countdown.js'

const settings = { amount: 2, unit: 'days', date: null, font: 'roboto', weight: 700, color: '#000000', background: '#ffffff', captions: false, days: '', hours: '', minutes: '', seconds: '' } as unknown as CountdownSettings

const timer: SavedTimerView = {
  id: 'abcdefghijklmnop',
  version: 3,
  kind: 'fixed',
  name: 'Sale',
  until: '2026-12-24T17:00:00Z',
  expired: 'zeros',
  font: 'roboto',
  font_weight: 700,
  color: '#000000',
  background: '#ffffff',
  days: 'Days',
  hours: '',
  minutes: '',
  seconds: '',
  url: 'https://site.test/giffer/countdown/t/abcdefghijklmnop.gif',
  png_url: 'https://site.test/giffer/countdown/t/abcdefghijklmnop.png',
  link_url: 'https://site.test/giffer/countdown/t/abcdefghijklmnop/go',
}

describe('saving', () => {
  it('sends the live timer with the name and links, leaving out empty ones', () => {
    const choices = { ...defaultLiveTimerChoices(new Date('2026-12-01T12:00:00Z'), 'UTC'), type: 'evergreen' as const }
    const body = savedTimerBody(settings, choices, new Date('2026-12-01T12:00:00Z'), 'UTC', { name: ' Sale ', link: 'https://shop.example/', linkExpired: '' })
    expect(body).toMatchObject({ kind: 'evergreen', for: 172_800, name: 'Sale', link: 'https://shop.example/' })
    expect(body).not.toHaveProperty('link_expired')
  })

  it('puts the key in the fragment of the edit address, and reads it back', () => {
    const address = editAddress('https://site.test', 'abcdefghijklmnop', 'k'.repeat(32))
    expect(address).toBe(`https://site.test/email-countdown-timer-generator/timers/abcdefghijklmnop/#key=${'k'.repeat(32)}`)
    expect(keyFromHash(new URL(address).hash)).toBe('k'.repeat(32))
    expect(keyFromHash('')).toBeNull()
    expect(keyFromHash('#key=short')).toBeNull()
    expect(keyFromHash('#key=<script>alert(1)</script>xxxxxxxxxxxxxxxx')).toBeNull()
  })

  it('hands out the addresses with the platform merge tag, and the HTML inside the go link when there is one', () => {
    const answer = { url: 'https://s/t/x.gif?r=', png_url: 'https://s/t/x.png?r=', link_url: 'https://s/t/x/go?r=' }
    const tagged = taggedAddresses(answer, 'evergreen', 'mailchimp', true)
    expect(tagged).toEqual({ url: 'https://s/t/x.gif?r=*|UNIQID|*', png_url: 'https://s/t/x.png?r=*|UNIQID|*', link_url: 'https://s/t/x/go?r=*|UNIQID|*' })
    expect(taggedAddresses(answer, 'evergreen', 'mailchimp', false)).not.toHaveProperty('link_url')
    const html = savedTimerSnippet(tagged, false)
    expect(html.startsWith('<a href="https://s/t/x/go?r=*|UNIQID|*" target="_blank">')).toBe(true)
    expect(html).toContain('src="https://s/t/x.gif?r=*|UNIQID|*"')
    expect(savedTimerSnippet({ url: 'a"<b', png_url: 'p' }, false)).toContain('src="a&quot;&lt;b"')
  })
})

describe('the edit form', () => {
  it('shows a one-date timer in the visitor zone and sends only what changed, a date with its zone', () => {
    const draft = draftOf(timer, 'Europe/Berlin')
    expect(draft).toMatchObject({ until: '2026-12-24T18:00', tz: 'Europe/Berlin', name: 'Sale' })
    const before = requestOf(draft, 'fixed')
    expect(changedFields(before, requestOf(draft, 'fixed'))).toEqual({})
    expect(changedFields(before, requestOf({ ...draft, color: '#aa0000' }, 'fixed'))).toEqual({ color: '#aa0000' })
    expect(changedFields(before, requestOf({ ...draft, until: '2026-12-25T18:00' }, 'fixed'))).toEqual({ until: '2026-12-25T18:00', tz: 'Europe/Berlin' })
    // An emptied name or link is cleared.
    expect(changedFields(before, requestOf({ ...draft, name: '' }, 'fixed'))).toEqual({ name: null })
    expect(changedFields(before, requestOf({ ...draft, expired: 'message', message: 'Over' }, 'fixed'))).toEqual({ expired: 'message', message: 'Over' })
  })

  it('writes an evergreen time in the largest whole unit and sends it in seconds', () => {
    expect(evergreenAmount(172_800)).toEqual({ amount: 2, unit: 'days' })
    expect(evergreenAmount(5_400)).toEqual({ amount: 90, unit: 'minutes' })
    const draft = draftOf({ ...timer, kind: 'evergreen', until: undefined, for: 7_200 }, 'UTC')
    expect(draft).toMatchObject({ amount: 2, unit: 'hours' })
    expect(changedFields(requestOf(draft, 'evergreen'), requestOf({ ...draft, amount: 3 }, 'evergreen'))).toEqual({ for: 10_800 })
  })

  it('shows a per-recipient range as dates in its zone and a recurring timer with its days', () => {
    const range = draftOf({ ...timer, kind: 'per-recipient', until: undefined, from: '2026-11-30T23:00:00Z', to: '2027-01-31T22:59:00Z', tz: 'Europe/Berlin' }, 'UTC')
    expect(range).toMatchObject({ from: '2026-12-01', to: '2027-01-31', tz: 'Europe/Berlin' })
    expect(requestOf(range, 'per-recipient')).toMatchObject({ from: '2026-12-01T00:00', to: '2027-01-31T23:59', tz: 'Europe/Berlin' })
    const recurring = draftOf({ ...timer, kind: 'recurring', until: undefined, at: '14:00', weekdays: [1, 2], tz: 'UTC' }, 'Europe/Berlin')
    const sent = changedFields(requestOf(recurring, 'recurring'), requestOf({ ...recurring, weekdays: [2, 1, 5] }, 'recurring'))
    expect(sent).toEqual({ weekdays: [1, 2, 5], at: '14:00', tz: 'UTC' })
    expect(requestOf(recurring, 'recurring')).not.toHaveProperty('expired')
  })

  it('previews each version of the timer at an address of its own', () => {
    expect(editPreviewUrl(timer)).toBe(`${timer.url}?preview=1&v=3`)
    expect(editPreviewUrl({ ...timer, kind: 'per-recipient', url: 'https://s/t/x.gif?until=', to: '2027-01-31T22:59:00Z' })).toBe('https://s/t/x.gif?until=2027-01-31T22%3A59%3A00Z&preview=1&v=3')
  })

  it('reads an instant as a wall clock in a zone', () => {
    expect(wallClock('2026-07-01T16:00:00Z', 'Europe/Berlin')).toBe('2026-07-01T18:00')
    expect(wallClock('2026-07-01T00:30:00Z', 'America/New_York')).toBe('2026-06-30T20:30')
  })
})

describe('counts', () => {
  const counts = (opens: number) => ({ opens, first_opens: 1, expired_opens: 0, clicks: 2, readers: { gmail: opens, apple_privacy: 0, yahoo: 0, outlook: 0, other: 0 } })
  const stats: TimerStats = { total: counts(7), hours: [{ hour: '2026-12-01T10:00:00.000Z', ...counts(3) }, { hour: '2026-12-01T12:00:00.000Z', ...counts(4) }] }

  it('fills the chart hours with none where nothing was counted', () => {
    expect(lastHours(stats, new Date('2026-12-01T12:59:00Z'), 4).map((hour) => [hour.hour.toISOString(), hour.opens])).toEqual([
      ['2026-12-01T09:00:00.000Z', 0],
      ['2026-12-01T10:00:00.000Z', 3],
      ['2026-12-01T11:00:00.000Z', 0],
      ['2026-12-01T12:00:00.000Z', 4],
    ])
  })

  it('writes every counted hour as CSV with a header', () => {
    expect(statsCsv(stats)).toBe(
      'hour,opens,first_opens,expired_opens,clicks,gmail,apple_privacy,yahoo,outlook,other\r\n' +
        '2026-12-01T10:00:00.000Z,3,1,0,2,3,0,0,0,0\r\n' +
        '2026-12-01T12:00:00.000Z,4,1,0,2,4,0,0,0,0\r\n',
    )
  })
})
