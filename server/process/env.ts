import { z } from 'zod'
import { trustProxySchema } from './proxy-trust.js'

/** A yes/no variable: true, false, 1, 0, yes or no. */
export const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes')

/** What every process reads, the site and the standalone image service alike. */
export const processEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** The writable folder of local state (config `stateDir`); the read-only content is `data/` of the project. */
  DATA_DIR: z.string().min(1).default('.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxySchema,
  /** After SIGTERM, how long the process keeps serving while unready, before it stops accepting (ms). */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(5_000),
  /** Then how long requests in flight get to finish (ms); unset: each process's own default. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  /** When set, GET /metrics answers only `Authorization: Bearer <token>`; unset, it is open. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
})

/**
 * Whether a URL can only be reached from this machine (localhost, `*.localhost`, 127/8, ::1):
 * what a developer runs, where the stricter checks of a public deployment do not apply.
 */
export function isLocalUrl(url: string): boolean {
  const host = new URL(url).hostname
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]'
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/**
 * Runs the start-up's reading of its configuration; a ConfigError stops the process with its
 * message alone (it names the variable), exit code 1. Any other error is a fault and is thrown.
 */
export function orExit<T>(read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(error.message)
    process.exit(1)
  }
}

/**
 * Reads the environment through a schema, once at start-up. Empty values count as unset; a bad
 * value throws a ConfigError naming every variable at fault.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.output<S> {
  const blankAsUnset = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''))
  const parsed = schema.safeParse(blankAsUnset)
  if (parsed.success) return parsed.data
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
  throw new ConfigError(`Invalid environment variables:\n${lines.join('\n')}`)
}
