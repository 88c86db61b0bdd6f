import fs from 'node:fs'
import type { Locator, Page } from '@playwright/test'
import sharp from 'sharp'
import { expect, gotoHydrated, test } from './fixtures.js'

const PATH = '/image-slideshow-gif-generator/'

/** A small PNG of one colour. */
async function photo(name: string, colour: string) {
  const buffer = await sharp({ create: { width: 48, height: 48, channels: 3, background: colour } }).png().toBuffer()
  return { name, mimeType: 'image/png', buffer }
}

const files = (page: Page) => page.locator('#slideshow-files')
const cards = (page: Page) => page.locator('.upload-card-handle')
const messages = (page: Page) => page.locator('.upload-messages')
const focusedCard = (page: Page) => page.locator('.upload-card-handle:focus')
/** dnd-kit's live region: what screen readers hear while a card is moved. */
const announcer = (page: Page) => page.locator('[id^="DndLiveRegion-"]')
/** The uploader's own status region: removals. */
const uploaderStatus = (page: Page) => page.locator('.image-uploader p[role="status"]')

/** The file names of the cards, in order, once every upload is done. */
async function order(page: Page): Promise<string[]> {
  const labels = await cards(page).evaluateAll((handles) => handles.map((handle) => handle.getAttribute('aria-label') ?? ''))
  return labels.map((label) => label.replace(/^Image \d+ of \d+: /, ''))
}

async function expectUploaded(page: Page, count: number) {
  await expect(cards(page)).toHaveCount(count)
  await expect(page.locator('.upload-card.is-loading')).toHaveCount(0)
}

/**
 * Picks up the focused card with `key` (Space or Enter) and waits until it can be moved: dnd-kit's
 * keyboard sensor starts listening for the arrow keys in a zero-delay timer after the pick-up, and
 * the browser handles input before timers, so an arrow key sent at once (faster than anyone types)
 * would be missed. Timers of the same delay run in the order they were set.
 */
async function pickUp(page: Page, key: 'Space' | 'Enter', announcement: string) {
  await page.keyboard.press(key)
  await expect(announcer(page)).toHaveText(announcement)
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)))
}

