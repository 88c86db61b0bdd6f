/**
 * The dashboard's own scripts and stylesheets, under /app/static/. The scripts are TypeScript
 * (server/dashboard/static/*.ts, type-checked with the rest). `npm run build` bundles and minifies
 * them, and the stylesheets, under hashed names (dist/public/app-static/, listed by public name in
 * dist/dashboard-assets.json), served as immutable. Without a build (tests, `npm run dev`) the
 * stylesheets are served as they are, and each script is bundled from its source on first
 * request, with esbuild, and kept while the process runs (an edit shows after a restart). A page
 * may also carry one inline (`text`).
 */
import fs from 'node:fs'
import path from 'node:path'
import type { BuildOptions } from 'esbuild'
import express, { type RequestHandler } from 'express'
import { IMMUTABLE } from '../process/http-cache.js'
import { projectRoot } from '../project-root.js'

/** The files by the name pages ask for; a script's source is the .ts of the same name. */
export const DASHBOARD_STATIC_FILES = ['app.css', 'preview.css', 'widget-preview.js', 'app-home.js', 'social-complete.js'] as const
export type DashboardStaticFile = (typeof DASHBOARD_STATIC_FILES)[number]

export const DASHBOARD_STATIC_SOURCES = path.join(projectRoot, 'server', 'dashboard', 'static')
export const DASHBOARD_STATIC_BUILD = path.join(projectRoot, 'dist', 'public', 'app-static')
export const DASHBOARD_STATIC_MANIFEST = path.join(projectRoot, 'dist', 'dashboard-assets.json')

/** Where the file named `name` is made from. */
export const sourceOf = (name: DashboardStaticFile) => path.join(DASHBOARD_STATIC_SOURCES, name.replace(/\.js$/, '.ts'))

/** How a script is bundled, in the build and without one alike: one plain script, not a module. */
export const SCRIPT_BUILD_OPTIONS: BuildOptions = { bundle: true, format: 'iife', platform: 'browser', target: ['es2020', 'chrome111', 'firefox111', 'safari16'], legalComments: 'none' }

interface StaticFiles {
  url(name: DashboardStaticFile): string
  /** A file's text, for a page that carries it inline; read or made once. */
  text(name: DashboardStaticFile): Promise<string>
  router: RequestHandler
}

/** Each file's text, asked for once (a failure is asked for again next time). */
function onceEach(read: (name: DashboardStaticFile) => Promise<string>): (name: DashboardStaticFile) => Promise<string> {
  const texts = new Map<DashboardStaticFile, Promise<string>>()
  return (name) => {
    let text = texts.get(name)
    if (!text) {
      text = read(name)
      texts.set(name, text)
      text.catch(() => texts.delete(name))
    }
    return text
  }
}

function readBuild(): Record<DashboardStaticFile, string> | null {
  if (!fs.existsSync(DASHBOARD_STATIC_MANIFEST)) return null
  const names = JSON.parse(fs.readFileSync(DASHBOARD_STATIC_MANIFEST, 'utf8')) as Record<string, string>
  const missing = DASHBOARD_STATIC_FILES.filter((name) => !names[name] || !fs.existsSync(path.join(DASHBOARD_STATIC_BUILD, names[name])))
  // A build from before a file was added is no build of this code: serve the sources instead.
  return missing.length ? null : (names as Record<DashboardStaticFile, string>)
}

/** Without a build: stylesheets as they are, scripts bundled from their source once (esbuild is a development tool). */
function fromSources(): Pick<StaticFiles, 'text' | 'router'> {
  const styles = express.static(DASHBOARD_STATIC_SOURCES, { index: false, fallthrough: false, maxAge: '1h' })
  const text = onceEach(async (name) => {
    if (!name.endsWith('.js')) return fs.promises.readFile(path.join(DASHBOARD_STATIC_SOURCES, name), 'utf8')
    const esbuild = await import('esbuild')
    const result = await esbuild.build({ ...SCRIPT_BUILD_OPTIONS, entryPoints: [sourceOf(name)], write: false, logLevel: 'silent' })
    return result.outputFiles![0]!.text
  })
  const router: RequestHandler = (req, res, next) => {
    const name = req.path.slice(1) as DashboardStaticFile
    if (!name.endsWith('.js')) return styles(req, res, next)
    if (!DASHBOARD_STATIC_FILES.includes(name)) return res.status(404).json({ message: 'Not found.' })
    text(name)
      .then((script) => res.type('js').set('Cache-Control', 'public, max-age=3600').send(script))
      .catch(next)
  }
  return { text, router }
}

let files: StaticFiles | undefined

/** Read once, on first use: where each file is and the handler that serves them. */
export function dashboardStaticFiles(): StaticFiles {
  if (files) return files
  const built = readBuild()
  files = built
    ? {
        url: (name) => `/app/static/${built[name]}`,
        text: onceEach((name) => fs.promises.readFile(path.join(DASHBOARD_STATIC_BUILD, built[name]), 'utf8')),
        router: express.static(DASHBOARD_STATIC_BUILD, { index: false, fallthrough: false, setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE) }),
      }
    : { url: (name) => `/app/static/${name}`, ...fromSources() }
  return files
}
