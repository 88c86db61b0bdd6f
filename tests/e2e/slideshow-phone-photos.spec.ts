/**
 * Photos straight from a phone, chosen on the slideshow page on a phone's screen. The page
 * prepares each in the browser before sending it (reduced, upright, without metadata), one at a
 * time, and says on each card, and to screen readers, where it is. What a file is, its bytes say,
 * not its name or label. (photo-prepare-timing.spec.ts holds the page's main thread to short
 * tasks meanwhile.)
 */
import fs from 'node:fs'
import type { Page } from '@playwright/test'
import sharp from 'sharp'
import { cameraRoll, heicFile, MIXED_ROLL, mixedRoll } from '../../scripts/lib/camera-photos.js'
import { readMultipartForm } from '../../scripts/lib/scale-run.js'
import { expectNoAxeViolations } from './axe.js'
import { expect, gotoHydrated, test } from './fixtures.js'

const PATH = '/image-slideshow-gif-generator/'
const MB = 2 ** 20

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, axe: true })

const files = (page: Page) => page.locator('#slideshow-files')
const cards = (page: Page) => page.locator('.upload-card-handle')
const messages = (page: Page) => page.locator('.upload-messages')
const stillLoading = (page: Page) => page.locator('.upload-card.is-loading')

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

/**
 * Everything the uploader's live region says, in order, caught as it is added (the region keeps
 * only the latest few).
 */
async function listenToAnnouncements(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const heard: string[] = []
    ;(window as unknown as { heard: string[] }).heard = heard
    new MutationObserver((changes) => {
      for (const change of changes) {
        if (!(change.target instanceof Element) || !change.target.matches('.image-uploader [role="log"]')) continue
        for (const node of change.addedNodes) heard.push(node.textContent ?? '')
      }
    }).observe(document, { childList: true, subtree: true })
  })
}
const announcements = (page: Page) => page.evaluate(() => (window as unknown as { heard: string[] }).heard)

/** Whether a photo is the test photo upright, by its pixels: the red band along its top, none along its bottom. */
async function expectUpright(bytes: Buffer, label: string): Promise<void> {
  const { data, info } = await sharp(bytes).removeAlpha().resize(12, 16, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true })
  const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)]
  const [r, g, b] = pixel(6, 1)
  expect(r, `${label}: red along the top`).toBeGreaterThan(150)
  expect(g! + b!, `${label}: red along the top`).toBeLessThan(150)
  const [, g2, b2] = pixel(6, 14)
  expect(g2! + b2!, `${label}: no red along the bottom`).toBeGreaterThan(150)
}

/** A photo as sent and as stored: `format`, its long side reduced to 1600 (never enlarged), no orientation tag, EXIF (camera, GPS) or XMP. */
async function expectPrepared(bytes: Buffer, expected: { format: string; width: number; height: number }, label: string): Promise<void> {
  const meta = await sharp(bytes).metadata()
  expect({ format: meta.format, width: meta.width, height: meta.height }, label).toEqual(expected)
  expect(meta.orientation, label).toBeUndefined()
  expect(meta.exif, label).toBeUndefined()
  expect(meta.xmp, label).toBeUndefined()
}