async function center(locator: Locator) {
  const box = (await locator.boundingBox())!
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

test('uploads photos, reorders them by keyboard and by mouse, removes one and makes the GIF', async ({ page }, testInfo) => {
  // Uploads and a GIF drawn in the image service's worker threads, on a shared machine.
  test.slow()
  await gotoHydrated(page, PATH)

  await page.getByRole('button', { name: 'Generate slideshow' }).click()
  await expect(messages(page)).toHaveText('Please upload at least one image.')

  await files(page).setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') })
  await expect(messages(page)).toContainText('Unsupported file type. notes.txt')
  // A file named as an image whose bytes are none (on disk: the browser reads it from there
  // instead of receiving 5 MB through the test channel); its size is no reason to refuse it.
  const zeros = testInfo.outputPath('zeros.png')
  fs.writeFileSync(zeros, Buffer.alloc(5 * 1024 * 1024 + 1))
  await files(page).setInputFiles(zeros)
  await expect(messages(page)).toContainText('Unsupported file type. zeros.png')
  // A PNG whose header says 12000×9000: refused before a pixel of it is decoded.
  const big = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#ff0000' } }).png().toBuffer()
  big.writeUInt32BE(12_000, 16)
  big.writeUInt32BE(9_000, 20)
  await files(page).setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big })
  await expect(messages(page)).toContainText('Image is too large (max 100 megapixels). big.png')
  await expect(cards(page)).toHaveCount(0)

  await files(page).setInputFiles([await photo('red.png', '#ff0000'), await photo('green.png', '#00ff00'), await photo('blue.png', '#0000ff')])
  await expectUploaded(page, 3)
  expect(await order(page)).toEqual(['red.png', 'green.png', 'blue.png'])

  // Drag and drop (dnd-kit) loads with the first photo; its instructions are read with each card.
  await expect(cards(page).first()).toHaveAttribute('aria-roledescription', 'sortable')
  await expect(cards(page).first()).toHaveAccessibleDescription(
    'To move this image, press Space or Enter to pick it up, then the arrow keys to move it, and Space or Enter to drop it; Escape cancels. Delete or Backspace removes the image. With a mouse, drag it to its new place; on a touch screen, touch and hold it, then drag.',
  )

  // Keyboard: an arrow key alone moves nothing; Space picks the focused card up, an arrow key
  // moves it a place, Space drops it there, and the card keeps the focus.
  await cards(page).first().focus()
  await page.keyboard.press('ArrowRight')
  await pickUp(page, 'Space', 'Picked up red.png at position 1 of 3.')
  await expect(focusedCard(page)).toHaveAttribute('aria-pressed', 'true')
  await page.keyboard.press('ArrowRight')
  await expect(announcer(page)).toHaveText('red.png moved to position 2 of 3.')
  await page.keyboard.press('Space')
  await expect(announcer(page)).toHaveText('red.png dropped at position 2 of 3.')
  expect(await order(page)).toEqual(['green.png', 'red.png', 'blue.png'])
  await expect(focusedCard(page)).toHaveAttribute('aria-label', 'Image 2 of 3: red.png')
  await expect(focusedCard(page)).not.toHaveAttribute('aria-pressed', 'true')

  // Escape puts a picked-up card back, and Delete does not remove it while it is picked up.
  await pickUp(page, 'Enter', 'Picked up red.png at position 2 of 3.')
  await page.keyboard.press('ArrowLeft')
  await expect(announcer(page)).toHaveText('red.png moved to position 1 of 3.')
  await page.keyboard.press('Delete')
  await page.keyboard.press('Escape')
  await expect(announcer(page)).toHaveText('Moving red.png was cancelled; it stays at position 2 of 3.')
  expect(await order(page)).toEqual(['green.png', 'red.png', 'blue.png'])
  await expect(focusedCard(page)).toHaveAttribute('aria-label', 'Image 2 of 3: red.png')

  // Enter picks up and drops too.
  await pickUp(page, 'Enter', 'Picked up red.png at position 2 of 3.')
  await page.keyboard.press('ArrowRight')
  await expect(announcer(page)).toHaveText('red.png moved to position 3 of 3.')
  await page.keyboard.press('Enter')
  await expect(announcer(page)).toHaveText('red.png dropped at position 3 of 3.')
  expect(await order(page)).toEqual(['green.png', 'blue.png', 'red.png'])
  await expect(focusedCard(page)).toHaveAttribute('aria-label', 'Image 3 of 3: red.png')

  // Mouse: drag the last card onto the first place.
  const from = await center(cards(page).nth(2))
  const to = await center(cards(page).nth(0))
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  await page.mouse.move(from.x - 10, from.y, { steps: 3 })
  await page.mouse.move(to.x, to.y, { steps: 12 })
  await page.mouse.up()
  await expect.poll(() => order(page)).toEqual(['red.png', 'green.png', 'blue.png'])
  await expect(announcer(page)).toHaveText('red.png dropped at position 1 of 3.')

  // Delete removes the focused card; the focus goes to the next one (the one before, from the last).
  await cards(page).nth(1).focus()
  await page.keyboard.press('Delete')
  expect(await order(page)).toEqual(['red.png', 'blue.png'])
  await expect(uploaderStatus(page)).toHaveText('green.png removed.')
  await expect(focusedCard(page)).toHaveAttribute('aria-label', 'Image 2 of 2: blue.png')
  await page.keyboard.press('Backspace')
  expect(await order(page)).toEqual(['red.png'])
  await expect(uploaderStatus(page)).toHaveText('blue.png removed.')
  await expect(focusedCard(page)).toHaveAttribute('aria-label', 'Image 1 of 1: red.png')
  await files(page).setInputFiles([await photo('blue.png', '#0000ff')])
  await expectUploaded(page, 2)

  // The settings go into the address; a long delay keeps the first frame on screen for the check below.
  await page.getByLabel('Seconds per photo').fill('10')
  await page.getByLabel('Seconds per photo').blur()
  await expect(page).toHaveURL(/delay=10/)

  await page.getByRole('button', { name: 'Generate slideshow' }).click()
  const result = page.locator('.slideshow-result img')
  await expect(result).toBeVisible({ timeout: 15_000 })
  await expect(result).toHaveAttribute('src', /^blob:/)
  await expect.poll(() => result.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(900)
  // The first photo in the chosen order is the first frame.
  const firstPixel = await result.evaluate((image: HTMLImageElement) => {
    const canvas = document.createElement('canvas')
    canvas.width = image.naturalWidth
    canvas.height = image.naturalHeight
    const context = canvas.getContext('2d')!
    context.drawImage(image, 0, 0)
    return [...context.getImageData(image.naturalWidth / 2, image.naturalHeight / 2, 1, 1).data.slice(0, 3)]
  })
  expect(firstPixel[0]).toBeGreaterThan(200)
  expect(firstPixel[2]).toBeLessThan(60)

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download GIF' }).click()
  expect((await download).suggestedFilename()).toBe('slideshow.gif')
})

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true })

  test('a card touched and held is dragged to its new place; a card is removed by its button', async ({ page }) => {
    await gotoHydrated(page, PATH)
    await files(page).setInputFiles([await photo('red.png', '#ff0000'), await photo('green.png', '#00ff00'), await photo('blue.png', '#0000ff')])
    await expectUploaded(page, 3)
    await expect(cards(page).first()).toHaveAttribute('aria-roledescription', 'sortable')

    // Real touch input through the Chrome DevTools Protocol: Playwright's touchscreen only taps.
    const cdp = await page.context().newCDPSession(page)
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', point?: { x: number; y: number }) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: point ? [{ x: point.x, y: point.y }] : [] })
    const from = await center(cards(page).nth(0))
    const to = await center(cards(page).nth(2))
    await touch('touchStart', from)
    // The card is picked up once the finger has rested on it for 200 ms (a quick swipe scrolls instead).
    await expect(announcer(page)).toHaveText('Picked up red.png at position 1 of 3.')
    await expect(page.locator('.upload-card.is-dragging')).toHaveCount(1)
    for (let step = 1; step <= 12; step++) {
      await touch('touchMove', { x: from.x + ((to.x - from.x) * step) / 12, y: from.y + ((to.y - from.y) * step) / 12 })
    }
    await expect(announcer(page)).toHaveText('red.png moved to position 3 of 3.')
    await touch('touchEnd')
    await expect(announcer(page)).toHaveText('red.png dropped at position 3 of 3.')
    await expect.poll(() => order(page)).toEqual(['green.png', 'blue.png', 'red.png'])
    await expect(page.locator('.upload-card.is-dragging')).toHaveCount(0)

    await page.getByRole('button', { name: 'Remove blue.png' }).tap()
    expect(await order(page)).toEqual(['green.png', 'red.png'])
  })
})

