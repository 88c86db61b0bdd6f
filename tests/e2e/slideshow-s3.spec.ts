/**
 * The slideshow generator as deployed with a bucket and an image service of its own: photos go
 * from the browser straight to an S3-compatible store (s3rver), the image service on another
 * origin serves them and draws the GIF, and the site proxies /giffer to it. Nothing is kept on
 * either process's disk, and the page's Content Security Policy lets through exactly what it needs.
 */
import fs from 'node:fs'
import type { Page } from '@playwright/test'
import sharp from 'sharp'
import { S3_SERVER_CREDENTIALS, startS3Server, type S3Server } from '../../scripts/lib/s3-server.js'
import { freePort } from '../../scripts/lib/server-process.js'
import { expect, gotoHydrated, test } from './fixtures.js'
import { filesUnder, startService, temporaryFolder, watchPolicy, type RunningService } from './topology.js'

const SLIDESHOW = '/image-slideshow-gif-generator/'
const COUNTDOWN = '/email-countdown-timer-generator/'
const SECRET = 'slideshow-s3-test-secret-0123456789'

// One set of processes for the file: its tests run one after another in one worker.
test.describe.configure({ mode: 'default' })

let s3: S3Server
let giffer: RunningService
let site: RunningService
/** Where visitors open the site: another origin than the image service's (127.0.0.1). */
let siteOrigin: string
let gifferOrigin: string
let gifferData: string
let siteData: string

test.beforeAll(async () => {
  test.setTimeout(60_000)
  const [sitePort, gifferPort] = [await freePort(), await freePort()]
  siteOrigin = `http://localhost:${sitePort}`
  gifferOrigin = `http://127.0.0.1:${gifferPort}`
  gifferData = temporaryFolder('slideshow-s3-giffer-')
  siteData = temporaryFolder('slideshow-s3-site-')

  s3 = await startS3Server({ corsOrigins: [siteOrigin] })
  const shared = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: siteOrigin,
    GIFFER_PUBLIC_URL: gifferOrigin,
    GIFFER_SECRET: SECRET,
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    S3_REGION: 'us-east-1',
    ...S3_SERVER_CREDENTIALS,
  }
  giffer = await startService('the image service', 'giffer.js', gifferPort, {
    ...shared,
    HOST: '127.0.0.1',
    GIFFER_PORT: String(gifferPort),
    GIFFER_WORKERS: '1',
    DATA_DIR: gifferData,
  })
  site = await startService('the site', 'main.js', sitePort, {
    ...shared,
    HOST: '127.0.0.1',
    PORT: String(sitePort),
    GIFFER_URL: gifferOrigin,
    DATA_DIR: siteData,
  })
})

test.afterAll(async () => {
  await site?.stop()
  await giffer?.stop()
  await s3?.close()
  for (const folder of [gifferData, siteData]) if (folder) fs.rmSync(folder, { recursive: true, force: true })
})

/** A small photo of one colour. */
async function photo(name: string, colour: string, format: 'png' | 'jpeg') {
  const buffer = await sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })[format]().toBuffer()
  return { name, mimeType: `image/${format}`, buffer }
}

/** The directives of a Content-Security-Policy header, each with its sources. */
function directives(header: string | undefined): Record<string, string[]> {
  expect(header, 'the Content-Security-Policy header').toBeTruthy()
  return Object.fromEntries(
    header!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  )
}

/** Whether `url` loads as an image in the page, as an <img> of its own would. */
function loadsInPage(page: Page, url: string): Promise<number> {
  return page.evaluate(async (src) => {
    const image = new Image()
    image.src = src
    await image.decode().catch(() => {})
    return image.naturalWidth
  }, url)
}

