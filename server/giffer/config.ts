import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import type { Logger } from 'pino'
import type { RenderObserver } from './pool.js'
import { describeUploadCeiling, uploadCeiling, uploadDir, type UploadCeiling } from './uploads/local-store.js'
import { s3UploadOrigin, type S3StoreOptions } from './uploads/s3-bucket.js'
import type { Store } from 'express-rate-limit'
import type { Redis } from 'ioredis'

import { ConfigError, flag, isLocalUrl } from '../process/env.js'
import type { MemoryBudget } from '../process/memory-budget.js'
import type { Sizing, SizingSettings } from '../process/sizing.js'

/**
 * The defaults of the giffer's settings, whether they come from the environment or are given by
 * hand; `withDefaults` is the one place that applies them. Render threads, the memory limit, the
 * render cache and the memory budget are not among them: the process sizes itself once at start
 * (server/process/sizing.ts, `sizeProcess`) and hands its sizing and budget down.
 */
export const GIFFER_DEFAULTS = {
  queueMax: 16,
  jobTimeoutMs: 15_000,
  liveBucketSeconds: 5,
  releaseIdleMs: 10_000,
  uploadsPerAddress: 60,
  /** Recipients an evergreen timer keeps (a large list's send), all timers together, and the days each is kept past its deadline. */
  liveTimerKeys: { perTimer: 200_000, total: 1_000_000, keepAfterDays: 30 },
  /**
   * New recipient keys one address may add to one evergreen timer per minute; past it a new key
   * shares the deadline of the keys past a cap. Mail proxies fetch for many recipients from few
   * addresses: Apple Mail's privacy protection loads every image at delivery, so a send of
   * 500,000 Apple readers delivered within ten minutes is 50,000 first opens a minute, which 25
   * of its addresses carry at this rate. Gmail's proxy fetches at the open, spread over hours.
   */
  liveNewKeysPerAddress: 2_000,
  /** Live-timer links one address may mint per 10 minutes (each change on the generator page mints one). */
  liveMintsPerAddress: 120,
  /**
   * The whole time of a live timer's answer, from its arrival: under the 3 s within which an image
   * must come, with room for the site's proxy in front and the bytes on their way.
   */
  liveAnswerMs: 2_500,
  /**
   * Saved timers: how many are kept at once, the days of hourly counts kept for each, timers one
   * address may save in an hour, and changes of one timer in a minute.
   */
  savedTimers: { max: 100_000, statsDays: 90, savesPerAddressPerHour: 30, editsPerTimerPerMinute: 30 },
} as const

/**
 * The giffer's own environment variables. Each may be left unset (`npm start` needs no setup):
 * `withDefaults` fills in what is missing. The site's configuration extends this object;
 * docs/giffer.md lists the same variables.
 */