test('each mode sends its own request and the trio GIF is drawn', async ({ page }) => {
  // Uploads and a GIF drawn in the image service's worker threads, on a shared machine.
  test.slow()
  await gotoHydrated(page, PATH)
  await files(page).setInputFiles([await photo('a.png', '#ff0000'), await photo('b.png', '#00ff00'), await photo('c.png', '#0000ff')])
  await expectUploaded(page, 3)
  await page.getByRole('radio', { name: /Trio/ }).check()
  await page.getByLabel('Trio layout').selectOption('hero-cut')
  await expect(page).toHaveURL(/mode=trio/)
  const sent = page.waitForRequest((request) => request.url().endsWith('/giffer/slideshow/create-trio'))
  await page.getByRole('button', { name: 'Generate slideshow' }).click()
  const body = (await sent).postDataJSON() as Record<string, unknown>
  expect(body).toMatchObject({ width: 900, tweak: 1.5, overflow: 0.5, delay: 1500 })
  // Photos without transparency are sent as JPEG, whatever they were chosen as.
  expect((body.images as string[]).map((url) => url.split('/').at(-1))).toEqual(['photo-1.jpg', 'photo-2.jpg', 'photo-3.jpg'])
  await expect(page.locator('.slideshow-result img')).toBeVisible({ timeout: 15_000 })
})

