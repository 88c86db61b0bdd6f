import type { Page } from '@playwright/test'
import { LARGEST_IMAGE_MARK } from '../../shared/site.js'
import { expect, test, waitForHydration } from './fixtures.js'

/**
 * The app (its download and its start) waits until the page is on the screen, and on a page that
 * marks its largest image, until that image has been drawn: on a slow phone the app would
 * otherwise hold that paint back. A stalled image holds it back 2 s at most.
 */

/** The path part of the marked image's URLs on a page (every cut of its srcset starts so). */
async function largestImagePrefix(page: Page, path: string): Promise<string> {
  const html = await (await page.request.get(path)).text()
  const image = new RegExp(`<img[^>]*src="(/thumbnails/[a-z]+/[a-z0-9]+-)[^"]*"[^>]*elementtiming="${LARGEST_IMAGE_MARK}"`).exec(html)
  expect(image, `${path} marks its largest image`).not.toBeNull()
  return image![1]!
}

/**
 * Opens `path` with its marked image held back `holdMs`; resolves with when (ms after the
 * navigation began) the image was let through and when the app's file was asked for.
 */
async function loadWithImageHeld(page: Page, path: string, holdMs: number) {
  const prefix = await largestImagePrefix(page, path)
  const started = Date.now()
  let imageLetThrough = Infinity
  let appAskedFor = Infinity
  const timers = new Set<NodeJS.Timeout>()
  await page.route(
    (url) => url.pathname.startsWith(prefix),
    (route) => {
      timers.add(
        setTimeout(() => {
          imageLetThrough = Math.min(imageLetThrough, Date.now() - started)
          route.continue().catch(() => undefined)
        }, holdMs),
      )
    },
  )
  page.on('request', (request) => {
    if (/\/assets\/app-[^/]+\.js$/.test(new URL(request.url()).pathname)) appAskedFor = Math.min(appAskedFor, Date.now() - started)
  })
  try {
    // Not to the load event: that waits for the held image.
    await page.goto(path, { waitUntil: 'domcontentloaded' })
    await waitForHydration(page)
  } finally {
    timers.forEach(clearTimeout)
  }
  return { imageLetThrough, appAskedFor }
}

test.describe('the app starts', () => {
  test('on a gallery, once its largest image has come and been drawn', async ({ page }) => {
    const { imageLetThrough, appAskedFor } = await loadWithImageHeld(page, '/p/', 600)
    expect(imageLetThrough).toBeGreaterThanOrEqual(600)
    expect(appAskedFor).toBeGreaterThan(imageLetThrough)
    // When the image is drawn, not when the wait runs out (2 s after the page's end was parsed).
    expect(appAskedFor).toBeLessThan(2000)
  })

  test('on a gallery whose largest image stalls, after 2 s all the same', async ({ page }) => {
    test.setTimeout(60_000)
    const { imageLetThrough, appAskedFor } = await loadWithImageHeld(page, '/e/', 30_000)
    expect(imageLetThrough).toBe(Infinity)
    expect(appAskedFor).toBeGreaterThanOrEqual(2000)
    // Long before the image comes; the margin is for a busy test machine.
    expect(appAskedFor).toBeLessThan(8000)
  })
})
