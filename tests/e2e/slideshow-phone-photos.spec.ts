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
import { cameraRoll } from '../../scripts/lib/camera-photos.js'
import { readMultipartForm } from '../../scripts/lib/scale-run.js'
import { expect, gotoHydrated, test } from './fixtures.js'

const PATH = '/image-slideshow-gif-generator/'
const MB = 2 ** 20

const cards = (page: Page) => page.locator('.upload-card-handle')

/**
 * The photo of every upload posted, as the browser sent it: the file part of each multipart body,
 * caught on its way to the upload target.
 */
async function catchUploads(page: Page): Promise<{ bodies: number[]; files: Buffer[] }> {
  const caught = { bodies: [] as number[], files: [] as Buffer[] }
  await page.route('**/giffer/uploads', async (route) => {
    const request = route.request()
    if (request.method() === 'POST') {
      const body = request.postDataBuffer() ?? Buffer.alloc(0)
      caught.bodies.push(body.byteLength)
      caught.files.push(readMultipartForm((await request.allHeaders())['content-type'] ?? '', body)?.file ?? Buffer.alloc(0))
    }
    await route.continue()
  })
  return caught
}

/** Whether a JPEG is the camera photo upright, by its pixels: the red band along its top, none along its bottom. */
async function expectUpright(bytes: Buffer): Promise<void> {
  const { data, info } = await sharp(bytes).resize(12, 16, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true })
  const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)]
  const [r, g, b] = pixel(6, 1)
  expect(r).toBeGreaterThan(150)
  expect(g! + b!).toBeLessThan(150)
  const [, g2, b2] = pixel(6, 14)
  expect(g2! + b2!).toBeGreaterThan(150)
}

/** A portrait JPEG of 1200×1600 without an orientation tag, EXIF (camera, GPS) or XMP. */
async function expectRenderSizedWithoutMetadata(bytes: Buffer): Promise<void> {
  const meta = await sharp(bytes).metadata()
  expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 1600])
  expect(meta.orientation).toBeUndefined()
  expect(meta.exif).toBeUndefined()
  expect(meta.xmp).toBeUndefined()
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
    const sent = await catchUploads(page)
    await page.locator('#slideshow-files').setInputFiles(roll)
    await expect(cards(page)).toHaveCount(10)
    await expect(page.locator('.upload-card.is-loading')).toHaveCount(0, { timeout: 60_000 })
    await expect(page.locator('.upload-messages')).toHaveCount(0)

    // What the browser sent: a tenth of the files' bytes or less, each photo upright by its
    // pixels, render-sized and without metadata.
    expect(sent.bodies).toHaveLength(10)
    expect(sent.bodies.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(total / 10)
    for (const file of sent.files) {
      await expectRenderSizedWithoutMetadata(file)
      await expectUpright(file)
    }

    const drawn = page.waitForRequest((candidate) => candidate.url().endsWith('/giffer/slideshow/create-row'))
    await page.getByRole('button', { name: 'Generate slideshow' }).click()
    const { images } = (await drawn).postDataJSON() as { images: string[] }
    expect(images).toHaveLength(10)
    await expect(page.locator('.slideshow-result img')).toBeVisible({ timeout: 30_000 })

    // What the service keeps is the same.
    for (const url of images) {
      const stored = await request.get(url)
      expect(stored.status()).toBe(200)
      const bytes = await stored.body()
      await expectRenderSizedWithoutMetadata(bytes)
      await expectUpright(bytes)
    }
  })
})