test('names a photo for what its bytes are, whatever its name says: a JPEG saved as .png goes up as photo-1.jpg and is drawn', async ({ page }) => {
  test.slow()
  await gotoHydrated(page, PATH)
  const jpeg = await sharp({ create: { width: 48, height: 48, channels: 3, background: '#ff8800' } }).jpeg().toBuffer()
  await files(page).setInputFiles([{ name: 'saved-as.png', mimeType: 'image/png', buffer: jpeg }])
  await expectUploaded(page, 1)
  const sent = page.waitForRequest((request) => request.url().endsWith('/giffer/slideshow/create-row'))
  await page.getByRole('button', { name: 'Generate slideshow' }).click()
  const body = (await sent).postDataJSON() as { images: string[] }
  expect(body.images.map((url) => url.split('/').at(-1))).toEqual(['photo-1.jpg'])
  await expect(page.locator('.slideshow-result img')).toBeVisible({ timeout: 15_000 })
})

test('a photo with transparent pixels is sent as a PNG; one without, even a PNG with an alpha channel, as a JPEG', async ({ page }) => {
  await gotoHydrated(page, PATH)
  const clear = await sharp({ create: { width: 48, height: 48, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.3 } } }).png().toBuffer()
  const webp = await sharp({ create: { width: 48, height: 48, channels: 3, background: '#00ff00' } }).webp().toBuffer()
  const opaque = await sharp({ create: { width: 48, height: 48, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 1 } } }).png().toBuffer()
  await files(page).setInputFiles([
    { name: 'clear.png', mimeType: 'image/png', buffer: clear },
    { name: 'green.webp', mimeType: 'image/webp', buffer: webp },
    { name: 'opaque.png', mimeType: 'image/png', buffer: opaque },
  ])
  await expectUploaded(page, 3)
  const sent = page.waitForRequest((request) => request.url().endsWith('/giffer/slideshow/create-row'))
  await page.getByRole('button', { name: 'Generate slideshow' }).click()
  const body = (await sent).postDataJSON() as { images: string[] }
  expect(body.images.map((url) => url.split('/').at(-1))).toEqual(['photo-1.png', 'photo-2.jpg', 'photo-3.jpg'])
})

test('takes at most 10 images, hides the upload button at 10, and uploads a replacement under a new signature', async ({ page }) => {
  await gotoHydrated(page, PATH)
  const colours = ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#00ffff', '#ff00ff', '#000000', '#ffffff', '#888888', '#123456', '#654321']
  await files(page).setInputFiles(await Promise.all(colours.map((colour, i) => photo(`p${i}.png`, colour))))
  await expect(messages(page)).toContainText('You can add up to 10 images.')
  await expectUploaded(page, 10)
  await expect(files(page)).toHaveCount(0)
  await expect(page.getByText('Add images')).toHaveCount(0)
  await cards(page).first().focus()
  await page.keyboard.press('Delete')
  await expect(files(page)).toHaveCount(1)

  // The service keeps 10 files under one signature: photos chosen after removing some go under a
  // new one, asked for by the page, and upload like the rest.
  const signings: string[] = []
  page.on('request', (request) => {
    if (request.url().endsWith('/giffer/uploads/sign')) signings.push(request.url())
  })
  const refused: number[] = []
  page.on('response', (response) => {
    if (response.url().endsWith('/giffer/uploads') && response.status() >= 400) refused.push(response.status())
  })
  await files(page).setInputFiles([await photo('again.png', '#abcdef')])
  await expectUploaded(page, 10)
  expect(signings).toHaveLength(1)
  expect(refused).toEqual([])
  await expect(messages(page)).not.toContainText('Can’t upload')
})

test('a submit while photos upload asks to wait; failed uploads remove their card and say why', async ({ page, consoleGuard }) => {
  // The refused requests below are logged by the browser as failed resources.
  consoleGuard.allow(/Failed to load resource/)
  await gotoHydrated(page, PATH)

  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/giffer/uploads', async (route) => {
    await held
    await route.continue()
  })
  await files(page).setInputFiles([await photo('slow.png', '#ff0000')])
  await expect(page.locator('.upload-card.is-loading')).toHaveCount(1)
  await page.getByRole('button', { name: 'Generate slideshow' }).click()
  await expect(messages(page)).toHaveText('Something went wrong. Please wait for all images to upload and try again.')
  await expect(page.locator('.generator-result')).toContainText('Your image appears here.')
  release()
  await expectUploaded(page, 1)
  await page.unroute('**/giffer/uploads')

  await page.route('**/giffer/uploads', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"boom","message":"boom"}}' }))
  await files(page).setInputFiles([await photo('broken.png', '#00ff00')])
  await expect(messages(page)).toContainText('Can’t upload. Try again or choose another image.')
  await expect(cards(page)).toHaveCount(1)
  await page.unroute('**/giffer/uploads')

  // A failed render shows the error block without the service's message.
  await page.route('**/giffer/slideshow/create-row', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"busy","message":"The image service is busy."}}' }))
  await page.getByRole('button', { name: 'Generate slideshow' }).click()
  const error = page.locator('.generator-error')
  await expect(error).toHaveText('Something went wrong. Please try again.')
  await expect(error).not.toContainText('busy')
})

