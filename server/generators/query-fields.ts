/** What the generator pages' query parsers share: colours, and a font with a weight it is shipped in. */
import { z } from 'zod'
import type { FontOption, FontOptionGroup } from '../../shared/generators/types.js'

/** `#rrggbb` or `rrggbb` (the address keeps colours without `#`), as `#rrggbb`. */
export const hexColour = z
  .string()
  .regex(/^#?[0-9a-fA-F]{6}$/)
  .transform((value) => `#${value.replace('#', '').toLowerCase()}`)

/** The font asked for (else the default), and the weight asked for when it has it (else bold, else its heaviest). */
export function pickFont(groups: FontOptionGroup[], id: string, weight: number, defaultId: string, defaultWeight: number): { font: string; weight: number } {
  const fonts = groups.flatMap((group) => group.fonts)
  const font: FontOption = fonts.find((candidate) => candidate.id === id) ?? fonts.find((candidate) => candidate.id === defaultId) ?? fonts[0]!
  const chosen = font.weights.includes(weight) ? weight : font.weights.includes(defaultWeight) ? defaultWeight : font.weights.at(-1)!
  return { font: font.id, weight: chosen }
}
