import path from 'node:path'
import { z } from 'zod'
import { ConfigError, parseEnv, processEnvSchema } from './env.js'
import { dashboardEnvSchema, requireAiModel } from '../dashboard/config.js'
import { checkDeployment } from './deployment-checks.js'
import { gifferEnvSchema } from '../giffer/config.js'
import { projectRoot } from '../project-root.js'

/**
 * Every environment variable the site reads, with its default; the image service's own are in
 * its schema. README.md and docs/giffer.md document the same lists.
 */
const envSchema = gifferEnvSchema.extend(processEnvSchema.shape).extend(dashboardEnvSchema.shape).extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Unset: the address this process listens on, `http://localhost:$PORT`. */
  PUBLIC_URL: z.url().optional(),
  DASHBOARD_URL: z.url().optional(),
  GIFFER_URL: z.url().optional(),
  APP_URL: z.url().optional(),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Rendered pages kept in memory; unset: as many as the box's share for them holds (at most 500). */
  PAGE_CACHE_ENTRIES: z.coerce.number().int().min(0).max(100_000).optional(),
  /** Seconds a shared cache (CDN) may keep a page fresh (`s-maxage`); 0 keeps pages out of shared caches. */
  PAGE_SHARED_MAX_AGE: z.coerce.number().int().min(0).max(31_536_000).default(300),
  /** Seconds after that a shared cache may still answer once while it fetches a new copy. */
  PAGE_STALE_WHILE_REVALIDATE: z.coerce.number().int().min(0).max(31_536_000).default(86_400),
}).superRefine(requireAiModel)

export type Env = z.infer<typeof envSchema>

export interface Config extends Omit<Env, 'PUBLIC_URL'> {
  PUBLIC_URL: string
  /** Absolute path of the project root, where data/, public/ and dist/ live. */
  rootDir: string
  /** The read-only content folder, `<rootDir>/data`: copy, prices, galleries, read once by server/site-data.ts. */
  contentDir: string
  /** The writable folder of local state (DATA_DIR, `.data`): the local dashboard's database, the image service's uploads and secret. */
  stateDir: string
  /** PUBLIC_URL without a trailing slash, used for canonical links and the sitemap. */
  publicOrigin: string
  /** What the start-up checks found risky but allowed (server/process/deployment-checks.ts), logged once at start. */
  deploymentWarnings: string[]
}

export { ConfigError } from './env.js'

/** Parses the environment once; a bad variable throws a ConfigError naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, rootDir = projectRoot): Config {
  const values = parseEnv(envSchema, env)
  // Every absolute URL the site makes (canonical links, email images, live timers) must reach this
  // process when nothing else is configured, whatever port it was given.
  const publicUrl = values.PUBLIC_URL ?? `http://localhost:${values.PORT}`
  const { refusals, warnings } = checkDeployment({ ...values, PUBLIC_URL: publicUrl })
  if (refusals.length) throw new ConfigError(refusals.join('\n'))
  return {
    deploymentWarnings: warnings,
    ...values,
    PUBLIC_URL: publicUrl,
    rootDir,
    contentDir: path.join(rootDir, 'data'),
    stateDir: path.resolve(rootDir, values.DATA_DIR),
    publicOrigin: new URL(publicUrl).origin,
  }
}
