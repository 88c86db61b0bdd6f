/**
 * `GET preview/{hid}?theme=light|dark`: a widget template working on a made-up shop page, in its
 * real position and with its entrance animation. The site's galleries load it in a frame; an
 * embedding page may steer it with `navigate` messages (server/dashboard/static/widget-preview.ts,
 * docs/galleries.md). It runs sandboxed, its stylesheets and script inline.
 */
import { createHash } from 'node:crypto'
import type { Response, Router } from 'express'
import type { Logger } from 'pino'
import { z } from 'zod'
import { TEMPLATE_ID, WIDGET_PREVIEW_SANDBOX } from '../../shared/gallery/paths.js'
import type { CatalogTemplate } from './widget-catalog.js'
import { renderWidget } from './widget-render.js'
import type { DashboardContext } from '../dashboard/context.js'
import { html, SafeHtml } from '../dashboard/html.js'
import { dashboardStaticFiles } from '../dashboard/static-files.js'

const previewQuery = z.object({ theme: z.enum(['light', 'dark']).optional() })

/**
 * A sandboxed page has an opaque origin, always an agent cluster of its own: asking for origin
 * keying as well (helmet's default) only makes Chromium warn that it cannot.
 */
const NO_ORIGIN_KEYING = { 'Origin-Agent-Cluster': '?0' }

/** A stylesheet or script carried inline: its text as the element holds it, and its CSP source. */
interface Inline {
  text: SafeHtml
  source: string
}

/**
 * What would end an inline element early, or (in a script) make the HTML parser miss its end; or
 * a NUL, which the parser replaces, so that the element's hash no longer matches.
 */
const BREAKS: Record<'script' | 'style', RegExp> = { script: /<!--|<script|<\/script|\0/i, style: /<\/style|\0/i }

/** A stylesheet or script as the preview carries it inline; throws if it cannot be (the build checks its files with this too). */
export function inlined(text: string, element: 'script' | 'style'): Inline {
  // The browser reads an element's line ends as LF, and hashes that.
  const normalized = text.replace(/\r\n?/g, '\n')
  const broken = BREAKS[element].exec(normalized)
  if (broken) throw new Error(`the preview's ${element} cannot be carried inline: it holds ${JSON.stringify(broken[0])}`)
  return { text: new SafeHtml(normalized), source: `'sha256-${createHash('sha256').update(normalized).digest('base64')}'` }
}

/**
 * The page's own policy: its stylesheets and its one script inline, each by hash (a sandboxed
 * page's own origin is opaque, and Chromium keeps nothing it fetches in its cache), framed by
 * the site only, and sandboxed: an origin of its own, so scripts, forms and nothing more.
 */
