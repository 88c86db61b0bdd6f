/**
 * `npm run build:fonts`: copies the woff2 files the giffer renders with from the @fontsource
 * packages into dist/fonts/{id}/, only the weights and subsets data/fonts.json lists, then reads
 * the copies' character maps into data/generated/font-coverage.json (which scripts each font draws with
 * its own glyphs).
 */
import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { builtFontsDir, fontCatalogue, fontFileName, pickableFonts } from '../server/giffer/fonts.js'
import { projectRoot } from '../server/project-root.js'
import { catalogueCoverage, coverageFilePath, coverageFileText, subsetDisagreements } from './lib/font-coverage.js'

async function copyFonts(): Promise<void> {
  await rm(builtFontsDir, { recursive: true, force: true })
  let files = 0
  let bytes = 0
  const missing: string[] = []
  for (const font of fontCatalogue) {
    const dir = path.join(builtFontsDir, font.id)
    await mkdir(dir, { recursive: true })
    for (const subset of font.subsets) {
      for (const weight of font.weights) {
        const name = fontFileName(font, subset, weight)
        const from = path.join(projectRoot, 'node_modules', font.package, 'files', name)
        try {
          await copyFile(from, path.join(dir, name))
          bytes += (await stat(from)).size
          files++
        } catch {
          missing.push(`${font.package}/files/${name}`)
        }
      }
    }
  }
  if (missing.length) {
    throw new Error(`font files missing (run npm install):\n  ${missing.join('\n  ')}`)
  }
  console.log(`fonts: ${files} files, ${(bytes / 1024 / 1024).toFixed(1)} MB, ${fontCatalogue.length} families → ${path.relative(projectRoot, builtFontsDir)}`)
}

/** Rewrites data/generated/font-coverage.json when the files say something new; warns where data/fonts.json disagrees with them. */
async function writeCoverage(): Promise<void> {
  const coverage = await catalogueCoverage(pickableFonts, (font, subset, weight) => path.join(builtFontsDir, font.id, fontFileName(font, subset, weight)))
  const text = coverageFileText(coverage)
  const before = await readFile(coverageFilePath, 'utf8').catch(() => '')
  if (text !== before) await writeFile(coverageFilePath, text)
  const cyrillic = pickableFonts.filter((font) => coverage[font.id]!.scripts.includes('cyrillic')).length
  console.log(`font coverage: ${cyrillic} of ${pickableFonts.length} fonts draw Cyrillic → ${path.relative(projectRoot, coverageFilePath)}${text === before ? ' (unchanged)' : ''}`)
  const problems = pickableFonts.flatMap((font) => subsetDisagreements(font, coverage[font.id]!))
  for (const problem of problems) console.warn(`warning: ${problem}`)
}

await copyFonts()
await writeCoverage()
