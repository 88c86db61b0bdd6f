import sharp from 'sharp'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { binary, decodeGif, differingPixels, makePhoto, pixelAt, startGiffer, uploadFile, type TestGiffer } from './setup.js'

let g: TestGiffer
beforeAll(async () => {
  g = await startGiffer()
})
afterAll(async () => {
  await g.close()
})

async function post(path: string, body: object): Promise<Buffer> {
  const res = await request(g.app).post(path).send(body).buffer(true).parse(binary)
  expect(res.status, res.status === 200 ? '' : res.body.toString()).toBe(200)
  expect(res.headers['content-type']).toBe('image/gif')
  return res.body as Buffer
}

/** The horizontal shift s (0 < s < 200) such that `next` is `previous` moved left by s pixels. */
function leftShift(previous: Uint8Array, next: Uint8Array, width: number, height: number): number | null {
  for (let s = 1; s < 200; s++) {
    let same = true
    for (let y = 0; y < height && same; y++) {
      for (let x = 0; x < width - s; x++) {
        const a = (y * width + x) * 4
        const b = (y * width + x + s) * 4
        if (next[a] !== previous[b] || next[a + 1] !== previous[b + 1] || next[a + 2] !== previous[b + 2]) {
          same = false
          break
        }
      }
    }
    if (same) return s
  }
  return null
}

