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
const GIT_TIMEOUT_MS = 60_000
/** How long the earlier commit's build may take. */
const BUILD_TIMEOUT_MS = 10 * 60_000

export interface Worktree {
  dir: string
  remove(): Promise<void>
}

/** Removes a worktree, if any, saying so when it could not (for clean-ups that go on regardless). */
export async function removeOrWarn(tree: Worktree | null | undefined): Promise<void> {
  await tree?.remove().catch((error: Error) => console.warn(`git worktree remove: ${error.message}`))
}

/**
 * Git's own record of the worktree in `dir` (a folder under the repository's worktrees), read from
 * the worktree's `.git` file; undefined when there is none or it lies elsewhere.
 */
async function recordOf(dir: string, repo: string, signal?: AbortSignal): Promise<string | undefined> {
  const text = await readFile(path.join(dir, '.git'), 'utf8').catch(() => '')
  const written = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim()
  if (!written) return undefined
  const { stdout } = await exec('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: repo, timeout: GIT_TIMEOUT_MS, signal })
  const records = path.join(stdout.trim(), 'worktrees')
  // Git may write the path relative to the worktree.
  const record = path.resolve(dir, written)
  return path.dirname(record) === records ? record : undefined
}

/** A worktree of `ref` of the repository `repo` (this one by default) in `dir`, with `repo`'s node_modules linked in. */
export async function addWorktree(ref: string, dir: string, { repo = projectRoot, signal }: { repo?: string; signal?: AbortSignal } = {}): Promise<Worktree> {
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
    await exec('git', ['worktree', 'add', '--detach', dir, ref], { cwd: repo, timeout: GIT_TIMEOUT_MS, signal })
    await symlink(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir')
  } catch (error) {
    // Half made (a git stopped midway leaves its folder and a locked record): taken away by hand.
    await removeByHand().catch((failure: Error) => console.warn(`git worktree remove: ${failure.message}`))
    throw error
  }
  return { dir, remove }
}

/** Runs `node <args>` in `cwd`, its output to this process's, ending it on `signal`; resolves with its exit code. */
function runNode(args: string[], cwd: string, signal?: AbortSignal): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'], timeout: BUILD_TIMEOUT_MS, signal })
    child.once('error', reject)
    child.once('exit', (code) => resolve(code))
  })
}

/**
 * A worktree of `ref` in a new temporary folder, with the site built in it (scripts/build.ts, ten
 * minutes at most). `signal` stops it midway (a run interrupted): the worktree is then removed.
 */
export async function addBuiltWorktree(ref: string, label: string, signal?: AbortSignal): Promise<Worktree> {
  const tree = await addWorktree(ref, fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `${label}-`))), { signal })
  try {
    const code = await runNode(['node_modules/tsx/dist/cli.mjs', 'scripts/build.ts'], tree.dir, signal)
    if (code !== 0) throw new Error(`the build of ${ref} failed`)
    return tree
  } catch (error) {
    await removeOrWarn(tree)
    throw error
  }
}
