import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

function findProjectRoot(from: string): string {
  let dir = from
  for (;;) {
    // Bundled render workers live under node_modules/.cache: skip package.json files in there.
    if (existsSync(path.join(dir, 'package.json')) && !dir.split(path.sep).includes('node_modules')) return dir
    const parent = path.dirname(dir)
    if (parent === dir) return process.cwd()
    dir = parent
  }
}

/**
 * The checkout (or deployed app) root, where data/, public/ and dist/ live: found from this
 * file, whether it runs from sources, from dist/ or inside a bundled worker, and whatever the
 * working directory is.
 */
export const projectRoot = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)))

/**
 * The project's content folder, data/: copy and numbers of the site, JSON and Markdown read once
 * at start-up (server/site-data.ts). Read-only; local state goes to DATA_DIR (config `stateDir`).
 */
export const contentDir = path.join(projectRoot, 'data')

/**
 * The folder of data/ that scripts write from their sources (scripts/templates/, the font files):
 * template JSON, rendered emails and their pictures, card images, font coverage. Never edited by
 * hand; each file is rewritten by its generator (see docs/galleries.md and docs/emails.md).
 */
export const GENERATED = 'generated'
export const generatedDir = path.join(contentDir, GENERATED)
