import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { pino } from 'pino'
import { signingKeys } from '../../server/giffer/signing.js'
import { LocalUploadStore } from '../../server/giffer/uploads/local-store.js'
import { UPLOAD_LIFETIME_MS, uploadKeyFromUrl } from '../../server/giffer/uploads/store.js'
import { PUBLIC_ORIGIN, binary, makePhoto, makeProgressivePhoto, startGiffer, testSizing, uploadFile, type TestGiffer } from './setup.js'

let g: TestGiffer
let clock = Date.now()
beforeAll(async () => {
  g = await startGiffer({ now: () => clock })
})
afterAll(async () => {
  await g.close()
})

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}

interface Signed {
  url: string
  key: string
  fields: Record<string, string>
}

async function sign(): Promise<Signed> {
  const res = await request(g.app).post('/giffer/uploads/sign').expect(200)
  return res.body as Signed
}

function post(signed: Signed, file: Buffer, options: { fields?: Record<string, string>; filename?: string; type?: string } = {}) {
  let req = request(g.app).post(new URL(signed.url, PUBLIC_ORIGIN).pathname)
  for (const [name, value] of Object.entries({ ...signed.fields, ...options.fields })) req = req.field(name, value)
  return req.field('Content-Type', options.type ?? 'image/jpeg').attach('file', file, { filename: options.filename ?? 'photo-1.jpg', contentType: options.type ?? 'image/jpeg' })
}

/** Where the local folder keeps the upload under `key`: its signed folder, under its number alone. */
function storedFile(key: string): string {
  const [, day, folder, name] = key.split('/')
  return path.join(g.stateDir, 'uploads', day!, folder!, /^photo-(\d+)\./.exec(name!)![1]!)
}

