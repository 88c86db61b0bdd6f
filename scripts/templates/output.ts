/**
 * The folder a generator of scripts/templates/ works in: data/generated/ (or, for the store art,
 * public/stores/), unless `--out <folder>` names another. Generators that read earlier outputs
 * (the email renderer reads the template JSON and the pictures) read them from that folder too,
 * so a whole run can go to a temporary folder: tests/unit/generated-data.test.ts regenerates
 * there and compares with what is committed.
 */
import path from 'node:path'
import { generatedDir } from '../../server/project-root.js'

export function outputFolder(fallback: string = generatedDir, args: readonly string[] = process.argv.slice(2)): string {
  const at = args.indexOf('--out')
  if (at === -1) return fallback
  const folder = args[at + 1]
  if (!folder || folder.startsWith('--')) throw new Error('--out needs a folder: --out <folder>')
  return path.resolve(folder)
}
