import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { build } from 'rolldown'
import { afterAll, describe, expect, it } from 'vitest'
import { BROWSER_OUTPUT, browserInput, EAGER_COMPILE_HINT, markForEagerCompile } from '../../scripts/lib/client-build.js'
import { root } from '../../scripts/lib/server-process.js'
import { SourceOrigins } from '../../scripts/lib/source-origins.js'

const dir = fs.mkdtempSync(path.join(root, 'client', '.client-build-test-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** Bundles one browser entry, written for the test beside the client's own, as the build does. */
async function bundle(source: string) {
  const file = path.join(dir, `entry-${Math.random().toString(36).slice(2)}.ts`)
  fs.writeFileSync(file, source)
  return build({ ...browserInput({ entry: path.relative(root, file) }), logLevel: 'silent', write: false, output: BROWSER_OUTPUT })
}

describe('the browser build', () => {
  it('refuses client code that imports a server module, naming it and its importer', async () => {
    await expect(bundle(`import { loadConfig } from '../../server/process/config.js'\nconsole.log(loadConfig)\n`)).rejects.toThrow(/client code imports server-only module "\.\.\/\.\.\/server\/process\/config\.js" \(from client\/\.client-build-test-\w+\/entry-\w+\.ts\)/)
  })

  it('refuses zod, whose schemas validate on the server only', async () => {
    await expect(bundle(`import { z } from 'zod'\nconsole.log(z.string())\n`)).rejects.toThrow(/client code imports server-only module "zod"/)
  })

  it('builds TypeScript that imports shared code by its compiled name, for the browsers the site supports, minified', async () => {
    const { output } = await bundle(`import { groupDigits } from '../../shared/numbers.js'\ndocument.title = groupDigits(1234567)\n`)
    const chunks = output.filter((item) => item.type === 'chunk')
    expect(chunks).toHaveLength(1)
    const chunk = chunks[0]!
    expect(chunk.code.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2)
    expect(chunk.code).not.toMatch(/process\.env|: number/)
  })

  it('marks a built file for compiling whole as it arrives, on its first line, its source map moved down to match, once', async () => {
    const { output } = await bundle(`console.log('compile-hint-marker')\n`)
    const chunk = output.find((item) => item.type === 'chunk')!
    const file = path.join(dir, 'hinted.js')
    fs.writeFileSync(file, chunk.code)
    fs.writeFileSync(`${file}.map`, JSON.stringify(chunk.map))
    markForEagerCompile(file)
    markForEagerCompile(file)
    const lines = fs.readFileSync(file, 'utf8').split('\n')
    expect(lines[0]).toBe('//# allFunctionsCalledOnLoad')
    expect(lines[1]).not.toContain('allFunctionsCalledOnLoad')
    // Where the marker is in the marked file still leads back to line 1 of the source.
    const line = lines.findIndex((text) => text.includes('compile-hint-marker'))
    expect(line).toBe(1)
    const origin = new SourceOrigins(root, () => `${file}.map`).at('http://site/hinted.js', line, lines[line]!.indexOf('compile-hint-marker'))
    expect(origin.file).toMatch(/\/\.client-build-test-\w+\/entry-\w+\.ts$/)
    expect(origin.line).toBe(1)
  })

  it('marks a file without a source map too', () => {
    const file = path.join(dir, 'no-map.js')
    fs.writeFileSync(file, 'console.log(1)\n')
    markForEagerCompile(file)
    expect(fs.readFileSync(file, 'utf8')).toBe(`${EAGER_COMPILE_HINT}\nconsole.log(1)\n`)
  })
})
