/**
 * The page stays responsive while a phone's photos are prepared: with the CPU slowed four times
 * (a mid-range phone), no task on the page's main thread lasts over 200 ms from the moment ten
 * camera photos are chosen until all of them are sent. The decoding and encoding happen in a
 * worker; the page only draws the cards and their progress, in React transitions.
 */
import type { Page } from '@playwright/test'
import { cameraRoll } from '../../scripts/lib/camera-photos.js'
import { expect, gotoHydrated, test } from './fixtures.js'

const PATH = '/image-slideshow-gif-generator/'
const cards = (page: Page) => page.locator('.upload-card-handle')

test('with the CPU slowed four times, no task on the page’s main thread lasts over 200 ms while ten photos are prepared', async ({ page }) => {
  const roll = await cameraRoll()
  await gotoHydrated(page, PATH)
  const cdp = await page.context().newCDPSession(page)
  await page.evaluate(() => {
    const longest = { ms: 0, tasks: [] as number[] }
    ;(window as unknown as { longTasks: typeof longest }).longTasks = longest
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        longest.tasks.push(Math.round(entry.duration))
        longest.ms = Math.max(longest.ms, entry.duration)
      }
    }).observe({ type: 'longtask' })
  })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
  try {
    await page.locator('#slideshow-files').setInputFiles(roll)
    await expect(cards(page)).toHaveCount(10)
    await expect(page.locator('.upload-card.is-loading')).toHaveCount(0, { timeout: 120_000 })
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
  }
  await expect(page.locator('.upload-messages')).toHaveCount(0)
  const { ms, tasks } = await page.evaluate(() => (window as unknown as { longTasks: { ms: number; tasks: number[] } }).longTasks)
  expect(ms, `long tasks (ms): ${tasks.join(', ')}`).toBeLessThanOrEqual(200)
})