function contentSecurityPolicy(styles: Inline[], scripts: Inline[]): string {
  const sources = (inlines: Inline[]) => inlines.map((each) => each.source).join(' ') || "'none'"
  return [
    "default-src 'none'",
    `script-src ${sources(scripts)}`,
    `style-src ${sources(styles)}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
    `sandbox ${WIDGET_PREVIEW_SANDBOX}`,
  ].join('; ')
}

const SHOP_ITEMS: [string, string][] = [
  ['Terracotta vase', '$48'],
  ['Linen throw', '$89'],
  ['Brass candle holder', '$34'],
  ['Stoneware mug set', '$42'],
  ['Wool cushion', '$56'],
  ['Ceramic planter', '$38'],
]

interface PreviewAssets {
  /** The preview's own stylesheet (the shop, the heading, "Show the widget again"). */
  css: Inline
  /** What makes the widget work (server/dashboard/static/widget-preview.ts, bundled). */
  script: Inline
}

let assets: Promise<PreviewAssets> | undefined
/**
 * Whether the preview's files failing has been logged: once a process, since bad addresses are
 * many (and once read, the files are kept, so they cannot fail after working).
 */
let unreadableLogged = false

/** Read and checked once (again after a failure). */
function previewAssets(): Promise<PreviewAssets> {
  if (!assets) {
    const files = dashboardStaticFiles()
    assets = Promise.all([files.text('preview.css'), files.text('widget-preview.js')]).then(([css, script]) => ({ css: inlined(css, 'style'), script: inlined(script, 'script') }))
    assets.catch(() => (assets = undefined))
  }
  return assets
}

function shopPage(template: CatalogTemplate, theme: 'light' | 'dark', assets: PreviewAssets): { body: string; styles: Inline[]; scripts: Inline[] } {
  const widget = renderWidget(template, { theme })
  const widgetCss = inlined(widget.css, 'style')
  const inline = template.layout === 'inline'
  const widgetMarkup = new SafeHtml(widget.html)
  // The shop is scenery, hidden from assistive technology: the page's heading and main landmark
  // name the template and hold the widget, wherever it shows.
  const heading = html`<h1 class="preview-heading">${template.name}: live preview</h1>`
  const replay = html`<button type="button" class="preview-replay" data-preview-replay hidden>Show the widget again</button>`
  const body = html`<!doctype html><html lang="en" data-theme="${widget.theme}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${template.name} · live preview · Poplift</title><link rel="icon" href="/favicon.png" type="image/png" sizes="48x48"><style>${assets.css.text}</style><style>${widgetCss.text}</style></head><body class="${inline ? 'preview-inline' : 'preview'}">
<div class="shop" aria-hidden="true" inert>
<header class="shop-header"><span class="shop-logo">Fern<span>&amp;</span>Field</span><nav class="shop-nav"><span>New in</span><span>Living</span><span>Kitchen</span><span>Gifts</span><span>Journal</span></nav><span class="shop-cart">2</span></header>
<section class="shop-hero"><div><h1>Slow living, well made</h1><p>Handmade homeware from small studios. Free returns for 60 days, and every order ships in plastic-free packaging.</p><span class="shop-cta">Shop the collection</span></div><div class="shop-visual"></div></section>
</div>
${inline ? html`<main class="shop-section">${heading}${widgetMarkup}${replay}</main>` : ''}
<div class="shop" aria-hidden="true" inert>
<section class="shop-section"><h2>Bestsellers</h2><div class="shop-grid">${SHOP_ITEMS.map(([name, price]) => html`<div class="shop-item"><div class="shop-thumb"></div><b>${name}</b><span>${price}</span></div>`)}</div></section>
<footer class="shop-footer"><span>Fern &amp; Field, 12 Market Street</span><span>Shipping</span><span>Returns</span><span>Contact</span></footer>
</div>
${inline ? '' : html`<main class="preview-main">${heading}${widgetMarkup}${replay}</main>`}
<script>${assets.script.text}</script>
</body></html>`
  return { body: body.value, styles: [assets.css, widgetCss], scripts: [assets.script] }
}


/**
 * The page for an address that names no preview: styled when the preview's files can be read,
 * plain when they cannot (a broken build must not turn a visitor's mistake into a 500).
 */
async function missingPage(res: Response, logger: Logger, status: number, title: string, text: string) {
  const css = (
    await previewAssets().catch((error: unknown) => {
      if (!unreadableLogged) logger.error({ err: error }, 'the widget preview’s own files cannot be read or carried inline: its error pages go unstyled')
      unreadableLogged = true
      return undefined
    })
  )?.css
  const body = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title} · Poplift</title>${css ? html`<style>${css.text}</style>` : ''}</head><body><main class="preview-missing"><h1>${title}</h1><p>${text}</p><p><a href="/p/">Browse the widget templates</a></p></main></body></html>`
  res
    .status(status)
    .set({ 'Content-Security-Policy': contentSecurityPolicy(css ? [css] : [], []), ...NO_ORIGIN_KEYING, 'X-Frame-Options': 'SAMEORIGIN', 'Cache-Control': 'no-store' })
    .type('html')
    .send(body.value)
}

export function previewRoutes(router: Router, context: DashboardContext): void {
  const catalog = context.data.galleries.catalogs.widgets

  router.get('/preview/:hid', async (req, res) => {
    const hid = String(req.params.hid)
    const template = TEMPLATE_ID.test(hid) ? catalog.byId(hid) : undefined
    if (!template) return missingPage(res, context.logger, 404, 'No such template', 'This widget template does not exist, or no longer does.')
    const query = previewQuery.safeParse({ theme: req.query.theme })
    if (!query.success) return missingPage(res, context.logger, 400, 'Unknown theme', 'theme: must be light or dark.')
    const assets = await previewAssets()
    // Custom templates keep their own colours, and unthemed ones have only one look: both draw light.
    const theme = query.data.theme === 'dark' && template.themed ? 'dark' : 'light'
    const page = shopPage(template, theme, assets)
    res
      .set({
        'Content-Security-Policy': contentSecurityPolicy(page.styles, page.scripts),
        ...NO_ORIGIN_KEYING,
        'X-Frame-Options': 'SAMEORIGIN',
        'Cache-Control': 'public, max-age=300',
        Vary: 'Accept-Encoding',
      })
      .type('html')
      .send(page.body)
  })
}
