/**
 * The S3 upload store against a real S3-compatible server (s3rver, scripts/lib/s3-server.ts):
 * sign → post from a "browser" straight to the bucket → resolve → read, and what happens when the
 * store misbehaves or goes away.
 */
import { createHmac } from 'node:crypto'
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { crc32 } from 'node:zlib'
import { S3Client } from '@aws-sdk/client-s3'
import { createPresignedPost } from '@aws-sdk/s3-presigned-post'
import { pino } from 'pino'
import request from 'supertest'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { S3_SERVER_CREDENTIALS, startS3Server, type S3Server } from '../../scripts/lib/s3-server.js'
import type { GifferOptions } from '../../server/giffer/config.js'
import type { PhotoHeader, SlideshowJob } from '../../server/giffer/jobs.js'
import { s3UploadOrigin, type S3StoreOptions } from '../../server/giffer/uploads/s3-bucket.js'
import { S3UploadStore } from '../../server/giffer/uploads/s3-store.js'
import { RenderPool } from '../../server/giffer/pool.js'
import { PUBLIC_ORIGIN, binary, decodeGif, makePhoto, makeProgressivePhoto, pixelAt, startGiffer, testSizing, type TestGiffer } from './setup.js'

interface Signed {
  url: string
  key: string
  fields: Record<string, string>
}

let s3: S3Server
const started: TestGiffer[] = []
const logged: { msg?: string; err?: { name?: string; message?: string }; operation?: string }[] = []

