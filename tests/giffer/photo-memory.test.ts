/**
 * What a photo costs to draw follows from how it is stored, read from its header: a progressive
 * JPEG's coefficients at each component's resolution, a PNG's depth and alpha, a WebP lossy or
 * lossless. Photos posted through the upload API, as API clients send camera originals, are
 * reduced as they are stored within the box's memory, or refused with a 413 that names the limit
 * and says what to change in a file of that type.
 */
import request from 'supertest'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dimensionsOf } from '../../server/giffer/photo-header.js'
import { renderMemory } from '../../server/giffer/render-memory.js'
import { LAYOUTS, layoutOverflow, layoutTweak, ASPECTS, PHOTO_LONG_SIDE, UPLOAD_MAX_BYTES } from '../../shared/generators/slideshow/slideshow.js'
import { PUBLIC_ORIGIN, startGiffer, testSizing, uploadFile, type TestGiffer } from './setup.js'

const solid = (width: number, height: number, channels: 3 | 4 = 3) => sharp({ create: { width, height, channels, background: { r: 200, g: 90, b: 30, alpha: 0.6 } } })

/** A smooth picture of `width`×`height`: a few colours blended across it (a PNG of it stays within the upload limit). */
function smooth(seed: number, width: number, height: number, channels: 3 | 4 = 3) {
  const small = Buffer.alloc(4 * 3 * channels)
  for (let i = 0; i < small.length; i++) small[i] = (i * 97 + seed * 61) % 256
  return sharp(small, { raw: { width: 4, height: 3, channels } }).resize(width, height, { kernel: 'linear' })
}

/** Posts a file through the upload API; the multipart answer as it is (204 when kept). */
async function post(app: TestGiffer['app'], bytes: Buffer, filename: string, contentType: string) {
  const signed = await request(app).post('/giffer/uploads/sign').expect(200)
  const { url, key, fields } = signed.body as { url: string; key: string; fields: Record<string, string> }
  let upload = request(app).post(new URL(url, PUBLIC_ORIGIN).pathname)
  for (const [name, value] of Object.entries({ ...fields, key: key.replace('${filename}', filename) })) upload = upload.field(name, value)
  return upload.field('Content-Type', contentType).field('Content-Disposition', 'inline').attach('file', bytes, { filename, contentType })
}

/** Every shape the slideshow page offers, by what it draws: the slideshow in each aspect, a row of two, the trio and the overlay in each layout at the tallest aspect. */
const SHAPES = [
  ...ASPECTS.map((aspect) => ({ name: `slideshow ${aspect}`, path: 'create-row', body: { count: 1, height: aspect } })),
  { name: 'row of 2 9:16', path: 'create-row', body: { count: 2, height: '9:16' } },
  ...(['trio', 'overlay'] as const).flatMap((mode) =>
    LAYOUTS.map((layout) => ({ name: `${mode} ${layout} 9:16`, path: `create-${mode}`, body: { tweak: layoutTweak(layout), overflow: layoutOverflow(layout), height: '9:16' } })),
  ),
]

