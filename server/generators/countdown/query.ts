/**
 * The countdown page's settings from its query string. A shared link should always open the
 * generator, so each setting is checked on its own and a bad one falls back to its default.
 */
import { z } from 'zod'
import { CAPTION_MAX_LENGTH, COUNTDOWN_DEFAULTS, DELAY_CAPS, DELAY_UNITS, daysAhead, delayToHoliday, QUICK_PICK_WINDOW_DAYS, type CountdownSettings } from '../../../shared/generators/countdown/countdown.js'
import type { FontOptionGroup } from '../../../shared/generators/types.js'
import { parseIsoDate } from '../../../shared/holidays/holidays.js'
import { hexColour, pickFont } from '../query-fields.js'

const caption = z.string().trim().max(CAPTION_MAX_LENGTH)

const querySchema = z.object({
  amount: z.coerce.number().int().min(1).optional().catch(undefined),
  unit: z.enum(DELAY_UNITS).catch(COUNTDOWN_DEFAULTS.unit),
  date: z
    .string()
    .refine((value) => parseIsoDate(value) !== null)
    .optional()
    .catch(undefined),
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
    amount: Math.min(query.amount ?? COUNTDOWN_DEFAULTS.amount, DELAY_CAPS[query.unit]),
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
  // A date counts down to that day; the browser works the delay out again on its own clock.
  if (query.date) {
    const ahead = daysAhead(query.date, now)
    if (ahead >= 0 && ahead <= QUICK_PICK_WINDOW_DAYS) return { ...settings, ...delayToHoliday(query.date, now), date: query.date }
  }
  return settings
}
