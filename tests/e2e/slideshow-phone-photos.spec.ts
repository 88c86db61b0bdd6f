/**
 * Photos straight from a phone: ten camera photos (12 megapixels, and one of 48 over 10 MB), each
 * turned by its EXIF orientation and carrying GPS tags, are chosen on the slideshow page. The
 * page reduces them in the browser before sending them: all are accepted, a tenth of their bytes
 * or less is sent, what the service keeps is upright by its pixels and has no metadata, and the
 * GIF is drawn. (photo-prepare-timing.spec.ts holds the page's main thread to short tasks meanwhile.)
 */
import fs from 'node:fs'
import type { Page, Request } from '@playwright/test'
import sharp from 'sharp'
import { cameraRoll } from './camera-roll.js'
import { expect, gotoHydrated, test } from './fixtures.js'

const PATH = '/image-slideshow-gif-generator/'
const MB = 2 ** 20

const cards = (page: Page) => page.locator('.upload-card-handle')

/** Bytes of every photo posted to the upload target, counted from the requests' bodies. */
function countUploads(page: Page): { bytes: number; count: number } {
  const sent = { bytes: 0, count: 0 }
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST' || !request.url().endsWith('/giffer/uploads')) return
    sent.bytes += request.postDataBuffer()?.byteLength ?? 0
    sent.count += 1
  })
  return sent
}

test.describe('photos from a phone', () => {
  // Ten phone photos decoded and encoded in the browser, sent, and a GIF drawn, on a shared machine.
  test.slow()

  test('ten camera photos are accepted, sent at a tenth of their bytes or less, stored upright without metadata, and drawn', async ({ page, request }) => {
    const roll = await cameraRoll()
    const total = roll.reduce((sum, name) => sum + fs.statSync(name).size, 0)
    expect(fs.statSync(roll[9]!).size).toBeGreaterThan(10 * MB)
    const original = await sharp(roll[0]!).metadata()
    expect(original.orientation).toBe(6)
    expect(original.exif?.byteLength).toBeGreaterThan(100)

    await gotoHydrated(page, PATH)
    const sent = countUploads(page)
    await page.locator('#slideshow-files').setInputFiles(roll)
    await expect(cards(page)).toHaveCount(10)
    await expect(page.locator('.upload-card.is-loading')).toHaveCount(0, { timeout: 60_000 })
    await expect(page.locator('.upload-messages')).toHaveCount(0)

    expect(sent.count).toBe(10)
    expect(sent.bytes).toBeLessThanOrEqual(total / 10)

    const drawn = page.waitForRequest((candidate) => candidate.url().endsWith('/giffer/slideshow/create-row'))
    await page.getByRole('button', { name: 'Generate slideshow' }).click()
    const { images } = (await drawn).postDataJSON() as { images: string[] }
    expect(images).toHaveLength(10)
    await expect(page.locator('.slideshow-result img')).toBeVisible({ timeout: 30_000 })

    for (const url of images) {
      const stored = await request.get(url)
      expect(stored.status()).toBe(200)
      const bytes = await stored.body()
      const meta = await sharp(bytes).metadata()
      // Upright by its pixels: portrait, no orientation tag, no EXIF (camera, GPS) at all.
      expect(meta.format).toBe('jpeg')
      expect(Math.max(meta.width!, meta.height!)).toBe(1600)
      expect(meta.width).toBe(1200)
      expect(meta.orientation).toBeUndefined()
      expect(meta.exif).toBeUndefined()
      expect(meta.xmp).toBeUndefined()
      // The red band is at the top as shown: the first rows are red, the last ones are not.
      const { data, info } = await sharp(bytes).resize(12, 16, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true })
      const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)]
      const [r, g, b] = pixel(6, 1)
      expect(r).toBeGreaterThan(150)
      expect(g! + b!).toBeLessThan(150)
      const [, g2, b2] = pixel(6, 14)
      expect(g2! + b2!).toBeGreaterThan(150)
    }
  })
})
