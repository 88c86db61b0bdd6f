/**
 * `npm run build:fonts`: copies the woff2 files the giffer renders with from the @fontsource
 * packages into dist/fonts/{id}/, only the weights and subsets data/fonts.json lists.
 */
import { copyFile, mkdir, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { builtFontsDir, fontCatalogue, fontFileName } from '../server/giffer/fonts.js'
import { projectRoot } from '../server/project-root.js'

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

await copyFonts()
