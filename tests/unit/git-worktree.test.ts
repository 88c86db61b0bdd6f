import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { addWorktree } from '../../scripts/lib/git-worktree.js'

// A repository of its own for each test (one commit, a node_modules folder), in a folder removed
// afterwards whatever happens: the project's own repository is never touched.
let top: string
let repo: string
// Git as a fresh machine has it: none of the surrounding repository's variables.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')))
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
const gitWith = (input: string, ...args: string[]) => execFileSync('git', args, { cwd: repo, env, encoding: 'utf8', input }).trim()
const listed = () => git('worktree', 'list', '--porcelain')
const records = () => (fs.existsSync(path.join(repo, '.git', 'worktrees')) ? fs.readdirSync(path.join(repo, '.git', 'worktrees')) : [])
const recordOf = (dir: string) => path.resolve(dir, /^gitdir: (.+)$/m.exec(fs.readFileSync(path.join(dir, '.git'), 'utf8'))![1]!.trim())

beforeEach(() => {
  top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'worktree-test-')))
  repo = path.join(top, 'repo')
  fs.mkdirSync(path.join(repo, 'node_modules'), { recursive: true })
  fs.writeFileSync(path.join(repo, 'README'), 'a file\n')
  git('init', '--quiet')
  git('-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', 'commit', '--quiet', '--no-verify', '--allow-empty', '-m', 'first')
})

afterEach(() => fs.rmSync(top, { recursive: true, force: true }))

describe('a worktree for a before-and-after measure', () => {
  it('links node_modules and takes itself away with git', async () => {
    const tree = await addWorktree('HEAD', path.join(top, 'before'), { repo })
    expect(fs.realpathSync(path.join(tree.dir, 'node_modules'))).toBe(path.join(repo, 'node_modules'))
    expect(listed()).toContain(`worktree ${tree.dir}\n`)
    await tree.remove()
    expect(listed()).not.toContain(tree.dir)
    expect(fs.existsSync(tree.dir)).toBe(false)
  })

  it('when git will not remove it, takes away its folder and its own record, and no other worktree’s', async () => {
    const tree = await addWorktree('HEAD', path.join(top, 'before'), { repo })
    const record = recordOf(tree.dir)
    // A locked worktree is one `git worktree remove --force` refuses.
    git('worktree', 'lock', tree.dir)
    // Another worktree whose folder is gone for now (an unmounted disk): a prune would drop it.
    const other = path.join(top, 'other')
    git('worktree', 'add', '--detach', other, 'HEAD')
    const otherRecord = recordOf(other)
    fs.renameSync(other, `${other}-away`)
    await tree.remove()
    expect(fs.existsSync(tree.dir)).toBe(false)
    expect(fs.existsSync(record)).toBe(false)
    expect(listed()).not.toContain(tree.dir)
    expect(fs.existsSync(otherRecord)).toBe(true)
  })

  it('takes away a worktree it could not finish making', async () => {
    // A commit whose tree holds a file named node_modules: git makes the worktree, the link to
    // node_modules then fails.
    const blob = gitWith('a file\n', 'hash-object', '-w', '--stdin')
    const tree = gitWith(`100644 blob ${blob}\tnode_modules\n`, 'mktree')
    const commit = gitWith('', '-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit-tree', tree, '-m', 'half')
    const dir = path.join(top, 'before')
    await expect(addWorktree(commit, dir, { repo })).rejects.toThrow(/EEXIST/)
    expect(fs.existsSync(dir)).toBe(false)
    expect(listed()).not.toContain(dir)
    expect(records()).toEqual([])
  })

  it('stopped while git makes it, takes it away again', async () => {
    const dir = path.join(top, 'before')
    const stop = new AbortController()
    const adding = addWorktree('HEAD', dir, { repo, signal: stop.signal })
    stop.abort(new Error('stopped'))
    await expect(adding).rejects.toThrow('stopped')
    expect(fs.existsSync(dir)).toBe(false)
    expect(listed()).not.toContain(dir)
    expect(records()).toEqual([])
  })

  it('will not go into a folder that holds something', async () => {
    const dir = path.join(top, 'full')
    fs.mkdirSync(dir)
    fs.writeFileSync(path.join(dir, 'keep'), 'mine')
    await expect(addWorktree('HEAD', dir, { repo })).rejects.toThrow('is not empty')
    expect(fs.readFileSync(path.join(dir, 'keep'), 'utf8')).toBe('mine')
  })
})
