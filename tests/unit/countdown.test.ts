import { describe, expect, it } from 'vitest'
import {
  amountOnBlur,
  amountWhileTyping,
  convertAmount,
  countdownQuery,
  countdownRequest,
  COUNTDOWN_DEFAULTS,
  daysAhead,
  delayForTimeLeft,
  delaySeconds,
  delayToHoliday,
  isBlockedAmountKey,
  liveTimerRequest,
  liveTimerSnippet,
  quickPicks,
} from '../../shared/generators/countdown/countdown.js'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

describe('delay amount field', () => {
  it('blocks dot, comma, minus, plus and letters, and lets digits and editing keys through', () => {
    for (const key of ['.', ',', '-', '+', 'e', 'a', ' ']) expect(isBlockedAmountKey(key), key).toBe(true)
    for (const key of ['0', '5', '9', 'Backspace', 'Delete', 'ArrowLeft', 'Tab', 'Enter']) expect(isBlockedAmountKey(key), key).toBe(false)
  })

  it('keeps digits only while typing or pasting, without leading zeros', () => {
    expect(amountWhileTyping('1.5', 'days')).toBe('15')
    expect(amountWhileTyping('-3', 'hours')).toBe('3')
    expect(amountWhileTyping('+1,2', 'minutes')).toBe('12')
    expect(amountWhileTyping('007', 'days')).toBe('7')
    expect(amountWhileTyping('', 'days')).toBe('')
    expect(amountWhileTyping('abc', 'days')).toBe('')
    expect(amountWhileTyping('0', 'days')).toBe('0')
  })

  it('caps days at 99, hours at 2376 and minutes at 142560', () => {
    expect(amountWhileTyping('99', 'days')).toBe('99')
    expect(amountWhileTyping('100', 'days')).toBe('99')
    expect(amountWhileTyping('2376', 'hours')).toBe('2376')
    expect(amountWhileTyping('2377', 'hours')).toBe('2376')
    expect(amountWhileTyping('142560', 'minutes')).toBe('142560')
    expect(amountWhileTyping('999999999', 'minutes')).toBe('142560')
  })

  it('turns an empty value or one below 1 into 1 on blur, and keeps others capped', () => {
    expect(amountOnBlur('', 'days')).toBe(1)
    expect(amountOnBlur('0', 'hours')).toBe(1)
    expect(amountOnBlur('000', 'minutes')).toBe(1)
    expect(amountOnBlur('1', 'days')).toBe(1)
    expect(amountOnBlur('42', 'hours')).toBe(42)
    expect(amountOnBlur('500', 'days')).toBe(99)
  })
})

describe('unit conversion', () => {
  it('converts through 1440, 60 and 1 minutes per day, hour and minute', () => {
    expect(convertAmount(2, 'days', 'hours')).toBe(48)
    expect(convertAmount(2, 'days', 'minutes')).toBe(2880)
    expect(convertAmount(48, 'hours', 'days')).toBe(2)
    expect(convertAmount(3, 'hours', 'minutes')).toBe(180)
    expect(convertAmount(180, 'minutes', 'hours')).toBe(3)
  })

  it('rounds to the nearest whole amount', () => {
    expect(convertAmount(36, 'hours', 'days')).toBe(2)
    expect(convertAmount(35, 'hours', 'days')).toBe(1)
    expect(convertAmount(90, 'minutes', 'hours')).toBe(2)
    expect(convertAmount(89, 'minutes', 'hours')).toBe(1)
  })

  it('caps in the new unit and never goes below 1', () => {
    expect(convertAmount(142_560, 'minutes', 'days')).toBe(99)
    expect(convertAmount(2376, 'hours', 'minutes')).toBe(142_560)
    expect(convertAmount(99, 'days', 'hours')).toBe(2376)
    expect(convertAmount(10, 'minutes', 'days')).toBe(1)
    expect(convertAmount(20, 'minutes', 'hours')).toBe(1)
  })

  it('sends the delay in seconds', () => {
    expect(delaySeconds(1, 'days')).toBe(86_400)
    expect(delaySeconds(2, 'hours')).toBe(7200)
    expect(delaySeconds(5, 'minutes')).toBe(300)
    expect(delaySeconds(99, 'days')).toBe(8_553_600)
  })
})