describe('upload protocol (local folder behind S3 presigned POST)', () => {
  it('signs with url, key and fields carrying a policy and a signature', async () => {
    const signed = await sign()
    expect(signed.url).toBe('/giffer/uploads')
    expect(signed.key).toMatch(/^uploads\/\d{4}-\d{2}-\d{2}\/[a-f0-9]{32}\/\$\{filename\}$/)
    expect(Object.keys(signed.fields).sort()).toEqual(['key', 'policy', 'signature'])
    expect(signed.fields.key).toBe(signed.key)
  })

  it('stores a JPEG, PNG or WebP, resolves it to a URL of this service, and serves it with its real type', async () => {
    for (const [format, extension] of [['jpeg', 'jpg'], ['png', 'png'], ['webp', 'webp']] as const) {
      const bytes = await makePhoto(1, 64, 48, format)
      const url = await uploadFile(g.app, bytes, `photo-1.${extension}`, `image/${format}`)
      expect(url).toMatch(new RegExp(`^/giffer/uploads/\\d{4}-\\d{2}-\\d{2}/[0-9a-f]{32}/photo-1\\.${extension}$`))
      const served = await request(g.app).get(url).buffer(true).parse(binary)
      expect(served.status).toBe(200)
      expect(served.headers['content-type']).toBe(`image/${format}`)
      expect(served.headers['x-content-type-options']).toBe('nosniff')
      expect(Buffer.compare(served.body as Buffer, bytes)).toBe(0)
    }
  })

  it('refuses a changed signature with 403', async () => {
    const signed = await sign()
    const res = await post(signed, await makePhoto(2, 32, 32), { fields: { signature: '0'.repeat(64) } })
    expect(res.status).toBe(403)
    expect(res.body.error.code).toBe('bad_signature')
  })

  it('refuses a key other than the signed one with 403', async () => {
    const signed = await sign()
    const other = await sign()
    const res = await post(signed, await makePhoto(2, 32, 32), { fields: { key: other.key } })
    expect(res.status).toBe(403)
  })

  it('refuses an upload without the signed fields with 403', async () => {
    const res = await request(g.app).post('/giffer/uploads').attach('file', await makePhoto(2, 32, 32), 'photo-1.jpg')
    expect(res.status).toBe(403)
  })

  it('refuses an expired signature with 403 after 20 minutes', async () => {
    const signed = await sign()
    clock += 20 * 60 * 1000 + 1
    try {
      const res = await post(signed, await makePhoto(2, 32, 32))
      expect(res.status).toBe(403)
      expect(res.body.error.code).toBe('expired')
    } finally {
      clock -= 20 * 60 * 1000 + 1
    }
  })

  it('refuses a file over 5 MB with 413 "File is too big (max 5 MB)"', async () => {
    const signed = await sign()
    const big = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5 * 1024 * 1024)])
    const res = await post(signed, big)
    expect(res.status).toBe(413)
    expect(res.body.error.message).toBe('File is too big (max 5 MB)')
  })

  it('refuses a file whose bytes are not an image, whatever it claims, with 415', async () => {
    const signed = await sign()
    const res = await post(signed, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), {
      filename: 'photo-1.png',
      type: 'image/png',
    })
    expect(res.status).toBe(415)
    expect(res.body.error.message).toContain('Unsupported file type.')
  })

  it('refuses a GIF (not in jpeg, png, webp) with 415', async () => {
    const signed = await sign()
    const res = await post(signed, Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), { filename: 'photo-1.png', type: 'image/gif' })
    expect(res.status).toBe(415)
  })

  it('refuses with 415 a file whose name has another type\'s extension (photo-1.png holding a JPEG), and keeps nothing', async () => {
    const signed = await sign()
    const res = await post(signed, await makePhoto(2, 32, 32), { filename: 'photo-1.png', type: 'image/png' })
    expect(res.status).toBe(415)
    expect(res.body.error).toEqual({ code: 'wrong_extension', message: 'The file is image/jpeg: its name must end in .jpg.', field: 'file' })
    const key = signed.key.replace('${filename}', 'photo-1.png')
    await request(g.app).get('/giffer/uploads/resolve').query({ key }).expect(404)
    await post(signed, await makePhoto(2, 32, 32), { filename: 'photo-1.jpg' }).expect(204)
  })

  it('refuses a decompression bomb (a small file announcing a huge picture) with 413', async () => {
    const signed = await sign()
    // a valid PNG header (with its checksum) claiming 20000 × 20000 pixels
    const png = await makePhoto(3, 8, 8, 'png')
    png.writeUInt32BE(20000, 16)
    png.writeUInt32BE(20000, 20)
    png.writeUInt32BE(crc32(png.subarray(12, 29)), 29)
    const res = await post(signed, png, { filename: 'photo-1.png', type: 'image/png' })
    expect(res.status).toBe(413)
    expect(res.body.error.code).toBe('too_many_pixels')
  })

  it('takes several files on one signature (the generator caches it for 20 minutes), each under its own number', async () => {
    const signed = await sign()
    const first = await post(signed, await makePhoto(4, 32, 32), { filename: 'photo-1.jpg' })
    const second = await post(signed, await makePhoto(5, 32, 32, 'png'), { filename: 'photo-2.png', type: 'image/png' })
    expect([first.status, second.status]).toEqual([204, 204])
    expect(first.headers.location).toBe(`/giffer/${signed.key.replace('${filename}', 'photo-1.jpg')}`)
    for (const name of ['photo-1.jpg', 'photo-2.png']) {
      const resolved = await request(g.app).get('/giffer/uploads/resolve').query({ key: signed.key.replace('${filename}', name) })
      expect(resolved.status).toBe(200)
    }
  })

  it('refuses a second file of a number on one signature with 409, whatever its extension, and keeps the first', async () => {
    const signed = await sign()
    const first = await makePhoto(4, 32, 32)
    await post(signed, first, { filename: 'photo-3.jpg' }).expect(204)
    const again = await post(signed, await makePhoto(5, 32, 32), { filename: 'photo-3.jpg' })
    expect(again.status).toBe(409)
    expect(again.body.error).toMatchObject({ code: 'already_uploaded', field: 'file' })
    const otherType = await post(signed, await makePhoto(5, 32, 32, 'png'), { filename: 'photo-3.png', type: 'image/png' })
    expect(otherType.status).toBe(409)
    const key = (name: string) => signed.key.replace('${filename}', name)
    expect(Buffer.compare(await readFile(storedFile(key('photo-3.jpg'))), first)).toBe(0)
    // The JPEG under number 3 is never anything but photo-3.jpg.
    await request(g.app).get('/giffer/uploads/resolve').query({ key: key('photo-3.png') }).expect(404)
    await request(g.app).get(`/giffer/${key('photo-3.png')}`).expect(404)
    const drawn = await request(g.app).post('/giffer/slideshow/create-row').send({ images: [`/giffer/${key('photo-3.png')}`] }).expect(400)
    expect(drawn.body.error.field).toBe('images.0')
  })

  it('keeps only the last part of a file name with a path', async () => {
    const signed = await sign()
    const res = await post(signed, await makePhoto(6, 32, 32), { filename: '../../photo-1.jpg' })
    expect(res.status).toBe(204)
    expect(res.headers.location).toBe(`/giffer/${signed.key.replace('${filename}', 'photo-1.jpg')}`)
  })

  it.each(['a.jpg', 'photo.jpg', 'photo-0.jpg', 'photo-11.jpg', 'photo-01.jpg', 'photo-1.jpeg', 'photo-1.JPG', 'photo-1.gif', 'photo-1', 'my photo.jpg', '.hidden.jpg', 'x'.repeat(101), 'фото.jpg'])('refuses the file name %s with 400 (only photo-1 to photo-10 with a .jpg, .png or .webp)', async (filename) => {
    const signed = await sign()
    const res = await post(signed, await makePhoto(6, 32, 32), { filename })
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('file')
  })

  it('refuses a body that is not multipart with 415, and an empty form with 400', async () => {
    expect((await request(g.app).post('/giffer/uploads').send({ file: 'x' })).status).toBe(415)
    const signed = await sign()
    let req = request(g.app).post('/giffer/uploads')
    for (const [name, value] of Object.entries(signed.fields)) req = req.field(name, value)
    const res = await req
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('file')
  })

  it('leaves no temporary files behind after refusals', async () => {
    const tmp = await readdir(path.join(g.stateDir, 'uploads', 'tmp'))
    expect(tmp).toEqual([])
  })

  it('resolves only well-formed keys of files that exist', async () => {
    expect((await request(g.app).get('/giffer/uploads/resolve')).status).toBe(400)
    expect((await request(g.app).get('/giffer/uploads/resolve').query({ key: '../../etc/passwd' })).status).toBe(400)
    expect((await request(g.app).get('/giffer/uploads/resolve').query({ key: 'uploads/2025-01-01/../../giffer-secret' })).status).toBe(400)
    const signedKey = (await sign()).key
    expect((await request(g.app).get('/giffer/uploads/resolve').query({ key: signedKey })).status).toBe(400)
    expect((await request(g.app).get('/giffer/uploads/resolve').query({ key: `uploads/2025-01-01/${'a'.repeat(32)}/photo.jpg` })).status).toBe(400)
    const res = await request(g.app).get('/giffer/uploads/resolve').query({ key: `uploads/2025-01-01/${'a'.repeat(32)}/photo-1.jpg` })
    expect(res.status).toBe(404)
  })

  it('does not serve anything but uploads from the uploads path', async () => {
    expect((await request(g.app).get('/giffer/uploads/..%2Fgiffer-secret/x')).status).toBe(404)
    expect((await request(g.app).get('/giffer/uploads/tmp/whatever/x')).status).toBe(404)
    expect((await request(g.app).get(`/giffer/uploads/2025-01-01/${'a'.repeat(32)}/..%2F..%2Fgiffer-secret`)).status).toBe(404)
  })
})

