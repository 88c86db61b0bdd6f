/**
 * The local dashboard, served at /app/ when no DASHBOARD_URL is set (and on its own by
 * `npm run dashboard`): accounts, sessions, password reset with a mail outbox, the social
 * sign-in stand-in, partner tracking, template cloning, a minimal app home and the subject line
 * generator.
 *
 *   const dashboard = createDashboard(options)   // options: DashboardOptions (context.ts)
 *   app.use('/app', dashboard.router)
 *   await dashboard.close()                      // on shutdown: pending mail, then the database
 */
import express from 'express'
import { SmtpMailer } from '../accounts/mail.js'
import type { Dependency } from '../process/readiness.js'
import { HttpError } from '../process/errors.js'
import { compressResponses } from '../process/http-cache.js'
import { dashboardStaticFiles } from './static-files.js'
import { createDashboardContext, type DashboardContext, type DashboardOptions } from './context.js'
import { sameOriginOnly } from './csrf.js'
import { dashboardErrorHandler } from './errors.js'
import { aiSubjectRoutes } from '../generators/subject-lines/routes.js'
import { appHomeRoutes } from './app-home.js'
import { outboxRoutes } from '../accounts/outbox-routes.js'
import { partnerRoutes } from '../tracking/partners-routes.js'
import { emailViewRoutes } from '../gallery/email-view-routes.js'
import { previewRoutes } from '../gallery/preview-routes.js'
import { socialRoutes } from '../accounts/social-routes.js'
import { userRoutes } from '../accounts/users-routes.js'

/** Account requests are small: an email, a password, the tracking context. */
const BODY_LIMIT = '16kb'

export interface Dashboard {
  router: express.Router
  context: DashboardContext
  /** What `/readyz` reports of the dashboard's own services: the SMTP server, when set (Redis is its host's). */
  dependencies: Dependency[]
  close(): Promise<void>
}

function dashboardDependencies({ mailer }: DashboardContext): Dependency[] {
  // Account mail waits in its queue while the SMTP server is away: pages never need it.
  return mailer instanceof SmtpMailer ? [{ name: 'smtp', optional: true, reachable: () => mailer.verify() }] : []
}

export function createDashboard(options: DashboardOptions): Dashboard {
  const context = createDashboardContext(options)
  const router = express.Router()

  // Compressed here, not by the site around it: the dashboard also runs on its own.
  router.use(compressResponses())
  router.use('/static', dashboardStaticFiles().router)
  router.use(sameOriginOnly(context.siteOrigin, context.allowedOrigins))
  router.use(express.json({ limit: BODY_LIMIT }), express.urlencoded({ extended: false, limit: BODY_LIMIT, parameterLimit: 20 }))
  // A body the parsers above did not read (multipart, plain text…) would pass as an empty one.
  router.use((req, _res, next) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0
    const unread = req.body === undefined && hasBody
    next(unread ? new HttpError(415, 'unsupported_media_type', 'Send the body as JSON or as a form.', 'body') : undefined)
  })
  for (const addRoutes of [userRoutes, socialRoutes, partnerRoutes, appHomeRoutes, outboxRoutes, previewRoutes, emailViewRoutes, aiSubjectRoutes]) addRoutes(router, context)
  router.use((_req, res) => {
    res.status(404).set('Cache-Control', 'no-store').json({ message: 'Not found' })
  })
  router.use(dashboardErrorHandler)

  return { router, context, dependencies: dashboardDependencies(context), close: () => context.close() }
}
