/**
 * `npm test`: every check: the typecheck, the tools the tests start (ensure-tools), vitest, the
 * build, and the browser tests (with the browser they need), stopping at the first that fails.
 * The typecheck only reads the sources, so it runs beside the tools and vitest (one core of its
 * own for a few seconds) and the build waits for its answer; the other phases run one after
 * another. Ends with one line giving each phase's time, which CI prints too.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { projectRoot } from '../server/project-root.js'

const bin = (file: string) => path.join(projectRoot, 'node_modules', file)
const TSX = bin('tsx/dist/cli.mjs')

interface Phase {
  name: string
  steps: string[][]
}

const TYPECHECK: Phase = { name: 'typecheck', steps: [[bin('typescript/bin/tsc'), '--noEmit']] }
/** Run in turn, while the typecheck runs beside the first of them. */
const BESIDE_TYPECHECK: Phase[] = [
  { name: 'tools', steps: [[TSX, 'scripts/ensure-tools.ts']] },
  { name: 'vitest', steps: [[bin('vitest/vitest.mjs'), 'run']] },
]
const AFTER_TYPECHECK: Phase[] = [
  { name: 'build', steps: [[TSX, 'scripts/build.ts']] },
  { name: 'browser tests', steps: [[TSX, 'scripts/ensure-browser.ts'], [bin('@playwright/test/cli.js'), 'test']] },
]

/** How long a phase's process has to stop once another phase has failed. */
const STOP_GRACE_MS = 10_000
/** Processes running now, stopped when another phase fails. */
const running = new Set<ChildProcess>()
let failed: string | null = null

/** Runs one step with Node, its output the terminal's; resolves with its exit code (a signal counts as a failure). */
function run(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: 'inherit' })
    running.add(child)
    child.on('error', () => resolve(1))
    child.on('exit', (code, signal) => {
      running.delete(child)
      resolve(code ?? (signal ? 1 : 0))
    })
  })
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
const times = new Map<string, string>()

/** Runs a phase's steps in turn; a failure marks the run failed and stops whatever else runs. */
async function runPhase(phase: Phase): Promise<boolean> {
  const began = performance.now()
  let code = 0
  for (const step of phase.steps) {
    if (failed) return false
    code = await run(step)
    if (code !== 0) break
  }
  times.set(phase.name, seconds(performance.now() - began))
  if (code === 0 || failed) return code === 0
  failed = phase.name
  for (const child of running) {
    child.kill('SIGTERM')
    // A process that does not stop when asked is ended, so that the run never waits for it.
    setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS).unref()
  }
  return false
}

async function inTurn(phases: Phase[]): Promise<boolean> {
  for (const phase of phases) if (!(await runPhase(phase))) return false
  return true
}

const start = performance.now()
const [typed, tested] = await Promise.all([runPhase(TYPECHECK), inTurn(BESIDE_TYPECHECK)])
if (typed && tested) await inTurn(AFTER_TYPECHECK)
const line = [TYPECHECK, ...BESIDE_TYPECHECK, ...AFTER_TYPECHECK].flatMap((phase) => (times.has(phase.name) ? [`${phase.name} ${times.get(phase.name)}`] : []))
console.log(`\nnpm test ${failed ? `FAILED in ${failed}` : 'passed'}: ${line.join(', ')}; total ${seconds(performance.now() - start)}`)
process.exitCode = failed ? 1 : 0
