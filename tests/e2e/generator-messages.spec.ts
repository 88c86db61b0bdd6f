/**
 * The messages the generators give around a result: the error block when the image service
 * answers with nothing, the copy tooltip, the download's new-tab fallback and the Mac marker.
 */
import type { Page } from '@playwright/test'
import sharp from 'sharp'
import { expect, gotoHydrated, isSameDocument, markDocument, test } from './fixtures.js'

const GENERIC_FAILURE = 'Something went wrong. Please try again.'
const NO_IMAGE = 'Image was not generated'

const submit = (page: Page) => page.locator('form.generator-form button[type="submit"]')
const resultArea = (page: Page) => page.locator('.generator-result')
const errorBlock = (page: Page) => resultArea(page).locator('.generator-error[role="alert"]')

/**
 * Answers the image service's `path` with 200 and an empty body (typed as a GIF, so only the
 * emptiness is wrong); resolves to a function telling how many requests it answered.
 */
async function answerEmpty(page: Page, path: string): Promise<() => number> {
  let answered = 0
  await page.route(`**/giffer/${path}`, (route) => {
    answered++
    return route.fulfill({ status: 200, contentType: 'image/gif', body: '' })
  })
  return () => answered
}

test.describe('an empty answer from the image service', () => {
  const cases = [
    { name: 'countdown', path: '/email-countdown-timer-generator/', service: 'countdown/create' },
    { name: 'scrolling text', path: '/email-scrolling-text-gif-generator/', service: 'scrollingtext/create' },
  ]
  for (const { name, path, service } of cases) {
    test(`${name}: the result area shows the error block with "${NO_IMAGE}"`, async ({ page }) => {
      await gotoHydrated(page, path)
      const answered = await answerEmpty(page, service)
      await submit(page).click()
      const block = errorBlock(page)
      await expect(block).toBeVisible()
      // The lead, then the detail, and nothing else.
      await expect(block.locator('p')).toHaveText([GENERIC_FAILURE, NO_IMAGE])
      expect(answered()).toBe(1)
      await expect(resultArea(page).locator('img.result-image')).toHaveCount(0)
      await expect(resultArea(page).getByRole('button', { name: 'Download GIF' })).toHaveCount(0)
    })
  }

  test(`slideshow: the error block says "${GENERIC_FAILURE}" without a detail`, async ({ page }) => {
    await gotoHydrated(page, '/image-slideshow-gif-generator/')
    await page.locator('#slideshow-files').setInputFiles([await photo('red.png', '#ff0000')])
    await expect(page.locator('.upload-card-handle')).toHaveCount(1)
    await expect(page.locator('.upload-card.is-loading')).toHaveCount(0)
    const answered = await answerEmpty(page, 'slideshow/create-row')
    await page.getByRole('button', { name: 'Generate slideshow' }).click()
    const block = errorBlock(page)
    await expect(block).toBeVisible()
    await expect(block).toHaveText(GENERIC_FAILURE)
    await expect(block.locator('p')).toHaveCount(1)
    expect(answered()).toBe(1)
    // Neither the generic detail nor the slideshow's own wording shows anywhere on the page.
    await expect(page.getByText(/was not generated/)).toHaveCount(0)
    await expect(page.locator('.slideshow-result img')).toHaveCount(0)
  })
})

/** A small PNG of one colour (as in slideshow.spec.ts). */
async function photo(name: string, colour: string) {
  const buffer = await sharp({ create: { width: 48, height: 48, channels: 3, background: colour } }).png().toBuffer()
  return { name, mimeType: 'image/png', buffer }
}

const TEXT_IMAGE_PATH = '/calligraphy-text-generator/'

/** The first card of the text image generator once its image has loaded and its actions show. */
async function firstDrawnCard(page: Page) {
  const card = page.locator('.text-image-card').first()
  await expect(card).toHaveClass(/\bis-ok\b/)
  return card
}

test.describe('the copy button', () => {
  test('says "Error" when the clipboard refuses the text', async ({ page }) => {
    await page.addInitScript(() => {
      const calls: string[] = []
      ;(window as Window & { __copyCalls?: string[] }).__copyCalls = calls
      Object.defineProperty(Clipboard.prototype, 'writeText', {
        configurable: true,
        value: (text: string) => {
          calls.push(text)
          return Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'))
        },
      })
    })
    await gotoHydrated(page, TEXT_IMAGE_PATH)
    const card = await firstDrawnCard(page)
    const tooltip = card.locator('.copy-action .copy-tooltip[role="status"]')
    await expect(tooltip).toBeHidden()
    await card.getByRole('button', { name: 'Copy link' }).click()
    await expect(tooltip).toBeVisible()
    await expect(tooltip).toHaveText('Error')
    await expect(tooltip).toHaveClass(/\bis-error\b/)
    // The refusal came from the clipboard, asked for the image's address.
    const src = await card.locator('img').evaluate((image: HTMLImageElement) => image.src)
    expect(await page.evaluate(() => (window as Window & { __copyCalls?: string[] }).__copyCalls)).toEqual([src])
  })

  test('says "Copied!" when the text is on the clipboard, and the tooltip goes after about 1.5 s', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await gotoHydrated(page, TEXT_IMAGE_PATH)
    const card = await firstDrawnCard(page)
    const tooltip = card.locator('.copy-action .copy-tooltip[role="status"]')
    await expect(tooltip).toBeHidden()
    const clicked = Date.now()
    await card.getByRole('button', { name: 'Copy link' }).click()
    await expect(tooltip).toBeVisible()
    await expect(tooltip).toHaveText('Copied!')
    await expect(tooltip).toHaveClass(/\bis-ok\b/)
    const src = await card.locator('img').evaluate((image: HTMLImageElement) => image.src)
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(src)
    await expect(tooltip).toBeHidden({ timeout: 2500 })
    await expect(tooltip).toHaveText('')
    // Not gone at once: it stayed on screen for most of its 1.5 s.
    expect(Date.now() - clicked).toBeGreaterThanOrEqual(1200)
  })
})

