/**
 * The S3 upload store against a real S3-compatible server (s3rver, scripts/lib/s3-server.ts):
 * sign → post from a "browser" straight to the bucket → resolve → read, and what happens when the
 * store misbehaves or goes away.
 */
import { createHmac } from 'node:crypto'
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { S3Client } from '@aws-sdk/client-s3'
import { createPresignedPost } from '@aws-sdk/s3-presigned-post'
import { pino } from 'pino'
import request from 'supertest'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { S3_SERVER_CREDENTIALS, startS3Server, type S3Server } from '../../scripts/lib/s3-server.js'
import { s3UploadOrigin, type S3StoreOptions } from '../../server/giffer/uploads.js'
import { PUBLIC_ORIGIN, binary, makePhoto, startGiffer, type TestGiffer } from './setup.js'

interface Signed {
  url: string
  key: string
  fields: Record<string, string>
}

let s3: S3Server
const started: TestGiffer[] = []
const logged: { msg?: string; err?: { name?: string; message?: string }; operation?: string }[] = []

/** A giffer on the test bucket, its error lines kept in `logged`. */
async function gifferOnBucket(s3Options: Partial<S3StoreOptions> = {}): Promise<TestGiffer> {
  const logger = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line)) })
  const g = await startGiffer({ s3: { bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, ...s3Options }, logger })
  started.push(g)
  return g
}

beforeAll(async () => {
  for (const [name, value] of Object.entries(S3_SERVER_CREDENTIALS)) vi.stubEnv(name, value)
  s3 = await startS3Server({ corsOrigins: [PUBLIC_ORIGIN] })
})
afterEach(() => {
  logged.length = 0
})
afterAll(async () => {
  for (const g of started) await g.close()
  await s3.close()
  vi.unstubAllEnvs()
})

async function sign(g: TestGiffer): Promise<Signed> {
  return (await request(g.app).post('/giffer/uploads/sign').expect(200)).body as Signed
}

/** What the generator page does: the signed fields with its own key for the file, then the file, posted to `url`. */
async function post(signed: Signed, bytes: Uint8Array, name: string, type = 'image/jpeg'): Promise<{ status: number; key: string }> {
  const key = signed.key.replace('${filename}', name)
  const form = new FormData()
  for (const [field, value] of Object.entries(signed.fields)) form.append(field, field === 'key' ? key : value)
  form.append('Content-Type', type)
  form.append('Content-Disposition', 'inline')
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name)
  const response = await fetch(signed.url, { method: 'POST', body: form, headers: { Origin: PUBLIC_ORIGIN } })
  return { status: response.status, key }
}

