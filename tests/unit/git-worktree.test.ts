import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { addWorktree } from '../../scripts/lib/git-worktree.js'
import { projectRoot } from '../../server/project-root.js'

const git = (...args: string[]) => execFileSync('git', args, { cwd: projectRoot, encoding: 'utf8' })
const listed = () => git('worktree', 'list', '--porcelain')
const made: string[] = []
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'worktree-test-'))
  made.push(dir)
  return dir
}

afterEach(() => {
  for (const dir of made.splice(0)) {
    if (listed().includes(dir)) git('worktree', 'remove', '--force', '--force', dir)
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

describe('a worktree for a before-and-after measure', () => {
  it('links node_modules and takes itself away with git', async () => {
    const tree = await addWorktree('HEAD', tempDir())
    expect(fs.realpathSync(path.join(tree.dir, 'node_modules'))).toBe(fs.realpathSync(path.join(projectRoot, 'node_modules')))
    expect(listed()).toContain(tree.dir)
    await tree.remove()
    expect(listed()).not.toContain(tree.dir)
    expect(fs.existsSync(tree.dir)).toBe(false)
  }, 60_000)

  it('when git will not remove it, takes away its folder and its own record, and no other worktree’s', async () => {
    const tree = await addWorktree('HEAD', tempDir())
    // A locked worktree is one `git worktree remove --force` refuses.
    git('worktree', 'lock', tree.dir)
    // Another worktree whose folder is gone for now (an unmounted disk): a prune would drop it.
    const other = tempDir()
    git('worktree', 'add', '--detach', other, 'HEAD')
    const otherRecord = /^gitdir: (.+)$/m.exec(fs.readFileSync(path.join(other, '.git'), 'utf8'))![1]!.trim()
    fs.renameSync(other, `${other}-away`)
    try {
      await tree.remove()
      expect(fs.existsSync(tree.dir)).toBe(false)
      expect(listed()).not.toContain(tree.dir)
      expect(fs.existsSync(otherRecord)).toBe(true)
    } finally {
      fs.renameSync(`${other}-away`, other)
    }
  }, 60_000)
})