describe('the signed folder, secrets and origins', () => {
  it('takes the key the uploader writes itself in the signed folder, as S3 does, and refuses one outside it', async () => {
    const signed = await sign()
    const folder = signed.key.replace('${filename}', '')
    await post(signed, await makePhoto(7, 32, 32), { fields: { key: `${folder}photo-1.jpg` }, filename: 'anything.jpg' }).expect(204)
    await request(g.app).get('/giffer/uploads/resolve').query({ key: `${folder}photo-1.jpg` }).expect(200)
    const elsewhere = await post(signed, await makePhoto(7, 32, 32), { fields: { key: `uploads/2025-01-01/${'b'.repeat(32)}/photo-1.jpg` } })
    expect(elsewhere.status).toBe(403)
    const badName = await post(signed, await makePhoto(7, 32, 32), { fields: { key: `${folder}my photo.jpg` } })
    expect(badName.status).toBe(400)
    expect(badName.body.error.field).toBe('key')
  })

  it('puts the file name into the key as posted, never as a replacement pattern: "$\'", "$&" and "$`" are refused with 400 naming file', async () => {
    const signed = await sign()
    // With text after the placeholder, "$'" would stand for that text and make a name that passes:
    // `photo$'` posted to `…/${filename}.jpg` was stored as `…/photo.jpg.jpg`.
    const key = `${signed.key}.jpg`
    for (const filename of ["photo$'", 'photo$&', 'photo$`']) {
      const res = await post(signed, await makePhoto(8, 32, 32), { fields: { key }, filename })
      expect(res.status, filename).toBe(400)
      expect(res.body.error.field, filename).toBe('file')
    }
    await post(signed, await makePhoto(8, 32, 32), { fields: { key }, filename: 'photo-1' }).expect(204)
    await request(g.app).get('/giffer/uploads/resolve').query({ key: key.replace('${filename}', 'photo-1') }).expect(200)
  })

  it('accepts a policy signed with the previous secret while a new one is rolled in, and not once it is dropped', async () => {
    const before = await startGiffer({ secret: 'the-secret-before-rotation' })
    const rolling = await startGiffer({ secret: 'the-secret-after-rotation', previousSecret: 'the-secret-before-rotation' })
    const after = await startGiffer({ secret: 'the-secret-after-rotation' })
    try {
      const signed = (await request(before.app).post('/giffer/uploads/sign').expect(200)).body as Signed
      const postTo = (target: TestGiffer, filename: string) => {
        let req = request(target.app).post('/giffer/uploads')
        for (const [name, value] of Object.entries(signed.fields)) req = req.field(name, name === 'key' ? value.replace('${filename}', filename) : value)
        return req.field('Content-Type', 'image/jpeg')
      }
      await postTo(rolling, 'photo-1.jpg').attach('file', await makePhoto(8, 32, 32), 'photo-1.jpg').expect(204)
      const refused = await postTo(after, 'photo-2.jpg').attach('file', await makePhoto(8, 32, 32), 'photo-2.jpg')
      expect(refused.status).toBe(403)
      expect(refused.body.error.code).toBe('bad_signature')
    } finally {
      await Promise.all([before.close(), rolling.close(), after.close()])
    }
  })

  it('on an origin of its own, hands out absolute URLs there and lets the site\'s pages read the upload target\'s answer', async () => {
    const own = await startGiffer({ publicOrigin: 'https://img.example.com', publicPath: '', siteOrigin: PUBLIC_ORIGIN })
    try {
      const signed = (await request(own.app).post('/giffer/uploads/sign').expect(200)).body as Signed
      expect(signed.url).toBe('https://img.example.com/uploads')
      // The page follows the upload's progress: the browser asks first, and only the site may post.
      const preflight = await request(own.app).options('/giffer/uploads').set('Origin', PUBLIC_ORIGIN).set('Access-Control-Request-Method', 'POST').expect(204)
      expect(preflight.headers['access-control-allow-origin']).toBe(PUBLIC_ORIGIN)
      expect(preflight.headers['access-control-allow-methods']).toBe('POST')
      const key = signed.key.replace('${filename}', 'photo-1.jpg')
      let req = request(own.app).post('/giffer/uploads').set('Origin', PUBLIC_ORIGIN)
      for (const [name, value] of Object.entries(signed.fields)) req = req.field(name, name === 'key' ? key : value)
      const posted = await req.field('Content-Type', 'image/jpeg').attach('file', await makePhoto(9, 64, 64), 'photo-1.jpg').expect(204)
      expect(posted.headers['access-control-allow-origin']).toBe(PUBLIC_ORIGIN)
      const { url } = (await request(own.app).get('/giffer/uploads/resolve').query({ key }).expect(200)).body as { url: string }
      expect(url).toBe(`https://img.example.com/${key}`)
      await request(own.app).post('/giffer/slideshow/create-row').send({ images: [url], count: 1 }).expect(200).expect('Content-Type', 'image/gif')
    } finally {
      await own.close()
    }
  })
})

