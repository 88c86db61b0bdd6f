/**
 * What the page reads of a chosen photo before decoding it: its type, its size as shown (EXIF
 * orientation applied), whether it may be transparent, and the size it is sent at. The photos are
 * made with sharp, as cameras and editors write them.
 */
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { PHOTO_SIZE_SEARCH_BYTES, preparedSize, readPhotoFacts, tooManyPixels } from '../../shared/generators/slideshow/photo-facts.js'
import { MESSAGES, PHOTO_LONG_SIDE, PHOTO_MAX_PIXELS, SLIDESHOW_WIDTH } from '../../shared/generators/slideshow/slideshow.js'
import { slideshowLayout } from '../../server/giffer/render/slideshow-layout.js'

const solid = (width: number, height: number, channels: 3 | 4 = 3) => sharp({ create: { width, height, channels, background: channels === 4 ? { r: 200, g: 10, b: 10, alpha: 0.5 } : '#c80a0a' } })
const facts = async (image: Promise<Buffer>) => readPhotoFacts(new Uint8Array(await image))

describe('reading a photo’s header', () => {
  it('gives a JPEG’s size as shown: sides swapped for EXIF orientations 5 to 8, as they are for 1 to 4', async () => {
    for (const orientation of [1, 2, 3, 4]) {
      expect(await facts(solid(400, 300).jpeg().withMetadata({ orientation }).toBuffer())).toEqual({ type: 'image/jpeg', width: 400, height: 300, orientation, alpha: false })
    }
    for (const orientation of [5, 6, 7, 8]) {
      expect(await facts(solid(400, 300).jpeg().withMetadata({ orientation }).toBuffer())).toEqual({ type: 'image/jpeg', width: 300, height: 400, orientation, alpha: false })
    }
  })

  it('reads a JPEG whose camera data, GPS and colour profile come before its frame, and a progressive one', async () => {
    const camera = solid(2000, 1500)
      .jpeg({ progressive: true })
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'Phone', Model: 'Camera 12' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2996/100' } })
      .withIccProfile('p3')
      .toBuffer()
    expect(await facts(camera)).toMatchObject({ type: 'image/jpeg', width: 1500, height: 2000, orientation: 6 })
    // Only the first part of a file is read: enough for the frame header.
    const whole = await camera
    expect(readPhotoFacts(new Uint8Array(whole.subarray(0, Math.min(whole.length, PHOTO_SIZE_SEARCH_BYTES))))).toMatchObject({ width: 1500, height: 2000 })
  })

  it('tells a PNG that may be transparent (alpha, or a tRNS chunk) from one that cannot be', async () => {
    expect(await facts(solid(20, 10).png().toBuffer())).toEqual({ type: 'image/png', width: 20, height: 10, orientation: 1, alpha: false })
    expect(await facts(solid(20, 10, 4).png().toBuffer())).toMatchObject({ alpha: true })
    expect(await facts(solid(20, 10, 4).png({ palette: true }).toBuffer())).toMatchObject({ width: 20, height: 10, alpha: true })
  })

  it('reads the three kinds of WebP: lossy, lossless and extended with alpha', async () => {
    expect(await facts(solid(321, 123).webp().toBuffer())).toEqual({ type: 'image/webp', width: 321, height: 123, orientation: 1, alpha: false })
    expect(await facts(solid(321, 123).webp({ lossless: true }).toBuffer())).toMatchObject({ width: 321, height: 123, alpha: false })
    expect(await facts(solid(321, 123, 4).webp().toBuffer())).toMatchObject({ width: 321, height: 123, alpha: true })
  })

  it('knows nothing of bytes that are not a JPEG, PNG or WebP, or that stop before the size', async () => {
    expect(readPhotoFacts(new Uint8Array(1000))).toBeNull()
    expect(readPhotoFacts(new TextEncoder().encode('GIF89a\x01\x00\x01\x00'))).toBeNull()
    const jpeg = await solid(40, 30).jpeg().withMetadata({ orientation: 6 }).toBuffer()
    expect(readPhotoFacts(new Uint8Array(jpeg.subarray(0, 40)))).toBeNull()
    // Lengths that lead nowhere end the walk.
    const broken = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x00, 0xff, 0xc0])
    expect(readPhotoFacts(new Uint8Array(broken))).toBeNull()
  })
})

describe('the size a photo is sent at', () => {
  it('is the long side of the largest card any shape draws', () => {
    const tallest = slideshowLayout({ mode: 'row', width: SLIDESHOW_WIDTH, spacing: 0, count: 1, tweak: 1, overflow: 0, height: 16 / 9 })
    expect(PHOTO_LONG_SIDE).toBe(Math.max(...tallest.cards.map((card) => Math.max(card.width, card.height))))
    expect(PHOTO_LONG_SIDE).toBe(1600)
  })

  it('reduces a photo to that long side, keeping its shape, and never enlarges one', () => {
    expect(preparedSize({ width: 4000, height: 3000, alpha: false })).toEqual({ width: 1600, height: 1200, type: 'image/jpeg' })
    expect(preparedSize({ width: 3000, height: 4000, alpha: false })).toEqual({ width: 1200, height: 1600, type: 'image/jpeg' })
    expect(preparedSize({ width: 8000, height: 6000, alpha: false })).toEqual({ width: 1600, height: 1200, type: 'image/jpeg' })
    expect(preparedSize({ width: 640, height: 480, alpha: false })).toEqual({ width: 640, height: 480, type: 'image/jpeg' })
    expect(preparedSize({ width: 20_000, height: 10, alpha: false })).toEqual({ width: 1600, height: 1, type: 'image/jpeg' })
  })

  it('is a PNG for a photo that may be transparent, else a JPEG', () => {
    expect(preparedSize({ width: 100, height: 100, alpha: true }).type).toBe('image/png')
  })

  it('refuses more than 100 megapixels, and says so', () => {
    expect(PHOTO_MAX_PIXELS).toBe(100_000_000)
    expect(MESSAGES.tooManyPixels).toBe(`Image is too large (max ${PHOTO_MAX_PIXELS / 1_000_000} megapixels).`)
    expect(tooManyPixels({ width: 10_000, height: 10_000 })).toBe(false)
    expect(tooManyPixels({ width: 12_000, height: 9_000 })).toBe(true)
  })
})
