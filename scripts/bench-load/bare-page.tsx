/**
 * The reference page of `npm run bench:load`, made for one run: its browser entry built as the
 * site's client is (Rolldown, ESM, minified, React Router's production build, a linked source
 * map) into a folder of its own, and its HTML rendered on the server with React Router's
 * static handler, page state in a `<script type="application/json">` as on the site.
 */
import fs from 'node:fs'
import path from 'node:path'
import { renderToString } from 'react-dom/server'
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router'
import { build } from 'rolldown'
import { PREPARED_ERRORS_KEY, REACT_DOM_MODULE_ERRORS } from '../../client/react-dom-errors.js'
import { BROWSER_OUTPUT, browserInput } from '../lib/client-build.js'
import { BARE_PATH, bareRoutes } from './bare-app.js'

export interface BarePage {
  /** The page's address path, under the site's origin. */
  path: string
  html: string
  /** Address path → file, for the page's script and its source map. */
  files: Map<string, string>
}

async function buildEntry(outdir: string): Promise<string> {
  const { output } = await build({ ...browserInput({ bare: 'scripts/bench-load/bare-entry.tsx' }), output: { ...BROWSER_OUTPUT, dir: outdir } })
  const script = output.find((item) => item.type === 'chunk')
  if (!script || output.filter((item) => item.type === 'chunk').length !== 1) throw new Error('the reference page must be built into one script')
  return path.resolve(outdir, script.fileName)
}

export async function makeBarePage(outdir: string): Promise<BarePage> {
  fs.mkdirSync(outdir, { recursive: true })
  const script = await buildEntry(outdir)
  const scriptPath = BARE_PATH + path.basename(script)

  const handler = createStaticHandler(bareRoutes)
  const context = await handler.query(new Request(`http://localhost${BARE_PATH}`))
  if (context instanceof Response) throw new Error(`the reference page answered ${context.status}`)
  const markup = renderToString(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />)
  const state = JSON.stringify({ loaderData: context.loaderData }).replace(/</g, '\\u003c')
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>Reference page</title><link rel="modulepreload" href="${scriptPath}">` +
    // Its first paint held until its content is parsed, as the site's pages hold theirs until the
    // footer, so both count from the same kind of first paint.
    `<link rel="expect" href="#root" blocking="render">` +
    // React DOM's load-time errors made ahead, in a script of their own, as the site's boot script does.
    `<script>globalThis[Symbol.for(${JSON.stringify(PREPARED_ERRORS_KEY)})]=Array.from({length:${REACT_DOM_MODULE_ERRORS.length}},()=>new Error())</script></head>` +
    `<body><div id="root">${markup}</div><script type="application/json" id="bare-state">${state}</script>` +
    `<script type="module" src="${scriptPath}" async></script></body></html>`
  return {
    path: BARE_PATH,
    html,
    files: new Map([
      [scriptPath, script],
      [`${scriptPath}.map`, `${script}.map`],
    ]),
  }
}