describe('a photo replaced after its header was read', () => {
  it('refuses the slideshow with 409 image_changed naming the photo, before decoding any of the new file, and gives its memory back', async () => {
    const small = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a7' } }).jpeg().toBuffer()
    // 12 megapixels decoded whole: about 50 MB where the estimate counted a 400×300 baseline JPEG.
    const large = await makeProgressivePhoto(7, 4000, 3000)
    expect(large.length).toBeLessThan(5 * 2 ** 20)
    const url = await uploadFile(g.app, small)
    const key = url.slice('/giffer/'.length)
    // The barrier: the header has been read and the job estimated from it; the file on disk is
    // replaced before the render thread's read of it reaches the folder.
    const original = LocalUploadStore.prototype.read
    const read = vi.spyOn(LocalUploadStore.prototype, 'read').mockImplementationOnce(async function (this: LocalUploadStore, asked: string) {
      await writeFile(storedFile(asked), large)
      return original.call(this, asked)
    })
    onTestFinished(() => read.mockRestore())

    const res = await request(g.app).post('/giffer/slideshow/create-row').send({ images: [url] })
    expect(read).toHaveBeenCalledWith(key)
    expect(res.status).toBe(409)
    expect(res.body.error).toEqual({ code: 'image_changed', message: 'Image 1 changed after it was checked. Please upload it again.', field: 'images.0' })
    await vi.waitFor(() => expect(g.giffer.stats?.memory.inUse).toBe(0))
  })
})

