/**
 * An earlier build's checkout beside this one, for a before-and-after measure: a git worktree of
 * `ref` that shares this checkout's node_modules (the measures that use it compare builds whose
 * dependencies are the same). `remove` takes it away, its link to node_modules first (by hand when
 * git cannot), and fails when neither way could.
 */
import { execFile, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { readFile, rm, symlink, unlink } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { projectRoot } from '../../server/project-root.js'

const exec = promisify(execFile)
/** How long a git command may take before the measure gives up on it. */
const GIT_TIMEOUT_MS = 60_000

export interface Worktree {
  dir: string
  remove(): Promise<void>
}

/** Removes a worktree, if any, saying so when it could not (for clean-ups that go on regardless). */
export async function removeOrWarn(tree: Worktree | null | undefined): Promise<void> {
  await tree?.remove().catch((error: Error) => console.warn(`git worktree remove: ${error.message}`))
}

export async function addWorktree(ref: string, dir: string): Promise<Worktree> {
  await exec('git', ['worktree', 'add', '--detach', dir, ref], { cwd: projectRoot, timeout: GIT_TIMEOUT_MS, killSignal: 'SIGKILL' })
  const remove = async () => {
    await unlink(path.join(dir, 'node_modules')).catch(() => {})
    // git's own record of this worktree, for taking it away by hand (and nothing else's).
    const record = await readFile(path.join(dir, '.git'), 'utf8').then((text) => /^gitdir: (.+)$/m.exec(text)?.[1]?.trim(), () => undefined)
    try {
      // A git that runs out of time is killed outright, and answers once it is gone.
      await exec('git', ['worktree', 'remove', '--force', dir], { cwd: projectRoot, timeout: GIT_TIMEOUT_MS, killSignal: 'SIGKILL' })
    } catch {
      // Taken away by hand instead: the folder, then git's record of it.
      await rm(dir, { recursive: true, force: true })
      if (record && path.basename(path.dirname(record)) === 'worktrees') await rm(record, { recursive: true, force: true })
    }
  }
  try {
    await symlink(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir')
  } catch (error) {
    await removeOrWarn({ dir, remove })
    throw error
  }
  return { dir, remove }
}

/** A worktree of `ref` in a new temporary folder, with the site built in it (scripts/build.ts, ten minutes at most). */
export async function addBuiltWorktree(ref: string, label: string): Promise<Worktree> {
  const tree = await addWorktree(ref, fs.mkdtempSync(path.join(os.tmpdir(), `${label}-`)))
  const built = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/build.ts'], { cwd: tree.dir, stdio: ['ignore', 'ignore', 'inherit'], timeout: 10 * 60_000 })
  if (built.status !== 0) {
    await removeOrWarn(tree)
    throw new Error(`the build of ${ref} failed`)
  }
  return tree
}
