import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BUILD_MARK, defaultBuildFolder, finishBuildFolder, planBuildFolder, prepareBuildFolder } from '../../scripts/box.js'

const folders: string[] = []
const tmpdirBefore = process.env.TMPDIR
afterEach(() => {
  if (tmpdirBefore === undefined) delete process.env.TMPDIR
  else process.env.TMPDIR = tmpdirBefore
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** A fresh folder for one test, with a stand-in for the project beside where the builds go. */
function scratch(): { dir: string; projectRoot: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'box-script-'))
  folders.push(dir)
  const projectRoot = path.join(dir, 'project')
  mkdirSync(projectRoot)
  writeFileSync(path.join(projectRoot, 'package.json'), '{}')
  return { dir, projectRoot }
}

/** Every file under `dir` with its text, to see that nothing changed. */
function contents(dir: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files[path.relative(dir, path.join(entry.parentPath, entry.name))] = readFileSync(path.join(entry.parentPath, entry.name), 'utf8')
  }
  return files
}

/** A working tree like `.`: sources, a `.data` folder with state, no build. */
function workingTree(dir: string): void {
  mkdirSync(path.join(dir, 'server'), { recursive: true })
  mkdirSync(path.join(dir, '.data'), { recursive: true })
  writeFileSync(path.join(dir, 'package.json'), '{"name":"mine"}')
  writeFileSync(path.join(dir, 'server', 'main.ts'), 'export {}')
  writeFileSync(path.join(dir, '.data', 'dashboard.sqlite'), 'state')
}

/** Plans the folder and, unless refused or reused, makes it ready as `npm run box` does; returns the plan's kind. */
function claim(dir: string, options: { reuse: boolean; projectRoot: string }): string {
  const plan = planBuildFolder(dir, options)
  if (plan.kind === 'make' || plan.kind === 'rebuild') prepareBuildFolder(dir, plan)
  return plan.kind
}

describe('the build folder of npm run box', () => {
  it('refuses a folder of files it did not make, in one line, and deletes nothing of it', () => {
    const { dir, projectRoot } = scratch()
    const tree = path.join(dir, 'tree')
    workingTree(tree)
    const before = contents(tree)
    for (const reuse of [true, false]) {
      const plan = planBuildFolder(tree, { reuse, projectRoot })
      expect(plan.kind).toBe('refuse')
      expect(plan.kind === 'refuse' && plan.reason).toMatch(/^[^\n]+ holds files and no \.poplift-box-build[^\n]*$/)
    }
    expect(contents(tree)).toEqual(before)
  })

  it('refuses the project, a folder in it and a folder around it', () => {
    const { dir, projectRoot } = scratch()
    mkdirSync(path.join(projectRoot, 'box-build'))
    writeFileSync(path.join(dir, BUILD_MARK), '{"built":true}')
    for (const folder of [projectRoot, path.join(projectRoot, 'box-build'), path.join(projectRoot, 'missing'), dir]) {
      expect(planBuildFolder(folder, { reuse: true, projectRoot }).kind).toBe('refuse')
    }
    expect(readFileSync(path.join(dir, BUILD_MARK), 'utf8')).toBe('{"built":true}')
  })

  it('refuses a file', () => {
    const { dir, projectRoot } = scratch()
    writeFileSync(path.join(dir, 'notes.txt'), 'mine')
    expect(planBuildFolder(path.join(dir, 'notes.txt'), { reuse: true, projectRoot }).kind).toBe('refuse')
    expect(readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('mine')
  })

  it('makes a missing folder and marks it as its own; an empty folder is taken and marked', () => {
    const { dir, projectRoot } = scratch()
    for (const folder of [path.join(dir, 'new', 'build'), path.join(dir, 'empty')]) {
      if (folder.endsWith('empty')) mkdirSync(folder)
      expect(claim(folder, { reuse: true, projectRoot })).toBe('make')
      expect(readdirSync(folder)).toEqual([BUILD_MARK])
      expect(JSON.parse(readFileSync(path.join(folder, BUILD_MARK), 'utf8'))).toMatchObject({ built: false })
    }
  })

  it('uses its own finished build again when BOX_APP_DIR names it, and builds an unfinished one again', () => {
    const { dir, projectRoot } = scratch()
    const folder = path.join(dir, 'build')
    claim(folder, { reuse: true, projectRoot })
    writeFileSync(path.join(folder, 'half-copied.ts'), '')
    expect(planBuildFolder(folder, { reuse: true, projectRoot }).kind).toBe('rebuild')

    mkdirSync(path.join(folder, 'dist', 'server'), { recursive: true })
    writeFileSync(path.join(folder, 'dist', 'server', 'main.js'), '// built')
    finishBuildFolder(folder)
    const before = contents(folder)
    expect(claim(folder, { reuse: true, projectRoot })).toBe('reuse')
    expect(contents(folder)).toEqual(before)
  })

  it('empties its own folder, all but the mark, to build again', () => {
    const { dir, projectRoot } = scratch()
    const folder = path.join(dir, 'build')
    claim(folder, { reuse: false, projectRoot })
    mkdirSync(path.join(folder, 'dist', 'server'), { recursive: true })
    writeFileSync(path.join(folder, 'dist', 'server', 'main.js'), '// built')
    finishBuildFolder(folder)
    expect(claim(folder, { reuse: false, projectRoot })).toBe('rebuild')
    expect(readdirSync(folder)).toEqual([BUILD_MARK])
    expect(JSON.parse(readFileSync(path.join(folder, BUILD_MARK), 'utf8'))).toMatchObject({ built: false })
  })

  it('treats the default folder under the temporary folder alike: refused with files it did not make, else made, marked and built afresh', () => {
    const { dir, projectRoot } = scratch()
    process.env.TMPDIR = dir
    const folder = defaultBuildFolder()
    expect(path.dirname(folder)).toBe(dir)

    workingTree(folder)
    const before = contents(folder)
    expect(planBuildFolder(folder, { reuse: false, projectRoot }).kind).toBe('refuse')
    expect(contents(folder)).toEqual(before)

    rmSync(folder, { recursive: true })
    expect(claim(folder, { reuse: false, projectRoot })).toBe('make')
    expect(readdirSync(folder)).toEqual([BUILD_MARK])
    finishBuildFolder(folder)
    expect(claim(folder, { reuse: false, projectRoot })).toBe('rebuild')
    expect(existsSync(path.join(folder, BUILD_MARK))).toBe(true)
  })
})
