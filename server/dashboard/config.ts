import { z } from 'zod'
import { flag, type processEnvSchema } from '../process/env.js'
import type { DashboardOptions } from './context.js'

/**
 * The local dashboard's own environment variables (the site's configuration extends these;
 * README lists them). None is needed: without SMTP_URL mail goes to the outbox.
 */
export const dashboardEnvSchema = z.object({
  /** Redis for the counts every process must share (per-address limits, log-in delays); unset: this process's memory. */
  REDIS_URL: z.url().optional(),
  /** Mail goes out through this SMTP server (`smtp://user:pass@host:587`, `smtps://…`); unset: the outbox. */
  SMTP_URL: z.url().optional(),
  /** The sender of account mail. */
  MAIL_FROM: z.string().min(3).default('Poplift <no-reply@poplift.localhost>'),
  /** Shows the outbox page in production too (it is always on in development and test). */
  DASHBOARD_OUTBOX: flag.default(false),
  /** Base URL of an OpenAI-compatible chat-completions server for the subject line generator; unset: the offline composer. */
  AI_API_URL: z.url().optional(),
  /** Its key (local servers such as Ollama need none). */
  AI_API_KEY: z.string().min(1).optional(),
  /** The model to ask; needed with AI_API_URL. */
  AI_MODEL: z.string().min(1).max(200).optional(),
  /** Time limit of one call to the model, after which the offline composer answers. */
  AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8_000),
})

export type DashboardEnv = z.infer<typeof dashboardEnvSchema>

/** A language model for the subject line generator. */
export interface AiSettings {
  url: string
  apiKey?: string
  model: string
  timeoutMs: number
}

/** The model settings, when AI_API_URL is set. */
export function aiSettings(env: Pick<DashboardEnv, 'AI_API_URL' | 'AI_API_KEY' | 'AI_MODEL' | 'AI_TIMEOUT_MS'>): AiSettings | undefined {
  if (!env.AI_API_URL || !env.AI_MODEL) return undefined
  return { url: env.AI_API_URL, apiKey: env.AI_API_KEY, model: env.AI_MODEL, timeoutMs: env.AI_TIMEOUT_MS }
}

/** What a process that runs the local dashboard reads of its environment (the site's, or the standalone dashboard's). */
export type DashboardHostEnv = DashboardEnv & Pick<z.infer<typeof processEnvSchema>, 'NODE_ENV'> & { APP_URL?: string }

/** The dashboard's settings that come from the environment and where the process runs. */
export type DashboardSettings = Pick<DashboardOptions, 'stateDir' | 'siteOrigin' | 'appUrl' | 'smtpUrl' | 'mailFrom' | 'showOutbox' | 'ai'>

/**
 * The one place where the environment becomes dashboard settings, for the site's in-process
 * dashboard and `npm run dashboard` alike: `stateDir` is the resolved DATA_DIR, `siteOrigin` the
 * site's public origin.
 */
export function dashboardSettings(env: DashboardHostEnv, where: Pick<DashboardOptions, 'stateDir' | 'siteOrigin'>): DashboardSettings {
  return {
    ...where,
    appUrl: env.APP_URL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    showOutbox: env.NODE_ENV !== 'production' || env.DASHBOARD_OUTBOX,
    ai: aiSettings(env),
  }
}

/** A check for the whole environment: a model server without a model name is a mistake worth stopping for. */
export function requireAiModel(env: { AI_API_URL?: string; AI_MODEL?: string }, ctx: z.RefinementCtx): void {
  if (env.AI_API_URL && !env.AI_MODEL) ctx.addIssue({ code: 'custom', path: ['AI_MODEL'], message: 'is required when AI_API_URL is set' })
}
