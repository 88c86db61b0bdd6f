/**
 * An earlier build's checkout beside this one, for a before-and-after measure: a git worktree of
 * `ref` that shares this checkout's node_modules (the measures that use it compare builds whose
 * dependencies are the same). `remove` takes it away, its link to node_modules first (by hand when
 * git cannot), and fails when neither way could.
 */
import { execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import { readFile, rm, symlink, unlink } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { projectRoot } from '../../server/project-root.js'

const exec = promisify(execFile)
/** How long a git command may take before the measure gives up on it. */
export const GIT_TIMEOUT_MS = 60_000
/** How long the earlier commit's build may take. */
const BUILD_TIMEOUT_MS = 10 * 60_000
/** How long a stopped build has to end before it is killed. */
const STOP_GRACE_MS = 10_000

export interface Worktree {
  dir: string
  remove(): Promise<void>
}

/** Removes a worktree, if any, saying so when it could not (for clean-ups that go on regardless). */
export async function removeOrWarn(tree: Worktree | null | undefined): Promise<void> {
  await tree?.remove().catch((error: Error) => console.warn(`git worktree remove: ${error.message}`))
}

/** A path with its folders' symbolic links resolved, as git prints it; the last part may not exist yet. */
const realPath = (file: string) => path.join(fs.realpathSync(path.dirname(file)), path.basename(file))

/**
 * Git's own record of the worktree in `dir` (a folder directly in the repository's worktrees), read
 * from the worktree's `.git` file; undefined when there is none, it lies elsewhere or git cannot say.
 */
async function recordOf(dir: string, repo: string): Promise<string | undefined> {
  try {
    const written = /^gitdir: (.+)$/m.exec(await readFile(path.join(dir, '.git'), 'utf8'))?.[1]?.trim()
    if (!written) return undefined
    const { stdout } = await exec('git', ['rev-parse', '--git-common-dir'], { cwd: repo, timeout: GIT_TIMEOUT_MS })
    // Either may be written relative: git's folder to the repository, the record to the worktree.
    const records = path.join(fs.realpathSync(path.resolve(repo, stdout.trim())), 'worktrees')
    const record = realPath(path.resolve(dir, written))
    return path.dirname(record) === records ? record : undefined
  } catch {
    return undefined
  }
}

/**
 * A worktree of `ref` of the repository `repo` (this one by default) in `dir` (a folder that does
 * not exist yet, or an empty one), with `repo`'s node_modules linked in. `signal` stops it before it
 * is made (it is removed when it was half made).
 */
export async function addWorktree(ref: string, where: string, { repo = projectRoot, signal }: { repo?: string; signal?: AbortSignal } = {}): Promise<Worktree> {
  const dir = realPath(path.resolve(repo, where))
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) throw new Error(`${dir} is not empty: a worktree goes in a folder of its own`)
  const removeByHand = async () => {
    // Only this worktree's record: the repository's other worktrees are not ours to prune.
    const record = await recordOf(dir, repo)
    await rm(dir, { recursive: true, force: true })
    if (record) await rm(record, { recursive: true, force: true })
    const listed = await exec('git', ['worktree', 'list', '--porcelain'], { cwd: repo, timeout: GIT_TIMEOUT_MS })
    if (listed.stdout.split('\n').includes(`worktree ${dir}`)) throw new Error(`git still lists the worktree ${dir}`)
  }
  const remove = async () => {
    await unlink(path.join(dir, 'node_modules')).catch(() => {})
    try {
      await exec('git', ['worktree', 'remove', '--force', dir], { cwd: repo, timeout: GIT_TIMEOUT_MS })
    } catch {
      await removeByHand()
    }
  }
  try {
    signal?.throwIfAborted()
    // Not ended midway on `signal` (git would leave a locked record): it takes seconds.
    await exec('git', ['worktree', 'add', '--detach', dir, ref], { cwd: repo, timeout: GIT_TIMEOUT_MS })
    signal?.throwIfAborted()
    await symlink(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir')
  } catch (error) {
    // Half made, in a folder that was missing or empty: taken away by hand.
    await removeByHand().catch((failure: Error) => console.warn(`git worktree remove: ${failure.message}`))
    throw error
  }
  return { dir, remove }
}

/** Signals that end this process by default (Ctrl-C, a stop, a closed terminal). */
const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * Runs `node <args>` in `cwd`, its output to this process's; resolves with its exit code once it
 * has ended. On `signal`, or after BUILD_TIMEOUT_MS, it is stopped, and rejects once it is gone
 * (its files are then no longer being written).
 *
 * It runs in a process group of its own, so that a stop reaches the processes it starts too. The
 * terminal's Ctrl-C then no longer reaches it: a signal this process would die of (no other
 * listener handles it) kills the group first, and should this process end anyhow, so does it.
 */
function runNode(args: string[], cwd: string, signal?: AbortSignal): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error(`stopped by ${String(signal.reason)}`))
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'], detached: true })
    let killer: NodeJS.Timeout | undefined
    let timedOut = false
    const signalGroup = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name)
      } catch {
        // Gone already.
      }
    }
    const stop = () => {
      signalGroup('SIGTERM')
      // One that will not stop is killed, so that the wait for it ends.
      killer ??= setTimeout(() => signalGroup('SIGKILL'), STOP_GRACE_MS)
    }
    const timer = setTimeout(() => {
      timedOut = true
      stop()
    }, BUILD_TIMEOUT_MS)
    const onExit = () => signalGroup('SIGKILL')
    const onSignal = (name: NodeJS.Signals) => {
      // Another listener (a script's own clean-up) handles it, stopping this through `signal`.
      if (process.listenerCount(name) > 1) return
      signalGroup('SIGKILL')
      cleanUp()
      // Nothing else listens: this process ends as the signal would have ended it.
      process.kill(process.pid, name)
    }
    const cleanUp = () => {
      clearTimeout(timer)
      clearTimeout(killer)
      signal?.removeEventListener('abort', stop)
      process.off('exit', onExit)
      for (const name of ENDING_SIGNALS) process.off(name, onSignal)
    }
    signal?.addEventListener('abort', stop, { once: true })
    process.on('exit', onExit)
    for (const name of ENDING_SIGNALS) process.on(name, onSignal)
    child.once('error', (error) => {
      cleanUp()
      reject(error)
    })
    child.once('close', (code) => {
      // Stopped: whatever of its group outlived the leader goes too, before its files are removed.
      if (signal?.aborted || timedOut) signalGroup('SIGKILL')
      cleanUp()
      if (signal?.aborted) reject(signal.reason instanceof Error ? signal.reason : new Error(`stopped by ${String(signal.reason)}`))
      else if (timedOut) reject(new Error(`stopped after ${BUILD_TIMEOUT_MS / 60_000} minutes`))
      else resolve(code)
    })
  })
}

/**
 * A worktree of `ref` in a new temporary folder, with the site built in it (scripts/build.ts, ten
 * minutes at most). `signal` stops it midway (a run interrupted): the worktree is then removed.
 */
export async function addBuiltWorktree(ref: string, label: string, signal?: AbortSignal): Promise<Worktree> {
  const tree = await addWorktree(ref, fs.mkdtempSync(path.join(os.tmpdir(), `${label}-`)), { signal })
  try {
    const code = await runNode(['node_modules/tsx/dist/cli.mjs', 'scripts/build.ts'], tree.dir, signal)
    if (code !== 0) throw new Error(`the build of ${ref} failed`)
    return tree
  } catch (error) {
    await removeOrWarn(tree)
    throw error
  }
}
