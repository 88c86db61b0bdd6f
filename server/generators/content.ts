/**
 * The generator pages' copy and examples (generators.json of the content folder) and the fonts
 * the GIF generators offer (fonts.json, with what each font's files cover), read once at
 * start-up as part of the site's data (server/site-data.ts).
 */
import { createHash } from 'node:crypto'
import path from 'node:path'
import type { FontOption, FontOptionGroup, GeneratorPageBase } from '../../shared/generators/types.js'
import type { TextStyleGroup } from '../../shared/generators/text-image/text-image.js'
import { generatorsFileSchema, type GeneratorExampleDefinition, type GeneratorsFile } from '../../shared/generators/schema.js'
import { DataFileError, readDataFile } from '../data-file.js'
import { fontScripts, loadFontCoverage, type FontCoverage } from '../giffer/font-coverage.js'
import { findFont, fontsInGroup, isPickable, loadFontCatalogue, type FontEntry, type FontGroup } from '../giffer/fonts.js'

/** Where scripts/render-generator-examples.ts keeps the POST examples' images (served at /examples/). */
export const EXAMPLES_DIR = path.join('public', 'examples')

/** The image file of a POST example, named by its request so a changed request needs a new image. */
export function exampleFile(request: GeneratorExampleDefinition['request']): string {
  return `${createHash('sha256').update(JSON.stringify(request)).digest('base64url').slice(0, 16)}.gif`
}

export function loadGeneratorsFile(contentDir: string): GeneratorsFile {
  return readDataFile(path.join(contentDir, 'generators.json'), generatorsFileSchema, DataFileError)
}

/** The fonts the generator pages offer, with the scripts each one covers. */
export interface GeneratorFonts {
  /** The scrolling-text and countdown generators' fonts, under their select headings. */
  gif: FontOptionGroup[]
  /** The text-image generator's fonts by style group. */
  textImage: Record<TextStyleGroup, FontOption[]>
}

export interface GeneratorContent {
  /** A generator page's copy with example URLs, and the cards of the other generators. */
  page(name: string): GeneratorPageBase
  file: GeneratorsFile
  fonts: GeneratorFonts
}

/** GET examples are shown by their image service URL; POST examples by the image drawn beforehand. */
export function loadGeneratorContent(contentDir: string): GeneratorContent {
  const file = loadGeneratorsFile(contentDir)
  const pages = new Map<string, GeneratorPageBase>()
  for (const card of file.cards) {
    const copy = file.pages[card.name]
    if (!copy) continue
    const items = copy.examples.items.map(({ request, ...example }) => {
      const src = request.method === 'GET' ? `/giffer/${request.path}?${new URLSearchParams(request.query)}` : `/examples/${exampleFile(request)}`
      return { ...example, src }
    })
    pages.set(card.name, { content: { ...copy, examples: { title: copy.examples.title, items } }, others: file.cards.filter((other) => other.name !== card.name), labels: file.labels })
  }
  return {
    file,
    fonts: loadGeneratorFonts(contentDir),
    page(name) {
      const page = pages.get(name)
      if (!page) throw new Error(`data/generators.json has no page "${name}"`)
      return page
    },
  }
}

const GIF_FONT_GROUPS: [FontGroup, string][] = [
  ['general', 'General'],
  ['monospaced', 'Monospaced'],
  ['seasonal', 'Seasonal'],
]

/**
 * The generator pages' font lists: fonts.json of the content folder, with what each font's files
 * cover (generated/font-coverage.json). The fonts' files ship with the image service, which draws
 * with its own list: a content folder naming a font it does not have stops the start, rather than
 * offering visitors a font every render would refuse.
 */
function loadGeneratorFonts(contentDir: string): GeneratorFonts {
  const catalogue = loadFontCatalogue(contentDir)
  const undrawable = catalogue.filter((font) => isPickable(font) && !findFont(font.id)).map((font) => font.id)
  if (undrawable.length) throw new DataFileError(`${path.join(contentDir, 'fonts.json')} names fonts the image service does not ship: ${undrawable.join(', ')}`)
  const coverage: FontCoverage = loadFontCoverage(contentDir, catalogue)
  const options = (group: FontGroup) =>
    fontsInGroup(group, catalogue).map((font: FontEntry): FontOption => ({ id: font.id, family: font.family, weights: [...font.weights], scripts: fontScripts(font, coverage) }))
  return {
    gif: GIF_FONT_GROUPS.map(([group, label]) => ({ label, fonts: options(group) })),
    textImage: { calligraphy: options('calligraphy'), gothic: options('gothic'), themed: options('themed') },
  }
}
