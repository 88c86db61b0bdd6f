/**
 * Builds the site: the browser bundle (ESM, a few files a page, minified, hashed names) with a
 * manifest the server reads, the stylesheet, and the server entries. `npm run build`.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'
import * as esbuild from 'esbuild'
import { build, type OutputChunk, type RolldownOutput } from 'rolldown'
import { BROWSER_OUTPUT, BROWSER_TARGETS, browserInput, SERVER_ONLY_IMPORT, serverOnlyMessage } from './lib/client-build.js'
import { SERVER_BUILD_OPTIONS } from './lib/server-build.js'
import { componentOf, pageSheets, sheetSource } from './lib/page-sheets.js'
import { pages } from '../shared/pages.js'
import { SHEETS, type SheetMap } from '../shared/site.js'
import { notInlineable } from '../server/ssr/manifest.js'
import { inlined as previewInline } from '../server/gallery/preview-routes.js'
import { DASHBOARD_STATIC_BUILD, DASHBOARD_STATIC_FILES, DASHBOARD_STATIC_MANIFEST, SCRIPT_BUILD_OPTIONS, sourceOf, type DashboardStaticFile } from '../server/dashboard/static-files.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dist = path.join(root, 'dist')
const assetsDir = path.join(dist, 'public', 'assets')
const PUBLIC_PREFIX = '/assets/'

/** The same rule for the dashboard's scripts, which esbuild bundles. */
const noServerImports: esbuild.Plugin = {
  name: 'no-server-imports',
  setup(build) {
    build.onResolve({ filter: SERVER_ONLY_IMPORT }, (args) => {
      // The dashboard's browser scripts live under server/ but are entry points of their own.
      if (args.kind === 'entry-point' || args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined
      return { errors: [{ text: serverOnlyMessage(args.path, args.importer) }] }
    })
  },
}

/**
 * Code shared by some pages that comes to less than this joins the app, which every page loads:
 * each file a page loads costs it a fetch, a parse and a link at load, more than a few KB do.
 */
const SMALL_FEATURE_BYTES = 4 * 1024

/** A build's chunks by file name. */
type Chunks = Map<string, OutputChunk>

const chunksOf = (output: RolldownOutput): Chunks => new Map(output.output.filter((item): item is OutputChunk => item.type === 'chunk').map((chunk) => [chunk.fileName, chunk]))

/** A chunk and every chunk it imports, transitively: the files it needs before it runs, itself first. */
function staticClosure(chunks: Chunks, file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen
  seen.add(file)
  for (const imported of chunks.get(file)!.imports) staticClosure(chunks, imported, seen)
  return seen
}

/** The app: the one entry point (client/entry.tsx), which imports each page's code on demand. */
function appEntry(chunks: Chunks): OutputChunk {
  const entries = [...chunks.values()].filter((chunk) => chunk.isEntry)
  if (entries.length !== 1) throw new Error(`the browser build should have one entry point, the app, not ${entries.length}`)
  return entries[0]!
}

/**
 * Which file each browser module goes in, from a first split of Rolldown's own (which makes a
 * file for every set of pages that happen to share a module):
 * - `app`: everything the app needs on every page (React, the router, the layout), in one file;
 * - code that several pages share, in one file per feature folder under shared/ (`generators`,
 *   `accounts`), or in the app when the feature's shared code is small and needs nothing else;
 * - the rest as Rolldown splits it: each page's own code.
 * Groups take exactly these modules and not their imports.
 */
function chunkGroups(probe: Chunks): Map<string, string> {
  const inApp = staticClosure(probe, appEntry(probe).fileName)

  const features = new Map<string, OutputChunk[]>()
  for (const chunk of probe.values()) {
    if (chunk.isEntry || chunk.isDynamicEntry || inApp.has(chunk.fileName)) continue
    const feature = /\/shared\/([\w-]+)\//.exec(chunk.moduleIds.find((id) => id.includes('/shared/')) ?? '')?.[1] ?? 'shared'
    features.set(feature, [...(features.get(feature) ?? []), chunk])
  }
  // A small feature joins the app once all it imports is there.
  for (let joined = true; joined; ) {
    joined = false
    for (const [feature, chunks] of features) {
      const small = chunks.reduce((sum, chunk) => sum + chunk.code.length, 0) < SMALL_FEATURE_BYTES
      const own = new Set(chunks.map((chunk) => chunk.fileName))
      const needs = chunks.flatMap((chunk) => chunk.imports).filter((file) => !own.has(file) && !inApp.has(file))
      if (!small || needs.length) continue
      for (const chunk of chunks) inApp.add(chunk.fileName)
      features.delete(feature)
      joined = true
    }
  }
  const groups = new Map<string, string>()
  for (const file of inApp) for (const id of probe.get(file)!.moduleIds) groups.set(id, 'app')
  for (const [feature, chunks] of features) for (const chunk of chunks) for (const id of chunk.moduleIds) groups.set(id, feature)
  return groups
}

async function buildClient() {
  // Earlier builds' files stay: a page rendered by the previous build may still ask for them.
  // Each part of the stylesheet a file of its own (shared/site.ts).
  const styles = await esbuild.build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(SHEETS.map((name) => [name, path.relative(root, sheetSource(name))])),
    bundle: true,
    minify: true,
    target: BROWSER_TARGETS.filter((target) => !target.startsWith('es')),
    outdir: assetsDir,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
  })
  const sheetHrefs = SHEETS.map((name) => {
    const file = Object.entries(styles.metafile.outputs).find(([, output]) => output.entryPoint && path.resolve(root, output.entryPoint) === sheetSource(name))?.[0]
    if (!file) throw new Error(`esbuild produced no stylesheet for ${path.relative(root, sheetSource(name))}`)
    return PUBLIC_PREFIX + path.relative(assetsDir, path.join(root, file)).split(path.sep).join('/')
  })

  // The slideshow's photo worker: a classic script (module workers are newer than some supported
  // browsers), whole in one file, whose hashed address the page's code is built with.
  const photoWorker = await build({ ...browserInput({ 'photo-worker': 'shared/generators/slideshow/photo.worker.ts' }), output: { ...BROWSER_OUTPUT, format: 'iife', dir: assetsDir } })
  const base = browserInput({ app: 'client/entry.tsx' })
  // The app's file also holds code pages share (small features), which they import from it.
  const input = {
    ...base,
    transform: { ...base.transform, define: { ...base.transform?.define, __PHOTO_WORKER_URL__: JSON.stringify(PUBLIC_PREFIX + photoWorker.output[0].fileName) } },
    preserveEntrySignatures: 'allow-extension' as const,
  }
  const probe = chunksOf(await build({ ...input, write: false, output: BROWSER_OUTPUT }))
  const groups = chunkGroups(probe)
  const sheetsByPage = pageSheets(probe)
  // The browser fetches the parts the next page needs before drawing it (shared/layout/page-sheets.ts).
  const sheetMap: SheetMap = { hrefs: sheetHrefs, pages: Object.fromEntries(Object.entries(sheetsByPage).map(([module, sheets]) => [module, sheets.map((sheet) => SHEETS.indexOf(sheet))])) }
  const chunks = chunksOf(
    await build({
      ...input,
      transform: { ...input.transform, define: { ...input.transform.define, __PAGE_SHEETS__: JSON.stringify(JSON.stringify(sheetMap)) } },
      output: {
        ...BROWSER_OUTPUT,
        dir: assetsDir,
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [{ name: (id) => groups.get(id) ?? null, debugName: 'app and shared page code' }],
        },
      },
    }),
  )
  // Classic scripts, each whole in one file, that the server inlines: the menus in the head, the
  // boot script at the end of the body (strict, as modules are; without a source map link: the
  // page's address would not lead to it).
  const inlined = async (name: string, file: string) => {
    const { output } = await build({ ...browserInput({ [name]: file }), output: { ...BROWSER_OUTPUT, format: 'iife', strict: true, sourcemap: false, dir: assetsDir } })
    const problem = notInlineable(output[0].code.trim())
    if (problem) throw new Error(`${file}, built, ${problem}: it cannot be inlined in a page`)
    return output[0].fileName
  }
  const [menusFile, bootFile] = await Promise.all([inlined('menus', 'client/menus.ts'), inlined('boot', 'client/boot.ts')])

  const toUrl = (file: string) => PUBLIC_PREFIX + file
  // The app's own file first: the boot script imports it first. One file: React, the layout and
  // Rolldown's helpers together, each further file being a request every page makes.
  const app = [...staticClosure(chunks, appEntry(chunks).fileName)]
  if (app.length !== 1) throw new Error(`the app should be one file, not ${app.join(', ')}: see chunkGroups in scripts/build.ts`)
  const modules: Record<string, string[]> = {}
  const pageModules = new Set<string>(pages.map((page) => page.module))
  for (const chunk of chunks.values()) {
    // A page component is loaded on demand, so it is an entry point of its own, named by its file.
    const name = componentOf(chunk)
    if (!name || !pageModules.has(name)) continue
    if (modules[name]) throw new Error(`two page components are named ${name}: page modules are known by file name, which must be unique`)
    modules[name] = [...staticClosure(chunks, chunk.fileName)].filter((file) => !app.includes(file)).map(toUrl)
  }
  const manifest = {
    bootScript: toUrl(bootFile),
    menus: toUrl(menusFile),
    app: app.map(toUrl),
    sheets: SHEETS.map((name, at) => ({ name, href: sheetHrefs[at]! })),
    pageSheets: sheetsByPage,
    modules,
  }
  fs.writeFileSync(path.join(dist, 'manifest.json'), JSON.stringify(manifest, null, 2))
  return { manifest }
}

