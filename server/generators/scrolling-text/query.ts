/**
 * The scrolling-text page's settings from its query string. A shared link should always open
 * the generator, so each setting is checked on its own and a bad one falls back to its default.
 */
import { z } from 'zod'
import type { FontOptionGroup } from '../../../shared/generators/types.js'
import {
  FLICKER_EFFECTS,
  SCROLL_DIRECTIONS,
  SCROLL_DIVIDER_MAX,
  SCROLL_TEXT_MAX,
  SCROLLING_TEXT_DEFAULTS as DEFAULTS,
  snapFontSize,
  type ScrollingTextSettings,
} from '../../../shared/generators/scrolling-text/scrolling-text.js'
import { hexColour, pickFont } from '../query-fields.js'

const querySchema = z.object({
  text: z.string().trim().min(1).max(SCROLL_TEXT_MAX).catch(DEFAULTS.text),
  separator: z.string().max(SCROLL_DIVIDER_MAX * 10).catch(DEFAULTS.separator),
  font: z.string().max(64).catch(DEFAULTS.font),
  weight: z.coerce.number().int().catch(DEFAULTS.weight),
  size: z.coerce.number().transform(snapFontSize).catch(DEFAULTS.size),
  color: hexColour.catch(DEFAULTS.color),
  iconColor: hexColour.catch(DEFAULTS.iconColor),
  background: hexColour.catch(DEFAULTS.background),
  direction: z.enum(SCROLL_DIRECTIONS).catch(DEFAULTS.direction),
  flicker: z.enum(FLICKER_EFFECTS as [string, ...string[]]).catch(DEFAULTS.flicker),
})

export function scrollingTextSettingsFromQuery(search: URLSearchParams, fonts: FontOptionGroup[]): ScrollingTextSettings {
  const query = querySchema.parse(Object.fromEntries(search))
  const { font, weight } = pickFont(fonts, query.font, query.weight, DEFAULTS.font, DEFAULTS.weight)
  return { ...query, font, weight, flicker: query.flicker as ScrollingTextSettings['flicker'] }
}
