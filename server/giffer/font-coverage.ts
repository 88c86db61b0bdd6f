/**
 * What each pickable font draws with its own glyphs, read from its files' character maps at
 * build time: scripts/copy-fonts.ts writes data/generated/font-coverage.json, and a test keeps it in step
 * with the files and with the subsets data/fonts.json declares.
 */
import { z } from 'zod'
import coverageJson from '../../data/generated/font-coverage.json' with { type: 'json' }
import { FONT_SCRIPTS, scriptOfLetter, type FontScript } from '../../shared/generators/font-coverage.js'
import { pickableFonts, type FontEntry } from './fonts.js'

const coverageEntrySchema = z.object({
  scripts: z.array(z.enum(FONT_SCRIPTS)),
  letters: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])),
})
export type FontCoverageEntry = z.infer<typeof coverageEntrySchema>
export const fontCoverageFile = z.object({ fonts: z.record(z.string(), coverageEntrySchema) })

const coverage = fontCoverageFile.parse(coverageJson).fonts
const uncovered = pickableFonts.filter((font) => !coverage[font.id]).map((font) => font.id)
if (uncovered.length) {
  throw new Error(`data/generated/font-coverage.json has no entry for ${uncovered.join(', ')}: run npm run build:fonts`)
}

/** The scripts whose whole basic alphabet the font has (latin, cyrillic, greek). */
export function fontScripts(font: FontEntry): FontScript[] {
  return [...(coverage[font.id]?.scripts ?? [])]
}

/** Sorted, non-overlapping [first, last] code point ranges: is `code` in one? */
function inRanges(ranges: readonly (readonly [number, number])[], code: number): boolean {
  let lo = 0
  let hi = ranges.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const [first, last] = ranges[mid]!
    if (code < first) hi = mid - 1
    else if (code > last) lo = mid + 1
    else return true
  }
  return false
}

/**
 * The letters of the text (Latin, Cyrillic, Greek) the font has no glyph for, each once, in
 * order of appearance. Other characters are drawn by the fallback faces in any font.
 */
export function lettersMissing(font: FontEntry, text: string): string[] {
  const letters = coverage[font.id]?.letters
  if (!letters) return []
  const missing = new Set<string>()
  for (const char of text) {
    if (missing.has(char) || !scriptOfLetter(char)) continue
    if (!inRanges(letters, char.codePointAt(0)!)) missing.add(char)
  }
  return [...missing]
}
