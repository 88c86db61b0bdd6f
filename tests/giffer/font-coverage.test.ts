/**
 * Font coverage: data/generated/font-coverage.json says what the shipped files' character maps say,
 * data/fonts.json declares no subset its files do not cover (and leaves none out), and the
 * groups offer Cyrillic in the shares the generators promise.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { catalogueCoverage, coverageFilePath, coverageFileText, fontCoverage, subsetDisagreements } from '../../scripts/lib/font-coverage.js'
import { fontScripts, lettersMissing, loadFontCoverage } from '../../server/giffer/font-coverage.js'
import { findFont, fontFilePath, fontsInGroup, pickableFonts, type FontEntry, type FontGroup } from '../../server/giffer/fonts.js'
import { projectRoot } from '../../server/project-root.js'
import {
  FONT_SCRIPTS,
  fontCovers,
  fontsCovering,
  missingLettersMessage,
  missingScripts,
  noLettersMessage,
  scriptOfLetter,
  scriptsOf,
} from '../../shared/generators/font-coverage.js'

const computed = await catalogueCoverage(pickableFonts, fontFilePath)

describe('coverage read from the font files', () => {
  it('data/generated/font-coverage.json is what the shipped files say (npm run build:fonts regenerates it)', () => {
    expect(readFileSync(coverageFilePath, 'utf8')).toBe(coverageFileText(computed))
  })

  it('every declared script subset is covered by the files, and every covered script is declared', () => {
    const problems = pickableFonts.flatMap((font) => subsetDisagreements(font, computed[font.id]!))
    expect(problems).toEqual([])
  })

  it('ships the Cyrillic subset of every font whose package has one', () => {
    const leftOut = pickableFonts.filter((font) => {
      const files = readdirSync(path.join(projectRoot, 'node_modules', font.package, 'files'))
      return font.weights.every((weight) => files.includes(`${font.id}-cyrillic-${weight}-normal.woff2`)) && !font.subsets.includes('cyrillic')
    })
    expect(leftOut.map((font) => font.id)).toEqual([])
  })

  it('finds a declared subset the files do not cover, and a covered script left undeclared', async () => {
    const lato = findFont('lato')!
    const claimsCyrillic: FontEntry = { ...lato, subsets: [...lato.subsets, 'cyrillic'] }
    // The claim is checked against Lato's real files (its package has no Cyrillic).
    const latoCoverage = await fontCoverage(lato, (subset, weight) => fontFilePath(lato, subset, weight))
    expect(latoCoverage.scripts).toEqual(['latin'])
    expect(subsetDisagreements(claimsCyrillic, latoCoverage)).toEqual([
      'lato: declares the cyrillic subset, but its files lack letters of the cyrillic alphabet',
    ])
    const roboto = findFont('roboto')!
    const withoutCyrillic: FontEntry = { ...roboto, subsets: roboto.subsets.filter((subset) => subset !== 'cyrillic') }
    expect(subsetDisagreements(withoutCyrillic, computed.roboto!)).toEqual([
      'roboto: its files cover cyrillic, but data/fonts.json does not list the cyrillic subset',
    ])
  })

  it('counts a script from the files shipped, not from the package', async () => {
    const roboto = findFont('roboto')!
    expect(computed.roboto!.scripts).toContain('cyrillic')
    const latinOnly = await fontCoverage({ ...roboto, subsets: ['latin'] }, (subset, weight) => fontFilePath(roboto, subset, weight))
    expect(latinOnly.scripts).toEqual(['latin'])
    expect(latinOnly.letters.some(([first, last]) => first <= 0x43f && 0x43f <= last)).toBe(false)
  })
})

describe('Cyrillic in every group', () => {
  const cyrillic = (group: FontGroup) => fontsInGroup(group).filter((font) => fontScripts(font).includes('cyrillic')).length

  it('keeps the group sizes', () => {
    expect(fontsInGroup('calligraphy')).toHaveLength(36)
    expect(fontsInGroup('gothic')).toHaveLength(42)
    expect(fontsInGroup('themed')).toHaveLength(39)
    expect(fontsInGroup('general')).toHaveLength(17)
    expect(fontsInGroup('monospaced')).toHaveLength(12)
    expect(fontsInGroup('seasonal')).toHaveLength(9)
  })

  it('draws "Привет, мир" in its own face in at least 18 calligraphy, 21 gothic and 20 themed fonts', () => {
    const own = (group: FontGroup) => fontsInGroup(group).filter((font) => lettersMissing(font, 'Привет, мир').length === 0).length
    expect(own('calligraphy')).toBeGreaterThanOrEqual(18)
    expect(own('gothic')).toBeGreaterThanOrEqual(21)
    expect(own('themed')).toBeGreaterThanOrEqual(20)
  })

  it('has Cyrillic in at least half of each text-image group and two thirds of each GIF list', () => {
    for (const group of ['calligraphy', 'gothic', 'themed'] as const) expect(cyrillic(group) * 2, group).toBeGreaterThanOrEqual(fontsInGroup(group).length)
    for (const group of ['general', 'monospaced', 'seasonal'] as const) expect(cyrillic(group) * 3, group).toBeGreaterThanOrEqual(fontsInGroup(group).length * 2)
  })

  it('says what kind of face each Gothic font is, Slavonic book hands among them', () => {
    const styles = new Set(fontsInGroup('gothic').map((font) => font.gothicStyle))
    expect(styles.has(undefined)).toBe(false)
    expect(fontsInGroup('gothic').filter((font) => font.gothicStyle === 'slavonic').every((font) => fontScripts(font).includes('cyrillic'))).toBe(true)
    expect(fontsInGroup('gothic').filter((font) => font.gothicStyle === 'slavonic').length).toBeGreaterThanOrEqual(4)
  })
})

describe('lettersMissing (exact, from the character maps)', () => {
  it('lists the letters a font lacks, once each, and ignores digits, punctuation and emoji', () => {
    const lato = findFont('lato')!
    expect(lettersMissing(lato, 'Hello, мир! 123 ★ 🙂 мир')).toEqual(['м', 'и', 'р'])
    expect(lettersMissing(findFont('roboto')!, 'Hello, мир! Їжак')).toEqual([])
  })

  it('knows rarer letters one by one: a Latin-only font without Latin Extended lacks ő', () => {
    const latinOnly = pickableFonts.find((font) => !font.subsets.includes('latin-ext') && fontScripts(font).includes('latin'))!
    expect(latinOnly, 'a font shipping only the basic Latin subset').toBeDefined()
    expect(lettersMissing(latinOnly, 'Café')).toEqual([])
    expect(lettersMissing(latinOnly, 'Győr')).toEqual(['ő'])
  })
})

describe('shared/font-coverage (browser-safe helpers)', () => {
  it('finds the scripts of the letters in a text', () => {
    expect(scriptsOf('Hello')).toEqual(['latin'])
    expect(scriptsOf('Привет, world')).toEqual(['latin', 'cyrillic'])
    expect(scriptsOf('Καλημέρα 2025')).toEqual(['greek'])
    expect(scriptsOf('123 ★ 🙂 — 你好')).toEqual([])
    expect(scriptOfLetter('ё')).toBe('cyrillic')
    expect(scriptOfLetter('1')).toBeNull()
    expect(FONT_SCRIPTS).toEqual(['latin', 'cyrillic', 'greek'])
  })

  it('reads every ASCII character as the Unicode classes do (without using them)', () => {
    for (let code = 0; code < 0x80; code++) {
      const char = String.fromCharCode(code)
      expect(scriptOfLetter(char), `U+${code.toString(16)}`).toBe(/^\p{L}$/u.test(char) && /^\p{Script=Latin}$/u.test(char) ? 'latin' : null)
    }
    expect(scriptOfLetter('é')).toBe('latin')
    expect(scriptOfLetter('ß')).toBe('latin')
    expect(scriptOfLetter('Ω')).toBe('greek')
    expect(scriptOfLetter('µ')).toBeNull()
  })

  it('tells which fonts cover a text and filters a list', () => {
    const fonts = [
      { id: 'a', scripts: ['latin'] as const },
      { id: 'b', scripts: ['latin', 'cyrillic'] as const },
      { id: 'c', scripts: ['latin', 'cyrillic', 'greek'] as const },
    ]
    expect(fontCovers(fonts[0]!, 'Sale 50%')).toBe(true)
    expect(fontCovers(fonts[0]!, 'Скидка')).toBe(false)
    expect(missingScripts(fonts[0]!, scriptsOf('Скидка Ωmega'))).toEqual(['cyrillic', 'greek'])
    expect(fontsCovering(fonts, scriptsOf('Скидка 50%')).map((font) => font.id)).toEqual(['b', 'c'])
    expect(fontsCovering(fonts, scriptsOf('★ 50%')).map((font) => font.id)).toEqual(['a', 'b', 'c'])
  })

  it('words the notices', () => {
    expect(noLettersMessage(['cyrillic'])).toBe('No Cyrillic letters in this font')
    expect(noLettersMessage(['cyrillic', 'greek'])).toBe('No Cyrillic or Greek letters in this font')
    expect(missingLettersMessage(['ї'])).toBe('This font has no ї')
    expect(missingLettersMessage(['ї', 'ґ'])).toBe('This font has no ї or ґ')
    expect(missingLettersMessage(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toBe('This font has no a, b, c, d, e or f…')
  })
})

describe('the coverage table of a content folder', () => {
  it('is read from its generated/font-coverage.json, and refused when a pickable font has no entry', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'font-coverage-'))
    try {
      const file = path.join(folder, 'generated', 'font-coverage.json')
      mkdirSync(path.dirname(file))
      const table = JSON.parse(readFileSync(coverageFilePath, 'utf8')) as { fonts: Record<string, { scripts: string[] }> }
      const [font] = pickableFonts
      // Its own table answers for it, whatever the image service's says.
      writeFileSync(file, JSON.stringify({ fonts: { ...table.fonts, [font!.id]: { ...table.fonts[font!.id], scripts: ['greek'] } } }))
      expect(fontScripts(font!, loadFontCoverage(folder, pickableFonts))).toEqual(['greek'])
      const { [font!.id]: _dropped, ...others } = table.fonts
      writeFileSync(file, JSON.stringify({ fonts: others }))
      expect(() => loadFontCoverage(folder, pickableFonts)).toThrow(`${file} has no entry for ${font!.id}: run npm run build:fonts`)
      // Fonts users cannot pick (the fallback and icon helpers) need none.
      expect(() => loadFontCoverage(folder, [{ ...font!, groups: ['fallback'] }])).not.toThrow()
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
