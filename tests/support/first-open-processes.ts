/**
 * Several processes sharing one first-open store (./first-open-process.ts), started together and
 * held at a barrier: every one opens its store and says it is ready, then each is sent its command
 * with one instant, a moment ahead, at which all start it, so that their calls overlap.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { projectRoot } from '../../server/project-root.js'
import type { FirstOpenAnswer, FirstOpenCommand, FirstOpenProcessSetup, FirstOpenStart } from './first-open-process.js'

const PROCESS_SCRIPT = path.join(projectRoot, 'tests', 'support', 'first-open-process.ts')
/** Every process starts its command this long after the last one said it is ready: time for the message to reach each. */
const START_AFTER_READY_MS = 100

/** Every process's answer to its command (`commands[i]` goes to `setups[i]`), or a rejection once `timeoutMs` have passed. */
export async function runFirstOpenProcesses(setups: FirstOpenProcessSetup[], commands: FirstOpenCommand[], timeoutMs: number): Promise<FirstOpenAnswer[]> {
  const children: ChildProcess[] = setups.map((setup) =>
    fork(PROCESS_SCRIPT, [JSON.stringify(setup)], { cwd: projectRoot, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  )
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`first-open processes: no answer within ${timeoutMs} ms`)), timeoutMs)
  })
  // Each rejects when its process exits, which after its answer is no fault: handled here, raced below.
  const exits = children.map((child) => once(child, 'exit').then(([code]) => Promise.reject(new Error(`a first-open process exited with ${code}`))))
  for (const exit of exits) exit.catch(() => undefined)
  /** The next message of the `i`th process, or a rejection when it exits first. */
  const message = (i: number) => Promise.race([once(children[i]!, 'message').then(([value]) => value as unknown), exits[i]!])
  try {
    await Promise.race([Promise.all(children.map(async (_, i) => expectReady(await message(i)))), late])
    const answers = Promise.all(children.map((_, i) => message(i) as Promise<FirstOpenAnswer>))
    const startAt = Date.now() + START_AFTER_READY_MS
    children.forEach((child, i) => child.send({ command: commands[i]!, startAt } satisfies FirstOpenStart))
    return await Promise.race([answers, late])
  } finally {
    clearTimeout(timer)
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  }
}

function expectReady(message: unknown): void {
  if (message !== 'ready') throw new Error(`a first-open process said ${JSON.stringify(message)} before it was ready`)
}
