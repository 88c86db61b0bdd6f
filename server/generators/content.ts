/**
 * The generator pages' copy and examples (data/generators.json) and the fonts the GIF generators
 * offer (data/fonts.json through the image service's catalogue), read once at start-up.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { FontOption, FontOptionGroup, GeneratorPageBase } from '../../shared/generators/types.js'
import type { TextStyleGroup } from '../../shared/generators/text-image/text-image.js'
import { generatorsFileSchema, type GeneratorExampleDefinition, type GeneratorsFile } from '../../shared/generators/schema.js'
import { fontScripts } from '../giffer/font-coverage.js'
import { fontsInGroup, type FontEntry, type FontGroup } from '../giffer/fonts.js'

/** Where scripts/render-generator-examples.ts keeps the POST examples' images (served at /examples/). */
export const EXAMPLES_DIR = path.join('public', 'examples')

/** The image file of a POST example, named by its request so a changed request needs a new image. */
export function exampleFile(request: GeneratorExampleDefinition['request']): string {
  return `${createHash('sha256').update(JSON.stringify(request)).digest('base64url').slice(0, 16)}.gif`
}

export function loadGeneratorsFile(dataDir: string): GeneratorsFile {
  return generatorsFileSchema.parse(JSON.parse(fs.readFileSync(path.join(dataDir, 'generators.json'), 'utf8')))
}

export interface GeneratorContent {
  /** A generator page's copy with example URLs, and the cards of the other generators. */
  page(name: string): GeneratorPageBase
  file: GeneratorsFile
}

/** GET examples are shown by their image service URL; POST examples by the image drawn beforehand. */
export function loadGeneratorContent(dataDir: string): GeneratorContent {
  const file = loadGeneratorsFile(dataDir)
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
    page(name) {
      const page = pages.get(name)
      if (!page) throw new Error(`data/generators.json has no page "${name}"`)
      return page
    },
  }
}

/** The fonts of the scrolling-text and countdown generators, under their select headings. */
export function gifFontGroups(): FontOptionGroup[] {
  const groups: [FontGroup, string][] = [
    ['general', 'General'],
    ['monospaced', 'Monospaced'],
    ['seasonal', 'Seasonal'],
  ]
  return groups.map(([group, label]) => ({ label, fonts: fontsInGroup(group).map(fontOption) }))
}

const fontOption = (font: FontEntry): FontOption => ({ id: font.id, family: font.family, weights: [...font.weights], scripts: fontScripts(font) })

/** The text-image generator's fonts by style group. */
export function textImageFonts(): Record<TextStyleGroup, FontOption[]> {
  return {
    calligraphy: fontsInGroup('calligraphy').map(fontOption),
    gothic: fontsInGroup('gothic').map(fontOption),
    themed: fontsInGroup('themed').map(fontOption),
  }
}
