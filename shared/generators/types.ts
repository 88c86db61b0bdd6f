/** What every generator page receives from its loader, besides its own settings. */
import type { FontScript } from './font-coverage.js'
import type { GeneratorCard, GeneratorExample, GeneratorLabels, GeneratorPageCopy } from './schema.js'

export type { GeneratorCard, GeneratorExample } from './schema.js'

/** A generator page's copy, its examples resolved to image URLs. */
export type GeneratorPageContent = Omit<GeneratorPageCopy, 'examples'> & {
  examples: { title: string; items: GeneratorExample[] }
}

export interface GeneratorPageBase {
  content: GeneratorPageContent
  /** Cards of the other generators, in the site's order. */
  others: GeneratorCard[]
  labels: GeneratorLabels
}

/** A font the GIF generators offer, with the weights it is shipped in. */
export interface FontOption {
  id: string
  family: string
  weights: number[]
  /** The alphabets it draws with its own letters (read from its files). */
  scripts: FontScript[]
}

/** Fonts under a heading of the font select (General, Monospaced, Seasonal). */
export interface FontOptionGroup {
  label: string
  fonts: FontOption[]
}