describe('quick picks', () => {
  it('uses days only when more than 7 days away', () => {
    expect(delayForTimeLeft(7 * DAY + 1)).toEqual({ amount: 8, unit: 'days' })
    expect(delayForTimeLeft(7 * DAY)).toEqual({ amount: 168, unit: 'hours' })
    expect(delayForTimeLeft(30 * DAY)).toEqual({ amount: 30, unit: 'days' })
  })

  it('uses hours from 8 hours, minutes below', () => {
    expect(delayForTimeLeft(8 * HOUR)).toEqual({ amount: 8, unit: 'hours' })
    expect(delayForTimeLeft(8 * HOUR - 1)).toEqual({ amount: 480, unit: 'minutes' })
    expect(delayForTimeLeft(8 * HOUR + 1)).toEqual({ amount: 9, unit: 'hours' })
  })

  it('rounds up, and gives at least 1 minute', () => {
    expect(delayForTimeLeft(10 * DAY + 1)).toEqual({ amount: 11, unit: 'days' })
    expect(delayForTimeLeft(90 * MINUTE + 1)).toEqual({ amount: 91, unit: 'minutes' })
    expect(delayForTimeLeft(1)).toEqual({ amount: 1, unit: 'minutes' })
    expect(delayForTimeLeft(0)).toEqual({ amount: 1, unit: 'minutes' })
    expect(delayForTimeLeft(-5 * MINUTE)).toEqual({ amount: 1, unit: 'minutes' })
  })

  it('lists only holidays 0 to 99 days ahead, nearest first', () => {
    const now = new Date(2025, 0, 10, 15, 30)
    const holidays = [
      { title: 'Far', value: '2025-04-20' }, // 100 days
      { title: 'Edge', value: '2025-04-19' }, // 99 days
      { title: 'Today', value: '2025-01-10' },
      { title: 'Past', value: '2025-01-09' },
      { title: 'Soon', value: '2025-01-14' },
    ]
    expect(quickPicks(holidays, now).map((pick) => [pick.title, pick.daysAhead])).toEqual([
      ['Today', 0],
      ['Soon', 4],
      ['Edge', 99],
    ])
  })

  it('counts to the start of the holiday in local time, or to the end of today on the day itself', () => {
    const now = new Date(2025, 0, 10, 15, 30)
    expect(daysAhead('2025-01-11', now)).toBe(1)
    // 8 h 30 min to midnight: hours, rounded up.
    expect(delayToHoliday('2025-01-11', now)).toEqual({ amount: 9, unit: 'hours' })
    // Today's holiday ends at midnight, 8 h 30 min away as well.
    expect(delayToHoliday('2025-01-10', now)).toEqual({ amount: 9, unit: 'hours' })
    expect(delayToHoliday('2025-01-20', now)).toEqual({ amount: 10, unit: 'days' })
    expect(delayToHoliday('2025-01-11', new Date(2025, 0, 10, 23, 0))).toEqual({ amount: 60, unit: 'minutes' })
  })
})

describe('requests and the URL', () => {
  it('builds the countdown request: delay in seconds, captions empty when off, duration 120, style solid, scale 2', () => {
    const settings = { ...COUNTDOWN_DEFAULTS, amount: 2, unit: 'hours' as const, captions: false }
    expect(countdownRequest(settings)).toEqual({
      delay: 7200,
      font: 'roboto',
      font_weight: 700,
      color: '#111827',
      background: '#ffffff',
      days: '',
      hours: '',
      minutes: '',
      seconds: '',
      duration: 120,
      style: 'solid',
      scale: 2,
    })
    expect(countdownRequest(COUNTDOWN_DEFAULTS)).toMatchObject({ days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' })
  })

  it('keeps only what differs from the defaults in the query, a holiday by its date', () => {
    expect(countdownQuery(COUNTDOWN_DEFAULTS)).toBe('')
    expect(countdownQuery({ ...COUNTDOWN_DEFAULTS, amount: 12, unit: 'hours', color: '#ff0000', days: 'Tage' })).toBe('amount=12&unit=hours&color=ff0000&days=Tage')
    expect(countdownQuery({ ...COUNTDOWN_DEFAULTS, date: '2025-12-25', amount: 40 })).toBe('date=2025-12-25')
    expect(countdownQuery({ ...COUNTDOWN_DEFAULTS, captions: false, days: 'x' })).toBe('captions=0')
  })

  it('gives the live timer a wall-clock deadline with the zone for a holiday, an instant for a delay', () => {
    const now = new Date(Date.UTC(2025, 0, 10, 12, 0))
    const holiday = liveTimerRequest({ ...COUNTDOWN_DEFAULTS, date: '2025-02-14' }, now, 'Europe/Berlin')
    expect(holiday).toMatchObject({ until: '2025-02-14T00:00', tz: 'Europe/Berlin', font: 'roboto', days: 'Days' })
    expect(holiday).not.toHaveProperty('delay')
    const delay = liveTimerRequest({ ...COUNTDOWN_DEFAULTS, amount: 2, unit: 'days' }, now, 'Europe/Berlin')
    expect(delay.until).toBe('2025-01-12T12:00:00.000Z')
    expect(delay).not.toHaveProperty('tz')
  })

  it('writes an email snippet with the GIF and, for Outlook, the PNG', () => {
    const snippet = liveTimerSnippet({ url: 'https://x.test/live.gif?a=1&sig=z', png_url: 'https://x.test/live.png?a=1&sig=z' }, true)
    expect(snippet).toContain('<!--[if mso]><img src="https://x.test/live.png?a=1&amp;sig=z" width="600" height="150"')
    expect(snippet).toContain('<!--[if !mso]><!--><img src="https://x.test/live.gif?a=1&amp;sig=z"')
    expect(liveTimerSnippet({ url: 'a', png_url: 'b' }, false)).toContain('height="110"')
  })
})
