import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { build } from 'rolldown'
import { afterAll, describe, expect, it } from 'vitest'
import { BROWSER_OUTPUT, browserInput, EAGER_COMPILE_HINT } from '../../scripts/lib/client-build.js'
import { root } from '../../scripts/lib/server-process.js'
import { SourceOrigins } from '../../scripts/lib/source-origins.js'

const dir = fs.mkdtempSync(path.join(root, 'client', '.client-build-test-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** Bundles one browser entry, written for the test beside the client's own, as the build does. */
async function bundle(source: string) {
  const file = path.join(dir, `entry-${Math.random().toString(36).slice(2)}.ts`)
  fs.writeFileSync(file, source)
  return bundleFile(file)
}

const bundleFile = (file: string, output = BROWSER_OUTPUT) =>
  build({ ...browserInput({ entry: path.relative(root, file) }), logLevel: 'silent', write: false, output })

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

  it('marks a file for compiling whole as it arrives on its first line, its source map moved down to match and its name hashed with it', async () => {
    const file = path.join(dir, 'entry-marked.ts')
    fs.writeFileSync(file, `console.log('compile-hint-marker')\n`)
    const plain = (await bundleFile(file)).output.find((item) => item.type === 'chunk')!
    const chunk = (await bundleFile(file, { ...BROWSER_OUTPUT, postBanner: EAGER_COMPILE_HINT })).output.find((item) => item.type === 'chunk')!
    expect(EAGER_COMPILE_HINT).toBe('//# allFunctionsCalledOnLoad')
    const lines = chunk.code.split('\n')
    expect(lines[0]).toBe(EAGER_COMPILE_HINT)
    expect(plain.code).not.toContain(EAGER_COMPILE_HINT)
    // A file served as immutable under its hashed name must not change under that name.
    expect(chunk.fileName).not.toBe(plain.fileName)
    // Where the marker is in the marked file still leads back to line 1 of the source.
    const line = lines.findIndex((text) => text.includes('compile-hint-marker'))
    expect(line).toBe(1)
    const mapFile = path.join(dir, 'hinted.js.map')
    fs.writeFileSync(mapFile, JSON.stringify(chunk.map))
    const origin = new SourceOrigins(root, () => mapFile).at('http://site/hinted.js', line, lines[line]!.indexOf('compile-hint-marker'))
    expect(origin.file).toMatch(/\/\.client-build-test-\w+\/entry-\w+\.ts$/)
    expect(origin.line).toBe(1)
  })
})
