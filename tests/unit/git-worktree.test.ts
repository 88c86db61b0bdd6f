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
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
const listed = () => git('worktree', 'list', '--porcelain')
const recordOf = (dir: string) => path.resolve(dir, /^gitdir: (.+)$/m.exec(fs.readFileSync(path.join(dir, '.git'), 'utf8'))![1]!.trim())

beforeEach(() => {
  top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'worktree-test-')))
  repo = path.join(top, 'repo')
  fs.mkdirSync(path.join(repo, 'node_modules'), { recursive: true })
  fs.writeFileSync(path.join(repo, 'README'), 'a file\n')
  git('init', '--quiet')
  git('-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', 'commit', '--quiet', '--allow-empty', '-m', 'first')
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
    const dir = path.join(top, 'before')
    await expect(addWorktree('no-such-commit', dir, { repo })).rejects.toThrow()
    expect(fs.existsSync(dir)).toBe(false)
    expect(listed()).not.toContain(dir)
  })

  it('stops when told to, leaving nothing behind', async () => {
    const dir = path.join(top, 'before')
    await expect(addWorktree('HEAD', dir, { repo, signal: AbortSignal.abort() })).rejects.toThrow()
    expect(fs.existsSync(dir)).toBe(false)
    expect(listed()).not.toContain(dir)
  })
})