test('a signing failure says to try again later', async ({ page, consoleGuard }) => {
  // The refused signing request is logged by the browser as a failed resource.
  consoleGuard.allow(/Failed to load resource/)
  await page.route('**/giffer/uploads/sign', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"busy","message":"busy"}}' }))
  await gotoHydrated(page, PATH)
  await files(page).setInputFiles([await photo('a.png', '#ff0000'), await photo('b.png', '#00ff00')])
  await expect(messages(page)).toHaveText('Can’t upload. Please try again later.')
  await expect(cards(page)).toHaveCount(0)
})

test('when the code that prepares and sends photos cannot be loaded, the page says to reload it', async ({ page, consoleGuard }) => {
  // The refused script and the failed import are logged by the browser.
  consoleGuard.allow(/Failed to load resource|Failed to fetch dynamically imported module|error loading dynamically imported module/)
  await page.route('**/assets/photo-sender-*.js', (route) => route.abort())
  await gotoHydrated(page, PATH)
  // Said once for the two photos that could not be sent.
  await files(page).setInputFiles([await photo('a.png', '#ff0000'), await photo('b.png', '#00ff00')])
  await expect(messages(page)).toHaveText('Can’t upload: part of this page did not load. Please check your connection and reload the page.')
  await expect(cards(page)).toHaveCount(0)
  // Once the connection is back, the next photo asks for the code again and is sent (in this
  // Chromium; a browser that keeps a failed import for the page's life needs the reload the
  // message asks for).
  await page.unroute('**/assets/photo-sender-*.js')
  await files(page).setInputFiles([await photo('c.png', '#0000ff')])
  await expectUploaded(page, 1)
})

test('the code that prepares and sends photos is fetched when the visitor reaches for the file input, not at load', async ({ page }) => {
  const fetched: string[] = []
  page.on('request', (request) => {
    if (/\/assets\/photo-sender-[^/]+\.js$/.test(request.url())) fetched.push(request.url())
  })
  await gotoHydrated(page, PATH)
  await page.waitForLoadState('networkidle')
  expect(fetched).toEqual([])
  const request = page.waitForRequest(/\/assets\/photo-sender-[^/]+\.js$/)
  await files(page).focus()
  await request
})

test('the service’s complaint about a field is shown beside it, and about a photo under the photos', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/Failed to load resource/)
  await gotoHydrated(page, PATH)
  await files(page).setInputFiles([await photo('a.png', '#ff0000'), await photo('b.png', '#00ff00')])
  await expectUploaded(page, 2)
  const refuse = (field: string, message: string) =>
    page.route('**/giffer/slideshow/create-row', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { code: 'invalid_parameter', message: `${field}: ${message}`, field } }) }),
    )

  await refuse('delay', 'must be at most 10000')
  await page.getByRole('button', { name: 'Generate slideshow' }).click()
  const delay = page.getByLabel('Seconds per photo')
  await expect(delay).toHaveAttribute('aria-invalid', 'true')
  await expect(delay).toHaveAccessibleDescription('must be at most 10000')
  await expect(page.locator('.generator-error')).toHaveText('Something went wrong. Please try again.')
  await page.unroute('**/giffer/slideshow/create-row')

  await refuse('images.1', 'is not an uploaded image')
  await page.getByRole('button', { name: 'Generate slideshow' }).click()
  await expect(messages(page)).toHaveText('Image 2 is not an uploaded image. Remove it and add it again.')
  // The earlier field message went with the earlier answer.
  await expect(delay).not.toHaveAttribute('aria-invalid', 'true')
})
