/**
 * The dashboard's own scripts and stylesheets, under /app/static/. `npm run build` minifies them
 * under hashed names (dist/public/app-static/, listed in dist/dashboard-assets.json), served as
 * immutable; without a build (tests, `npm run dev`) the sources are served as they are, briefly
 * cached.
 */
import fs from 'node:fs'
import path from 'node:path'
import express from 'express'
import { IMMUTABLE } from '../http-cache.js'
import { projectRoot } from '../project-root.js'

/** The files, by their source name; the build writes one hashed file for each. */
export const DASHBOARD_STATIC_FILES = ['app.css', 'preview.css', 'widget-preview.js', 'app-home.js', 'social-complete.js'] as const
export type DashboardStaticFile = (typeof DASHBOARD_STATIC_FILES)[number]

export const DASHBOARD_STATIC_SOURCES = path.join(projectRoot, 'server', 'dashboard', 'static')
export const DASHBOARD_STATIC_BUILD = path.join(projectRoot, 'dist', 'public', 'app-static')
export const DASHBOARD_STATIC_MANIFEST = path.join(projectRoot, 'dist', 'dashboard-assets.json')

interface StaticFiles {
  url(name: DashboardStaticFile): string
  router: express.RequestHandler
}

function readBuild(): Record<DashboardStaticFile, string> | null {
  if (!fs.existsSync(DASHBOARD_STATIC_MANIFEST)) return null
  const names = JSON.parse(fs.readFileSync(DASHBOARD_STATIC_MANIFEST, 'utf8')) as Record<string, string>
  const missing = DASHBOARD_STATIC_FILES.filter((name) => !names[name] || !fs.existsSync(path.join(DASHBOARD_STATIC_BUILD, names[name])))
  // A build from before a file was added is no build of this code: serve the sources instead.
  return missing.length ? null : (names as Record<DashboardStaticFile, string>)
}

let files: StaticFiles | undefined

/** Read once, on first use: where each file is and the handler that serves them. */
export function dashboardStaticFiles(): StaticFiles {
  if (files) return files
  const built = readBuild()
  files = built
    ? {
        url: (name) => `/app/static/${built[name]}`,
        router: express.static(DASHBOARD_STATIC_BUILD, { index: false, fallthrough: false, setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE) }),
      }
    : {
        url: (name) => `/app/static/${name}`,
        router: express.static(DASHBOARD_STATIC_SOURCES, { index: false, fallthrough: false, maxAge: '1h' }),
      }
  return files
}