/** A giffer on the test bucket, its error lines kept in `logged`. */
async function gifferOnBucket(s3Options: Partial<S3StoreOptions> = {}, overrides: Partial<GifferOptions> = {}): Promise<TestGiffer> {
  const logger = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line)) })
  const g = await startGiffer({ s3: { bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, ...s3Options }, logger, ...overrides })
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
    for (const [i, [format, extension]] of ([['jpeg', 'jpg'], ['png', 'png']] as const).entries()) {
      const { key } = await post(signed, await makePhoto(i + 5, 200, 200, format), `photo-${i + 1}.${extension}`, `image/${format}`)
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
    // Its quantization tables given again and again before its frame header, four to a segment
    // (some 64 KB of tables a decoder reads, and a bare photo may carry), so the header lies past
    // the first 64 KB, within the segments a header walk goes through.
    const dqt = photo.indexOf(Buffer.from([0xff, 0xdb]))
    const table = photo.subarray(dqt + 4, dqt + 4 + 65)
    const segment = Buffer.concat([Buffer.from([0xff, 0xdb, 0x01, 0x06]), table, table, table, table])
    const padded = Buffer.concat([photo.subarray(0, 2), ...Array<Buffer>(251).fill(segment), photo.subarray(2)])
    expect((await sharp(padded).metadata()).width).toBe(120)
    const { key } = await post(await sign(g), padded, 'photo-1.jpg')
    const { url } = (await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(200)).body
    const before = s3.requests.length
    await request(g.app).post('/giffer/slideshow/create-row').send({ images: [url] }).buffer(true).parse(binary).expect(200)
    // Two ranged reads for the header (64 KB, then the rest of the first MB), then the photo once as it is drawn.
    expect(s3.requests.slice(before)).toEqual([`GET /${s3.bucket}/${key}`, `GET /${s3.bucket}/${key}`, `GET /${s3.bucket}/${key}`])
    expect(s3.ranges.slice(before)).toEqual(['bytes=0-65535', 'bytes=65536-1048575', ''])
  })

  it('resolves with two requests to the store (the header, then the whole file walked once), and serves a file with one more', async () => {
    const g = await gifferOnBucket()
    const { key } = await post(await sign(g), await makePhoto(9, 64, 64, 'webp'), 'photo-1.webp', 'image/webp')
    let before = s3.requests.length
    const { url } = (await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(200)).body
    // Its first bytes, then its whole file walked once to prove it bare (this process keeps the answer).
    expect(s3.requests.slice(before)).toEqual([`GET /${s3.bucket}/${key}`, `GET /${s3.bucket}/${key}`])
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
    // A render-sized PNG of noise, without metadata: some 3.5 MB served as they are.
    const big = await sharp({ create: { width: 1200, height: 1000, channels: 3, background: '#777', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png().toBuffer()
    expect(big.length).toBeGreaterThan(3 * 2 ** 20)
    const { key } = await post(await sign(g), big, 'photo-1.png', 'image/png')
    // Resolved first, as the page does: the walk that proves it bare is behind it.
    await resolve(g, key)
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

async function resolve(g: TestGiffer, key: string): Promise<string> {
  return ((await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(200)).body as { url: string }).url
}

/** A 400×300 baseline JPEG: a photo cheap to draw, the one a slideshow's memory is estimated for. */
const cheapPhoto = () => sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a7' } }).jpeg().toBuffer()

/**
 * Replaces the object the next slideshow photo read asks for, at the one moment that matters: its
 * header has been read and the job's memory estimated from it, its bytes not yet. The visitor
 * posts another file under the same key with the same signature, as a bucket lets them do for
 * the signature's 20 minutes. Gives the headers the store handed the slideshow.
 */
function replaceBeforeRead(signed: Signed, name: string, bytes: Uint8Array): PhotoHeader[] {
  const headers: PhotoHeader[] = []
  const original = S3UploadStore.prototype.header
  const header = vi.spyOn(S3UploadStore.prototype, 'header').mockImplementationOnce(async function (this: S3UploadStore, key: string, signal?: AbortSignal) {
    const photo = await original.call(this, key, signal)
    if (!photo) return null
    headers.push(photo.header)
    return {
      header: photo.header,
      read: async () => {
        expect((await post(signed, bytes, name)).status).toBe(204)
        return photo.read()
      },
    }
  })
  onTestFinished(() => header.mockRestore())
  return headers
}

/** The requests the bucket answered since `before`, each with its status. */
const answeredSince = (before: number) => s3.requests.slice(before).map((line, i) => `${line} ${s3.statuses[before + i]}`)

describe('a photo replaced in the bucket after its header was read', () => {
  it('is read only as the object its header came from: the read names that ETag, the bucket answers 412, the slideshow 409 image_changed, and its memory is given back', async () => {
    const g = await gifferOnBucket()
    const signed = await sign(g)
    const { key } = await post(signed, await cheapPhoto(), 'photo-1.jpg')
    const url = await resolve(g, key)
    // 12 megapixels decoded whole: about 50 MB where the estimate counted a 400×300 baseline JPEG.
    const dear = await makeProgressivePhoto(7, 4000, 3000)
    expect(dear.length).toBeLessThan(5 * 2 ** 20)
    const headers = replaceBeforeRead(signed, 'photo-1.jpg', dear)

    const before = s3.requests.length
    const res = await request(g.app).post('/giffer/slideshow/create-row').send({ images: [url] })
    expect(res.status).toBe(409)
    expect(res.body.error).toEqual({ code: 'image_changed', message: 'Image 1 changed after it was checked. Please upload it again.', field: 'images.0' })
    expect(headers[0]?.etag).toMatch(/^"[0-9a-f]{32}"$/)
    // The header's ranged read, the visitor's post, then the read of the photo, refused by the bucket.
    expect(answeredSince(before)).toEqual([`GET /${s3.bucket}/${key} 206`, `POST /${s3.bucket} 204`, `GET /${s3.bucket}/${key} 412`])
    await vi.waitFor(() => expect(g.giffer.stats?.memory.inUse).toBe(0))
  })

  it('from a store that gives no ETag, is refused with 409 image_changed when its bytes are not the size its header said, before any is decoded', async () => {
    // In front of the bucket: its answers without their ETag.
    const proxy = http.createServer((req, res) => {
      const upstream = http.request({ host: '127.0.0.1', port: s3.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        const { etag: _etag, ...headers } = answer.headers
        res.writeHead(answer.statusCode ?? 502, headers)
        answer.pipe(res)
      })
      req.pipe(upstream)
    })
    proxy.listen(0, '127.0.0.1')
    await once(proxy, 'listening')
    onTestFinished(() => void proxy.close())
    const g = await gifferOnBucket({ endpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` })
    const signed = await sign(g)
    const { key } = await post(signed, await cheapPhoto(), 'photo-1.jpg')
    const url = await resolve(g, key)
    const headers = replaceBeforeRead(signed, 'photo-1.jpg', await makeProgressivePhoto(7, 4000, 3000))

    const before = s3.requests.length
    const res = await request(g.app).post('/giffer/slideshow/create-row').send({ images: [url] })
    expect(res.status).toBe(409)
    expect(res.body.error).toEqual({ code: 'image_changed', message: 'Image 1 changed after it was checked. Please upload it again.', field: 'images.0' })
    expect(headers[0]?.etag).toBeUndefined()
    // The bucket handed the new object over, unasked for any ETag: the refusal is the store's own.
    expect(answeredSince(before).at(-1)).toBe(`GET /${s3.bucket}/${key} 200`)
    await vi.waitFor(() => expect(g.giffer.stats?.memory.inUse).toBe(0))
  })

  it('is drawn anew when asked for again, never answered with the render of the object before it (the render cache knows photos by key and ETag)', async () => {
    const g = await gifferOnBucket()
    const signed = await sign(g)
    const { key } = await post(signed, await makePhoto(1, 300, 300), 'photo-1.jpg')
    const url = await resolve(g, key)
    const draw = () => request(g.app).post('/giffer/slideshow/create-row').send({ images: [url] }).buffer(true).parse(binary).expect(200)
    const first = await draw()
    expect((await post(signed, await makePhoto(2, 300, 300), 'photo-1.jpg')).status).toBe(204)
    const second = await draw()
    expect(second.headers.etag).not.toBe(first.headers.etag)
    expect(Buffer.compare(second.body as Buffer, first.body as Buffer)).not.toBe(0)
  })
})

const XMP = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>'

/**
 * A photo as a camera writes it: stored sideways with EXIF orientation 6, EXIF with the phone's
 * make and GPS tags, and XMP; red along its stored left side (the top as shown), `colour` elsewhere.
 */
async function cameraPhoto(colour: string, format: 'jpeg' | 'png' | 'webp' = 'jpeg', width = 800, height = 600): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${colour}"/><rect width="${width / 5}" height="${height}" fill="#e00000"/></svg>`
  const image = sharp(Buffer.from(svg))
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { Make: 'Phone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2996/100' } })
    .withXmp(XMP)
  return format === 'jpeg' ? image.jpeg().toBuffer() : format === 'png' ? image.png().toBuffer() : image.webp().toBuffer()
}

/** A small PNG whose header (with its checksum) announces `width` × `height` pixels: a decompression bomb. */
async function pngAnnouncing(width: number, height: number): Promise<Buffer> {
  const png = await makePhoto(3, 8, 8, 'png')
  png.writeUInt32BE(width, 16)
  png.writeUInt32BE(height, 20)
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29)
  return png
}

/** The keys of the reduced copies the giffer wrote to the bucket since `before` (one PUT each). */
const copiesWrittenSince = (before: number) => s3.requests.slice(before).filter((line) => line.startsWith(`PUT /${s3.bucket}/reduced/`))

/** The colour of a picture's middle, by its red, green and blue. */
async function middleColour(bytes: Uint8Array): Promise<number[]> {
  const { data } = await sharp(bytes).resize(3, 3, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return [...data.subarray(12, 15)]
}

describe('the same rules as the local folder, applied at first use', () => {
  it.each(['jpeg', 'png', 'webp'] as const)('serves a %s posted with EXIF, GPS and XMP without any of it, upright: reduced once, and the copy served from then on', async (format) => {
    const g = await gifferOnBucket()
    const original = await cameraPhoto('#3366aa', format)
    const before = await sharp(original).metadata()
    expect([before.orientation, Boolean(before.exif), Boolean(before.xmp)]).toEqual([6, true, true])
    const { key } = await post(await sign(g), original, `photo-1.${format === 'jpeg' ? 'jpg' : format}`, `image/${format}`)
    const start = s3.requests.length
    // Served before it is ever resolved: the serving is its first use.
    const served = (await request(g.app).get(`/giffer/${key}`).buffer(true).parse(binary).expect(200)).body as Buffer
    const meta = await sharp(served).metadata()
    expect(meta.format).toBe(format)
    expect(meta.exif).toBeUndefined()
    expect(meta.xmp).toBeUndefined()
    expect(meta.orientation ?? 1).toBe(1)
    expect([meta.width, meta.height]).toEqual([600, 800])
    // Turned by its pixels: the red stripe along the top.
    const { data } = await sharp(served).resize(1, 8, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    expect([data[0]! > 180, data[1]! < 80, data[7 * 3]! < 120]).toEqual([true, true, true])
    expect(copiesWrittenSince(start)).toEqual([`PUT /${s3.bucket}/reduced/${key.slice('uploads/'.length)}`])

    await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(200)
    const again = (await request(g.app).get(`/giffer/${key}`).buffer(true).parse(binary).expect(200)).body as Buffer
    expect(Buffer.compare(again, served)).toBe(0)
    expect(copiesWrittenSince(start)).toHaveLength(1)
  })

  it.each([
    ['a PNG with a GPS text chunk after its pixels', 'png'],
    ['a JPEG with a tagged JPEG appended after its end', 'jpeg'],
  ] as const)('serves %s made again, without it: its whole file is walked once, never held', async (_name, format) => {
    const g = await gifferOnBucket()
    const photo = await makePhoto(11, 320, 240, format)
    let hidden: Buffer
    if (format === 'png') {
      const text = Buffer.from('Comment\0GPSLatitude 48,51.5N')
      const chunk = Buffer.alloc(12 + text.length)
      chunk.writeUInt32BE(text.length, 0)
      chunk.write('tEXt', 4)
      text.copy(chunk, 8)
      hidden = Buffer.concat([photo.subarray(0, photo.length - 12), chunk, photo.subarray(photo.length - 12)])
    } else {
      hidden = Buffer.concat([photo, await sharp(photo).withExif({ IFD0: { Make: 'GPSLatitude 48,51.5N' } }).jpeg().toBuffer()])
    }
    const { key } = await post(await sign(g), hidden, `photo-1.${format === 'jpeg' ? 'jpg' : 'png'}`, `image/${format}`)
    const start = s3.requests.length
    const served = (await request(g.app).get(`/giffer/${key}`).buffer(true).parse(binary).expect(200)).body as Buffer
    expect(served.includes('GPSLatitude')).toBe(false)
    expect(await sharp(served).metadata()).toMatchObject({ format, width: 320, height: 240 })
    expect(copiesWrittenSince(start)).toEqual([`PUT /${s3.bucket}/reduced/${key.slice('uploads/'.length)}`])
  })

  it('draws an 8000×6000 original under 5 MB from its copy, reduced at the first slideshow, and reuses the copy for the next', async () => {
    const g = await gifferOnBucket()
    // Noise enlarged from 1000×750: photo-like detail in a low-quality JPEG of some 2 MB.
    const noise = await sharp({ create: { width: 1000, height: 750, channels: 3, background: '#777', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
      .raw()
      .toBuffer({ resolveWithObject: true })
    const original = await sharp(noise.data, { raw: noise.info }).resize(8000, 6000, { kernel: 'nearest' }).jpeg({ quality: 40 }).toBuffer()
    expect(original.length).toBeLessThan(5 * 2 ** 20)
    const { key } = await post(await sign(g), original, 'photo-1.jpg')
    const run = vi.spyOn(RenderPool.prototype, 'run')
    onTestFinished(() => run.mockRestore())
    const jobs = () => run.mock.calls.map(([job]) => job)

    const start = s3.requests.length
    await request(g.app).post('/giffer/slideshow/create-row').send({ images: [`/giffer/${key}`] }).buffer(true).parse(binary).expect(200).expect('Content-Type', 'image/gif')
    expect(jobs().map((job) => job.kind)).toEqual(['reduce-photo', 'slideshow'])
    const drawn = jobs()[1] as SlideshowJob
    expect([drawn.photos[0]!.width, drawn.photos[0]!.height]).toEqual([1600, 1200])
    expect(drawn.photos[0]!.size).toBeLessThan(original.length)

    await request(g.app).post('/giffer/slideshow/create-trio').send({ images: [`/giffer/${key}`] }).buffer(true).parse(binary).expect(200)
    expect(jobs().map((job) => job.kind)).toEqual(['reduce-photo', 'slideshow', 'slideshow'])
    expect(copiesWrittenSince(start)).toHaveLength(1)
    await vi.waitFor(() => expect(g.giffer.stats?.memory.inUse).toBe(0))
  }, 60_000)

  it('refuses a PNG whose header announces more than 100 million pixels (10000×10001) with 413 too_many_pixels, before any memory is reserved for it', async () => {
    const sized = testSizing()
    const g = await gifferOnBucket({}, sized)
    const bomb = await pngAnnouncing(10_000, 10_001)
    const { key } = await post(await sign(g), bomb, 'photo-1.png', 'image/png')
    const reserve = vi.spyOn(sized.budget, 'reserve')
    onTestFinished(() => reserve.mockRestore())

    const resolved = await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(413)
    expect(resolved.body.error).toEqual({ code: 'too_many_pixels', message: 'The image has more than 100000000 pixels.', field: 'file' })
    const drawn = await request(g.app).post('/giffer/slideshow/create-row').send({ images: [`/giffer/${key}`] }).expect(413)
    expect(drawn.body.error).toMatchObject({ code: 'too_many_pixels', field: 'images.0' })
    await request(g.app).get(`/giffer/${key}`).expect(413)
    expect(reserve).not.toHaveBeenCalled()
    expect(sized.budget.inUse).toBe(0)
  })

  it('reduces an original posted again under its key anew, never serving or drawing the copy of the one before', async () => {
    const g = await gifferOnBucket()
    const signed = await sign(g)
    const { key } = await post(signed, await cameraPhoto('#2050d0'), 'photo-1.jpg')
    const start = s3.requests.length
    const serve = async () => (await request(g.app).get(`/giffer/${key}`).buffer(true).parse(binary).expect(200)).body as Buffer
    const blue = await middleColour(await serve())
    expect(blue[2]).toBeGreaterThan(150)

    expect((await post(signed, await cameraPhoto('#20c040'), 'photo-1.jpg')).status).toBe(204)
    const green = await middleColour(await serve())
    expect(green[1]).toBeGreaterThan(150)
    expect(green[2]).toBeLessThan(120)
    expect(copiesWrittenSince(start)).toHaveLength(2)
    const gif = await request(g.app).post('/giffer/slideshow/create-row').send({ images: [`/giffer/${key}`] }).buffer(true).parse(binary).expect(200)
    const picture = decodeGif(gif.body as Buffer)
    const [r, gr, b] = pixelAt(picture.picture(0), picture.width, Math.floor(picture.width / 2), Math.floor(picture.height * 0.75))
    expect([gr > 150, b < 120, r < 120]).toEqual([true, true, true])
    expect(copiesWrittenSince(start)).toHaveLength(2)
  })

  it('reduces an original once when several requests ask for it at once', async () => {
    const g = await gifferOnBucket()
    const { key } = await post(await sign(g), await cameraPhoto('#805020'), 'photo-1.jpg')
    const start = s3.requests.length
    const answers = await Promise.all(Array.from({ length: 4 }, () => request(g.app).get(`/giffer/${key}`).buffer(true).parse(binary)))
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200])
    expect(copiesWrittenSince(start)).toHaveLength(1)
  })
})

describe('names in the signed folder', () => {
  it('never resolves, serves or draws a file posted under another name than photo-1 … photo-10 with its type\'s extension (the bucket takes anything in the folder)', async () => {
    const g = await gifferOnBucket()
    const signed = await sign(g)
    const photo = await makePhoto(3, 64, 64)
    for (const name of ['photo-11.jpg', 'photo-0.jpg', 'notes.jpg', 'photo-1.jpeg', 'photo-1']) {
      const { status, key } = await post(signed, photo, name)
      expect(status, name).toBe(204)
      expect(s3.keys()).toContain(key)
      const before = s3.requests.length
      await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(400)
      await request(g.app).get(`/giffer/${key}`).expect(404)
      const drawn = await request(g.app).post('/giffer/slideshow/create-row').send({ images: [`/giffer/${key}`] }).expect(400)
      expect(drawn.body.error.field).toBe('images.0')
      expect(s3.requests.slice(before), name).toEqual([])
    }
  })

  it('refuses with 415 a photo under another type\'s extension (photo-1.png holding a JPEG), and never serves or draws it', async () => {
    const g = await gifferOnBucket()
    const { status, key } = await post(await sign(g), await makePhoto(3, 64, 64), 'photo-1.png', 'image/png')
    expect(status).toBe(204)
    const resolved = await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(415)
    expect(resolved.body.error).toEqual({ code: 'wrong_extension', message: 'The file is image/jpeg: its name must end in .jpg.', field: 'file' })
    await request(g.app).get(`/giffer/${key}`).expect(404)
    const drawn = await request(g.app).post('/giffer/slideshow/create-row').send({ images: [`/giffer/${key}`] }).expect(400)
    expect(drawn.body.error.field).toBe('images.0')
  })
})

/** A server on loopback that takes connections and requests and never answers them; counts those that end. */
async function silentStore(): Promise<{ endpoint: string; received(): number; ended(): number }> {
  let received = 0
  let ended = 0
  const sockets = new Set<import('node:net').Socket>()
  const server = http.createServer((req) => {
    received += 1
    req.socket.once('close', () => (ended += 1))
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((done) => server.close(done))
  })
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => received, ended: () => ended }
}

/** Posts a slideshow of `urls` to the giffer over a real connection, and leaves once `leaveWhen` holds. */
async function leaveWhile(g: TestGiffer, urls: string[], leaveWhen: () => boolean): Promise<void> {
  const server = http.createServer(g.app).listen(0, '127.0.0.1')
  await once(server, 'listening')
  onTestFinished(() => void server.close())
  const client = http.request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, method: 'POST', path: '/giffer/slideshow/create-row', headers: { 'Content-Type': 'application/json' } })
  client.on('error', () => undefined)
  client.end(JSON.stringify({ images: urls }))
  await vi.waitFor(() => expect(leaveWhen()).toBe(true), { timeout: 5_000 })
  client.destroy()
}

describe('waits on the store end', () => {
  it('answers 503 store_unavailable once a store that takes requests but never answers has had its time, rather than waiting for ever', async () => {
    const silent = await silentStore()
    const g = await gifferOnBucket({ endpoint: silent.endpoint, requestTimeoutMs: 200 })
    const started = Date.now()
    const res = await request(g.app).get('/giffer/uploads/resolve').query({ key: `uploads/2026-01-01/${'a'.repeat(32)}/photo-1.jpg` })
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe('store_unavailable')
    expect(Date.now() - started).toBeLessThan(4_000)
    expect(logged[0]).toMatchObject({ msg: 'upload store unavailable', operation: 'describe', err: { name: 'TimeoutError' } })
  })

  it('ends the reads of a slideshow\'s headers when its client goes away, long before the store\'s time is up, and logs no fault of the store', async () => {
    const silent = await silentStore()
    const g = await gifferOnBucket({ endpoint: silent.endpoint })
    await leaveWhile(g, [`/giffer/uploads/2026-01-01/${'a'.repeat(32)}/photo-1.jpg`], () => silent.received() === 1)
    // The store's own time is 5 s.
    await vi.waitFor(() => expect(silent.ended()).toBe(1), { timeout: 2_000 })
    expect(logged.filter((line) => line.msg === 'upload store unavailable')).toEqual([])
  })

  it('stops waiting for the render memory a deep header read needs when the client goes away', async () => {
    const sized = testSizing()
    const g = await gifferOnBucket({}, sized)
    const photo = await makePhoto(4, 120, 90)
    // A header past the first 64 KB: its second read needs a MB of the render memory budget.
    const segment = Buffer.concat([Buffer.from([0xff, 0xef, 0xff, 0xff]), Buffer.alloc(0xffff - 2, 0x20)])
    const { key } = await post(await sign(g), Buffer.concat([photo.subarray(0, 2), segment, segment, photo.subarray(2)]), 'photo-1.jpg')
    const url = await resolve(g, key)
    const release = await sized.budget.reserve(sized.budget.totalBytes - sized.budget.inUse)
    onTestFinished(release)
    await leaveWhile(g, [url], () => sized.budget.queued === 1)
    await vi.waitFor(() => expect(sized.budget.queued).toBe(0), { timeout: 2_000 })
  })

  it('answers 503 store_unavailable, and logs why, when the store gives no size for an object (neither Content-Range nor Content-Length)', async () => {
    // In front of the bucket: its answers without either header, sent in chunks.
    const proxy = http.createServer((req, res) => {
      const upstream = http.request({ host: '127.0.0.1', port: s3.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        const { 'content-length': _length, 'content-range': _range, ...headers } = answer.headers
        res.writeHead(answer.statusCode ?? 502, headers)
        answer.pipe(res)
      })
      req.pipe(upstream)
    })
    proxy.listen(0, '127.0.0.1')
    await once(proxy, 'listening')
    onTestFinished(() => void proxy.close())
    const g = await gifferOnBucket({ endpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` })
    const { key } = await post(await sign(g), await makePhoto(1, 64, 64), 'photo-1.jpg')
    expect(s3.keys()).toContain(key)
    for (const [path, operation] of [[`/giffer/uploads/resolve?key=${encodeURIComponent(key)}`, 'describe'], [`/giffer/${key}`, 'open']]) {
      const res = await request(g.app).get(path!).expect(503)
      expect(res.body.error.code, operation).toBe('store_unavailable')
    }
    const drawn = await request(g.app).post('/giffer/slideshow/create-row').send({ images: [`/giffer/${key}`] }).expect(503)
    expect(drawn.body.error.code).toBe('store_unavailable')
    expect(logged.map((line) => [line.operation, line.err?.message])).toEqual(
      ['describe', 'open', 'header'].map((operation) => [operation, 'the answer gave no size (neither Content-Range nor Content-Length)']),
    )
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
    // Nor a "reduced copy" of the visitor's own, where the giffer keeps the ones it makes.
    expect(policyAdmits(signed, form({ key: signed.key.replace(/^uploads\//, 'reduced/').replace('${filename}', 'photo-1.jpg') }), 1000, secret)).toBe(false)
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
