import { availableParallelism } from 'node:os'
import { z } from 'zod'
import type { Logger } from 'pino'
import type { S3StoreOptions } from './uploads.js'

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes')

/** Defaults shared by the environment schema and by callers that build options by hand. */
export const GIFFER_DEFAULTS = { queueMax: 16, jobTimeoutMs: 15_000, cacheMb: 128, liveBucketSeconds: 5 } as const

/**
 * The giffer's own environment variables, each with a default so that `npm start` needs no
 * setup. The site's configuration extends this object; docs/giffer.md lists the same variables.
 */
export const gifferEnvSchema = z.object({
  /** Signs upload policies and live-timer URLs. Unset: a random secret kept in DATA_DIR/giffer-secret. */
  GIFFER_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Render threads. Unset: one per core but one, left to the event loop (at least one). */
  GIFFER_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /** Jobs that may wait for a thread before requests get 503 + Retry-After. */
  GIFFER_QUEUE_MAX: z.coerce.number().int().min(0).max(10_000).default(GIFFER_DEFAULTS.queueMax),
  /** How long one image may take, waiting included, before 503. */
  GIFFER_JOB_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(GIFFER_DEFAULTS.jobTimeoutMs),
  /**
   * Resident memory of the process (MB) past which the render threads are replaced between jobs.
   * Unset: 512 MB plus 256 MB per render thread.
   */
  GIFFER_RSS_LIMIT_MB: z.coerce.number().int().min(64).max(1_048_576).optional(),
  /** Memory for rendered images (content-addressed cache); 0 turns it off. */
  GIFFER_CACHE_MB: z.coerce.number().int().min(0).max(8_192).default(GIFFER_DEFAULTS.cacheMb),
  /** Live timers are rendered once per bucket of this many seconds. */
  GIFFER_LIVE_BUCKET_SECONDS: z.coerce.number().int().min(1).max(3_600).default(GIFFER_DEFAULTS.liveBucketSeconds),
  /**
   * Where browsers reach the giffer (`https://example.com/giffer` behind the site's proxy).
   * Unset: the site's PUBLIC_URL + /giffer when mounted; the request's own origin standalone.
   */
  GIFFER_PUBLIC_URL: z.url().optional(),
  /** Uploads go to this S3 bucket; unset: to DATA_DIR/uploads. */
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** An S3-compatible endpoint (MinIO, R2…); unset: AWS. */
  S3_ENDPOINT: z.url().optional(),
  S3_FORCE_PATH_STYLE: flag.default(false),
  /** Unset: the AWS SDK's default chain (instance role, profile…). */
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
})

export type GifferEnv = z.infer<typeof gifferEnvSchema>

export interface GifferOptions {
  /** Root of the giffer's files: uploads in `<dataDir>/uploads`, the default secret in `<dataDir>/giffer-secret`. */
  dataDir: string
  /** The path prefix browsers see: '/giffer' in the site or behind its proxy, '' when reached directly. */
  publicPath: string
  /** The origin browsers see (`https://example.com`): absolute URLs (live timers) and accepted slideshow URLs. */
  publicOrigin?: string
  secret?: string
  s3?: S3StoreOptions
  workers?: number
  queueMax?: number
  jobTimeoutMs?: number
  rssLimitBytes?: number
  cacheBytes?: number
  liveBucketSeconds?: number
  logger: Logger
  /** The clock, in ms (tests move it). */
  now?: () => number
}

/** One render thread per core, keeping one core for the event loop. */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism() - 1)
}

/** The process memory past which render threads are replaced: room for the site plus each thread's largest job. */
export function defaultRssLimitBytes(workers: number): number {
  return (512 + 256 * workers) * 2 ** 20
}

/** Options from a parsed environment; `base` carries what the host app knows (paths, logger). */
export function gifferOptionsFromEnv(
  env: GifferEnv,
  base: Pick<GifferOptions, 'dataDir' | 'publicPath' | 'logger'> & { publicOrigin?: string },
): GifferOptions {
  const publicUrl = env.GIFFER_PUBLIC_URL ? new URL(env.GIFFER_PUBLIC_URL) : null
  return {
    ...base,
    publicOrigin: publicUrl ? publicUrl.origin : base.publicOrigin,
    publicPath: publicUrl ? publicUrl.pathname.replace(/\/+$/, '') : base.publicPath,
    secret: env.GIFFER_SECRET,
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          region: env.S3_REGION,
          endpoint: env.S3_ENDPOINT,
          forcePathStyle: env.S3_FORCE_PATH_STYLE,
          credentials:
            env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
              ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY }
              : undefined,
        }
      : undefined,
    workers: env.GIFFER_WORKERS ?? defaultWorkers(),
    queueMax: env.GIFFER_QUEUE_MAX,
    jobTimeoutMs: env.GIFFER_JOB_TIMEOUT_MS,
    rssLimitBytes: env.GIFFER_RSS_LIMIT_MB === undefined ? undefined : env.GIFFER_RSS_LIMIT_MB * 2 ** 20,
    cacheBytes: env.GIFFER_CACHE_MB * 1024 * 1024,
    liveBucketSeconds: env.GIFFER_LIVE_BUCKET_SECONDS,
  }
}
