/**
 * What each pickable font draws with its own glyphs, read from its files' character maps at
 * build time: scripts/copy-fonts.ts writes data/generated/font-coverage.json, and a test keeps it in step
 * with the files and with the subsets data/fonts.json declares.
 */
import path from 'node:path'
import { z } from 'zod'
import { FONT_SCRIPTS, scriptOfLetter, type FontScript } from '../../shared/generators/font-coverage.js'
import { DataFileError, readDataFile } from '../data-file.js'
import { contentDir as projectContentDir, GENERATED } from '../project-root.js'
import { isPickable, pickableFonts, type FontEntry } from './fonts.js'

const coverageEntrySchema = z.object({
  scripts: z.array(z.enum(FONT_SCRIPTS)),
  letters: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])),
})
export type FontCoverageEntry = z.infer<typeof coverageEntrySchema>
export const fontCoverageFile = z.object({ fonts: z.record(z.string(), coverageEntrySchema) })

/** What each font of a catalogue covers, by font id. */
export type FontCoverage = Record<string, FontCoverageEntry>

/** generated/font-coverage.json of a content folder, checked to have an entry for every pickable font of the catalogue. */
export function loadFontCoverage(contentDir: string, catalogue: readonly FontEntry[]): FontCoverage {
  const file = path.join(contentDir, GENERATED, 'font-coverage.json')
  const coverage = readDataFile(file, fontCoverageFile, DataFileError).fonts
  const uncovered = catalogue.filter((font) => isPickable(font) && !coverage[font.id]).map((font) => font.id)
  if (uncovered.length) throw new DataFileError(`${file} has no entry for ${uncovered.join(', ')}: run npm run build:fonts`)
  return coverage
}

/** What the image service's own fonts cover. */
const coverage = loadFontCoverage(projectContentDir, pickableFonts)

/** The scripts whose whole basic alphabet the font has (latin, cyrillic, greek); of the image service's fonts unless told. */
export function fontScripts(font: FontEntry, table: FontCoverage = coverage): FontScript[] {
  return [...(table[font.id]?.scripts ?? [])]
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
