/**
 * A live timer's time limit fires after a garbage collection. On Node 20 a composite of
 * AbortSignal.timeout() (AbortSignal.any) never aborts once a collection has run, so a request
 * waiting on one waited until its drawing ended. Checked in a process of its own, which may
 * collect at will.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { projectRoot } from '../../server/project-root.js'

const script = `
const { timeLimit } = await import('./server/giffer/live/answer.ts')
const gone = new AbortController()
let fired = 0
const limits = Array.from({ length: 100 }, () => timeLimit(gone.signal, 200))
for (const limit of limits) limit.signal.addEventListener('abort', () => fired++)
setTimeout(() => globalThis.gc(), 50)
setTimeout(() => { console.log(JSON.stringify({ fired })); limits.forEach((limit) => limit.clear()) }, 500)
`

it('aborts with its time limit even after a garbage collection', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: projectRoot, timeout: 30_000 })
  expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ fired: 100 })
})
