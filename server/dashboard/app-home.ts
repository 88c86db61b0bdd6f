/**
 * `GET /` (the app home: the account's widgets and emails), `POST logout`,
 * `GET clone/{hid}` and `GET clone-email/{hid}`: copy a template into the account, or send an
 * anonymous visitor to sign up first with the clone as the place to come back to.
 */
import type { Request, Response, Router } from 'express'
import { safeNext } from '../../shared/accounts/next.js'
import { TEMPLATE_ID } from '../../shared/gallery/paths.js'
import type { DashboardContext } from './context.js'
import { html, page } from './html.js'
import { dashboardStaticFiles } from './static-files.js'

type Kind = 'widget' | 'email'

/** The catalog of the site's data that holds templates of this kind. */
const catalogOf = (context: DashboardContext, kind: Kind) => context.data.galleries.catalogs[kind === 'widget' ? 'widgets' : 'emails']

function appHome(context: DashboardContext, user: { id: number; email: string }) {
  const items = context.db.prepare('SELECT kind, hid, created_at FROM templates WHERE user_id = ? ORDER BY id DESC LIMIT 200').all(user.id)
  const list = (kind: Kind) => items.filter((item) => item.kind === kind)
  const section = (kind: Kind, title: string, empty: string, gallery: string) => {
    const own = list(kind)
    return html`<h2>${title}</h2>${
      own.length
        ? html`<ul class="items">${own.map((item) => {
            const name = catalogOf(context, kind).byId(String(item.hid))?.name
            return html`<li>${name ? html`<strong>${name}</strong> ` : ''}${kind === 'widget' ? 'Widget' : 'Email'} from template <code>${String(item.hid)}</code>, added ${new Date(Number(item.created_at)).toUTCString()}</li>`
          })}</ul>`
        : html`<p class="muted">${empty} <a href="${gallery}">Browse the templates</a>.</p>`
    }`
  }
  return page(
    'Your dashboard',
    html`<main class="card">
      <div class="topbar"><h1>Your dashboard</h1>
        <form method="post" action="/app/logout"><button type="submit">Log out</button></form></div>
      <p>Signed in as <strong>${user.email}</strong>.</p>
      ${section('widget', 'Widgets', 'No widgets yet.', '/p/')}
      ${section('email', 'Emails', 'No emails yet.', '/e/')}
      <p><a href="/">Back to the site</a></p>
    </main>`,
    html`<script src="${dashboardStaticFiles().url('app-home.js')}" defer></script>`,
  )
}

export function appHomeRoutes(router: Router, context: DashboardContext): void {
  router.get('/', (req, res) => {
    const user = context.currentUser(req, res)
    if (!user) {
      res.redirect(302, '/login/?next=%2Fapp%2F')
      return
    }
    // After a log-in the forms send the visitor here with where they were going (a clone).
    const next = safeNext(typeof req.query.next === 'string' ? req.query.next : null, context.siteOrigin)
    if (next?.startsWith('/app/') && next !== '/app/') {
      res.set('Cache-Control', 'no-store').redirect(302, next)
      return
    }
    res.set('Cache-Control', 'no-store').type('html').send(appHome(context, user))
  })

  router.post('/logout', (req, res) => {
    res.set('Cache-Control', 'no-store').append('Set-Cookie', context.sessions.end(context.sessionToken(req))).redirect(303, '/')
  })

  const clone = (kind: Kind) => (req: Request, res: Response) => {
    const hid = String(req.params.hid)
    if (!TEMPLATE_ID.test(hid) || !catalogOf(context, kind).byId(hid)) {
      res.status(404).json({ message: 'No such template.' })
      return
    }
    const user = context.currentUser(req, res)
    if (!user) {
      const back = `/app/${kind === 'widget' ? 'clone' : 'clone-email'}/${hid}`
      res.redirect(302, `/start/?next=${encodeURIComponent(back)}`)
      return
    }
    context.db.prepare('INSERT INTO templates (user_id, kind, hid, created_at) VALUES (?, ?, ?, ?)').run(user.id, kind, hid, context.now())
    res.set('Cache-Control', 'no-store').redirect(302, '/app/')
  }
  router.get('/clone/:hid', clone('widget'))
  router.get('/clone-email/:hid', clone('email'))
}
