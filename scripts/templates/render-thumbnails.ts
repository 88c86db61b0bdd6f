/**
 * `npm run thumbnails`: draws the master card image of every template from its own markup, in
 * Chromium, and records the template's revision beside it (data/generated/thumbnails/manifest.json). Only
 * templates whose revision changed (or whose image is missing) are drawn again; `--all` redraws
 * every one. A test fails when a template changed and its image did not, so run this after
 * editing templates and commit data/generated/thumbnails/.
 *
 * Widgets are shot on their live preview page (the widget in place on its backdrop, animation
 * finished); emails at 600 px, the top of the message. Masters are WebP at 716 px wide; the
 * server cuts the card sizes from them.
 */
import fs from 'node:fs'
import path from 'node:path'
import { chromium } from '@playwright/test'
import sharp from 'sharp'
import { galleryThumbnailSources } from './thumbnail-sources.js'
import { masterPath } from '../../server/gallery/thumbnails.js'
import { THUMBNAIL_ASPECT, THUMBNAIL_WIDTHS, type ThumbnailKind } from '../../shared/gallery/thumbnail-sizes.js'
import { browserPath } from '../lib/browser.js'
import { root, startSite, stop } from '../lib/server-process.js'
import { GENERATED } from '../../server/project-root.js'

const contentDir = path.join(root, 'data')
const manifestFile = path.join(contentDir, GENERATED, 'thumbnails', 'manifest.json')
const redrawAll = process.argv.includes('--all')
const MASTER_WIDTH = 716

type Manifest = Record<ThumbnailKind, Record<string, string>>
const manifest: Manifest = fs.existsSync(manifestFile) ? JSON.parse(fs.readFileSync(manifestFile, 'utf8')) : { widgets: {}, emails: {} }

/** The viewport each kind is shot in (CSS pixels), keeping the card's aspect. */
const VIEWPORTS: Record<ThumbnailKind, { width: number; height: number }> = {
  widgets: { width: 880, height: Math.round(880 / THUMBNAIL_ASPECT.widgets) },
  emails: { width: 600, height: Math.round(600 / THUMBNAIL_ASPECT.emails) },
}

if (!fs.existsSync(path.join(root, 'dist/server/main.js'))) {
  console.error('Build first: npm run build')
  process.exit(1)
}

const sources = galleryThumbnailSources(contentDir)
const site = await startSite({ LOG_LEVEL: 'warn', PAGE_CACHE_ENTRIES: '0' })
const browser = await chromium.launch({ executablePath: browserPath(), args: ['--no-sandbox', '--disable-background-networking'] })
let drawn = 0
try {
  for (const kind of Object.keys(THUMBNAIL_WIDTHS) as ThumbnailKind[]) {
    const viewport = VIEWPORTS[kind]
    // The masters are drawn at the scale that gives their width in device pixels.
    const context = await browser.newContext({ viewport, deviceScaleFactor: MASTER_WIDTH / viewport.width, reducedMotion: 'reduce' })
    const page = await context.newPage()
    for (const { hid, revision, framePath } of sources[kind]) {
      const file = masterPath(contentDir, kind, hid)
      if (!redrawAll && manifest[kind][hid] === revision && fs.existsSync(file)) continue
      const response = await page.goto(`http://127.0.0.1:${site.port}${framePath}`, { waitUntil: 'load' })
      if (!response?.ok()) throw new Error(`${framePath} answered ${response?.status()}`)
      // Entrance animations end (reduced motion shortens them); fonts and images are in.
      await page.evaluate(() => document.fonts.ready)
      await page.waitForTimeout(kind === 'widgets' ? 900 : 100)
      // The card shows the widget at rest: a modal takes the focus when it opens, and a focused
      // field would be drawn with its ring and caret.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
      const png = await page.screenshot({ type: 'png' })
      fs.mkdirSync(path.dirname(file), { recursive: true })
      await sharp(png).resize({ width: MASTER_WIDTH }).webp({ quality: 88 }).toFile(file)
      manifest[kind][hid] = revision
      drawn++
    }
    // Images of templates that no longer exist go.
    const current = new Set(sources[kind].map((source) => source.hid))
    for (const hid of Object.keys(manifest[kind])) {
      if (current.has(hid)) continue
      delete manifest[kind][hid]
      fs.rmSync(masterPath(contentDir, kind, hid), { force: true })
    }
    await context.close()
  }
} finally {
  await browser.close()
  await stop(site.child)
}
const sorted = Object.fromEntries(
  (Object.keys(manifest) as ThumbnailKind[]).map((kind) => [kind, Object.fromEntries(Object.entries(manifest[kind]).sort(([a], [b]) => a.localeCompare(b)))]),
)
fs.writeFileSync(manifestFile, `${JSON.stringify(sorted, null, 2)}\n`)
console.log(`${drawn} image(s) drawn; manifest: ${path.relative(root, manifestFile)}`)
