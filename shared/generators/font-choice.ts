import type { FontOption, FontOptionGroup } from './types.js'

/**
 * The font asked for (else the default), and the weight asked for when it has it (else the
 * default weight, else its heaviest): for a link's settings and for a change of font alike.
 */
export function pickFont(groups: readonly FontOptionGroup[], id: string, weight: number, defaultId: string, defaultWeight: number): { font: string; weight: number } {
  const fonts = groups.flatMap((group) => group.fonts)
  const font: FontOption = fonts.find((candidate) => candidate.id === id) ?? fonts.find((candidate) => candidate.id === defaultId) ?? fonts[0]!
  const chosen = font.weights.includes(weight) ? weight : font.weights.includes(defaultWeight) ? defaultWeight : font.weights.at(-1)!
  return { font: font.id, weight: chosen }
}
