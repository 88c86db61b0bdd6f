/**
 * The text-image page's settings from its query string. A shared link should always open the
 * generator, so each setting is checked on its own and a bad one falls back to its default.
 */
import { z } from 'zod'
import {
  snapLineHeight,
  snapStroke,
  snapTextSize,
  TEXT_ALIGNMENTS,
  TEXT_IMAGE_DEFAULTS as DEFAULTS,
  TEXT_STYLE_GROUPS,
  textLines,
  type TextImageSettings,
} from '../../../shared/generators/text-image/text-image.js'
import { hexColour } from '../query-fields.js'

const querySchema = z.object({
  text: z
    .string()
    .max(2000)
    .transform((text) => textLines(text).join('\n'))
    .refine((text) => text.trim() !== '')
    .catch(DEFAULTS.text),
  group: z.enum(TEXT_STYLE_GROUPS.map((group) => group.value) as [TextImageSettings['group'], ...TextImageSettings['group'][]]).catch(DEFAULTS.group),
  align: z.enum(TEXT_ALIGNMENTS).catch(DEFAULTS.align),
  color: hexColour.catch(DEFAULTS.color),
  size: z.coerce.number().transform(snapTextSize).catch(DEFAULTS.size),
  lineHeight: z.coerce.number().transform(snapLineHeight).catch(DEFAULTS.lineHeight),
  stroke: z.coerce.number().transform(snapStroke).catch(DEFAULTS.stroke),
  strokeColor: hexColour.catch(DEFAULTS.strokeColor),
})

export function textImageSettingsFromQuery(search: URLSearchParams): TextImageSettings {
  return querySchema.parse(Object.fromEntries(search))
}
