/**
 * `GET api/v2/emailmessages/{hid}/view`: an email template's real HTML, as a mail client gets it,
 * for the gallery's preview frame; `?format=text` gives its plain-text part, and `?view=inverted`
 * the HTML as clients that force a dark mode show it. Its images point at the site
 * (`/email-assets/`). Links open outside the frame.
 */
import type { Router } from 'express'
import { z } from 'zod'
import { TEMPLATE_ID } from '../../shared/gallery/paths.js'
import { EMAIL_ASSETS_PATH } from './email-catalog.js'
import type { DashboardContext } from '../dashboard/context.js'

const viewQuery = z.object({
  format: z.enum(['html', 'text'], 'must be html or text').optional(),
  view: z.enum(['inverted'], 'must be inverted').optional(),
})

/**
 * What the Gmail apps and Outlook do when they darken a message by force: backgrounds and text
 * change, pictures do not. The whole page is inverted, with the hue turned back so colours keep
 * their family; then pictures, elements drawn with a background image, and elements the email
 * marks with `em-keep` are inverted again, which gives them back as they are. Inside one of
 * those, nothing is inverted a third time.
 */
const KEEP = 'img,[background],[style*="background-image"],[style*="url("],.em-keep'
const FORCED_DARK_STYLE =
  `<style id="forced-dark">html{filter:invert(1) hue-rotate(180deg)}` +
  `:is(${KEEP}){filter:invert(1) hue-rotate(180deg)}` +
  `:is(${KEEP}) :is(${KEEP}){filter:none}</style>`

/** No scripts at all; the email's own inline styles; images from the site; framed by the site only. */
function contentSecurityPolicy(siteOrigin: string): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `img-src 'self' ${siteOrigin} data:`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors 'self' ${siteOrigin}`,
  ].join('; ')
}

export function emailViewRoutes(router: Router, context: DashboardContext): void {
  const catalog = context.data.galleries.catalogs.emails
  const assetsBase = `${context.siteOrigin}${EMAIL_ASSETS_PATH}`
  const headers = {
    'Content-Security-Policy': contentSecurityPolicy(context.siteOrigin),
    'Cache-Control': 'public, max-age=300',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  }

  // A preview frame: the email's links leave the frame instead of loading inside it. The pages
  // never change while the process runs, so each is made once, when first asked for. The
  // policy's inline styles allow the forced-dark style as they allow the email's own.
  const framed = new Map<string, string>()
  const framedHtml = (template: Parameters<typeof catalog.html>[0], inverted: boolean) => {
    const key = `${template.id}${inverted ? ':inverted' : ''}`
    let html = framed.get(key)
    if (html === undefined) {
      html = catalog.html(template, assetsBase).replace(/<head([^>]*)>/i, '<head$1><base target="_blank">')
      if (inverted) html = html.replace(/<\/head>/i, `${FORCED_DARK_STYLE}</head>`)
      framed.set(key, html)
    }
    return html
  }

  router.get('/api/v2/emailmessages/:hid/view', (req, res) => {
    const hid = String(req.params.hid)
    const query = viewQuery.safeParse({ format: req.query.format, view: req.query.view })
    if (!query.success) {
      const issue = query.error.issues[0]!
      const field = issue.path.join('.')
      res.status(400).json({ message: `${field}: ${issue.message}`, errors: { [field]: [issue.message] } })
      return
    }
    const template = TEMPLATE_ID.test(hid) ? catalog.byId(hid) : undefined
    if (!template) {
      res.status(404).json({ message: 'No such email template.' })
      return
    }
    res.set(headers)
    if (query.data.format === 'text') {
      res.type('text/plain; charset=utf-8').send(catalog.text(template))
      return
    }
    res.type('html').send(framedHtml(template, query.data.view === 'inverted'))
  })
}
