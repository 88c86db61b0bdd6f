/**
 * How the site's browser code is bundled, shared by the build (scripts/build.ts) and the
 * reference page of `npm run bench:load`, which must be built the same way to be a fair measure.
 *
 * Browser scripts go through Rolldown, which can decide what goes in which file (esbuild's
 * splitting cannot): a page then loads a handful of files instead of one per set of pages that
 * happen to share a module. The stylesheet and the server are built with esbuild.
 */
import path from 'node:path'
import type { InputOptions, OutputOptions, Plugin } from 'rolldown'
import { reactDomPreparedErrors } from './react-dom-errors.js'
import { root } from './server-process.js'

/**
 * React Router's package exports only its development build; its production build (no dev
 * warnings, smaller) sits beside it. Every bundle uses the production one.
 */
export const reactRouterProduction = {
  'react-router': path.join(root, 'node_modules/react-router/dist/production/index.mjs'),
  'react-router/dom': path.join(root, 'node_modules/react-router/dist/production/dom-export.mjs'),
}

/**
 * Browser code must never pull in server modules (secrets, file system, database), nor zod:
 * the schemas validate on the server, and the browser imports only their inferred types.
 */
export const SERVER_ONLY_IMPORT = /(^|\/)server\/|^zod(\/|$)/

export const serverOnlyMessage = (imported: string, importer: string) => `client code imports server-only module "${imported}" (from ${path.relative(root, importer)})`

const noServerImports: Plugin = {
  name: 'no-server-imports',
  resolveId(source, importer) {
    if (importer && !importer.includes(`${path.sep}node_modules${path.sep}`) && SERVER_ONLY_IMPORT.test(source)) this.error(serverOnlyMessage(source, importer))
    return null
  },
}

/** The browsers the site supports. */
export const BROWSER_TARGETS = ['es2022', 'chrome111', 'firefox111', 'safari16']

/** Reading browser entry points: TypeScript and JSX, React's and React Router's production builds. */
export function browserInput(input: Record<string, string>): InputOptions {
  return {
    cwd: root,
    input: Object.fromEntries(Object.entries(input).map(([name, file]) => [name, path.resolve(root, file)])),
    platform: 'browser',
    resolve: {
      alias: reactRouterProduction,
      // Sources import each other by the name their compiled file will have.
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
    },
    transform: { target: BROWSER_TARGETS, jsx: 'react-jsx', define: { 'process.env.NODE_ENV': '"production"' } },
    plugins: [noServerImports, reactDomPreparedErrors],
    onLog(level, log, report) {
      // React Router marks its modules "use client" for React Server Components; a browser bundle has no use for it.
      if (log.code === 'MODULE_LEVEL_DIRECTIVE') return
      report(level, log)
    },
  }
}

/** Writing them: ES modules, minified, hashed names, linked source maps. */
export const BROWSER_OUTPUT: OutputOptions = {
  format: 'esm',
  minify: true,
  sourcemap: true,
  comments: false,
  entryFileNames: '[name]-[hash].js',
  chunkFileNames: '[name]-[hash].js',
}
