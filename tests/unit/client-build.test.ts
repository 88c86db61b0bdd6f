import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { build } from 'rolldown'
import { afterAll, describe, expect, it } from 'vitest'
import { BROWSER_OUTPUT, browserInput } from '../../scripts/lib/client-build.js'
import { root } from '../../scripts/lib/server-process.js'

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
})
