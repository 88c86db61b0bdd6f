import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures.js'

// A page's later sections are drawn as they come near the screen (`content-visibility: auto`):
// skipped in the first frame, there once scrolled to, and a link to a part further down still
// lands on it. The footer is always drawn (contrast checkers misread it while skipped).

test.use({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true })

/** Whether the browser is drawing the element now (false while its section is skipped). */
const drawn = (locator: Locator) => locator.evaluate((element) => element.checkVisibility({ contentVisibilityAuto: true }))

/** Whether the element's box lies within the screen. */
async function onScreen(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox()
  return box !== null && box.y >= 0 && box.y + box.height <= page.viewportSize()!.height
}

const LATER_SECTIONS: Record<string, string> = {
  '/': 'main > section:last-of-type',
  '/pricing/': '.feature-details',
  '/email-countdown-timer-generator/': '.generator-faq',
}

for (const [path, later] of Object.entries(LATER_SECTIONS)) {
  test(`${path}: a later section is skipped in the first frame and drawn once scrolled to; the footer is drawn`, async ({ page }) => {
    await page.goto(path)
    const inside = page.locator(later).locator('h2').first()
    expect(await drawn(page.locator('h1').first())).toBe(true)
    expect(await drawn(inside)).toBe(false)
    expect(await drawn(page.locator('.site-footer a').first())).toBe(true)
    await inside.scrollIntoViewIfNeeded()
    await expect.poll(() => drawn(inside)).toBe(true)
    expect(await onScreen(page, inside)).toBe(true)
  })
}

test('a plan’s feature link lands on its description further down, skipped until then', async ({ page }) => {
  await page.goto('/pricing/')
  const link = page.locator('.plan-features a').last()
  const id = (await link.getAttribute('href'))!.slice(1)
  const target = page.locator(`[id="${id}"]`)
  expect(await drawn(target)).toBe(false)
  await link.click()
  await expect(page).toHaveURL(new RegExp(`#${id}$`))
  await expect.poll(() => drawn(target)).toBe(true)
  await expect.poll(() => onScreen(page, target)).toBe(true)
})

test('an address with a part further down opens scrolled to it', async ({ page }) => {
  await page.goto('/pricing/')
  const id = (await page.locator('.feature-anchors a').last().getAttribute('href'))!.slice(1)
  await page.goto('about:blank')
  await page.goto(`/pricing/#${id}`)
  const target = page.locator(`[id="${id}"]`)
  await expect.poll(() => onScreen(page, target)).toBe(true)
  expect(await drawn(target)).toBe(true)
})
