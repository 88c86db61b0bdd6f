/**
 * The slideshow page's settings from its query string (the images are never in it). A shared
 * link should always open the generator, so each setting is checked on its own and a bad one
 * falls back to its default.
 */
import { z } from 'zod'
import { ASPECTS, clampSetting, LAYOUTS, NUMBER_FIELDS, SLIDESHOW_DEFAULTS as DEFAULTS, SLIDESHOW_MODES, type NumberField, type SlideshowSettings } from '../../../shared/generators/slideshow/slideshow.js'
import { hexColour } from '../query-fields.js'

/** A number within the field's bounds, snapped to its steps. */
const setting = (field: NumberField) =>
  z.coerce
    .number()
    .min(NUMBER_FIELDS[field].min)
    .max(NUMBER_FIELDS[field].max)
    .transform((value) => clampSetting(field, value))
    .catch(DEFAULTS[field])

const querySchema = z.object({
  mode: z.enum(SLIDESHOW_MODES).catch(DEFAULTS.mode),
  delay: setting('delay'),
  radius: setting('radius'),
  aspect: z.enum(ASPECTS as [SlideshowSettings['aspect'], ...SlideshowSettings['aspect'][]]).catch(DEFAULTS.aspect),
  columns: setting('columns'),
  trio: z.enum(LAYOUTS).catch(DEFAULTS.trio),
  overlay: z.enum(LAYOUTS).catch(DEFAULTS.overlay),
  opacity: setting('opacity'),
  border: setting('border'),
  borderColor: hexColour.catch(DEFAULTS.borderColor),
  gap: setting('gap'),
})

export function slideshowSettingsFromQuery(search: URLSearchParams): SlideshowSettings {
  // The last value of a repeated name counts, as in a submitted form.
  return querySchema.parse(Object.fromEntries(search))
}