describe('expiry of the local folder', () => {
  it(`drops uploads after ${UPLOAD_LIFETIME_MS / 3_600_000} hours and half-received files after an hour, and keeps the rest`, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'uploads-expiry-'))
    const now = Date.now()
    const made = async (relative: string, ageMs: number) => {
      const file = path.join(dir, relative)
      await mkdir(path.dirname(file), { recursive: true })
      await writeFile(file, 'x')
      const at = new Date(now - ageMs)
      await utimes(file, at, at)
      if (!relative.startsWith('tmp/')) await utimes(path.dirname(file), at, at)
    }
    await made(`2026-01-01/${'a'.repeat(32)}/1`, UPLOAD_LIFETIME_MS + 60_000)
    await made(`2026-01-02/${'b'.repeat(32)}/1`, UPLOAD_LIFETIME_MS + 60_000)
    await made(`2026-01-02/${'c'.repeat(32)}/1`, UPLOAD_LIFETIME_MS - 60_000)
    await made('tmp/old-part', 2 * 3_600_000)
    await made('tmp/new-part', 60_000)
    const reduce = async (): Promise<Uint8Array> => {
      throw new Error('nothing is reduced by a sweep')
    }
    const store = new LocalUploadStore({ ceiling: { maxBytes: 2 ** 30, minFreeBytes: 0 }, dir, uploadUrl: '/giffer/uploads', keys: signingKeys('s'.repeat(16)), now: () => now, logger: pino({ level: 'silent' }), reduce })
    try {
      await store.sweep()
      const left = (await readdir(dir, { recursive: true })).map((name) => name.split(path.sep).join('/')).sort()
      expect(left).toEqual(['2026-01-02', `2026-01-02/${'c'.repeat(32)}`, `2026-01-02/${'c'.repeat(32)}/1`, 'tmp', 'tmp/new-part'])
    } finally {
      store.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('slideshow sources (no server-side request forgery)', () => {
  const key = `uploads/2025-01-01/${'a'.repeat(32)}/photo-1.jpg`
  const own = [PUBLIC_ORIGIN]

  it.each([
    `${PUBLIC_ORIGIN}/giffer/${key}`,
    `/giffer/${key}`,
  ])('accepts its own upload URL %s', (url) => {
    expect(uploadKeyFromUrl(url, '/giffer', own)).toBe(key)
  })

  it.each([
    ['another host', `https://evil.example/giffer/${key}`],
    ['the same path on loopback', `http://127.0.0.1:3000/giffer/${key}`],
    ['localhost', `http://localhost/giffer/${key}`],
    ['IPv6 loopback', `http://[::1]/giffer/${key}`],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['a file: URL', `file:///giffer/${key}`],
    ['a data: URL', 'data:image/png;base64,iVBORw0KGgo='],
    ['a protocol-relative URL', `//evil.example/giffer/${key}`],
    ['userinfo on our host', `http://user:pass@site.test/giffer/${key}`],
    ['our host with another port', `http://site.test:8080/giffer/${key}`],
    ['https instead of http', `https://site.test/giffer/${key}`],
    ['a redirect endpoint on our host', `${PUBLIC_ORIGIN}/giffer/redirect?to=http://127.0.0.1/`],
    ['a query on an upload URL', `${PUBLIC_ORIGIN}/giffer/${key}?x=1`],
    ['path traversal', `${PUBLIC_ORIGIN}/giffer/uploads/2025-01-01/../../../etc/passwd`],
    ['an encoded traversal', `${PUBLIC_ORIGIN}/giffer/uploads/2025-01-01%2F..%2F..%2Fetc/passwd`],
    ['a site page', `${PUBLIC_ORIGIN}/pricing/`],
    ['a malformed URL', 'http://'],
  ])('refuses %s', (_description, url) => {
    expect(uploadKeyFromUrl(url, '/giffer', own)).toBeNull()
  })

  it('answers a slideshow with a foreign URL with 400 naming the image, and fetches nothing', async () => {
    const res = await request(g.app)
      .post('/giffer/slideshow/create-row')
      .send({ images: [`http://127.0.0.1:1/giffer/${key}`] })
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('images.0')
  })

  it('answers a well-formed URL of an upload that does not exist with 400', async () => {
    const res = await request(g.app)
      .post('/giffer/slideshow/create-trio')
      .send({ images: [`${PUBLIC_ORIGIN}/giffer/${key}`] })
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('images.0')
  })
})

describe('a camera’s original sent through the upload API', () => {
  /** An 8000×6000 JPEG under 5 MB, stored sideways with EXIF orientation 6 and GPS tags, as a phone writes a portrait photo; red along its stored left side (the top as shown). */
  async function cameraOriginal(): Promise<Buffer> {
    const svg = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600" fill="#3a6ea5"/><rect width="160" height="600" fill="#e00000"/></svg>`,
    )
    return sharp(svg)
      .resize(8000, 6000)
      .jpeg({ quality: 80 })
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'Phone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2996/100' } })
      .toBuffer()
  }

  it('is reduced as it is stored: upright by its pixels, its long side 1600, no metadata; a slideshow’s memory is estimated from that', async () => {
    // A 256 MB box: 10 of these photos as sent could never be drawn there (413), reduced they are.
    const small = await startGiffer(testSizing({ role: 'site', memoryMb: 256 }))
    try {
      const original = await cameraOriginal()
      expect(original.byteLength).toBeLessThan(5 * 2 ** 20)
      expect((await sharp(original).metadata()).orientation).toBe(6)
      const urls: string[] = []
      const signed = (await request(small.app).post('/giffer/uploads/sign').expect(200)).body as Signed
      for (let n = 1; n <= 10; n++) {
        const key = signed.key.replace('${filename}', `photo-${n}.jpg`)
        let req = request(small.app).post('/giffer/uploads')
        for (const [name, value] of Object.entries(signed.fields)) req = req.field(name, name === 'key' ? key : value)
        await req.field('Content-Type', 'image/jpeg').attach('file', original, { filename: `photo-${n}.jpg`, contentType: 'image/jpeg' }).expect(204)
        urls.push(((await request(small.app).get('/giffer/uploads/resolve').query({ key }).expect(200)).body as { url: string }).url)
      }

      const stored = (await request(small.app).get(new URL(urls[0]!, PUBLIC_ORIGIN).pathname).buffer(true).parse(binary).expect(200)).body as Buffer
      expect(stored.byteLength).toBeLessThan(original.byteLength / 4)
      const meta = await sharp(stored).metadata()
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 1600])
      expect(meta.orientation).toBeUndefined()
      expect(meta.exif).toBeUndefined()
      const { data } = await sharp(stored).resize(4, 8, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true })
      expect([data[0]! > 200, data[1]! < 60]).toEqual([true, true])
      expect(data[(7 * 4 + 1) * 3]).toBeLessThan(120)

      await request(small.app).post('/giffer/slideshow/create-row').send({ images: urls, count: 1, width: 900, height: 16 / 9 }).expect(200).expect('Content-Type', 'image/gif')
    } finally {
      await small.close()
    }
    // Ten camera originals made, posted and reduced one after another, then a slideshow drawn:
    // about 6 s on a quiet machine, 15 s beside the other test files.
  }, 60_000)

  it.each(['jpeg', 'png', 'webp'] as const)('serves a %s posted with EXIF, GPS and XMP without any of it, upright by its pixels', async (format) => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600" fill="#3366aa"/><rect width="160" height="600" fill="#e00000"/></svg>')
    const tagged = sharp(svg)
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'Phone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2996/100' } })
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>')
    const original = await (format === 'jpeg' ? tagged.jpeg() : format === 'png' ? tagged.png() : tagged.webp()).toBuffer()
    expect(await sharp(original).metadata()).toMatchObject({ orientation: 6, exif: expect.any(Buffer), xmp: expect.any(Buffer) })
    const extension = format === 'jpeg' ? 'jpg' : format
    const url = await uploadFile(g.app, original, `photo-1.${extension}`, `image/${format}`)
    const served = (await request(g.app).get(url).buffer(true).parse(binary).expect(200)).body as Buffer
    const meta = await sharp(served).metadata()
    expect([meta.format, meta.width, meta.height, meta.orientation ?? 1, meta.exif, meta.xmp]).toEqual([format, 600, 800, 1, undefined, undefined])
    const { data } = await sharp(served).resize(1, 8, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    expect([data[0]! > 180, data[7 * 3]! < 120]).toEqual([true, true])
  })

  it('in a box too small to draw, refuses a photo that would need reducing with 503 too_small_for_renders, and keeps one that need not be', async () => {
    const tiny = await startGiffer(testSizing({ role: 'site', memoryMb: 180 }))
    try {
      const camera = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#3366aa' } }).jpeg().toBuffer()
      const signed = (await request(tiny.app).post('/giffer/uploads/sign').expect(200)).body as Signed
      const postTo = (name: string, file: Buffer) => {
        let req = request(tiny.app).post('/giffer/uploads')
        for (const [field, value] of Object.entries(signed.fields)) req = req.field(field, field === 'key' ? signed.key.replace('${filename}', name) : value)
        return req.field('Content-Type', 'image/jpeg').attach('file', file, { filename: name, contentType: 'image/jpeg' })
      }
      const refused = await postTo('photo-1.jpg', camera).expect(503)
      expect(refused.body.error.code).toBe('too_small_for_renders')
      await postTo('photo-2.jpg', await makePhoto(2, 1600, 1200)).expect(204)
    } finally {
      await tiny.close()
    }
  })

  it('is kept as it came where it is already render-sized, upright and without metadata (what the page sends)', async () => {
    const page = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#3366aa' } }).jpeg({ quality: 85 }).toBuffer()
    const signed = await sign()
    await post(signed, page).expect(204)
    const key = signed.key.replace('${filename}', 'photo-1.jpg')
    expect(Buffer.compare(await readFile(storedFile(key)), page)).toBe(0)
  })
})
