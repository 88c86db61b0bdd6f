import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../server/process/env.js'
import { gifferBrowserOrigins, gifferEnvSchema, gifferOptionsFromEnv, renderSizingFromEnv, standalonePublicUrl } from '../../server/giffer/config.js'
import { testSizing } from './setup.js'

const base = { stateDir: '/srv/data', publicPath: '/giffer', publicOrigin: 'https://site.example', logger: pino({ level: 'silent' }), ...testSizing() }

describe('giffer configuration', () => {
  it('needs no variable at all: every one has a default', () => {
    const env = gifferEnvSchema.parse({})
    const options = gifferOptionsFromEnv(env, base)
    expect(options).toMatchObject({ publicPath: '/giffer', publicOrigin: 'https://site.example', queueMax: 16, jobTimeoutMs: 15_000, liveBucketSeconds: 5 })
    expect(options.secret).toBeUndefined()
    expect(options.s3).toBeUndefined()
  })

  it("runs on the sizing and budget the process handed it, whatever the render variables say: they are the sizing's", () => {
    const env = gifferEnvSchema.parse({ GIFFER_WORKERS: '5', GIFFER_RSS_LIMIT_MB: '300', GIFFER_CACHE_MB: '0' })
    const options = gifferOptionsFromEnv(env, base)
    expect(options.sizing).toBe(base.sizing)
    expect(options.budget).toBe(base.budget)
    expect(options).not.toHaveProperty('workers')
    expect(options).not.toHaveProperty('rssLimitBytes')
    expect(options).not.toHaveProperty('cacheBytes')
    expect(renderSizingFromEnv(env)).toEqual({ workers: 5, rssLimitBytes: 300 * 2 ** 20, renderCacheBytes: 0 })
  })

  it('takes the public origin and path from GIFFER_PUBLIC_URL', () => {
    const env = gifferEnvSchema.parse({ GIFFER_PUBLIC_URL: 'https://www.example.com/giffer/' })
    expect(gifferOptionsFromEnv(env, { ...base, publicPath: '' })).toMatchObject({ publicOrigin: 'https://www.example.com', publicPath: '/giffer' })
  })

  it('turns the S3 variables into S3 settings', () => {
    const env = gifferEnvSchema.parse({
      S3_BUCKET: 'uploads-bucket',
      S3_REGION: 'eu-central-1',
      S3_ENDPOINT: 'http://minio.internal:9000',
      S3_PUBLIC_ENDPOINT: 'https://files.example.com',
      S3_FORCE_PATH_STYLE: 'true',
    })
    expect(gifferOptionsFromEnv(env, base).s3).toEqual({
      bucket: 'uploads-bucket',
      region: 'eu-central-1',
      endpoint: 'http://minio.internal:9000',
      publicEndpoint: 'https://files.example.com',
      forcePathStyle: true,
    })
  })

  it.each([
    ['GIFFER_SECRET', 'short'],
    ['GIFFER_WORKERS', '0'],
    ['GIFFER_QUEUE_MAX', '-1'],
    ['GIFFER_JOB_TIMEOUT_MS', 'soon'],
    ['GIFFER_PUBLIC_URL', 'not a url'],
    ['S3_FORCE_PATH_STYLE', 'maybe'],
  ])('refuses a bad %s, naming it', (name, value) => {
    const result = gifferEnvSchema.safeParse({ [name]: value })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path).toEqual([name])
  })

  it('puts a standalone service behind the site at PUBLIC_URL/giffer, or where GIFFER_PUBLIC_URL says', () => {
    expect(standalonePublicUrl({ PUBLIC_URL: 'https://www.example.com', NODE_ENV: 'production', port: 3001 }).href).toBe('https://www.example.com/giffer')
    expect(standalonePublicUrl({ PUBLIC_URL: 'https://www.example.com/', GIFFER_PUBLIC_URL: 'https://img.example.com/', NODE_ENV: 'production', port: 3001 }).href).toBe('https://img.example.com/')
    expect(standalonePublicUrl({ NODE_ENV: 'development', port: 3001 }).href).toBe('http://localhost:3001/')
  })

  it('refuses to start a standalone service in production that would hand out its own address', () => {
    expect(() => standalonePublicUrl({ NODE_ENV: 'production', port: 3001 })).toThrow(ConfigError)
    expect(() => standalonePublicUrl({ NODE_ENV: 'production', port: 3001 })).toThrow(/^PUBLIC_URL: set it to the site's public address/)
  })

  it('names the origins pages must reach for it: none by default, its own origin and the bucket when configured', () => {
    const site = 'https://www.example.com'
    expect(gifferBrowserOrigins(gifferEnvSchema.parse({}), site)).toEqual({ images: [], uploads: [] })
    expect(gifferBrowserOrigins(gifferEnvSchema.parse({ GIFFER_PUBLIC_URL: 'https://www.example.com/giffer' }), site)).toEqual({ images: [], uploads: [] })
    expect(gifferBrowserOrigins(gifferEnvSchema.parse({ GIFFER_PUBLIC_URL: 'https://img.example.com' }), site)).toEqual({
      images: ['https://img.example.com'],
      uploads: ['https://img.example.com'],
    })
    expect(gifferBrowserOrigins(gifferEnvSchema.parse({ S3_BUCKET: 'slideshow-uploads', S3_REGION: 'eu-west-1' }), site)).toEqual({
      images: [],
      uploads: ['https://slideshow-uploads.s3.eu-west-1.amazonaws.com'],
    })
    const both = { GIFFER_PUBLIC_URL: 'https://img.example.com', S3_BUCKET: 'b-1', S3_ENDPOINT: 'http://minio:9000', S3_PUBLIC_ENDPOINT: 'https://files.example.com', S3_FORCE_PATH_STYLE: 'true' }
    expect(gifferBrowserOrigins(gifferEnvSchema.parse(both), site)).toEqual({ images: ['https://img.example.com'], uploads: ['https://files.example.com'] })
  })
})