describe('countdown GIF', () => {
  const style = { font: 'roboto', color: '#111111', background: '#ffeecc', days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' }

  it('is 1200×300 at scale 2, one frame a second for 120 s, looping forever', async () => {
    const gif = decodeGif(await post('/giffer/countdown/create', { ...style, delay: 3 * 86400 + 5 * 3600 + 7 * 60 + 30 }))
    expect([gif.width, gif.height]).toEqual([1200, 300])
    expect(gif.loop).toBe(0)
    expect(gif.frames).toHaveLength(120)
    expect(gif.frames.every((f) => f.delayMs === 1000)).toBe(true)
    // frame 0 is the whole picture; later frames repaint only the digits that changed
    expect(gif.frames[0]).toMatchObject({ x: 0, y: 0, width: 1200, height: 300 })
    expect(gif.frames[1]!.width * gif.frames[1]!.height).toBeLessThan(1200 * 300 * 0.1)
  })

  it('shows the real starting time on frame 0, the same picture as 5 s into a countdown that started 5 s earlier', async () => {
    const start = 2 * 3600 + 15 * 60 + 42
    const now = decodeGif(await post('/giffer/countdown/create', { ...style, delay: start, duration: 10 }))
    const earlier = decodeGif(await post('/giffer/countdown/create', { ...style, delay: start + 5, duration: 10 }))
    const other = decodeGif(await post('/giffer/countdown/create', { ...style, delay: start + 1, duration: 10 }))
    expect(differingPixels(now.picture(0), earlier.picture(5))).toBe(0)
    expect(differingPixels(now.picture(3), earlier.picture(8))).toBe(0)
    expect(differingPixels(now.picture(0), other.picture(0))).toBeGreaterThan(50)
    // frame 0 has text in the colour asked for on the background asked for
    expect(pixelAt(now.picture(0), now.width, 2, 2)).toEqual([0xff, 0xee, 0xcc, 255])
  })

  it('merges the frames after zero into one long last frame', async () => {
    const gif = decodeGif(await post('/giffer/countdown/create', { ...style, delay: 5 }))
    expect(gif.frames).toHaveLength(6)
    expect(gif.frames.slice(0, 5).map((f) => f.delayMs)).toEqual([1000, 1000, 1000, 1000, 1000])
    expect(gif.frames[5]!.delayMs).toBe(115_000)
  })

  it('is shorter without captions and half the size at scale 1', async () => {
    const plain = decodeGif(await post('/giffer/countdown/create', { delay: 60, duration: 2 }))
    expect([plain.width, plain.height]).toEqual([1200, 220])
    const small = decodeGif(await post('/giffer/countdown/create', { ...style, delay: 60, duration: 2, scale: 1 }))
    expect([small.width, small.height]).toEqual([600, 150])
  })

  it('is served from the cache for an identical request, with the same ETag', async () => {
    const body = { ...style, delay: 777, duration: 3 }
    const first = await request(g.app).post('/giffer/countdown/create').send(body)
    const second = await request(g.app).post('/giffer/countdown/create').send(body)
    expect(second.headers['x-giffer-cache']).toBe('hit')
    expect(second.headers.etag).toBe(first.headers.etag)
    expect(second.headers['cache-control']).toContain('immutable')
  })
})

describe('scrolling-text GIF', () => {
  const base = { text: 'Summer sale', divider: '&#9733;', font: 'roboto', color: '#ffffff', divider_color: '#ff3366', background: '#222244' }

  it('is 600 CSS px × scale 2 wide and loops seamlessly: the frame after the last is frame 0', async () => {
    const gif = decodeGif(await post('/giffer/scrollingtext/create', base))
    expect(gif.width).toBe(1200)
    expect(gif.loop).toBe(0)
    expect(gif.frames.length).toBeGreaterThan(10)
    expect(gif.frames.length).toBeLessThanOrEqual(200)
    const first = gif.picture(0)
    const step = leftShift(first, gif.picture(1), gif.width, gif.height)
    expect(step).not.toBeNull()
    expect(leftShift(gif.picture(gif.frames.length - 1), first, gif.width, gif.height)).toBe(step)
    expect(new Set(gif.frames.map((f) => f.delayMs)).size).toBe(1)
  })

  it('draws the divider from a character reference in its own colour', async () => {
    const gif = decodeGif(await post('/giffer/scrollingtext/create', base))
    const picture = gif.picture(0)
    const colours = new Set<string>()
    for (let i = 0; i < picture.length; i += 4) colours.add(`${picture[i]},${picture[i + 1]},${picture[i + 2]}`)
    expect(colours.has('255,51,102')).toBe(true)
    expect(colours.has('255,255,255')).toBe(true)
  })

  it('moves right when reverse is true', async () => {
    const gif = decodeGif(await post('/giffer/scrollingtext/create', { ...base, reverse: true }))
    const first = gif.picture(0)
    const second = gif.picture(1)
    expect(leftShift(first, second, gif.width, gif.height)).toBeNull()
    expect(leftShift(second, first, gif.width, gif.height)).not.toBeNull()
  })

  it('never goes over frames_max, even for a long text', async () => {
    const gif = decodeGif(await post('/giffer/scrollingtext/create', { ...base, text: 'A long announcement '.repeat(9), frames_max: 50 }))
    expect(gif.frames.length).toBeLessThanOrEqual(50)
    expect(leftShift(gif.picture(gif.frames.length - 1), gif.picture(0), gif.width, gif.height)).not.toBeNull()
  })

  it('hides the text on the 0 frames of a flicker pattern, with a frame count that is a multiple of it', async () => {
    const gif = decodeGif(await post('/giffer/scrollingtext/create', { ...base, flicker_pattern: '110' }))
    expect(gif.frames.length % 3).toBe(0)
    const hidden = gif.picture(2)
    for (let i = 0; i < hidden.length; i += 4) {
      if (hidden[i] !== 0x22 || hidden[i + 1] !== 0x22 || hidden[i + 2] !== 0x44) throw new Error(`frame 2 is not blank at ${i / 4}`)
    }
    expect(differingPixels(gif.picture(1), hidden)).toBeGreaterThan(100)
  })
})

describe('text preview PNG', () => {
  it('draws three lines of 35 characters at 72 × 2 with a stroke on a transparent background', async () => {
    const text = ['With love and gratitude, always you', 'Maria Alexandra Montgomery-Smith!!', 'Thank you so much for everything'].join('\n')
    const res = await request(g.app)
      .get('/giffer/text/preview')
      .query({ text, font: 'great-vibes', font_size: 72, stroke_width: 3, stroke: '#ff0000', color: '#000000' })
      .buffer(true)
      .parse(binary)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    const { data, info } = await sharp(res.body as Buffer).raw().toBuffer({ resolveWithObject: true })
    expect(info.channels).toBe(4)
    expect(info.width).toBeGreaterThan(1500)
    expect(info.height).toBeGreaterThan(3 * 72 * 2)
    expect(pixelAt(data, info.width, 0, 0)[3]).toBe(0)
    let red = 0
    let black = 0
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] === 255 && data[i]! > 240 && data[i + 1]! < 20) red++
      if (data[i + 3] === 255 && data[i]! < 20 && data[i + 1]! < 20) black++
    }
    expect(red).toBeGreaterThan(1000)
    expect(black).toBeGreaterThan(1000)
  })

  it('cuts text beyond 3 lines of 35 characters', async () => {
    const long = await request(g.app).get('/giffer/text/preview').query({ text: `${'x'.repeat(60)}\nb\nc\nd\ne`, font: 'allura', scale: 1 })
    const cut = await request(g.app).get('/giffer/text/preview').query({ text: `${'x'.repeat(35)}\nb\nc`, font: 'allura', scale: 1 })
    expect(long.status).toBe(200)
    expect(long.headers.etag).toBe(cut.headers.etag)
  })

  it('is padded by 3 + size/10 by default and honours the padding given', async () => {
    const size = async (query: Record<string, string | number>) => {
      const res = await request(g.app).get('/giffer/text/preview').query({ text: 'Aa', font: 'pacifico', scale: 1, ...query }).buffer(true).parse(binary)
      return sharp(res.body as Buffer).metadata()
    }
    const auto = await size({ font_size: 40 })
    const zero = await size({ font_size: 40, padding: 0 })
    expect(auto.width! - zero.width!).toBe(2 * 7)
  })

  it('answers a repeated request with 304 when the ETag matches', async () => {
    const query = { text: 'Cached', font: 'lobster' }
    const first = await request(g.app).get('/giffer/text/preview').query(query)
    const again = await request(g.app).get('/giffer/text/preview').query(query).set('If-None-Match', String(first.headers.etag))
    expect(again.status).toBe(304)
  })

  it('draws Cyrillic and symbols with the fallback fonts', async () => {
    const res = await request(g.app).get('/giffer/text/preview').query({ text: 'Привет ★ ✓', font: 'unifrakturmaguntia', scale: 1 })
    expect(res.status).toBe(200)
  })
})