test('makes a slideshow with the uploads going straight to the S3-compatible server', async ({ page }) => {
  // Two uploads through the bucket and a GIF drawn in the image service's one render thread.
  test.slow()
  const policy = await watchPolicy(page)
  await gotoHydrated(page, `${siteOrigin}${SLIDESHOW}`)

  await page.locator('#slideshow-files').setInputFiles([await photo('red.png', '#ff0000', 'png'), await photo('blue.jpg', '#0000ff', 'jpeg')])
  // Both cards ready: a failed upload would have removed its card.
  await expect(page.locator('.upload-card:not(.is-loading)')).toHaveCount(2)
  await expect(page.locator('.upload-card.is-loading')).toHaveCount(0)

  // The cards show the visitor's own files at once, and they have loaded.
  const previews = page.locator('.upload-card-handle img')
  for (const preview of await previews.all()) {
    await expect(preview).toHaveAttribute('src', /^blob:/)
    await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(64)
  }

  const [created] = await Promise.all([
    page.waitForRequest((request) => request.url() === `${siteOrigin}/giffer/slideshow/create-row`, { timeout: 10_000 }),
    page.getByRole('button', { name: 'Generate slideshow' }).click(),
  ])
  // The slideshow names the photos where the image service serves them: on its own origin, and
  // the page may show them from there.
  const images = (created.postDataJSON() as { images: string[] }).images
  expect(images).toHaveLength(2)
  for (const url of images) {
    expect(url.startsWith(`${gifferOrigin}/uploads/`), `${url} is on the image service's origin`).toBe(true)
    expect(await loadsInPage(page, url), `${url} loads in the page`).toBe(64)
  }

  const result = page.locator('.slideshow-result img')
  await expect(result).toBeVisible({ timeout: 20_000 })
  await expect(result).toHaveAttribute('src', /^blob:/)
  await expect.poll(() => result.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(900)

  // The files went to the bucket, one POST each, under the keys the slideshow named.
  const keys = s3.keys()
  expect(keys).toHaveLength(2)
  expect(keys.every((key) => key.startsWith('uploads/'))).toBe(true)
  expect(images.map((url) => new URL(url).pathname.slice(1)).sort()).toEqual([...keys].sort())
  expect(s3.requests.filter((request) => request === `POST /${s3.bucket}`)).toHaveLength(2)
  // …and nowhere else.
  expect(filesUnder(gifferData).filter((file) => file.includes('uploads'))).toEqual([])
  expect(filesUnder(siteData).filter((file) => file.includes('uploads'))).toEqual([])

  expect(policy.consoleErrors).toEqual([])
  expect(await policy.violations()).toEqual([])
})

test('the page’s Content Security Policy opens the bucket and the image service’s origin, and nothing more', async ({ request }) => {
  const opened = directives((await request.get(`${siteOrigin}${SLIDESHOW}`)).headers()['content-security-policy'])
  // The site the other tests run: no bucket, the image service in-process on the site's own origin.
  const closed = directives((await request.get(SLIDESHOW)).headers()['content-security-policy'])

  // Pages show the image service's files and live timers from its origin…
  expect(opened['img-src']).toEqual([...closed['img-src']!, gifferOrigin])
  // …and post uploads to the bucket. Every other call goes to the site's own /giffer, so the
  // image service's origin is not opened to scripts.
  expect(opened['connect-src']).toEqual([...closed['connect-src']!, s3.endpoint])
  expect(opened['script-src']).toEqual(closed['script-src'])
  // Beside the site itself, only the two inline scripts (the menus and the boot script), by hash.
  expect(opened['script-src']!.filter((source) => source !== "'self'")).toEqual([expect.stringMatching(/^'sha256-[\w+/]+=*'$/), expect.stringMatching(/^'sha256-[\w+/]+=*'$/)])
  const rest = (policy: Record<string, string[]>) => Object.entries(policy).filter(([name]) => name !== 'img-src' && name !== 'connect-src')
  expect(rest(opened)).toEqual(rest(closed))
})

test('the countdown’s live timer is a link to the image service’s origin, shown without a policy violation', async ({ page }) => {
  test.slow()
  const policy = await watchPolicy(page)
  await gotoHydrated(page, `${siteOrigin}${COUNTDOWN}`)
  await page.locator('form.generator-form button[type="submit"]').click()
  await expect(page.locator('.countdown-result img.result-image')).toBeVisible({ timeout: 20_000 })

  const live = await page.getByLabel('Timer image link').inputValue()
  expect(live.startsWith(`${gifferOrigin}/countdown/live.gif?`), `${live} is on the image service's origin`).toBe(true)
  // As a mail client shows it, and as the page may.
  expect(await loadsInPage(page, live)).toBe(1200)

  expect(policy.consoleErrors).toEqual([])
  expect(await policy.violations()).toEqual([])
})