describe('uploads straight to an S3-compatible bucket', () => {
  it('sign → post → resolve → read: the bucket keeps the file under the key the uploader wrote, and it comes back byte for byte', async () => {
    const g = await gifferOnBucket()
    const signed = await sign(g)
    expect(signed.url).toBe(`${s3.endpoint}/${s3.bucket}`)
    expect(signed.key).toMatch(/^uploads\/\d{4}-\d{2}-\d{2}\/[0-9a-f]{32}\/\$\{filename\}$/)
    const photo = await makePhoto(3, 320, 240)
    const { status, key } = await post(signed, photo, 'photo-1.jpg')
    expect(status).toBe(204)
    expect(s3.keys()).toContain(key)

    const resolved = await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(200)
    expect(resolved.body).toEqual({ url: `/giffer/${key}` })
    const served = await request(g.app).get(resolved.body.url).buffer(true).parse(binary).expect(200)
    expect(served.headers['content-type']).toBe('image/jpeg')
    expect(served.headers['content-length']).toBe(String(photo.length))
    expect(Buffer.compare(served.body as Buffer, photo)).toBe(0)
  })

  it('makes a slideshow from two photos in the bucket: a ranged read of each header, then one read of each photo when a frame needs it', async () => {
    const g = await gifferOnBucket()
    const signed = await sign(g)
    const urls: string[] = []
    const keys: string[] = []
    for (const [i, format] of (['jpeg', 'png'] as const).entries()) {
      const { key } = await post(signed, await makePhoto(i + 5, 200, 200, format), `photo-${i + 1}.${format}`, `image/${format}`)
      keys.push(`GET /${s3.bucket}/${key}`)
      urls.push((await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(200)).body.url)
    }
    const before = s3.requests.length
    const gif = await request(g.app).post('/giffer/slideshow/create-row').send({ images: urls, count: 2 }).buffer(true).parse(binary).expect(200)
    expect(gif.headers['content-type']).toBe('image/gif')
    const made = s3.requests.slice(before)
    // The headers are read together (in either order), the photos one after the other as drawn.
    expect([...made.slice(0, 2)].sort()).toEqual([...keys].sort())
    expect(made.slice(2)).toEqual(keys)
  })

  it('reads a header that lies past the first 64 KB (large embedded metadata) with one more ranged read, never the whole photo, and draws it', async () => {
    const g = await gifferOnBucket()
    const photo = await makePhoto(4, 120, 90)
    // Two application segments of 64 KB between the JPEG's start and its frame header.
    const segment = Buffer.concat([Buffer.from([0xff, 0xef, 0xff, 0xff]), Buffer.alloc(0xffff - 2, 0x20)])
    const padded = Buffer.concat([photo.subarray(0, 2), segment, segment, photo.subarray(2)])
    expect((await sharp(padded).metadata()).width).toBe(120)
    const { key } = await post(await sign(g), padded, 'photo-1.jpg')
    const { url } = (await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(200)).body
    const before = s3.requests.length
    await request(g.app).post('/giffer/slideshow/create-row').send({ images: [url] }).buffer(true).parse(binary).expect(200)
    // Two ranged reads for the header (64 KB, then the rest of the first MB), then the photo once as it is drawn.
    expect(s3.requests.slice(before)).toEqual([`GET /${s3.bucket}/${key}`, `GET /${s3.bucket}/${key}`, `GET /${s3.bucket}/${key}`])
    expect(s3.ranges.slice(before)).toEqual(['bytes=0-65535', 'bytes=65536-1048575', ''])
  })

  it('resolves with one request to the store, and serves a file with one more', async () => {
    const g = await gifferOnBucket()
    const { key } = await post(await sign(g), await makePhoto(9, 64, 64, 'webp'), 'photo-1.webp', 'image/webp')
    let before = s3.requests.length
    const { url } = (await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(200)).body
    expect(s3.requests.slice(before)).toEqual([`GET /${s3.bucket}/${key}`])
    before = s3.requests.length
    await request(g.app).get(url).buffer(true).parse(binary).expect(200).expect('Content-Type', 'image/webp')
    expect(s3.requests.slice(before)).toEqual([`GET /${s3.bucket}/${key}`])
  })

  it('refuses a file that is not a JPEG, PNG or WebP, whatever it claims, as the local store does: 415 at resolve, never served or drawn', async () => {
    const g = await gifferOnBucket()
    const { status, key } = await post(await sign(g), new TextEncoder().encode('<svg onload="alert(1)"></svg>'), 'photo-1.png', 'image/png')
    expect(status).toBe(204)
    const resolved = await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(415)
    expect(resolved.body.error).toMatchObject({ code: 'unsupported_type', message: 'Unsupported file type.', field: 'file' })
    await request(g.app).get(`/giffer/${key}`).expect(404)
    const drawn = await request(g.app).post('/giffer/slideshow/create-row').send({ images: [`/giffer/${key}`] }).expect(400)
    expect(drawn.body.error.field).toBe('images.0')
  })

  it('answers 404 for a key nothing was posted under', async () => {
    const g = await gifferOnBucket()
    const key = (await sign(g)).key.replace('${filename}', 'photo-1.jpg')
    const res = await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(404)
    expect(res.body.error.code).toBe('not_found')
  })

  it('ends its read from the bucket when the client goes away', async () => {
    const g = await gifferOnBucket()
    // 4.5 MB that start like a PNG: the store sniffs the first bytes only.
    const big = new Uint8Array(4.5 * 1024 * 1024)
    for (let i = 0; i < big.length; i++) big[i] = (i * 2654435761) >>> 24
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const { key } = await post(await sign(g), big, 'photo-1.png', 'image/png')
    const server = http.createServer(g.app).listen(0, '127.0.0.1')
    await once(server, 'listening')
    try {
      const cutBefore = s3.cutShort()
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/giffer/${key}`, (res) => {
          expect(res.statusCode).toBe(200)
          res.once('data', () => {
            req.destroy()
            resolve()
          })
        })
        req.on('error', (error) => (error.message === 'socket hang up' ? undefined : reject(error)))
      })
      await vi.waitFor(() => expect(s3.cutShort()).toBe(cutBefore + 1), { timeout: 5000 })
    } finally {
      server.close()
    }
  })
})

describe('when the store fails', () => {
  it('answers 503 "store unavailable" while the store does not answer, logs the cause, and never says "not uploaded"', async () => {
    const g = await gifferOnBucket()
    const { key } = await post(await sign(g), await makePhoto(1, 64, 64), 'photo-1.jpg')
    await s3.stop()
    try {
      for (const path of [`/giffer/uploads/resolve?key=${encodeURIComponent(key)}`, `/giffer/${key}`]) {
        const res = await request(g.app).get(path).expect(503)
        expect(res.body.error).toEqual({ code: 'store_unavailable', message: 'The upload store is unavailable. Please try again later.' })
      }
      const drawn = await request(g.app).post('/giffer/slideshow/create-row').send({ images: [`/giffer/${key}`] }).expect(503)
      expect(drawn.body.error.code).toBe('store_unavailable')
      expect(logged.filter((line) => line.msg === 'upload store unavailable').map((line) => line.operation)).toEqual(['describe', 'open', 'header'])
      expect(logged[0]?.err?.message).toMatch(/ECONNREFUSED/)
    } finally {
      await s3.start()
    }
    await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(200)
  })

  it('answers 503 and logs the store\'s own refusal when its credentials are wrong', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'NOT-AN-ACCOUNT')
    const g = await gifferOnBucket()
    const key = `uploads/2026-01-01/${'a'.repeat(32)}/photo-1.jpg`
    const res = await request(g.app).get('/giffer/uploads/resolve').query({ key })
    vi.stubEnv('AWS_ACCESS_KEY_ID', S3_SERVER_CREDENTIALS.AWS_ACCESS_KEY_ID)
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe('store_unavailable')
    expect(logged[0]).toMatchObject({ msg: 'upload store unavailable', operation: 'describe', err: { name: 'InvalidAccessKeyId' } })
  })
})

describe('credentials and endpoints', () => {
  it('takes credentials from the AWS SDK default chain, session token included, and signs it into the policy', async () => {
    vi.stubEnv('AWS_SESSION_TOKEN', 'session-token-of-a-role')
    try {
      const signed = await sign(await gifferOnBucket())
      expect(signed.fields['X-Amz-Security-Token']).toBe('session-token-of-a-role')
      const policy = JSON.parse(Buffer.from(signed.fields.Policy!, 'base64').toString('utf8')) as { conditions: unknown[] }
      expect(policy.conditions).toContainEqual({ 'X-Amz-Security-Token': 'session-token-of-a-role' })
    } finally {
      vi.stubEnv('AWS_SESSION_TOKEN', '')
    }
  })

  it('hands browsers S3_PUBLIC_ENDPOINT while it reads through S3_ENDPOINT', async () => {
    const publicEndpoint = `http://localhost:${s3.port}`
    const g = await gifferOnBucket({ publicEndpoint })
    const signed = await sign(g)
    expect(signed.url).toBe(`${publicEndpoint}/${s3.bucket}`)
    const { status, key } = await post(signed, await makePhoto(2, 64, 64), 'photo-1.jpg')
    expect(status).toBe(204)
    await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(200)
  })
})

/**
 * S3's own check of a POST policy (s3rver does not make it): every condition holds for the form
 * posted, and the signature is the SigV4 one of the policy.
 */
function policyAdmits(signed: Signed, form: Record<string, string>, size: number, secret: string): boolean {
  const policy = JSON.parse(Buffer.from(signed.fields.Policy!, 'base64').toString('utf8')) as { expiration: string; conditions: unknown[] }
  const value = (name: string) => form[Object.keys(form).find((field) => field.toLowerCase() === name.toLowerCase()) ?? ''] ?? ''
  const holds = policy.conditions.every((condition) => {
    if (Array.isArray(condition)) {
      const [op, field, expected] = condition as [string, string | number, string | number]
      if (op === 'content-length-range') return size >= Number(field) && size <= Number(expected)
      const given = value(String(field).slice(1))
      return op === 'starts-with' ? given.startsWith(String(expected)) : given === expected
    }
    return Object.entries(condition as Record<string, string>).every(([field, expected]) => value(field) === expected)
  })
  const [, date, region] = /^[^/]+\/(\d{8})\/([^/]+)\/s3\/aws4_request$/.exec(signed.fields['X-Amz-Credential']!)!
  const key = ['s3', 'aws4_request'].reduce((k, part) => createHmac('sha256', k).update(part).digest(), createHmac('sha256', createHmac('sha256', `AWS4${secret}`).update(date!).digest()).update(region!).digest())
  const signature = createHmac('sha256', key).update(signed.fields.Policy!).digest('hex')
  return holds && signature === signed.fields['X-Amz-Signature'] && Date.parse(policy.expiration) > Date.now()
}

describe('the signed POST policy, as S3 checks it', () => {
  it('admits the uploader\'s form (its own key in the signed folder, an image type, inline, up to 5 MB) and nothing else', async () => {
    const signed = await sign(await gifferOnBucket())
    const form = (changes: Record<string, string> = {}) => ({
      ...signed.fields,
      key: signed.key.replace('${filename}', 'photo-1.jpg'),
      'Content-Type': 'image/jpeg',
      'Content-Disposition': 'inline',
      ...changes,
    })
    const secret = S3_SERVER_CREDENTIALS.AWS_SECRET_ACCESS_KEY
    expect(policyAdmits(signed, form(), 1000, secret)).toBe(true)
    expect(policyAdmits(signed, form({ key: 'uploads/elsewhere/photo-1.jpg' }), 1000, secret)).toBe(false)
    expect(policyAdmits(signed, form({ 'Content-Type': 'text/html' }), 1000, secret)).toBe(false)
    expect(policyAdmits(signed, form(), 5 * 1024 * 1024 + 1, secret)).toBe(false)
    expect(policyAdmits(signed, form(), 0, secret)).toBe(false)
    expect(policyAdmits(signed, form({ bucket: 'another-bucket' }), 1000, secret)).toBe(false)
    expect(policyAdmits(signed, form(), 1000, 'another-secret')).toBe(false)
  })

  it.each([
    ['AWS, us-east-1', { bucket: 'slideshow-uploads', region: 'us-east-1' }],
    ['AWS, another region', { bucket: 'slideshow-uploads', region: 'eu-west-1' }],
    ['AWS, a bucket with dots', { bucket: 'uploads.example.com', region: 'eu-west-1' }],
    ['AWS, path style', { bucket: 'slideshow-uploads', region: 'eu-west-1', forcePathStyle: true }],
    ['an endpoint by IP address', { bucket: 'slideshow-uploads', region: 'us-east-1', endpoint: 'http://10.0.0.5:9000' }],
    ['an endpoint by name', { bucket: 'slideshow-uploads', region: 'us-east-1', endpoint: 'https://s3.example.com' }],
    ['a public endpoint apart', { bucket: 'slideshow-uploads', region: 'us-east-1', endpoint: 'http://minio.internal:9000', publicEndpoint: 'https://files.example.com', forcePathStyle: true }],
  ])('allows in the pages\' CSP the origin the SDK posts to: %s', async (_name, options) => {
    const settings: S3StoreOptions = { forcePathStyle: false, ...options }
    const client = new S3Client({
      region: settings.region,
      endpoint: settings.publicEndpoint ?? settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    })
    const { url } = await createPresignedPost(client, { Bucket: settings.bucket, Key: 'uploads/${filename}' })
    expect(s3UploadOrigin(settings)).toBe(new URL(url).origin)
  })
})
