import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { FRAME_SHEETS, SHEETS, type InlineSheet, type SheetName } from '../../shared/site.js'

/** Written by scripts/build.ts: the hashed client files a page needs. */
const manifestSchema = z.object({
  /**
   * A classic script inlined at the end of every page: it fetches the app once the page has
   * painted. (Builds that loaded it as a module called it `boot`; their manifest is refused.)
   */
  bootScript: z.string().regex(/^\/assets\/[\w.-]+\.js$/),
  /** A classic script the head runs inline before the body: the header's menus until the app has hydrated. */
  menus: z.string().regex(/^\/assets\/[\w.-]+\.js$/),
  /** The app (client/entry.tsx) first, then every chunk it imports statically. */
  app: z.array(z.string().regex(/^\/assets\//)).min(1),
  /** Every part of the stylesheet, in the cascade's order (shared/site.ts). */
  sheets: z.array(z.object({ name: z.enum(SHEETS), href: z.string().regex(/^\/assets\/[\w.-]+\.css$/) })),
  /** Per page module: the parts of the stylesheet its code draws with, besides the frame's. */
  pageSheets: z.record(z.string(), z.array(z.enum(SHEETS))),
  /** Per page module (its component's file name under shared/): its chunk and every chunk it imports statically. */
  modules: z.record(z.string(), z.array(z.string().regex(/^\/assets\//))),
})

export type ClientManifest = z.infer<typeof manifestSchema>

export interface ClientAssets {
  manifest: ClientManifest
  /** Each part of the stylesheet, in the cascade's order: a page inlines the parts it draws with (`sheetsFor`). */
  sheets: InlineSheet[]
  /** CSP sources allowing exactly those parts inline. */
  cssHashSources: string[]
  /** The menus script's text, inlined into every page's head: no request stands between the page and a working menu. */
  menusScript: string
  /** The boot script's text, inlined at the end of every page: no request stands between the page and its app. */
  bootScript: string
  /** CSP sources allowing exactly those two inline scripts. */
  scriptHashSources: string[]
}

const cspHashSource = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

/**
 * Why a script cannot be inlined as it is, if it cannot: nothing in it may end the element early
 * or change the parser's state, and the browser must hash the very bytes the server hashed (the
 * parser turns a carriage return into a line feed and a NUL into U+FFFD; React escapes
 * `<script`). The build checks its inlined scripts with this too.
 */
export function notInlineable(text: string): string | null {
  return /<\/|<!--|<script|\r|\0/i.test(text) ? 'contains "</", "<!--", "<script", a carriage return or a NUL' : null
}

/** A built script's text, to be inlined as it is. */
function inlineScript(rootDir: string, name: string, href: string): string {
  const text = fs.readFileSync(path.join(rootDir, 'dist', 'public', href), 'utf8').trim()
  const problem = notInlineable(text)
  if (problem) throw new Error(`The ${name} script ${problem} and cannot be inlined`)
  return text
}

/**
 * Reads the build manifest and the stylesheet it names. Without a build (unit and route tests
 * run from sources) pages still render, just without scripts and styles; `null` says so.
 */
export function loadClientAssets(rootDir: string): ClientAssets | null {
  const file = path.join(rootDir, 'dist', 'manifest.json')
  if (!fs.existsSync(file)) return null
  const parsed = manifestSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')))
  if (!parsed.success) throw new Error(`${file} is not a build manifest of this version of the site (run npm run build): ${parsed.error.message}`)
  const manifest = parsed.data
  const sheets = manifest.sheets.map(({ name, href }): InlineSheet => {
    const text = fs.readFileSync(path.join(rootDir, 'dist', 'public', href), 'utf8')
    if (text.includes('</')) throw new Error(`The stylesheet ${href} contains "</" and cannot be inlined`)
    return { name, text }
  })
  if (sheets.map(({ name }) => name).join() !== SHEETS.join()) throw new Error(`${file} lists the stylesheet's parts as ${sheets.map(({ name }) => name).join(', ')}, not ${SHEETS.join(', ')} (run npm run build)`)
  const menusScript = inlineScript(rootDir, 'menus', manifest.menus)
  const bootScript = inlineScript(rootDir, 'boot', manifest.bootScript)
  return { manifest, sheets, cssHashSources: sheets.map(({ text }) => cspHashSource(text)), menusScript, bootScript, scriptHashSources: [cspHashSource(menusScript), cspHashSource(bootScript)] }
}

/**
 * The parts of the stylesheet a page carries: the frame's and those of every page module drawn,
 * in the cascade's order. No module (the layout's own error page) draws with the frame's alone; a
 * module the build does not know (a build older than the sources) gets every part.
 */
export function sheetsFor(client: ClientAssets, modules: readonly string[]): InlineSheet[] {
  if (modules.some((module) => !client.manifest.pageSheets[module])) return client.sheets
  const wanted = new Set<SheetName>([...FRAME_SHEETS, ...modules.flatMap((module) => client.manifest.pageSheets[module]!)])
  return client.sheets.filter(({ name }) => wanted.has(name))
}
