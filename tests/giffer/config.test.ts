import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { gifferEnvSchema, gifferOptionsFromEnv } from '../../server/giffer/config.js'

const base = { stateDir: '/srv/data', publicPath: '/giffer', publicOrigin: 'https://site.example', logger: pino({ level: 'silent' }) }

describe('giffer configuration', () => {
  it('needs no variable at all: every one has a default', () => {
    const env = gifferEnvSchema.parse({})
    const options = gifferOptionsFromEnv(env, base)
    expect(options).toMatchObject({ publicPath: '/giffer', publicOrigin: 'https://site.example', queueMax: 16, jobTimeoutMs: 15_000, liveBucketSeconds: 5 })
    expect(options.workers).toBeGreaterThanOrEqual(1)
    expect(options.secret).toBeUndefined()
    expect(options.s3).toBeUndefined()
    expect(options.cacheBytes).toBe(64 * 1024 * 1024)
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
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'id',
      AWS_SECRET_ACCESS_KEY: 'secret',
    })
    expect(gifferOptionsFromEnv(env, base).s3).toEqual({
      bucket: 'uploads-bucket',
      region: 'eu-central-1',
      endpoint: 'http://minio.internal:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
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
})