describe('what a photo header says of how its pixels are stored', () => {
  it('counts a JPEG’s samples at each component’s resolution: 1.5 in 4:2:0, 3 in 4:4:4, 4 for CMYK, 1 for grey', async () => {
    const of = async (image: Promise<Buffer>) => (await dimensionsOf(new Uint8Array(await image)))!
    expect(await of(solid(64, 48).jpeg({ progressive: true }).toBuffer())).toMatchObject({ progressive: true, channels: 3, samples: 1.5, bitDepth: 8 })
    expect(await of(solid(64, 48).jpeg({ chromaSubsampling: '4:4:4' }).toBuffer())).toMatchObject({ progressive: false, samples: 3 })
    expect(await of(solid(64, 48).toColourspace('cmyk').jpeg().toBuffer())).toMatchObject({ channels: 4, samples: 4 })
    expect(await of(solid(64, 48).toColourspace('b-w').jpeg().toBuffer())).toMatchObject({ channels: 1, samples: 1 })
  })

  it('tells a 16-bit PNG with alpha, a palette PNG with transparency, and a lossless WebP from a lossy one', async () => {
    const of = async (image: Promise<Buffer>) => (await dimensionsOf(new Uint8Array(await image)))!
    expect(await of(solid(64, 48, 4).toColourspace('rgb16').png().toBuffer())).toMatchObject({ channels: 4, bitDepth: 16, alpha: true, palette: false })
    expect(await of(solid(64, 48, 4).png({ palette: true }).toBuffer())).toMatchObject({ alpha: true, palette: true, bitDepth: 8 })
    expect(await of(solid(64, 48).webp({ lossless: true }).toBuffer())).toMatchObject({ lossless: true })
    expect(await of(solid(64, 48).webp().toBuffer())).toMatchObject({ lossless: false })
  })

  it('reads the sampling of a JPEG stored in the upload folder from the file itself, past a camera’s metadata', async () => {
    const bytes = await solid(640, 480).jpeg({ chromaSubsampling: '4:4:4', progressive: true }).withExif({ IFD0: { Make: 'Phone', Model: 'Camera 12' } }).withIccProfile('p3').toBuffer()
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises')
    const dir = await mkdtemp(`${(await import('node:os')).tmpdir()}/photo-header-`)
    try {
      await writeFile(`${dir}/photo.jpg`, bytes)
      expect(await dimensionsOf(`${dir}/photo.jpg`)).toMatchObject({ progressive: true, samples: 3, turnedOrTagged: true })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

/**
 * A JPEG a decoder reads as `jpeg`, with a restart marker (which has no length) before an APP15
 * segment that holds a fake one-component frame header where a walk that gave every marker a
 * length would land.
 */
function withFakeFrame(jpeg: Buffer): Buffer {
  const app = Buffer.alloc(2 + 65533)
  app.set([0xff, 0xef, 0xff, 0xfd], 0)
  app.set([0xff, 0xc2, 0x00, 0x0b, 0x08, 0x00, 0x10, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00], 2 + 2 + 0xffef - 4)
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xd0]), app, jpeg.subarray(2)])
}

describe('a header that lies', () => {
  it('reads the frame a decoder reads: a fake frame behind a restart marker does not make a CMYK JPEG cost a quarter', async () => {
    const real = await smooth(1, 3000, 2000).toColourspace('cmyk').jpeg({ progressive: true, chromaSubsampling: '4:4:4', quality: 80 }).toBuffer()
    const forged = withFakeFrame(real)
    expect(await sharp(forged).metadata()).toMatchObject({ format: 'jpeg', width: 3000, height: 2000 })
    expect(await dimensionsOf(forged)).toMatchObject({ channels: 4, samples: 4, progressive: true })
  })
})

describe('what an upload carries that a decoder does not report', () => {
  let g: TestGiffer
  beforeAll(async () => {
    g = await startGiffer()
  })
  afterAll(async () => {
    await g.close()
  })

  /** A PNG chunk of `type` holding `text`, inserted before the IEND of `png`. */
  const withChunk = (png: Buffer, type: string, text: string) => {
    const data = Buffer.from(text)
    const chunk = Buffer.alloc(12 + data.length)
    chunk.writeUInt32BE(data.length, 0)
    chunk.write(type, 4)
    data.copy(chunk, 8)
    return Buffer.concat([png.subarray(0, png.length - 12), chunk, png.subarray(png.length - 12)])
  }

  it.each([
    ['a PNG with an XMP packet after its pixels', 'photo-1.png', 'image/png', async () => withChunk(await smooth(2, 800, 600).png().toBuffer(), 'iTXt', 'XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta><exif:GPSLatitude>48,51.5N</exif:GPSLatitude></x:xmpmeta>')],
    ['a PNG with a text comment', 'photo-2.png', 'image/png', async () => withChunk(await smooth(3, 800, 600).png().toBuffer(), 'tEXt', 'Comment\0GPSLatitude 48,51.5N')],
    ['a JPEG with a tagged JPEG appended', 'photo-3.jpg', 'image/jpeg', async () => Buffer.concat([await smooth(4, 800, 600).jpeg().toBuffer(), await smooth(5, 80, 60).jpeg().withExif({ IFD0: { Make: 'GPSLatitude 48,51.5N' } }).toBuffer()])],
  ])('serves %s made again, without it', async (_name, filename, contentType, make) => {
    const bytes = await make()
    const url = await uploadFile(g.app, bytes, filename, contentType)
    const served = (await request(g.app).get(new URL(url, PUBLIC_ORIGIN).pathname).buffer(true).expect(200)).body as Buffer
    expect(served.equals(bytes)).toBe(false)
    expect(served.includes('GPSLatitude')).toBe(false)
    expect(await sharp(served).metadata()).toMatchObject({ width: 800, height: 600 })
  })

  it('keeps a bare photo as it came', async () => {
    const bytes = await smooth(6, 800, 600).jpeg({ quality: 85 }).toBuffer()
    const url = await uploadFile(g.app, bytes, 'photo-4.jpg', 'image/jpeg')
    const served = (await request(g.app).get(new URL(url, PUBLIC_ORIGIN).pathname).buffer(true).expect(200)).body as Buffer
    expect(served.equals(bytes)).toBe(true)
  })
})

describe('the memory a reduce takes, by the kind of photo', () => {
  const header = async (bytes: Buffer, type: 'image/jpeg' | 'image/png' | 'image/webp') => {
    const { photoHeader } = await import('../../server/giffer/photo-header.js')
    return photoHeader({ type, size: bytes.length }, (await dimensionsOf(new Uint8Array(bytes)))!)
  }

  it('counts two bytes a coefficient for a progressive JPEG: a 4:4:4 one costs more than a 4:2:0 one, CMYK more still', async () => {
    const reduce = async (image: ReturnType<typeof sharp>) => renderMemory({ kind: 'reduce-photo', photo: await header(await image.toBuffer(), 'image/jpeg'), longSide: PHOTO_LONG_SIDE }).bytes
    const sub = await reduce(solid(4000, 3000).jpeg({ progressive: true }))
    const full = await reduce(solid(4000, 3000).jpeg({ progressive: true, chromaSubsampling: '4:4:4' }))
    const cmyk = await reduce(solid(4000, 3000).toColourspace('cmyk').jpeg({ progressive: true }))
    // 12 megapixels: 36 MB of coefficients in 4:2:0, 72 in 4:4:4, 96 in CMYK.
    expect(full - sub).toBeGreaterThan(36e6)
    expect(cmyk - full).toBeGreaterThan(24e6)
  })

  it('advises what fits the file’s type: never a baseline JPEG for a PNG or a WebP', async () => {
    const advice = async (bytes: Buffer, type: 'image/jpeg' | 'image/png' | 'image/webp') => renderMemory({ kind: 'reduce-photo', photo: await header(bytes, type), longSide: PHOTO_LONG_SIDE }).reduce
    expect(await advice(await solid(400, 300).png({ progressive: true }).toBuffer(), 'image/png')).toBe('use a smaller photo, or save it as JPEG')
    expect(await advice(await solid(400, 300).webp({ lossless: true }).toBuffer(), 'image/webp')).toBe('use a smaller photo, or save it as JPEG or as a lossy WebP')
    expect(await advice(await solid(400, 300).jpeg({ progressive: true }).toBuffer(), 'image/jpeg')).toBe('use a smaller photo, or a baseline JPEG rather than a progressive one')
  })
})

describe('a site in a 256 MB box and photos posted through the upload API', () => {
  let g: TestGiffer
  beforeAll(async () => {
    g = await startGiffer(testSizing({ role: 'site', memoryMb: 256 }))
  })
  afterAll(async () => {
    await g.close()
  })

  it('keeps ten PNGs of 4000×3000, reduced as they are stored, and draws them in every shape', async () => {
    const urls: string[] = []
    for (let i = 0; i < 10; i++) {
      const png = await smooth(i, 4000, 3000).png().toBuffer()
      expect(png.length).toBeLessThan(UPLOAD_MAX_BYTES)
      urls.push(await uploadFile(g.app, png, `photo-${i + 1}.png`, 'image/png'))
    }
    const kept = await request(g.app).get(new URL(urls[0]!, PUBLIC_ORIGIN).pathname).buffer(true).expect(200)
    const meta = await sharp(kept.body as Buffer).metadata()
    expect(Math.max(meta.width, meta.height)).toBe(PHOTO_LONG_SIDE)
    for (const shape of SHAPES) {
      const res = await request(g.app).post(`/giffer/slideshow/${shape.path}`).send({ images: urls, delay: 1000, ...shape.body })
      expect([shape.name, res.status, res.body?.error?.message]).toEqual([shape.name, 200, undefined])
    }
  }, 240_000)

  it('stores a small progressive or 4:4:4 JPEG as a baseline 4:2:0 one, which every shape draws here', async () => {
    const progressive = await smooth(3, 1600, 1600).jpeg({ quality: 95, progressive: true, chromaSubsampling: '4:4:4' }).toBuffer()
    const url = await uploadFile(g.app, progressive, 'photo-1.jpg', 'image/jpeg')
    const kept = await request(g.app).get(new URL(url, PUBLIC_ORIGIN).pathname).buffer(true).expect(200)
    const meta = await sharp(kept.body as Buffer).metadata()
    expect({ progressive: meta.isProgressive, sampling: meta.chromaSubsampling, width: meta.width }).toEqual({ progressive: false, sampling: '4:2:0', width: 1600 })
    const tall = await request(g.app).post('/giffer/slideshow/create-row').send({ images: Array(10).fill(url), delay: 1000, count: 1, height: '9:16' })
    expect([tall.status, tall.body?.error?.message]).toEqual([200, undefined])
  }, 60_000)

  it('refuses an interlaced PNG too large to reduce here with 413 naming the limit, and advises JPEG rather than a baseline JPEG', async () => {
    const png = await solid(8000, 6000).png({ progressive: true }).toBuffer()
    const res = await post(g.app, png, 'photo-1.png', 'image/png')
    expect(res.status).toBe(413)
    expect(res.body.error).toMatchObject({ code: 'too_large_for_server', field: 'file' })
    expect(res.body.error.message).toMatch(/^Drawing this image needs about \d+ MB and this server draws with at most \d+ MB: use a smaller photo, or save it as JPEG\.$/)
  }, 60_000)
})

describe('a site in a 512 MB box and the dearest photos to decode', () => {
  let g: TestGiffer
  beforeAll(async () => {
    g = await startGiffer(testSizing({ role: 'site', memoryMb: 512 }))
  })
  afterAll(async () => {
    await g.close()
  })

  it('refuses a progressive CMYK JPEG of 50 megapixels with 413 naming the limit, or reduces it, and goes on drawing', async () => {
    const jpeg = await solid(8660, 5774).toColourspace('cmyk').jpeg({ progressive: true }).toBuffer()
    const res = await post(g.app, jpeg, 'photo-1.jpg', 'image/jpeg')
    if (res.status !== 204) {
      expect(res.status).toBe(413)
      expect(res.body.error).toMatchObject({ code: 'too_large_for_server', field: 'file' })
      expect(res.body.error.message).toMatch(/needs about \d+ MB and this server draws with at most \d+ MB: use a smaller photo, or a baseline JPEG rather than a progressive one\.$/)
    }
    // The service is there after it: it keeps and draws the next photo.
    const url = await uploadFile(g.app, await solid(1600, 1200).jpeg().toBuffer())
    await request(g.app).post('/giffer/slideshow/create-row').send({ images: [url, url], height: '9:16' }).expect(200)
  }, 120_000)

  it('keeps a 16-bit PNG with alpha of 4000×3000, reduced to eight bits, and draws it in a slideshow', async () => {
    const png = await smooth(3, 4000, 3000, 4).toColourspace('rgb16').png().toBuffer()
    expect(png.length).toBeLessThan(UPLOAD_MAX_BYTES)
    const url = await uploadFile(g.app, png, 'photo-1.png', 'image/png')
    const kept = await request(g.app).get(new URL(url, PUBLIC_ORIGIN).pathname).buffer(true).expect(200)
    expect(await sharp(kept.body as Buffer).metadata()).toMatchObject({ width: 1600, height: 1200, depth: 'uchar', hasAlpha: true })
    await request(g.app).post('/giffer/slideshow/create-row').send({ images: [url, url], height: '9:16' }).expect(200)
  }, 120_000)
})