describe('slideshow GIF', () => {
  let images: string[] = []
  beforeAll(async () => {
    images = []
    for (let i = 0; i < 4; i++) images.push(await uploadFile(g.app, await makePhoto(i, 800, 600)))
  })

  it('row with count 1 (the slideshow mode): 900 px wide, one frame per image, each shown for the delay', async () => {
    const gif = decodeGif(await post('/giffer/slideshow/create-row', { images, delay: 1200, height: '4:5', count: 1 }))
    expect([gif.width, gif.height]).toEqual([900, 1125])
    expect(gif.frames).toHaveLength(4)
    expect(gif.frames.every((f) => f.delayMs === 1200)).toBe(true)
    expect(gif.loop).toBe(0)
    expect(differingPixels(gif.picture(0), gif.picture(1))).toBeGreaterThan(100_000)
  })

  it.each([
    ['3:2', 600],
    ['16:9', 506],
    ['1:1', 900],
  ])('row of aspect %s is %d px high', async (aspect, height) => {
    const gif = decodeGif(await post('/giffer/slideshow/create-row', { images, height: aspect }))
    expect(gif.height).toBe(height)
  })

  it('trio and overlay layouts with -cut overflow keep the width and show every image once per loop', async () => {
    const trio = decodeGif(await post('/giffer/slideshow/create-trio', { images, tweak: 'hero', overflow: 0.5, spacing: 8 }))
    const overlay = decodeGif(await post('/giffer/slideshow/create-overlay', { images, overlay_opacity: 0.6, tweak: 1.3 }))
    expect(trio.width).toBe(900)
    expect(trio.frames).toHaveLength(4)
    expect(overlay.width).toBe(900)
    expect(overlay.frames).toHaveLength(4)
  })

  it('leaves rounded corners transparent on a transparent background', async () => {
    const gif = decodeGif(await post('/giffer/slideshow/create-row', { images: images.slice(0, 2), radius: 40, background: 'transparent' }))
    const picture = gif.picture(0)
    expect(pixelAt(picture, gif.width, 1, 1)[3]).toBe(0)
    expect(pixelAt(picture, gif.width, gif.width / 2, gif.height / 2)[3]).toBe(255)
  })

  it('draws borders in the colour asked for', async () => {
    const gif = decodeGif(await post('/giffer/slideshow/create-row', { images: images.slice(0, 1), border_width: 6, border_color: '#00ff00', spacing: 10 }))
    const [r, gr, b] = pixelAt(gif.picture(0), gif.width, 12, gif.height / 2)
    expect(gr).toBeGreaterThan(200)
    expect(r).toBeLessThan(60)
    expect(b).toBeLessThan(60)
  })
})
