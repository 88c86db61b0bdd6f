import type { Page } from '@playwright/test'
import { LARGEST_IMAGE_MARK } from '../../shared/site.js'
import { expect, test, waitForHydration } from './fixtures.js'

/**
 * The app (its download and its start) waits until the page is on the screen, and on a page that
 * marks its largest image, until that image has been drawn: on a slow phone the app would
 * otherwise hold that paint back. A stalled image holds it back 2 s at most. Times are read in the
 * page, on its own clock: from when it finished parsing (the boot script runs just before, and
 * sets its 2 s limit then), to when the app's file was asked for and the image drawn.
 */

/** The marked image on a page: every cut of its srcset, and the path part they share. */
async function largestImage(page: Page, path: string): Promise<{ prefix: string; cuts: string[] }> {
  const html = await (await page.request.get(path)).text()
  const tag = [...html.matchAll(/<img\b[^>]*>/g)].map(([image]) => image).find((image) => image.includes(`elementtiming="${LARGEST_IMAGE_MARK}"`))
  expect(tag, `${path} marks its largest image`).toBeDefined()
  const cuts = /srcSet="([^"]+)"/i.exec(tag!)![1]!.split(', ').map((cut) => cut.split(' ')[0]!)
  return { prefix: /^\/thumbnails\/[a-z]+\/[a-z0-9]+-/.exec(cuts[0]!)![0], cuts }
}

interface StartTimes {
  /** When the page finished parsing, ms after navigation start. */
  parsed: number
  /** When the app's file was asked for. */
  appAskedFor: number
  /** When the marked image was drawn (Element Timing), and when it arrived. */
  imageDrawn: number
  imageArrived: number
}

/**
 * Opens `path` with its marked image held back `holdMs` (its cuts made on the server beforehand,
 * so that only the hold delays it) and reads when things happened once the page has hydrated.
 */
async function loadWithImageHeld(page: Page, path: string, holdMs: number): Promise<StartTimes> {
  const { prefix, cuts } = await largestImage(page, path)
  for (const cut of cuts) expect((await page.request.get(cut)).status(), cut).toBe(200)
  await page.route(
    `**${prefix}*`,
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, holdMs))
      await route.continue().catch(() => undefined)
    },
  )
  try {
    // Not to the load event: that waits for the held image.
    await page.goto(path, { waitUntil: 'domcontentloaded' })
    await waitForHydration(page)
    return await page.evaluate(
      ([mark, prefix]) =>
        new Promise<StartTimes>((resolve) => {
          const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]
          const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[]
          const app = resources.find((entry) => /\/assets\/app-[^/]+\.js$/.test(new URL(entry.name).pathname))
          const image = resources.find((entry) => new URL(entry.name).pathname.startsWith(prefix))
          let imageDrawn = Infinity
          if (!PerformanceObserver.supportedEntryTypes.includes('element')) {
            resolve({ parsed: navigation!.domInteractive, appAskedFor: app?.startTime ?? Infinity, imageDrawn, imageArrived: image?.responseEnd ?? Infinity })
            return
          }
          // Element Timing entries are kept for observers only; a buffered one gets them at once.
          const observer = new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & { identifier: string; renderTime: number })[]) {
              if (entry.identifier === mark) imageDrawn = Math.min(imageDrawn, entry.renderTime)
            }
          })
          observer.observe({ type: 'element', buffered: true })
          setTimeout(() => {
            observer.disconnect()
            resolve({ parsed: navigation!.domInteractive, appAskedFor: app?.startTime ?? Infinity, imageDrawn, imageArrived: image?.responseEnd ?? Infinity })
          }, 0)
        }),
      [LARGEST_IMAGE_MARK, prefix] as const,
    )
  } finally {
    await page.unrouteAll({ behavior: 'ignoreErrors' })
  }
}

test.describe('the app starts', () => {
  test('on a gallery, once its largest image has been drawn', async ({ page }) => {
    const times = await loadWithImageHeld(page, '/p/', 1000)
    const what = JSON.stringify(times)
    // The hold kept the image from the first paint, which comes as the page is parsed.
    expect(times.imageDrawn - times.parsed, what).toBeGreaterThan(300)
    expect(times.appAskedFor, what).toBeGreaterThanOrEqual(times.imageDrawn)
    // When the image was drawn, not when the 2 s ran out.
    expect(times.appAskedFor - times.parsed, what).toBeLessThan(1800)
  })

  test('on a gallery whose largest image stalls, about 2 s after the page was parsed', async ({ page }) => {
    test.setTimeout(60_000)
    const times = await loadWithImageHeld(page, '/e/', 30_000)
    const what = JSON.stringify(times)
    expect(times.imageDrawn, what).toBe(Infinity)
    // The limit is set as the boot script runs, a little before the page ends; well past the first paint.
    expect(times.appAskedFor - times.parsed, what).toBeGreaterThanOrEqual(1500)
    // Not long after; the margin is for a busy test machine.
    expect(times.appAskedFor - times.parsed, what).toBeLessThan(5000)
  })

  test('in a browser that does not report images drawn, once the image has come and been decoded', async ({ page }) => {
    await page.addInitScript(() => {
      const types = PerformanceObserver.supportedEntryTypes.filter((type) => type !== 'element')
      Object.defineProperty(PerformanceObserver, 'supportedEntryTypes', { get: () => types })
      // And no such entry comes, even to a script that asks without looking: only the 2 s limit
      // would then start the app.
      const observe = PerformanceObserver.prototype.observe
      PerformanceObserver.prototype.observe = function (this: PerformanceObserver, options?: PerformanceObserverInit) {
        if (options?.type !== 'element') observe.call(this, options)
      }
    })
    const times = await loadWithImageHeld(page, '/p/', 1000)
    const what = JSON.stringify(times)
    expect(times.imageArrived - times.parsed, what).toBeGreaterThan(300)
    expect(times.appAskedFor, what).toBeGreaterThanOrEqual(times.imageArrived)
    expect(times.appAskedFor - times.parsed, what).toBeLessThan(1800)
  })
})