test('Download opens the image in a new tab when it cannot be exported', async ({ page }) => {
  await page.addInitScript(() => {
    const state = window as Window & { __toBlobCalls?: number }
    state.__toBlobCalls = 0
    HTMLCanvasElement.prototype.toBlob = function (callback: BlobCallback) {
      state.__toBlobCalls!++
      setTimeout(() => callback(null), 0)
    }
  })
  await gotoHydrated(page, TEXT_IMAGE_PATH)
  const card = await firstDrawnCard(page)
  const src = await card.locator('img').evaluate((image: HTMLImageElement) => image.src)
  let downloads = 0
  page.on('download', () => downloads++)

  const popup = page.waitForEvent('popup', { timeout: 5000 })
  await card.getByRole('button', { name: 'Download' }).click()
  const opened = await popup
  await expect(opened).toHaveURL(src)
  expect(await page.evaluate(() => (window as Window & { __toBlobCalls?: number }).__toBlobCalls)).toBe(1)
  expect(downloads).toBe(0)
  await opened.close()
})

/**
 * Makes the browser report a platform. Chromium reports it twice, in `navigator.platform` and
 * in `navigator.userAgentData.platform` (which the page reads first); `userAgentData: null`
 * removes the latter, as in Safari and Firefox, so only `navigator.platform` is left to read.
 */
async function reportPlatform(page: Page, platform: string, userAgentData: string | null) {
  await page.addInitScript(
    ({ platform, userAgentData }) => {
      Object.defineProperty(Navigator.prototype, 'platform', { configurable: true, get: () => platform })
      const data = userAgentData === null ? undefined : { platform: userAgentData, mobile: false, brands: [] }
      Object.defineProperty(Navigator.prototype, 'userAgentData', { configurable: true, get: () => data })
    },
    { platform, userAgentData },
  )
}

const GENERATOR_PATHS = [
  '/ai-subject-line-generator/',
  '/email-scrolling-text-gif-generator/',
  '/calligraphy-text-generator/',
  '/email-countdown-timer-generator/',
  '/image-slideshow-gif-generator/',
]
const MAC_MARKER = /(^|\s)is-mac(\s|$)/
const body = (page: Page) => page.locator('body')

test.describe('the Mac marker', () => {
  const macs = [
    { browser: 'without userAgentData (Safari, Firefox)', userAgentData: null },
    { browser: 'with userAgentData (Chrome)', userAgentData: 'macOS' },
  ]
  for (const { browser, userAgentData } of macs) {
    test(`navigator.platform MacIntel ${browser}: generator pages mark the body, /pricing/ does not`, async ({ page }) => {
      await reportPlatform(page, 'MacIntel', userAgentData)
      for (const path of GENERATOR_PATHS) {
        await gotoHydrated(page, path)
        await expect(body(page), path).toHaveClass(MAC_MARKER)
      }
      await gotoHydrated(page, '/pricing/')
      await expect(body(page)).not.toHaveClass(MAC_MARKER)
    })
  }

  test('leaving a generator page for /pricing/ within the page removes the marker', async ({ page }) => {
    await reportPlatform(page, 'MacIntel', null)
    await gotoHydrated(page, '/email-countdown-timer-generator/')
    await expect(body(page)).toHaveClass(MAC_MARKER)
    await markDocument(page)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing', exact: true }).click()
    await expect(page).toHaveURL('/pricing/')
    await expect(page.locator('h1')).toBeVisible()
    await expect(body(page)).not.toHaveClass(MAC_MARKER)
    // Still the same document: the marker was taken off, not lost in a reload.
    expect(await isSameDocument(page)).toBe(true)
  })

  test('with a Linux platform a generator page has no marker', async ({ page }) => {
    await reportPlatform(page, 'Linux x86_64', 'Linux')
    await gotoHydrated(page, '/email-countdown-timer-generator/')
    // gotoHydrated waits for the page's effects, so the marker would be there by now.
    await expect(body(page)).not.toHaveClass(MAC_MARKER)
  })
})
