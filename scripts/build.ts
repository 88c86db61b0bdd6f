/**
 * Builds the site: the browser bundle (ESM, split per page, minified, hashed names) with a
 * manifest the server reads, and the server entries. `npm run build`.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'
import * as esbuild from 'esbuild'
import { BROWSER_BUNDLE, reactRouterProduction } from './lib/client-build.js'
import { pages } from '../shared/pages.js'
import { DASHBOARD_STATIC_BUILD, DASHBOARD_STATIC_FILES, DASHBOARD_STATIC_MANIFEST, SCRIPT_BUILD_OPTIONS, sourceOf, type DashboardStaticFile } from '../server/dashboard/static-files.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dist = path.join(root, 'dist')
const assetsDir = path.join(dist, 'public', 'assets')
const PUBLIC_PREFIX = '/assets/'

/**
 * Browser code must never pull in server modules (secrets, file system, database), nor zod:
 * the schemas validate on the server, and the browser imports only their inferred types.
 */
const noServerImports: esbuild.Plugin = {
  name: 'no-server-imports',
  setup(build) {
    build.onResolve({ filter: /(^|\/)server\/|^zod(\/|$)/ }, (args) => {
      // The dashboard's browser scripts live under server/ but are entry points of their own.
      if (args.kind === 'entry-point' || args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined
      return { errors: [{ text: `client code imports server-only module "${args.path}" (from ${path.relative(root, args.importer)})` }] }
    })
  },
}

async function buildClient() {
  // Earlier builds' files stay: a page rendered by the previous build may still ask for them.
  const result = await esbuild.build({
    ...BROWSER_BUNDLE,
    entryPoints: { boot: 'client/boot.ts', styles: 'client/styles.css' },
    splitting: true,
    outdir: assetsDir,
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    plugins: [noServerImports],
  })
  // A classic script, whole in one file, that the server inlines in the head (without a source
  // map link: the page's address would not lead to it).
  const menusResult = await esbuild.build({
    ...BROWSER_BUNDLE,
    entryPoints: { menus: 'client/menus.ts' },
    format: 'iife',
    sourcemap: false,
    outdir: assetsDir,
    metafile: true,
    plugins: [noServerImports],
  })

  const outputs = result.metafile.outputs
  const toUrl = (file: string) => PUBLIC_PREFIX + path.relative(assetsDir, path.join(root, file)).split(path.sep).join('/')
  const staticImports = (file: string, seen = new Set<string>()): string[] => {
    for (const imported of outputs[file]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !seen.has(imported.path)) {
        seen.add(imported.path)
        staticImports(imported.path, seen)
      }
    }
    return [...seen]
  }

  const outputOf = (entryPoint: string, extension: string) => {
    const file = Object.keys(outputs).find((candidate) => outputs[candidate]?.entryPoint === entryPoint && candidate.endsWith(extension))
    if (!file) throw new Error(`esbuild produced no output for ${entryPoint}`)
    return file
  }
  const bootFile = outputOf('client/boot.ts', '.js')
  const appFile = outputOf('client/entry.tsx', '.js')
  const app = [appFile, ...staticImports(appFile)]
  const modules: Record<string, string[]> = {}
  const pageModules = new Set<string>(pages.map((page) => page.module))
  for (const [file, output] of Object.entries(outputs)) {
    // A page component is loaded on demand, so it is an entry point of its own, named by its file.
    const name = output.entryPoint?.match(/^shared\/(?:.+\/)?([A-Z]\w*)\.tsx$/)?.[1]
    if (!name || !pageModules.has(name)) continue
    if (modules[name]) throw new Error(`two page components are named ${name}: page modules are known by file name, which must be unique`)
    modules[name] = [file, ...staticImports(file)].filter((chunk) => !app.includes(chunk)).map(toUrl)
  }
  const menusFile = Object.keys(menusResult.metafile.outputs).find((file) => file.endsWith('.js'))
  if (!menusFile) throw new Error('esbuild produced no output for client/menus.ts')
  const manifest = {
    boot: toUrl(bootFile),
    menus: toUrl(menusFile),
    app: app.map(toUrl),
    stylesheets: [toUrl(outputOf('client/styles.css', '.css'))],
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
  const build = async (files: readonly DashboardStaticFile[], options: esbuild.BuildOptions) => {
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
    build(DASHBOARD_STATIC_FILES.filter((name) => name.endsWith('.js')), SCRIPT_BUILD_OPTIONS),
    build(DASHBOARD_STATIC_FILES.filter((name) => name.endsWith('.css')), { bundle: false }),
  ])
  fs.writeFileSync(DASHBOARD_STATIC_MANIFEST, JSON.stringify(names, null, 2))
}

async function buildServer() {
  const entries = {
    main: 'server/main.ts',
    giffer: 'server/giffer/main.ts',
    dashboard: 'server/dashboard/main.ts',
    'render.worker': 'server/giffer/render.worker.ts',
  }
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: entries,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    alias: reactRouterProduction,
    jsx: 'automatic',
    outdir: path.join(dist, 'server'),
    sourcemap: 'linked',
    logLevel: 'warning',
  })
}

fs.mkdirSync(dist, { recursive: true })
execFileSync('npm', ['run', '--silent', 'build:fonts'], { cwd: root, stdio: 'inherit' })
const [{ manifest }] = await Promise.all([buildClient(), buildServer(), buildDashboardStatic()])

// What a first visit to each kind of page downloads in JavaScript, compressed as it is served.
const gzipKb = (url: string) => zlib.gzipSync(fs.readFileSync(path.join(assetsDir, url.slice(PUBLIC_PREFIX.length)))).length / 1024
const shared = [manifest.menus, manifest.boot, ...manifest.app].reduce((sum, url) => sum + gzipKb(url), 0)
console.log(`JavaScript per page, gzipped (shared entry ${shared.toFixed(1)} KB + page chunks):`)
for (const [module, urls] of Object.entries(manifest.modules).sort()) {
  const own = urls.reduce((sum, url) => sum + gzipKb(url), 0)
  console.log(`  ${module.padEnd(14)} ${(shared + own).toFixed(1).padStart(6)} KB`)
}