/** The photo's size and type once prepared: as shown (turned by its orientation), long side 1600 at most; only a transparent PNG stays a PNG. */
function preparedOf(spec: (typeof MIXED_ROLL)[number]): { format: string; width: number; height: number } {
  const sideways = spec.kind === 'camera' && spec.orientation >= 5
  const [w, h] = sideways ? [spec.height, spec.width] : [spec.width, spec.height]
  const scale = Math.min(1, 1600 / Math.max(w, h))
  return { format: spec.kind === 'png' && spec.transparent ? 'png' : 'jpeg', width: Math.round(w * scale), height: Math.round(h * scale) }
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
    await files(page).setInputFiles(roll)
    await expect(cards(page)).toHaveCount(10)
    await expect(stillLoading(page)).toHaveCount(0, { timeout: 60_000 })
    await expect(messages(page)).toHaveCount(0)

    // What the browser sent: a tenth of the files' bytes or less, each photo upright by its
    // pixels, render-sized and without metadata.
    expect(sent.bodies).toHaveLength(10)
    expect(sent.bodies.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(total / 10)
    for (const [i, file] of sent.files.entries()) {
      await expectPrepared(file, { format: 'jpeg', width: 1200, height: 1600 }, `sent ${i + 1}`)
      await expectUpright(file, `sent ${i + 1}`)
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
      await expectPrepared(bytes, { format: 'jpeg', width: 1200, height: 1600 }, url)
      await expectUpright(bytes, url)
    }
  })

  test('a mixed roll (each orientation, square, transparent and opaque PNGs, CMYK) is stored upright without metadata, each card saying where its photo is', async ({ page, request }) => {
    const roll = await mixedRoll()
    await listenToAnnouncements(page)
    await gotoHydrated(page, PATH)
    await files(page).setInputFiles(roll)
    await expect(cards(page)).toHaveCount(10)
    // Photos wait their turn: one is prepared while the rest wait, and axe finds nothing wrong
    // with the cards in their states.
    await expect(cards(page).last()).toHaveAttribute('aria-busy', 'true')
    await expectNoAxeViolations(page)
    await expect(stillLoading(page)).toHaveCount(0, { timeout: 60_000 })
    await expect(messages(page)).toHaveCount(0)
    await expectNoAxeViolations(page)

    // Screen readers heard each photo move on once a phase, in order, and nothing else.
    const heard = await announcements(page)
    for (let photo = 1; photo <= 10; photo++) {
      const own = heard.filter((text) => text.startsWith(`Photo ${photo} of 10:`))
      expect(own, `photo ${photo}`).toEqual([`Photo ${photo} of 10: preparing`, `Photo ${photo} of 10: sending`, `Photo ${photo} of 10: ready`])
    }
    expect(heard).toHaveLength(30)

    const drawn = page.waitForRequest((candidate) => candidate.url().endsWith('/giffer/slideshow/create-row'))
    await page.getByRole('button', { name: 'Generate slideshow' }).click()
    const { images } = (await drawn).postDataJSON() as { images: string[] }
    expect(images).toHaveLength(10)
    for (const [i, url] of images.entries()) {
      const stored = await request.get(url)
      expect(stored.status()).toBe(200)
      const bytes = await stored.body()
      const label = `${roll[i]} stored as ${url}`
      await expectPrepared(bytes, preparedOf(MIXED_ROLL[i]!), label)
      await expectUpright(bytes, label)
    }
    await expect(page.locator('.slideshow-result img')).toBeVisible({ timeout: 30_000 })
  })

  test('removing a card while its photo is decoded ends that decode: the next photo is never decoded beside it', async ({ page }) => {
    const roll = await cameraRoll()
    // The photo worker as served, with each decode taking two seconds longer, as on a slow phone:
    // long enough for a card to be removed while its photo is decoded.
    await page.route('**/assets/photo-worker-*.js', async (route) => {
      const response = await route.fetch()
      const slow = 'const decodeNow = self.createImageBitmap; self.createImageBitmap = (...input) => new Promise((wait) => setTimeout(wait, 2000)).then(() => decodeNow(...input));\n'
      await route.fulfill({ response, body: slow + (await response.text()) })
    })
    await page.addInitScript(() => {
      ;(window as unknown as { __photoDecodeProbe: { most: number } }).__photoDecodeProbe = { most: 0 }
    })
    await listenToAnnouncements(page)
    await gotoHydrated(page, PATH)
    const workers = { started: 0, ended: 0 }
    page.on('worker', (worker) => {
      workers.started++
      worker.on('close', () => workers.ended++)
    })
    await files(page).setInputFiles([roll[0]!, roll[1]!])
    await expect(page.locator('.image-uploader [role="log"]')).toContainText('Photo 1 of 2: preparing')
    await page.getByRole('button', { name: 'Remove IMG_4001.jpg' }).click()
    await expect(cards(page)).toHaveCount(1)
    await expect(stillLoading(page)).toHaveCount(0, { timeout: 30_000 })
    await expect(messages(page)).toHaveCount(0)
    // The removed photo never got further than its decode; the worker decoding it was ended, and
    // the next photo had a worker of its own, alone.
    expect(await announcements(page)).toEqual(['Photo 1 of 2: preparing', 'Photo 1 of 1: preparing', 'Photo 1 of 1: sending', 'Photo 1 of 1: ready'])
    expect(workers).toEqual({ started: 2, ended: 1 })
    expect(await page.evaluate(() => (window as unknown as { __photoDecodeProbe: { most: number } }).__photoDecodeProbe.most)).toBe(1)
  })
})

test.describe('what a file is, its bytes say', () => {
  test('a HEIC photo this browser cannot read gets its card removed and a message saying how to send a JPEG', async ({ page }) => {
    const heic = await heicFile()
    await gotoHydrated(page, PATH)
    await files(page).setInputFiles(heic)
    await expect(messages(page)).toHaveText(
      'This browser can’t open HEIC photos: IMG_7001.heic. Send it as a JPEG: share it from Photos (Mail sends a JPEG), or set the iPhone to Settings ▸ Camera ▸ Formats ▸ Most Compatible.',
    )
    await expect(cards(page)).toHaveCount(0)
    await expectNoAxeViolations(page)
  })

  test('a JPEG labelled image/jpg, image/pjpeg or nothing under any name is sent; a broken JPEG cannot be read; a text file is no image', async ({ page }) => {
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#ff8800' } }).jpeg().toBuffer()
    // A JPEG whose header (up to its frame header and tables) is whole, cut before its pixels.
    const broken = Buffer.concat([jpeg.subarray(0, jpeg.indexOf(Buffer.from([0xff, 0xda]))), Buffer.from('not the pixels'.repeat(40))])
    await gotoHydrated(page, PATH)
    const sent = await catchUploads(page)
    await files(page).setInputFiles([
      { name: 'a.jpg', mimeType: 'image/jpg', buffer: jpeg },
      { name: 'b.jpeg', mimeType: 'image/pjpeg', buffer: jpeg },
      { name: 'c.dat', mimeType: 'application/octet-stream', buffer: jpeg },
      { name: 'broken.jpg', mimeType: 'image/jpeg', buffer: broken },
      { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('Shopping list: milk, eggs, bread.\n') },
    ])
    await expect(messages(page).locator('li')).toHaveText(['Unsupported file type. notes.png', 'Can’t read this photo. broken.jpg'])
    await expect(cards(page)).toHaveCount(3)
    await expect(stillLoading(page)).toHaveCount(0)
    expect(await cards(page).evaluateAll((handles) => handles.map((handle) => handle.getAttribute('aria-label')))).toEqual(['Image 1 of 3: a.jpg', 'Image 2 of 3: b.jpeg', 'Image 3 of 3: c.dat'])
    expect(sent.files).toHaveLength(3)
    for (const file of sent.files) expect((await sharp(file).metadata()).format).toBe('jpeg')
  })
})
