import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

/** Written by scripts/build.ts: the hashed client files a page needs. */
const manifestSchema = z.object({
  /** The small module the page loads; it fetches the app once the page has painted. */
  boot: z.string().regex(/^\/assets\//),
  /** A classic script the head runs inline before the body: the header's menus until the app has hydrated. */
  menus: z.string().regex(/^\/assets\/[\w.-]+\.js$/),
  /** The app (client/entry.tsx) and every chunk it imports statically. */
  app: z.array(z.string().regex(/^\/assets\//)),
  stylesheets: z.array(z.string().regex(/^\/assets\/[\w.-]+\.css$/)),
  /** Per page module (its component's file name under shared/): its chunk and every chunk it imports statically. */
  modules: z.record(z.string(), z.array(z.string().regex(/^\/assets\//))),
})

export type ClientManifest = z.infer<typeof manifestSchema>

export interface ClientAssets {
  manifest: ClientManifest
  /** The stylesheets' text, inlined into every page. */
  css: string
  /** CSP source allowing exactly that inline stylesheet. */
  cssHashSource: string
  /** The menus script's text, inlined into every page's head: no request stands between the page and a working menu. */
  menusScript: string
  /** CSP source allowing exactly that inline script. */
  menusHashSource: string
}

const cspHashSource = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

/**
 * Reads the build manifest and the stylesheet it names. Without a build (unit and route tests
 * run from sources) pages still render, just without scripts and styles; `null` says so.
 */
export function loadClientAssets(rootDir: string): ClientAssets | null {
  const file = path.join(rootDir, 'dist', 'manifest.json')
  if (!fs.existsSync(file)) return null
  const manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')))
  const css = manifest.stylesheets.map((href) => fs.readFileSync(path.join(rootDir, 'dist', 'public', href), 'utf8')).join('\n')
  if (css.includes('</')) throw new Error('The stylesheet contains "</" and cannot be inlined')
  const menusScript = fs.readFileSync(path.join(rootDir, 'dist', 'public', manifest.menus), 'utf8').trim()
  if (menusScript.includes('</') || menusScript.includes('<!--')) throw new Error('The menus script contains "</" or "<!--" and cannot be inlined')
  return { manifest, css, cssHashSource: cspHashSource(css), menusScript, menusHashSource: cspHashSource(menusScript) }
}
