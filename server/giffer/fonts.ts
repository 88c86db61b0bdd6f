import { existsSync } from 'node:fs'
import path from 'node:path'
import { contentDir as projectContentDir, projectRoot } from '../project-root.js'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { DataFileError, readDataFile } from '../data-file.js'

/** The lists a font can belong to: three text-image groups, three GIF-generator lists, and the helpers. */
export const fontGroups = ['calligraphy', 'gothic', 'themed', 'general', 'monospaced', 'seasonal', 'fallback', 'icons'] as const
export type FontGroup = (typeof fontGroups)[number]

const fontEntrySchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  family: z.string().min(1),
  groups: z.array(z.enum(fontGroups)).min(1),
  package: z.string().startsWith('@fontsource/'),
  licence: z.string().min(1),
  weights: z.array(z.number().int().min(100).max(900)).min(1),
  subsets: z.array(z.string().regex(/^[a-z0-9-]+$/)).min(1),
  gothicStyle: z.string().optional(),
})
export type FontEntry = z.infer<typeof fontEntrySchema>

const fontsFileSchema = z.object({ fonts: z.array(fontEntrySchema) })

/** fonts.json of a content folder, read and checked. */
export function loadFontCatalogue(contentDir: string): FontEntry[] {
  return readDataFile(path.join(contentDir, 'fonts.json'), fontsFileSchema, DataFileError).fonts
}

/** Whether users may pick the font: every font is, but the fallback and icon helpers. */
export const isPickable = (font: FontEntry) => !font.groups.includes('fallback') && !font.groups.includes('icons')

/** The fonts the image service draws with: the project's own fonts.json, whose files ship with it. */
export const fontCatalogue: readonly FontEntry[] = loadFontCatalogue(projectContentDir)

/** The fonts users may pick: every font but the fallback and icon helpers. */
export const pickableFonts: readonly FontEntry[] = fontCatalogue.filter(isPickable)
const byKey = new Map<string, FontEntry>()
for (const font of pickableFonts) {
  byKey.set(font.id, font)
  byKey.set(font.family.toLowerCase(), font)
}

/** A font users may pick, by id (`great-vibes`) or family name (`Great Vibes`); never a path. */
export function findFont(idOrFamily: string): FontEntry | undefined {
  return byKey.get(idOrFamily.trim().toLowerCase())
}

/** The fonts of a group, of the image service's catalogue unless another is given. */
export function fontsInGroup(group: FontGroup, catalogue: readonly FontEntry[] = fontCatalogue): FontEntry[] {
  return catalogue.filter((font) => font.groups.includes(group))
}

/** The shipped weight closest to the requested one (ties go to the heavier face). */
export function nearestWeight(font: FontEntry, requested: number): number {
  let best = font.weights[0] ?? 400
  for (const weight of font.weights) {
    const d = Math.abs(weight - requested)
    const bestD = Math.abs(best - requested)
    if (d < bestD || (d === bestD && weight > best)) best = weight
  }
  return best
}


/** Where `npm run build:fonts` puts the shipped subsets. */
export const builtFontsDir = path.join(projectRoot, 'dist', 'fonts')

export function fontFileName(font: FontEntry, subset: string, weight: number): string {
  return `${font.id}-${subset}-${weight}-normal.woff2`
}

/**
 * The woff2 file of one subset and weight: the copy in dist/fonts after a build, or the file in
 * the npm package when running from sources (tests, `tsx`).
 */
export function fontFilePath(font: FontEntry, subset: string, weight: number): string {
  const name = fontFileName(font, subset, weight)
  const built = path.join(builtFontsDir, font.id, name)
  if (existsSync(built)) return built
  return path.join(projectRoot, 'node_modules', font.package, 'files', name)
}
