/**
 * What is committed under data/generated/ (and public/stores/) is what the generators of
 * scripts/templates/ make from their sources, byte for byte: the fast generators run again into a
 * temporary folder (`--out`) and every file is compared, so a hand-edited output, or a source
 * changed without running its generator, fails here naming the file and the command to run.
 * Not here: the card images (`npm run thumbnails` draws them in Chromium; the thumbnail manifest
 * test holds them to their templates' revisions) and font-coverage.json (the font coverage test
 * compares it with the font files).
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatedDir, projectRoot } from '../../server/project-root.js'

const run = promisify(execFile)
const tsx = path.join(projectRoot, 'node_modules', '.bin', 'tsx')
const scriptsDir = path.join(projectRoot, 'scripts', 'templates')
const storesDir = path.join(projectRoot, 'public', 'stores')

let scratch: string
/** The regenerated data/generated/ and public/stores/. */
let regenerated: string
let regeneratedStores: string

const generate = (script: string, out: string) => run(tsx, [path.join(scriptsDir, script), '--out', out], { cwd: projectRoot })

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'generated-data-'))
  regenerated = path.join(scratch, 'generated')
  regeneratedStores = path.join(scratch, 'stores')
  // The renderer reads the template JSON and the pictures the others write, as it does in data/generated/.
  await Promise.all([
    generate('generate-widget-templates.ts', regenerated),
    generate('generate-email-templates.ts', regenerated),
    generate('render-email-assets.ts', regenerated),
    generate('generate-store-art.ts', regeneratedStores),
  ])
  await generate('render-emails.ts', regenerated)
}, 180_000)

afterAll(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true })
})

/** Files of a folder (not of its sub-folders), by name. */
const filesIn = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name).sort() : [])

/**
 * The files that differ between the committed folder and the regenerated one, as
 * `name: edited|missing|left over`: `edited` when the bytes differ, `missing` when the generator
 * writes a file that is not committed, `left over` when a committed file is no longer written.
 */
function differences(committed: string, fresh: string, names = [...new Set([...filesIn(committed), ...filesIn(fresh)])].sort()): string[] {
  return names.flatMap((name) => {
    const [inRepo, made] = [path.join(committed, name), path.join(fresh, name)]
    if (!fs.existsSync(made)) return [`${name}: left over`]
    if (!fs.existsSync(inRepo)) return [`${name}: missing`]
    return fs.readFileSync(inRepo).equals(fs.readFileSync(made)) ? [] : [`${name}: edited`]
  })
}

describe('generated data is what its sources make', () => {
  it('regenerating the widget templates from their sources changes nothing', () => {
    const changed = differences(generatedDir, regenerated, ['widget-groups.json', 'widget-templates.json'])
    expect(changed, 'edit scripts/templates/widget-template-copy.ts, then run npx tsx scripts/templates/generate-widget-templates.ts').toEqual([])
  })

  it('regenerating the email templates from their sources changes nothing', () => {
    const changed = differences(generatedDir, regenerated, ['email-groups.json', 'email-templates.json'])
    expect(changed, 'edit scripts/templates/email-template-copy.ts, then run npx tsx scripts/templates/generate-email-templates.ts').toEqual([])
  })

  it('redrawing the email pictures from their drawings changes nothing', () => {
    const changed = differences(path.join(generatedDir, 'emails', 'assets'), path.join(regenerated, 'emails', 'assets'))
    expect(changed, 'edit scripts/templates/email-assets.ts, then run npx tsx scripts/templates/render-email-assets.ts').toEqual([])
  })

  it('rendering the emails again changes nothing', () => {
    expect(differences(path.join(generatedDir, 'emails'), path.join(regenerated, 'emails')), 'run npm run emails').toEqual([])
  })

  it('redrawing the store art changes nothing', () => {
    expect(differences(storesDir, regeneratedStores), 'edit data/home.json or scripts/templates/generate-store-art.ts, then run npx tsx scripts/templates/generate-store-art.ts').toEqual([])
  })

  it('keeps nothing in data/generated/ that no generator writes', () => {
    expect(fs.readdirSync(generatedDir).sort()).toEqual(['email-groups.json', 'email-templates.json', 'emails', 'font-coverage.json', 'thumbnails', 'widget-groups.json', 'widget-templates.json'])
  })
})
