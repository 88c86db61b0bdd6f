/**
 * The dashboard's own scripts and stylesheets, under /app/static/. The scripts are TypeScript
 * (server/dashboard/static/*.ts, type-checked with the rest). `npm run build` bundles and minifies
 * them, and the stylesheets, under hashed names (dist/public/app-static/, listed by public name in
 * dist/dashboard-assets.json), served as immutable. Without a build (tests, `npm run dev`) each
 * is made from its source on first request, with esbuild, and briefly cached.
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
  router: RequestHandler
}

function readBuild(): Record<DashboardStaticFile, string> | null {
  if (!fs.existsSync(DASHBOARD_STATIC_MANIFEST)) return null
  const names = JSON.parse(fs.readFileSync(DASHBOARD_STATIC_MANIFEST, 'utf8')) as Record<string, string>
  const missing = DASHBOARD_STATIC_FILES.filter((name) => !names[name] || !fs.existsSync(path.join(DASHBOARD_STATIC_BUILD, names[name])))
  // A build from before a file was added is no build of this code: serve the sources instead.
  return missing.length ? null : (names as Record<DashboardStaticFile, string>)
}

/**
 * Public code and styles, and the widget preview's sandboxed document (an origin of its own) loads
 * them: a same-origin resource policy would keep them from it.
 */
const ANY_ORIGIN_MAY_LOAD = 'cross-origin'

/** Without a build: stylesheets as they are, scripts bundled from their source once (esbuild is a development tool). */
function fromSources(): RequestHandler {
  const styles = express.static(DASHBOARD_STATIC_SOURCES, { index: false, fallthrough: false, maxAge: '1h' })
  const scripts = new Map<string, Promise<string>>()
  const bundle = async (name: DashboardStaticFile) => {
    const esbuild = await import('esbuild')
    const result = await esbuild.build({ ...SCRIPT_BUILD_OPTIONS, entryPoints: [sourceOf(name)], write: false, logLevel: 'silent' })
    return result.outputFiles![0]!.text
  }
  return (req, res, next) => {
    res.setHeader('Cross-Origin-Resource-Policy', ANY_ORIGIN_MAY_LOAD)
    const name = req.path.slice(1) as DashboardStaticFile
    if (!name.endsWith('.js')) return styles(req, res, next)
    if (!DASHBOARD_STATIC_FILES.includes(name)) return res.status(404).json({ message: 'Not found.' })
    if (!scripts.has(name)) scripts.set(name, bundle(name))
    scripts
      .get(name)!
      .then((text) => res.type('js').set('Cache-Control', 'public, max-age=3600').send(text))
      .catch(next)
  }
}

let files: StaticFiles | undefined

/** Read once, on first use: where each file is and the handler that serves them. */
export function dashboardStaticFiles(): StaticFiles {
  if (files) return files
  const built = readBuild()
  files = built
    ? {
        url: (name) => `/app/static/${built[name]}`,
        router: express.static(DASHBOARD_STATIC_BUILD, {
          index: false,
          fallthrough: false,
          setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE).setHeader('Cross-Origin-Resource-Policy', ANY_ORIGIN_MAY_LOAD),
        }),
      }
    : { url: (name) => `/app/static/${name}`, router: fromSources() }
  return files
}