export const gifferEnvSchema = z.object({
  /**
   * Signs upload policies and live-timer URLs. Unset: a random secret kept in DATA_DIR/giffer-secret,
   * which only a local address may rely on (see `requireLastingSecret`).
   */
  GIFFER_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** The secret before the current one: what it signed stays valid while a new one is rolled in. */
  GIFFER_SECRET_PREVIOUS: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Render threads. Unset: one per CPU of the box but one, left to the event loop (at least one), as many as its memory holds. */
  GIFFER_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /** Jobs that may wait for a thread before requests get 503 + Retry-After (16). */
  GIFFER_QUEUE_MAX: z.coerce.number().int().min(0).max(10_000).optional(),
  /** How long one image may take, waiting included, before 503 (15 s). */
  GIFFER_JOB_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).optional(),
  /**
   * Resident memory of the process (MB) past which the render threads are replaced between jobs.
   * Unset: 90 % of the box's memory. The box's memory or more is taken, with a warning.
   */
  GIFFER_RSS_LIMIT_MB: z.coerce.number().int().min(64).max(1_048_576).optional(),
  /** Memory for rendered images (content-addressed cache; unset: 2 % of the box, at most 64 MB); 0 turns it off. More than the box leaves for it is taken, with a warning. */
  GIFFER_CACHE_MB: z.coerce.number().int().min(0).max(8_192).optional(),
  /** Live timers are rendered once per bucket of this many seconds (5). */
  GIFFER_LIVE_BUCKET_SECONDS: z.coerce.number().int().min(1).max(3_600).optional(),
  /** Recipients one evergreen live timer keeps (200000); past it a new recipient sees the full time, unstored. */
  LIVE_TIMER_KEYS_PER_TIMER: z.coerce.number().int().min(1).max(100_000_000).optional(),
  /** Recipients kept for all evergreen timers together (1000000). */
  LIVE_TIMER_KEYS_MAX: z.coerce.number().int().min(1).max(1_000_000_000).optional(),
  /** Days a recipient's deadline is kept after it has passed (30): a re-open then still shows the timer ended. */
  LIVE_TIMER_KEEP_DAYS: z.coerce.number().int().min(1).max(3_650).optional(),
  /** New recipient keys one address may add to one evergreen timer per minute (2000). */
  LIVE_TIMER_NEW_KEYS_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000_000).optional(),
  /** Live-timer links one address may mint per 10 minutes (120). */
  LIVE_TIMER_MINTS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).optional(),
  /**
   * The bearer token of `POST countdown/live-deadline`, with which a shop's back end sets
   * recipients' deadlines ahead. Unset: that API is off. A secret of its own, not GIFFER_SECRET:
   * whoever holds it can set deadlines, not sign timers or uploads.
   */
  LIVE_TIMER_PRESET_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
  /** Saved timers kept at once (100000); past it a new one is refused with 503, none is evicted. */
  SAVED_TIMERS_MAX: z.coerce.number().int().min(1).max(100_000_000).optional(),
  /** Days of hourly counts kept per saved timer (90). */
  SAVED_TIMER_STATS_DAYS: z.coerce.number().int().min(1).max(3_650).optional(),
  /** Timers one address may save per hour (30). */
  SAVED_TIMERS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).optional(),
  /** Changes (and deletions) of one saved timer per minute (30). */
  SAVED_TIMER_EDITS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).optional(),
  /**
   * The local upload folder's total (MB); unset: a quarter of its disk, at most 2048. An upload is
   * taken while the largest file still fits, so at least the 5 MB of one.
   */
  UPLOADS_MAX_MB: z.coerce.number().int().min(5).max(1_048_576).optional(),
  /** Free space the local upload folder always leaves on its disk (MB); unset: a tenth of the disk, at most 1024. */
  UPLOADS_MIN_FREE_MB: z.coerce.number().int().min(0).max(1_048_576).optional(),
  /** Photos one address may upload per 10 minutes (60); a third as many upload signatures. */
  UPLOADS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).optional(),
  /**
   * Where browsers reach the giffer directly (`https://img.example.com`). Unset: the site's
   * PUBLIC_URL + /giffer, through the site's proxy or in-process.
   */
  GIFFER_PUBLIC_URL: z.url().optional(),
  /** Uploads go to this S3 bucket; unset: to DATA_DIR/uploads. */
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** An S3-compatible endpoint that accepts POST policies (MinIO, Ceph…), as this process reaches it; unset: AWS. */
  S3_ENDPOINT: z.url().optional(),
  /** The same store as browsers reach it, when that differs from S3_ENDPOINT; unset: S3_ENDPOINT. */
  S3_PUBLIC_ENDPOINT: z.url().optional(),
  S3_FORCE_PATH_STYLE: flag.default(false),
})

export type GifferEnv = z.infer<typeof gifferEnvSchema>

