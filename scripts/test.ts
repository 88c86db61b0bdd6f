/**
 * `npm test`: every check, one phase after another, stopping at the first that fails: the
 * typecheck, the tools the tests start (ensure-tools), vitest, the build, and the browser tests
 * (with the browser they need). Ends with one line giving each phase's time, which CI prints too.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { projectRoot } from '../server/project-root.js'

const bin = (file: string) => path.join(projectRoot, 'node_modules', file)
const TSX = bin('tsx/dist/cli.mjs')

interface Phase {
  name: string
  steps: string[][]
}

const PHASES: Phase[] = [
  { name: 'typecheck', steps: [[bin('typescript/bin/tsc'), '--noEmit']] },
  { name: 'tools', steps: [[TSX, 'scripts/ensure-tools.ts']] },
  { name: 'vitest', steps: [[bin('vitest/vitest.mjs'), 'run']] },
  { name: 'build', steps: [[TSX, 'scripts/build.ts']] },
  { name: 'browser tests', steps: [[TSX, 'scripts/ensure-browser.ts'], [bin('@playwright/test/cli.js'), 'test']] },
]

/** Runs one step with Node, its output the terminal's; resolves with its exit code (a signal counts as a failure). */
function run(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: 'inherit' })
    child.on('error', () => resolve(1))
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
const times: string[] = []
const start = performance.now()
let failed: string | null = null
for (const phase of PHASES) {
  const began = performance.now()
  let code = 0
  for (const step of phase.steps) {
    code = await run(step)
    if (code !== 0) break
  }
  times.push(`${phase.name} ${seconds(performance.now() - began)}`)
  if (code !== 0) {
    failed = phase.name
    break
  }
}
console.log(`\nnpm test ${failed ? `FAILED in ${failed}` : 'passed'}: ${times.join(', ')}; total ${seconds(performance.now() - start)}`)
process.exitCode = failed ? 1 : 0
