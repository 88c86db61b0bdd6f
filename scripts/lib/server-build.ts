/**
 * How the server entries are bundled: by the build (`npm run build`, into dist/server) and by the
 * tests that start them as processes (tests/support/server-build.ts), so a test starts the code
 * `npm start` runs, built the same way.
 */
import type { BuildOptions } from 'esbuild'
import { reactRouterProduction } from './client-build.js'
import { root } from './server-process.js'

/** Output name → source: the site, the two standalone services, and the render threads' worker. */
export const SERVER_ENTRIES = {
  main: 'server/main.ts',
  giffer: 'server/giffer/main.ts',
  dashboard: 'server/dashboard/main.ts',
  'render.worker': 'server/giffer/render.worker.ts',
} as const

/** Everything but where the files go. */
export const SERVER_BUILD_OPTIONS: BuildOptions = {
  absWorkingDir: root,
  entryPoints: SERVER_ENTRIES,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  alias: reactRouterProduction,
  jsx: 'automatic',
  logLevel: 'warning',
}
