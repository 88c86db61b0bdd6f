/**
 * `GET outbox/`: the mails the local dashboard kept instead of sending (SMTP_URL unset). Only
 * outside production, or when DASHBOARD_OUTBOX turns it on: the reset links in it open accounts.
 */
import type { Router } from 'express'
import type { DashboardContext } from '../dashboard/context.js'
import { html, page } from '../dashboard/html.js'

export function outboxRoutes(router: Router, context: DashboardContext): void {
  const outbox = context.outbox
  if (!outbox || !context.showOutbox) return
  router.get('/outbox/', (_req, res) => {
    const mails = outbox.list()
    res
      .set('Cache-Control', 'no-store')
      .set('Referrer-Policy', 'no-referrer')
      .type('html')
      .send(
        page(
          'Outbox',
          html`<main class="card">
            <h1>Outbox</h1>
            <p class="muted">Mail the local dashboard would have sent. Set SMTP_URL to send it for real.</p>
            ${mails.length ? mails.map((mail) => html`<article class="mail"><h2>${mail.subject}</h2><p class="muted">To ${mail.to}, ${new Date(mail.createdAt).toUTCString()}</p><pre>${mail.text}</pre></article>`) : html`<p>No mail yet.</p>`}
          </main>`,
        ),
      )
  })
}
