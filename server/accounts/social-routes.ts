/**
 * `GET api/v1/socialauth-begin/google-oauth2/?mode=signup-popup|signin-popup`: a local page that
 * stands in for the provider's consent screen (pick an account or type an email). Its form
 * signs the visitor in, and the answer page tells the opener `signupComplete` {user, login_url,
 * backend, is_new} by postMessage addressed to the site's origin only, then closes.
 */
import type { Router } from 'express'
import { MESSAGES } from './accounts.js'
import type { DashboardContext } from '../dashboard/context.js'
import { FieldErrors } from '../dashboard/errors.js'
import { html, page, SafeHtml } from '../dashboard/html.js'
import { dashboardStaticFiles } from '../dashboard/static-files.js'

const PROVIDER = 'google-oauth2'
const MODES = new Set(['signup-popup', 'signin-popup'])
const PATH = `/api/v1/socialauth-begin/${PROVIDER}/`

/** The sign-up's tracking payload, as JSON: at most this long. */
const MAX_TRACKING_LENGTH = 4096

/** The tracking payload the opener sent along (JSON text), or null; bad ones are refused by name. */
function readTracking(raw: unknown): string | null {
  if (raw === undefined || raw === '') return null
  if (typeof raw !== 'string' || raw.length > MAX_TRACKING_LENGTH) throw new FieldErrors({ tracking: `tracking must be JSON of at most ${MAX_TRACKING_LENGTH} characters` })
  try {
    const parsed: unknown = JSON.parse(raw)
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object')
  } catch {
    throw new FieldErrors({ tracking: 'tracking must be a JSON object' })
  }
  return raw
}

function chooser(mode: string, suggestions: string[], tracking: string | null, error?: string) {
  const heading = mode === 'signup-popup' ? 'Sign up with Google' : 'Log in with Google'
  return page(
    heading,
    html`<main class="card">
      <h1>${heading}</h1>
      <p class="muted">This local stand-in for Google's sign-in screen runs only while no dashboard is configured.</p>
      <form method="post" action="/app${PATH}?mode=${mode}" class="stack">
        ${tracking ? html`<input type="hidden" name="tracking" value="${tracking}">` : ''}
        ${suggestions.length ? html`<fieldset><legend>Choose an account</legend>${suggestions.map((email) => html`<button name="email" value="${email}" class="account">${email}</button>`)}</fieldset>` : ''}
        <label for="email">Or use another email</label>
        <input id="email" name="email" type="email" autocomplete="email" ${error ? html`aria-invalid="true" aria-describedby="email-error"` : ''}>
        ${error ? html`<p id="email-error" class="error">${error}</p>` : ''}
        <button type="submit" class="primary">Continue</button>
      </form>
    </main>`,
  )
}

export function socialRoutes(router: Router, context: DashboardContext): void {
  router.get(PATH, (req, res) => {
    const mode = typeof req.query.mode === 'string' ? req.query.mode : ''
    if (!MODES.has(mode)) {
      res.status(400).json({ errors: { mode: ['mode must be signup-popup or signin-popup'] } })
      return
    }
    let tracking: string | null
    try {
      tracking = readTracking(req.query.tracking)
    } catch (error) {
      if (!(error instanceof FieldErrors)) throw error
      res.status(400).json(error.body)
      return
    }
    const current = context.currentUser(req, res)
    res.set('Cache-Control', 'no-store').type('html').send(chooser(mode, current ? [current.email] : [], tracking))
  })

  router.post(PATH, context.limiters.register, (req, res) => {
    const mode = typeof req.query.mode === 'string' && MODES.has(req.query.mode) ? req.query.mode : 'signin-popup'
    let signedIn
    let tracking: string | null = null
    try {
      tracking = readTracking(req.body?.tracking)
      signedIn = context.accounts.socialSignIn({ email: req.body?.email, provider: PROVIDER, tracking }, context.currentUser(req, res))
    } catch (error) {
      if (!(error instanceof FieldErrors)) throw error
      const message = error.fields.email ?? error.fields.tracking ?? MESSAGES.emailInvalid
      res.status(400).set('Cache-Control', 'no-store').type('html').send(chooser(mode, [], tracking, message))
      return
    }
    const message = { type: 'signupComplete', user: signedIn.user, login_url: context.loginUrl, backend: PROVIDER, is_new: signedIn.isNew }
    // The message and its one allowed target travel as inert JSON; the script posts them.
    const data = JSON.stringify({ message, targetOrigin: context.siteOrigin }).replace(/</g, '\\u003c')
    res
      .set('Cache-Control', 'no-store')
      .append('Set-Cookie', signedIn.cookie)
      .type('html')
      .send(
        page(
          'Signed in',
          html`<main class="card"><h1>You are signed in</h1><p>This window closes by itself. If it stays open, close it and go back to the site.</p></main>
            <script type="application/json" id="social-result">${new SafeHtml(data)}</script>`,
          html`<script src="${dashboardStaticFiles().url('social-complete.js')}" defer></script>`,
        ),
      )
  })
}
