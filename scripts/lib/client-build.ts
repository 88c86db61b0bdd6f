/**
 * How the site's browser code is bundled, shared by the build (scripts/build.ts) and the
 * reference page of `npm run bench:load`, which must be built the same way to be a fair measure.
 */
import path from 'node:path'
import type { BuildOptions } from 'esbuild'
import { root } from './server-process.js'

/**
 * React Router's package exports only its development build; its production build (no dev
 * warnings, smaller) sits beside it. Every bundle uses the production one.
 */
export const reactRouterProduction = {
  'react-router': path.join(root, 'node_modules/react-router/dist/production/index.mjs'),
  'react-router/dom': path.join(root, 'node_modules/react-router/dist/production/dom-export.mjs'),
}

/** ES modules for the browsers the site supports, minified, with linked source maps and React's production build. */
export const BROWSER_BUNDLE: BuildOptions = {
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome111', 'firefox111', 'safari16'],
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  jsx: 'automatic',
  entryNames: '[name]-[hash]',
  metafile: true,
  define: { 'process.env.NODE_ENV': '"production"' },
  alias: reactRouterProduction,
  logLevel: 'warning',
}