/** What a caller gives: where the files are and the paths browsers see; everything else may be left out. */
export interface GifferOptions {
  /** The writable folder of local state (DATA_DIR): uploads in `<stateDir>/uploads`, the default secret in `<stateDir>/giffer-secret`. */
  stateDir: string
  /** The path prefix browsers see: '/giffer' in the site or behind its proxy, '' when reached directly. */
  publicPath: string
  /** The origin browsers reach the giffer at (`https://example.com`): absolute URLs (live timers) and accepted slideshow URLs. */
  publicOrigin: string
  /**
   * The site's public origin. While the giffer is reached on it, the URLs handed to pages are paths
   * (same-origin whatever host name the visitor used); on another origin they are absolute.
   */
  siteOrigin?: string
  /** Signs upload policies and live-timer URLs; unset: one kept in the state folder (`resolveGifferConfig`). */
  secret?: string
  /** A secret signed with before the current one, still accepted while a new one is rolled in. */
  previousSecret?: string
  s3?: S3StoreOptions
  queueMax?: number
  jobTimeoutMs?: number
  liveBucketSeconds?: number
  /** A render pool with no job for this long lets its threads go. */
  releaseIdleMs?: number
  /**
   * What the process chose for its box at start (server/process/sizing.ts): the render threads,
   * the resident memory past which they are replaced, the render cache, or that the box is too
   * small to draw images. GIFFER_WORKERS, GIFFER_RSS_LIMIT_MB and GIFFER_CACHE_MB reach the
   * service only through it.
   */
  sizing: Sizing
  /** The process's one native memory budget, which render jobs share (in the site, with password hashes). */
  budget: MemoryBudget
  /** The local upload folder's ceiling as set; what is unset follows its disk (`uploadCeiling`). */
  uploadCeiling?: Partial<UploadCeiling>
  /** Photos one address may upload per 10 minutes (signatures: a third as many). */
  uploadsPerAddress?: number
  /** Where per-address counts live when every process must share them (Redis); unset: this process's memory. */
  rateLimitStore?: (name: string) => Store
  /**
   * The Redis every process shares (REDIS_URL): evergreen live timers keep their recipients' first
   * opens there. Unset: in a SQLite file in the state folder, which this machine alone sees.
   */
  redis?: Redis
  /** How many recipients evergreen timers keep, and for how long past their deadlines. */
  liveTimerKeys?: Partial<LiveTimerKeys>
  /** New recipient keys one address may add to one evergreen timer per minute. */
  liveNewKeysPerAddress?: number
  /** Live-timer links one address may mint per 10 minutes. */
  liveMintsPerAddress?: number
  /** The whole time of a live timer's answer (2.5 s); tests that check what is drawn, on a machine busy with other tests, give it more. */
  liveAnswerMs?: number
  /** The bearer token of the pre-set API (`POST countdown/live-deadline`); unset: the API is off. */
  presetToken?: string
  /** Saved timers' caps, how long their counts are kept, and their rate limits. */
  savedTimers?: Partial<SavedTimerSettings>
  logger: Logger
  /** Told what each job cost (the metrics' wait and render times). */
  renderObserver?: RenderObserver
  /** The clock, in ms (tests move it). */
  now?: () => number
}

/** Options with every default applied (`withDefaults`); only the secret may still be missing. */
export interface GifferSettings extends GifferOptions {
  queueMax: number
  jobTimeoutMs: number
  liveBucketSeconds: number
  releaseIdleMs: number
  uploadsPerAddress: number
  liveTimerKeys: LiveTimerKeys
  liveNewKeysPerAddress: number
  liveMintsPerAddress: number
  liveAnswerMs: number
  savedTimers: SavedTimerSettings
  now: () => number
}

export interface SavedTimerSettings {
  max: number
  statsDays: number
  savesPerAddressPerHour: number
  editsPerTimerPerMinute: number
}

export interface LiveTimerKeys {
  perTimer: number
  total: number
  keepAfterDays: number
}

/** Everything the service runs with: the settings and the secret. */
export interface GifferConfig extends GifferSettings {
  secret: string
}

/** The one place where the giffer's defaults are applied. */
export function withDefaults(options: GifferOptions): GifferSettings {
  return {
    ...options,
    queueMax: options.queueMax ?? GIFFER_DEFAULTS.queueMax,
    jobTimeoutMs: options.jobTimeoutMs ?? GIFFER_DEFAULTS.jobTimeoutMs,
    liveBucketSeconds: options.liveBucketSeconds ?? GIFFER_DEFAULTS.liveBucketSeconds,
    releaseIdleMs: options.releaseIdleMs ?? GIFFER_DEFAULTS.releaseIdleMs,
    uploadsPerAddress: options.uploadsPerAddress ?? GIFFER_DEFAULTS.uploadsPerAddress,
    liveTimerKeys: {
      perTimer: options.liveTimerKeys?.perTimer ?? GIFFER_DEFAULTS.liveTimerKeys.perTimer,
      total: options.liveTimerKeys?.total ?? GIFFER_DEFAULTS.liveTimerKeys.total,
      keepAfterDays: options.liveTimerKeys?.keepAfterDays ?? GIFFER_DEFAULTS.liveTimerKeys.keepAfterDays,
    },
    liveNewKeysPerAddress: options.liveNewKeysPerAddress ?? GIFFER_DEFAULTS.liveNewKeysPerAddress,
    liveMintsPerAddress: options.liveMintsPerAddress ?? GIFFER_DEFAULTS.liveMintsPerAddress,
    liveAnswerMs: options.liveAnswerMs ?? GIFFER_DEFAULTS.liveAnswerMs,
    savedTimers: {
      max: options.savedTimers?.max ?? GIFFER_DEFAULTS.savedTimers.max,
      statsDays: options.savedTimers?.statsDays ?? GIFFER_DEFAULTS.savedTimers.statsDays,
      savesPerAddressPerHour: options.savedTimers?.savesPerAddressPerHour ?? GIFFER_DEFAULTS.savedTimers.savesPerAddressPerHour,
      editsPerTimerPerMinute: options.savedTimers?.editsPerTimerPerMinute ?? GIFFER_DEFAULTS.savedTimers.editsPerTimerPerMinute,
    },
    now: options.now ?? Date.now,
  }
}

