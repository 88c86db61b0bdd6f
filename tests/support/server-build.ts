/**
 * The server entries as `npm start` runs them: bundled with the build's own options
 * (scripts/lib/server-build.ts) once per test run, for the tests that start the site, the image
 * service or the dashboard as processes. A bundle starts in about half the CPU time of the same
 * sources through tsx, which compiles and resolves every module of the process as it loads, and
 * it is the code that ships.
 *
 * The bundle goes to node_modules/.cache/server-under-test (see `bundleInCache`).
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import * as esbuild from 'esbuild'
import { inject } from 'vitest'
import type { TestProject } from 'vitest/node'
import { SERVER_BUILD_OPTIONS, SERVER_ENTRIES } from '../../scripts/lib/server-build.js'
import { projectRoot } from '../../server/project-root.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of the bundled server entries (`main.js`, `giffer.js`, `dashboard.js`). */
    serverBuild: string
  }
}

const CACHE = path.join(projectRoot, 'node_modules', '.cache')
/** Bundles of older code are removed once they are this old. */
const STALE_MS = 24 * 60 * 60 * 1000

/**
 * Bundles with `options` (its `outdir` a folder name under node_modules/.cache, where the bundle's
 * own imports of packages resolve) and resolves with the folder of this code's bundle, named by
 * the hash of what was built: runs of the same code share it, and changed code never runs stale.
 */
export async function bundleInCache(name: string, options: esbuild.BuildOptions): Promise<string> {
  const home = path.join(CACHE, name)
  const out = path.join(home, 'out')
  const result = await esbuild.build({ ...options, outdir: out, write: false })
  const hash = createHash('sha256')
  for (const file of result.outputFiles) hash.update(file.path).update(file.contents)
  const dir = path.join(home, hash.digest('hex').slice(0, 16))
  if (!existsSync(dir)) {
    // Whole or not at all: another run may be looking for the same folder.
    const temporary = `${dir}.${process.pid}.tmp`
    for (const file of result.outputFiles) {
      const target = path.join(temporary, path.relative(out, file.path))
      mkdirSync(path.dirname(target), { recursive: true })
      writeFileSync(target, file.contents)
    }
    try {
      renameSync(temporary, dir)
    } catch (error) {
      rmSync(temporary, { recursive: true, force: true })
      if (!existsSync(dir)) throw error
    }
  }
  for (const other of readdirSync(home)) {
    const folder = path.join(home, other)
    if (folder !== dir && Date.now() - statSync(folder).mtimeMs > STALE_MS) rmSync(folder, { recursive: true, force: true })
  }
  return dir
}

/**
 * The bundle of this run, kept on the main process's global object: vitest runs the global setup
 * once for each group, each time from a fresh copy of this module, and one build serves them all.
 */
const BUILT = Symbol.for('tests/support/server-build')

/** vitest's global setup: builds the server bundle (once a run), or finds it built, and tells the test files where. */
export async function setup(project: TestProject): Promise<void> {
  const shared = globalThis as { [BUILT]?: Promise<string> }
  shared[BUILT] ??= bundleInCache('server-under-test', SERVER_BUILD_OPTIONS)
  project.provide('serverBuild', await shared[BUILT])
}

/** The bundled file of a server entry, by its source (`server/main.ts`…), to start with `node`. */
export function serverScript(source: (typeof SERVER_ENTRIES)[keyof typeof SERVER_ENTRIES]): string {
  const name = Object.entries(SERVER_ENTRIES).find(([, entry]) => entry === source)![0]
  return path.join(inject('serverBuild'), `${name}.js`)
}
