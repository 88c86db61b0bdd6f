import { GlobalFonts } from '@napi-rs/canvas'
import { fontCatalogue, fontFilePath, type FontEntry } from '../fonts.js'

export type IconStyle = 'filled' | 'outlined'

// Each subset file is registered under its own family alias: Skia picks one typeface per family,
// so the subsets are listed one after another in the CSS font stack and fall back glyph by glyph.
const registered = new Set<string>()

function familyAlias(font: FontEntry, subset: string): string {
  return `${font.id}~${subset}`
}

/** Registers the font's subsets once per worker and returns their aliases in stack order. */
function register(font: FontEntry): string[] {
  const aliases = font.subsets.map((subset) => familyAlias(font, subset))
  if (registered.has(font.id)) return aliases
  for (const subset of font.subsets) {
    for (const weight of font.weights) {
      const file = fontFilePath(font, subset, weight)
      if (!GlobalFonts.registerFromPath(file, familyAlias(font, subset))) {
        throw new Error(`font file could not be registered: ${file}`)
      }
    }
  }
  registered.add(font.id)
  return aliases
}

function catalogueFont(id: string): FontEntry {
  const font = fontCatalogue.find((entry) => entry.id === id)
  if (!font) throw new Error(`font ${id} is missing from data/fonts.json`)
  return font
}

const fallbackFonts = fontCatalogue.filter((font) => font.groups.includes('fallback'))
const iconFonts: Record<IconStyle, FontEntry> = {
  filled: catalogueFont('material-icons'),
  outlined: catalogueFont('material-icons-outlined'),
}

function quote(families: string[]): string {
  return families.map((family) => `"${family}"`).join(', ')
}

/**
 * A CSS font-family list: the chosen font, then the shipped fallbacks (Noto Sans, symbols,
 * monochrome emoji), then, for dividers, the Material icon font whose code points the
 * generator's icon picker uses.
 */
export function fontStack(font: FontEntry, icons?: IconStyle): string {
  const families = [...register(font)]
  for (const fallback of fallbackFonts) families.push(...register(fallback))
  if (icons) families.push(...register(iconFonts[icons]))
  return quote(families)
}

export function cssFont(font: FontEntry, weight: number, sizePx: number, icons?: IconStyle): string {
  return `${weight} ${sizePx}px ${fontStack(font, icons)}`
}

/** The shipped fallback faces alone: for the service's own notices, never for a user's text. */
export function fallbackCssFont(weight: number, sizePx: number): string {
  return `${weight} ${sizePx}px ${quote(fallbackFonts.flatMap((font) => register(font)))}`
}