/**
 * The secret kept in the state folder (`giffer-secret`), created with 32 random bytes the first
 * time, so that restarts and sibling processes agree.
 */
function loadOrCreateSecret(stateDir: string, logger: Logger): string {
  const file = path.join(stateDir, 'giffer-secret')
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    mkdirSync(stateDir, { recursive: true })
    try {
      writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 })
      logger.warn({ file }, 'GIFFER_SECRET is not set: created a random secret in the state folder')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    return readFileSync(file, 'utf8').trim()
  }
}

/**
 * The service's configuration: every default applied and the secret set up (GIFFER_SECRET, or
 * the one in the state folder). Called when the service starts, not when the site reads its
 * environment: a site that never draws an image writes no secret.
 */
export function resolveGifferConfig(options: GifferOptions): GifferConfig {
  const settings = withDefaults(options)
  return { ...settings, secret: settings.secret || loadOrCreateSecret(settings.stateDir, settings.logger) }
}

/**
 * Settings from a parsed environment; `base` carries what the host process knows (paths, logger,
 * its sizing and budget). The render variables are the sizing's (`renderSizingFromEnv`).
 */
export function gifferOptionsFromEnv(
  env: GifferEnv,
  base: Pick<GifferOptions, 'stateDir' | 'publicPath' | 'publicOrigin' | 'siteOrigin' | 'logger' | 'renderObserver' | 'sizing' | 'budget' | 'rateLimitStore' | 'redis'>,
): GifferSettings {
  const publicUrl = env.GIFFER_PUBLIC_URL ? new URL(env.GIFFER_PUBLIC_URL) : null
  return withDefaults({
    ...base,
    publicOrigin: publicUrl ? publicUrl.origin : base.publicOrigin,
    publicPath: publicUrl ? publicUrl.pathname.replace(/\/+$/, '') : base.publicPath,
    secret: env.GIFFER_SECRET,
    previousSecret: env.GIFFER_SECRET_PREVIOUS,
    s3: s3OptionsFromEnv(env),
    queueMax: env.GIFFER_QUEUE_MAX,
    jobTimeoutMs: env.GIFFER_JOB_TIMEOUT_MS,
    liveBucketSeconds: env.GIFFER_LIVE_BUCKET_SECONDS,
    uploadCeiling: uploadCeilingFromEnv(env),
    uploadsPerAddress: env.UPLOADS_PER_ADDRESS,
    liveTimerKeys: { perTimer: env.LIVE_TIMER_KEYS_PER_TIMER, total: env.LIVE_TIMER_KEYS_MAX, keepAfterDays: env.LIVE_TIMER_KEEP_DAYS },
    liveNewKeysPerAddress: env.LIVE_TIMER_NEW_KEYS_PER_ADDRESS,
    liveMintsPerAddress: env.LIVE_TIMER_MINTS_PER_ADDRESS,
    presetToken: env.LIVE_TIMER_PRESET_TOKEN,
    savedTimers: {
      max: env.SAVED_TIMERS_MAX,
      statsDays: env.SAVED_TIMER_STATS_DAYS,
      savesPerAddressPerHour: env.SAVED_TIMERS_PER_ADDRESS,
      editsPerTimerPerMinute: env.SAVED_TIMER_EDITS_PER_MINUTE,
    },
  })
}

const MB = 2 ** 20

