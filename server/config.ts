import path from 'node:path'
import { z } from 'zod'
import { gifferEnvSchema } from './giffer/config.js'
import { projectRoot } from './project-root.js'

/**
 * Every environment variable the site reads, with its default; the image service's own are in
 * its schema. README.md and docs/giffer.md document the same lists.
 */
const envSchema = gifferEnvSchema.extend({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  DASHBOARD_URL: z.url().optional(),
  GIFFER_URL: z.url().optional(),
  APP_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  PAGE_CACHE_ENTRIES: z.coerce.number().int().min(0).max(100_000).default(500),
  TRUST_PROXY: z.string().default('loopback'),
})

export type Env = z.infer<typeof envSchema>

export interface Config extends Env {
  /** Absolute path of the project root, where data/, public/ and dist/ live. */
  rootDir: string
  dataDir: string
  /** PUBLIC_URL without a trailing slash, used for canonical links and the sitemap. */
  publicOrigin: string
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Parses the environment once; a bad variable throws a ConfigError naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, rootDir = projectRoot): Config {
  const blankAsUnset = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''))
  const parsed = envSchema.safeParse(blankAsUnset)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new ConfigError(`Invalid environment variables:\n${lines.join('\n')}`)
  }
  const values = parsed.data
  return {
    ...values,
    rootDir,
    dataDir: path.resolve(rootDir, values.DATA_DIR),
    publicOrigin: new URL(values.PUBLIC_URL).origin,
  }
}