/**
 * The local dashboard's own scripts (TypeScript, each bundled into one plain script) and
 * stylesheets: minified under hashed names, listed by public name in
 * dist/dashboard-assets.json, which the dashboard reads.
 */
async function buildDashboardStatic() {
  const names: Record<string, string> = {}
  const bundle = async (files: readonly DashboardStaticFile[], options: esbuild.BuildOptions) => {
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: Object.fromEntries(files.map((name) => [name.replace(/\.(js|css)$/, ''), sourceOf(name)])),
      minify: true,
      outdir: DASHBOARD_STATIC_BUILD,
      entryNames: '[name]-[hash]',
      metafile: true,
      logLevel: 'warning',
      plugins: [noServerImports],
      ...options,
    })
    for (const [file, output] of Object.entries(result.metafile!.outputs)) {
      const name = files.find((candidate) => output.entryPoint && path.resolve(root, output.entryPoint) === sourceOf(candidate))
      if (name) names[name] = path.basename(file)
    }
  }
  await Promise.all([
    bundle(DASHBOARD_STATIC_FILES.filter((name) => name.endsWith('.js')), SCRIPT_BUILD_OPTIONS),
    bundle(DASHBOARD_STATIC_FILES.filter((name) => name.endsWith('.css')), { bundle: false }),
  ])
  // The widget preview carries these two inline, by its own rule (server/gallery/preview-routes.ts).
  // A file that could not be carried so fails the build here, rather than every preview once deployed.
  for (const [name, element] of [
    ['widget-preview.js', 'script'],
    ['preview.css', 'style'],
  ] as const) {
    const file = names[name]
    if (!file) throw new Error(`esbuild produced no ${name}`)
    try {
      previewInline(fs.readFileSync(path.join(DASHBOARD_STATIC_BUILD, file), 'utf8'), element)
    } catch (error) {
      throw new Error(`${name}, built: ${(error as Error).message}`)
    }
  }
  fs.writeFileSync(DASHBOARD_STATIC_MANIFEST, JSON.stringify(names, null, 2))
}

async function buildServer() {
  await esbuild.build({ ...SERVER_BUILD_OPTIONS, outdir: path.join(dist, 'server'), sourcemap: 'linked' })
}

fs.mkdirSync(dist, { recursive: true })
execFileSync('npm', ['run', '--silent', 'build:fonts'], { cwd: root, stdio: 'inherit' })
const [{ manifest }] = await Promise.all([buildClient(), buildServer(), buildDashboardStatic()])

// What a first visit to each kind of page downloads in JavaScript, compressed as it is served.
const gzipKb = (url: string) => zlib.gzipSync(fs.readFileSync(path.join(assetsDir, url.slice(PUBLIC_PREFIX.length)))).length / 1024
const shared = [manifest.menus, manifest.bootScript, ...manifest.app].reduce((sum, url) => sum + gzipKb(url), 0)
console.log(`JavaScript per page, gzipped (shared entry ${shared.toFixed(1)} KB + page chunks):`)
for (const [module, urls] of Object.entries(manifest.modules).sort()) {
  const own = urls.reduce((sum, url) => sum + gzipKb(url), 0)
  console.log(`  ${module.padEnd(14)} ${(shared + own).toFixed(1).padStart(6)} KB`)
}