/** What GIFFER_WORKERS, GIFFER_RSS_LIMIT_MB and GIFFER_CACHE_MB ask of the sizing (server/process/sizing.ts), in its units. */
export function renderSizingFromEnv(env: GifferEnv): Pick<SizingSettings, 'workers' | 'rssLimitBytes' | 'renderCacheBytes'> {
  return {
    workers: env.GIFFER_WORKERS,
    rssLimitBytes: env.GIFFER_RSS_LIMIT_MB === undefined ? undefined : env.GIFFER_RSS_LIMIT_MB * MB,
    renderCacheBytes: env.GIFFER_CACHE_MB === undefined ? undefined : env.GIFFER_CACHE_MB * MB,
  }
}

/** The local upload folder's ceiling, for the start-up line; nothing when uploads go to S3. */
export function uploadCeilingNote(env: GifferEnv, stateDir: string): string[] {
  return env.S3_BUCKET ? [] : [describeUploadCeiling(uploadCeiling(uploadDir(stateDir), uploadCeilingFromEnv(env)))]
}

/** The upload folder's ceiling as the environment sets it, in bytes. */
function uploadCeilingFromEnv(env: GifferEnv): Partial<UploadCeiling> {
  return {
    maxBytes: env.UPLOADS_MAX_MB === undefined ? undefined : env.UPLOADS_MAX_MB * MB,
    minFreeBytes: env.UPLOADS_MIN_FREE_MB === undefined ? undefined : env.UPLOADS_MIN_FREE_MB * MB,
  }
}

/** The S3 store's settings, when S3_BUCKET is set. Credentials are the AWS SDK's default chain's. */
export function s3OptionsFromEnv(env: GifferEnv): S3StoreOptions | undefined {
  if (!env.S3_BUCKET) return undefined
  return {
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    publicEndpoint: env.S3_PUBLIC_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
  }
}

/**
 * A giffer whose links reach the public (live timers in emails, upload policies) must sign with a
 * secret that outlives its disk: one made in DATA_DIR changes with every new disk, and every timer
 * already mailed would answer 403 from then on. Local addresses may keep the generated one.
 */
export function requireLastingSecret(secret: string | undefined, publicUrl: string): void {
  if (secret || isLocalUrl(publicUrl)) return
  throw new ConfigError(
    `GIFFER_SECRET: required when the image service's links are public (${new URL(publicUrl).origin}). Live timers sent in emails are signed with it, ` +
      'and a secret made on this disk changes with the next deploy, breaking every one of them. Set the same value (32 random characters or more) on every web and image-service process.',
  )
}

/**
 * Where browsers reach a standalone giffer: GIFFER_PUBLIC_URL when they reach it directly, else
 * the site's PUBLIC_URL + /giffer (through the site's proxy). In development and tests, without
 * either, its own port on localhost; in production that guess would put an internal address into
 * pages and emails, so the service does not start.
 */
export function standalonePublicUrl(env: { GIFFER_PUBLIC_URL?: string; PUBLIC_URL?: string; NODE_ENV: string; port: number }): URL {
  if (env.GIFFER_PUBLIC_URL) return new URL(env.GIFFER_PUBLIC_URL)
  if (env.PUBLIC_URL) return new URL('giffer', new URL(env.PUBLIC_URL).origin + '/')
  if (env.NODE_ENV !== 'production') return new URL(`http://localhost:${env.port}`)
  throw new ConfigError(
    "PUBLIC_URL: set it to the site's public address (this service's links are then PUBLIC_URL/giffer, through the site), or GIFFER_PUBLIC_URL to where browsers reach this service directly.",
  )
}

/**
 * The origins other than the site's own that pages must reach for the image service, as its
 * configuration names them: its public origin when it has one of its own (images shown, and the
 * local upload target), and the bucket browsers post uploads to. The Content Security Policy
 * opens exactly these.
 */
export function gifferBrowserOrigins(env: GifferEnv, siteOrigin: string): { images: string[]; uploads: string[] } {
  const own = env.GIFFER_PUBLIC_URL ? new URL(env.GIFFER_PUBLIC_URL).origin : siteOrigin
  const images = own === siteOrigin ? [] : [own]
  const s3 = s3OptionsFromEnv(env)
  const uploads = s3 ? [s3UploadOrigin(s3)].filter((origin) => origin !== siteOrigin) : images
  return { images, uploads }
}
