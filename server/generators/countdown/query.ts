/**
 * The countdown page's settings and live timer choices from its query string. A shared link
 * should always open the generator, so each setting is checked on its own and a bad one falls
 * back to its default.
 */
import { z } from 'zod'
import { END_MESSAGE_MAX_LENGTH } from '../../../shared/generators/countdown/captions.js'
import { CAPTION_MAX_LENGTH, COUNTDOWN_DEFAULTS, DELAY_UNITS, daysAhead, delayToHoliday, QUICK_PICK_WINDOW_DAYS, type CountdownSettings } from '../../../shared/generators/countdown/countdown.js'
import { defaultLiveTimerChoices, delayCapsFor, EXPIRY_CHOICES, LIVE_TIMER_TYPES, type LiveTimerChoices } from '../../../shared/generators/countdown/live-timer.js'
import type { FontOptionGroup } from '../../../shared/generators/types.js'
import { parseIsoDate } from '../../../shared/holidays/holidays.js'
import { isTimeZone } from '../../giffer/live/deadlines.js'
import { hexColour, pickFont } from '../query-fields.js'

const caption = z.string().trim().max(CAPTION_MAX_LENGTH)
const isoDate = z.string().refine((value) => parseIsoDate(value) !== null)
const timerType = z.enum(LIVE_TIMER_TYPES).catch('fixed')

const querySchema = z.object({
  timer: timerType,
  amount: z.coerce.number().int().min(1).optional().catch(undefined),
  unit: z.enum(DELAY_UNITS).catch(COUNTDOWN_DEFAULTS.unit),
  date: isoDate.optional().catch(undefined),
  font: z.string().max(64).catch(COUNTDOWN_DEFAULTS.font),
  weight: z.coerce.number().int().catch(COUNTDOWN_DEFAULTS.weight),
  color: hexColour.catch(COUNTDOWN_DEFAULTS.color),
  background: hexColour.catch(COUNTDOWN_DEFAULTS.background),
  captions: z.enum(['0', '1']).catch('1'),
  days: caption.catch(COUNTDOWN_DEFAULTS.days),
  hours: caption.catch(COUNTDOWN_DEFAULTS.hours),
  minutes: caption.catch(COUNTDOWN_DEFAULTS.minutes),
  seconds: caption.catch(COUNTDOWN_DEFAULTS.seconds),
})

export function countdownSettingsFromQuery(search: URLSearchParams, fonts: FontOptionGroup[], now: Date): CountdownSettings {
  // A field given twice counts by its last value: the form sends `captions=0` from a hidden
  // field, then `1` when ticked.
  const query = querySchema.parse(Object.fromEntries(search))
  const { font, weight } = pickFont(fonts, query.font, query.weight, COUNTDOWN_DEFAULTS.font, COUNTDOWN_DEFAULTS.weight)
  const settings: CountdownSettings = {
    amount: Math.min(query.amount ?? COUNTDOWN_DEFAULTS.amount, delayCapsFor(query.timer)[query.unit]),
    unit: query.unit,
    date: null,
    font,
    weight,
    color: query.color,
    background: query.background,
    captions: query.captions === '1',
    days: query.days,
    hours: query.hours,
    minutes: query.minutes,
    seconds: query.seconds,
  }
  // A date counts down to that day (a timer of one date only); the browser works the delay out
  // again on its own clock.
  if (query.date && query.timer === 'fixed') {
    const ahead = daysAhead(query.date, now)
    if (ahead >= 0 && ahead <= QUICK_PICK_WINDOW_DAYS) return { ...settings, ...delayToHoliday(query.date, now), date: query.date }
  }
  return settings
}

const liveQuerySchema = z.object({
  timer: timerType,
  from: isoDate.optional().catch(undefined),
  to: isoDate.optional().catch(undefined),
  at: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
    .optional()
    .catch(undefined),
  weekdays: z
    .string()
    .regex(/^[0-6](,[0-6])*$/)
    .transform((list) => [...new Set(list.split(',').map(Number))].sort((a, b) => a - b))
    .optional()
    .catch(undefined),
  tz: z.string().max(64).refine(isTimeZone).optional().catch(undefined),
  expired: z.enum(EXPIRY_CHOICES).catch('zeros'),
  message: z.string().max(END_MESSAGE_MAX_LENGTH).catch(''),
})

/**
 * The live timer choices of a link; what it leaves out is the server's default (its own day, and
 * UTC), which the browser replaces with the visitor's once it runs.
 */
export function liveTimerChoicesFromQuery(search: URLSearchParams, now: Date): LiveTimerChoices {
  // The form without its script sends each ticked day as its own `weekdays`; the page's own
  // address lists them in one.
  const weekdays = search.getAll('weekdays').join(',') || undefined
  const query = liveQuerySchema.parse({ ...Object.fromEntries(search), weekdays })
  const defaults = defaultLiveTimerChoices(now, 'UTC')
  return {
    type: query.timer,
    from: query.from ?? defaults.from,
    to: query.to ?? defaults.to,
    at: query.at ?? defaults.at,
    weekdays: query.weekdays ?? defaults.weekdays,
    timeZone: query.tz ?? defaults.timeZone,
    expired: query.expired,
    message: query.expired === 'message' ? query.message : '',
  }
}
