import { z } from 'zod'
import { flag } from '../env.js'

/**
 * The local dashboard's own environment variables (the site's configuration extends these;
 * README lists them). None is needed: without SMTP_URL mail goes to the outbox.
 */
export const dashboardEnvSchema = z.object({
  /** Mail goes out through this SMTP server (`smtp://user:pass@host:587`, `smtps://…`); unset: the outbox. */
  SMTP_URL: z.url().optional(),
  /** The sender of account mail. */
  MAIL_FROM: z.string().min(3).default('Poplift <no-reply@poplift.localhost>'),
  /** Shows the outbox page in production too (it is always on in development and test). */
  DASHBOARD_OUTBOX: flag.default(false),
})

export type DashboardEnv = z.infer<typeof dashboardEnvSchema>
