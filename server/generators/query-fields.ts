/** What the generator pages' query parsers share: colours, and a font with a weight it is shipped in. */
import { z } from 'zod'
export { pickFont } from '../../shared/generators/font-choice.js'

/** `#rrggbb` or `rrggbb` (the address keeps colours without `#`), as `#rrggbb`. */
export const hexColour = z
  .string()
  .regex(/^#?[0-9a-fA-F]{6}$/)
  .transform((value) => `#${value.replace('#', '').toLowerCase()}`)
