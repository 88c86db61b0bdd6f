/**
 * Which alphabets a font draws with its own letters, and which a text needs. Plain code with no
 * server imports: the generator pages use it to filter their font lists to the fonts that cover
 * the visitor's text, and the image service uses it to refuse drawing a text in a font that
 * lacks its letters.
 *
 * A font's `scripts` come from its files' character maps (data/generated/font-coverage.json, generated at
 * build time), and reach the pages through the image service's `GET fonts` listing.
 */

export const FONT_SCRIPTS = ['latin', 'cyrillic', 'greek'] as const
export type FontScript = (typeof FONT_SCRIPTS)[number]

export const SCRIPT_NAMES: Readonly<Record<FontScript, string>> = { latin: 'Latin', cyrillic: 'Cyrillic', greek: 'Greek' }

function range(from: string, to: string): string {
  let out = ''
  for (let code = from.codePointAt(0)!; code <= to.codePointAt(0)!; code++) out += String.fromCodePoint(code)
  return out
}

/**
 * The letters a font must have, every one, to count as covering a script: the basic alphabets
 * (English; Russian with Ё; modern Greek with final sigma). Rarer letters (ї, ő) are checked one
 * by one where the exact character map is known (the image service).
 */
export const SCRIPT_ALPHABETS: Readonly<Record<FontScript, string>> = {
  latin: range('A', 'Z') + range('a', 'z'),
  cyrillic: range('А', 'я') + 'Ёё',
  greek: range('Α', 'Ρ') + range('Σ', 'Ω') + range('α', 'ω'),
}

const SCRIPT_PATTERNS: Readonly<Record<FontScript, RegExp>> = {
  latin: /^\p{Script=Latin}$/u,
  cyrillic: /^\p{Script=Cyrillic}$/u,
  greek: /^\p{Script=Greek}$/u,
}
const LETTER = /^\p{L}$/u

/**
 * The script of one character when it is a letter of a script fonts are checked for; null for
 * anything else (digits, punctuation, symbols, emoji, other scripts), which every font leaves to
 * the shared fallback faces alike.
 */
export function scriptOfLetter(char: string): FontScript | null {
  // ASCII without the Unicode classes: most texts are all ASCII, and the first use of each class
  // builds it from Unicode's tables (a few milliseconds on a slow phone, as a generator page starts).
  const code = char.codePointAt(0) ?? 0
  if (code < 0x80) return char.length === 1 && /[A-Za-z]/.test(char) ? 'latin' : null
  if (!LETTER.test(char)) return null
  for (const script of FONT_SCRIPTS) if (SCRIPT_PATTERNS[script].test(char)) return script
  return null
}

/** The checked scripts whose letters appear in the text, in `FONT_SCRIPTS` order. */
export function scriptsOf(text: string): FontScript[] {
  const found = new Set<FontScript>()
  for (const char of text) {
    const script = scriptOfLetter(char)
    if (script) found.add(script)
    if (found.size === FONT_SCRIPTS.length) break
  }
  return FONT_SCRIPTS.filter((script) => found.has(script))
}

export interface ScriptCoverage {
  readonly scripts: readonly FontScript[]
}

/** The scripts of a text (`scriptsOf(text)`, read once for a whole list of fonts) that the font does not cover. */
export function missingScripts(font: ScriptCoverage, needed: readonly FontScript[]): FontScript[] {
  return needed.filter((script) => !font.scripts.includes(script))
}

/** Whether the font draws every letter-bearing script of the text with its own glyphs. */
export function fontCovers(font: ScriptCoverage, text: string): boolean {
  return missingScripts(font, scriptsOf(text)).length === 0
}

/** The fonts of a list that cover a text's scripts (`scriptsOf(text)`), in their order. */
export function fontsCovering<T extends ScriptCoverage>(fonts: readonly T[], needed: readonly FontScript[]): T[] {
  return fonts.filter((font) => missingScripts(font, needed).length === 0)
}

function listed(words: string[], joiner: string): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${joiner} ${words.at(-1)}`
}

/** "No Cyrillic letters in this font", for a font that lacks whole alphabets of the text. */
export function noLettersMessage(scripts: readonly FontScript[]): string {
  return `No ${listed(scripts.map((script) => SCRIPT_NAMES[script]), 'or')} letters in this font`
}

/** "This font has no ї or ґ", for a font that has the alphabet but not some rarer letters. */
export function missingLettersMessage(letters: readonly string[]): string {
  const shown = letters.slice(0, 6)
  return `This font has no ${listed(shown, 'or')}${letters.length > shown.length ? '…' : ''}`
}
