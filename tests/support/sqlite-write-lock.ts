/**
 * A SQLite file's write lock held by another process (./sqlite-write-lock-process.ts), as a
 * second server process on the same machine holds it while it writes: this process's driver
 * waits on it as on any other writer, and it is let go on time whatever this process is doing.
 */
import { fork } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { projectRoot } from '../../server/project-root.js'

const PROCESS_SCRIPT = path.join(projectRoot, 'tests', 'support', 'sqlite-write-lock-process.ts')

/** Resolves once another process holds `file`'s write lock; `released` resolves once it has let it go, `holdMs` later, and exited. */
export async function writeLockInAnotherProcess(file: string, holdMs: number): Promise<{ released: Promise<void> }> {
  const child = fork(PROCESS_SCRIPT, [file, String(holdMs)], { cwd: projectRoot, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const released = once(child, 'exit').then(([code]) => {
    if (code !== 0) throw new Error(`the process holding the write lock exited with ${code}`)
  })
  const locked = once(child, 'message').then(([message]) => {
    if (message !== 'locked') throw new Error(`the process holding the write lock said ${JSON.stringify(message)}`)
  })
  await Promise.race([locked, released.then(() => Promise.reject(new Error('the process holding the write lock exited before it held it')))])
  return { released }
}
