import type { Page } from '@playwright/test'
import { expect, gotoHydrated, readData, test } from './fixtures.js'

interface StoreExamples {
  categories: { slug: string; name: string }[]
  stores: { categories: string[] }[]
}
const { categories, stores } = readData<{ storeExamples: StoreExamples }>('home.json').storeExamples
const categoryName = (slug: string) => categories.find((category) => category.slug === slug)!.name
/** Category of each slide in track order: the slides are grouped by their store's first category. */
const slideCategories = categories.flatMap((category) =>
  stores.filter((store) => store.categories[0] === category.slug).map(() => category.slug),
)

/** The carousel re-reads its step at most every 500 ms while the window is resized. */
const RESIZE_DEBOUNCE_MS = 500

const track = (page: Page) => page.locator('#store-track')
const selectedTab = (page: Page) => page.getByRole('tab', { selected: true })
const nextButton = (page: Page) => page.getByRole('button', { name: 'Next shops' })

/** Index of the first slide whose middle is inside the track's visible area. */
function firstVisibleSlide(page: Page): Promise<number> {
  return track(page).evaluate((list) => {
    const left = list.getBoundingClientRect().left + list.clientLeft
    return Array.from(list.children).findIndex((slide) => {
      const rect = slide.getBoundingClientRect()
      return rect.left + rect.width / 2 > left
    })
  })
}

/** Waits until the (smooth) scroll of the track has brought `index` to the front. */
async function expectFirstVisible(page: Page, index: number) {
  await expect.poll(() => firstVisibleSlide(page), { message: `slide ${index} is first in view` }).toBe(index)
}

test.describe('store carousel on a 1280 px wide window', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test.beforeEach(async ({ page }) => {
    await gotoHydrated(page, '/')
    await track(page).scrollIntoViewIfNeeded()
    await expectFirstVisible(page, 0)
  })

  test('"Next shops" moves the first visible slide forward by 3, "Previous shops" back by 3', async ({ page }) => {
    await nextButton(page).click()
    await expectFirstVisible(page, 3)
    await nextButton(page).click()
    await expectFirstVisible(page, 6)
    await page.getByRole('button', { name: 'Previous shops' }).click()
    await expectFirstVisible(page, 3)
  })

  test('after the window shrinks to 1000 px and the 500 ms debounce passes, "Next shops" moves by 1', async ({ page }) => {
    await page.setViewportSize({ width: 1000, height: 800 })
    // The step is re-read only once resizing has been quiet for the debounce time: that wait is the behaviour under test.
    await page.waitForTimeout(RESIZE_DEBOUNCE_MS + 200)
    await nextButton(page).click()
    await expectFirstVisible(page, 1)
    await nextButton(page).click()
    await expectFirstVisible(page, 2)
  })

  test('clicking the Food tab selects it and scrolls a food shop to the front', async ({ page }) => {
    const food = page.getByRole('tab', { name: categoryName('food') })
    await food.click()
    await expect(food).toHaveAttribute('aria-selected', 'true')
    await expect(food).toHaveAttribute('tabindex', '0')
    await expect(page.getByRole('tab', { name: categoryName('clothing') })).toHaveAttribute('tabindex', '-1')
    await expect(selectedTab(page)).toHaveCount(1)
    await expectFirstVisible(page, slideCategories.indexOf('food'))
    await expect(track(page).locator('li').nth(await firstVisibleSlide(page))).toHaveAttribute('data-category', 'food')
    await expect(page.getByRole('tabpanel')).toHaveAccessibleName(categoryName('food'))
  })

  test('scrolling the row to its end selects the last category, whose shops cannot come first in view', async ({ page }) => {
    await track(page).evaluate((list) => list.scrollTo({ left: list.scrollWidth, behavior: 'instant' }))
    await expect(page.getByRole('tab', { name: categories.at(-1)!.name, exact: true })).toHaveAttribute('aria-selected', 'true')
    expect(slideCategories[await firstVisibleSlide(page)]).not.toBe(categories.at(-1)!.slug)
  })

  test('clicking the last tab leaves it selected when the row stops at its end', async ({ page }) => {
    const lastTab = page.getByRole('tab', { name: categories.at(-1)!.name, exact: true })
    await lastTab.click()
    await expect
      .poll(() => track(page).evaluate((list) => list.scrollLeft + list.clientWidth >= list.scrollWidth - 2), { message: 'the row reached its end' })
      .toBe(true)
    // Past the moment the scroll comes to rest and the tabs re-read the position.
    await page.waitForTimeout(400)
    expect(await lastTab.getAttribute('aria-selected')).toBe('true')
  })

  test('the first category tab starts selected; ArrowRight, ArrowLeft and Home move selection and focus, End focuses the last tab', async ({ page }) => {
    const tab = (index: number) => page.getByRole('tab', { name: categories.at(index)!.name, exact: true })
    await expect(page.getByRole('tab')).toHaveText(categories.map((category) => category.name))
    await expect(selectedTab(page)).toHaveText(categories[0]!.name)
    await expect(page.getByRole('tabpanel')).toHaveAccessibleName(categories[0]!.name)
    await tab(0).focus()
    await page.keyboard.press('ArrowRight')
    await expect(tab(1)).toHaveAttribute('aria-selected', 'true')
    await expect(tab(1)).toBeFocused()
    await expect(tab(0)).toHaveAttribute('aria-selected', 'false')
    await expectFirstVisible(page, slideCategories.indexOf(categories[1]!.slug))

    await page.keyboard.press('End')
    await expect(tab(-1)).toBeFocused()
    // From the last tab, ArrowRight wraps around to the first.
    await page.keyboard.press('ArrowRight')
    await expect(tab(0)).toHaveAttribute('aria-selected', 'true')
    await expect(tab(0)).toBeFocused()
    await page.keyboard.press('ArrowLeft')
    await expect(tab(-1)).toBeFocused()
    await page.keyboard.press('Home')
    await expect(tab(0)).toHaveAttribute('aria-selected', 'true')
    await expect(tab(0)).toBeFocused()
  })

  test('ArrowRight on the focused track scrolls it by a step and the selected tab follows', async ({ page }) => {
    await track(page).focus()
    await page.keyboard.press('ArrowRight')
    await expectFirstVisible(page, 3)
    await expect(selectedTab(page)).toHaveText(categoryName(slideCategories[3]!))
    await page.keyboard.press('ArrowLeft')
    await expectFirstVisible(page, 0)
    await expect(selectedTab(page)).toHaveText(categoryName(slideCategories[0]!))
  })
})

test('on a 1000 px wide window "Next shops" moves the first visible slide by 1', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 800 })
  await gotoHydrated(page, '/')
  await track(page).scrollIntoViewIfNeeded()
  await nextButton(page).click()
  await expectFirstVisible(page, 1)
})

/** A finger dragging `distance` px to the left across `page` at (x, y), through Chromium's touch input. */
async function swipeLeft(page: Page, x: number, y: number, distance: number) {
  // Playwright has no touch drag; Input.synthesizeScrollGesture does not scroll in headless Chromium, raw touch events do.
  const cdp = await page.context().newCDPSession(page)
  const steps = 10
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] })
  for (let step = 1; step <= steps; step++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x - (distance * step) / steps, y }] })
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
  await cdp.detach()
}

test.describe('store carousel on a phone', () => {
  test.use({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true })

  test('swiping the track scrolls it natively and the selected tab follows the shop in front', async ({ page }) => {
    await gotoHydrated(page, '/')
    await track(page).scrollIntoViewIfNeeded()
    await expect(nextButton(page)).toBeHidden()
    const box = (await track(page).boundingBox())!
    const [x, y] = [Math.round(box.x + box.width - 30), Math.round(box.y + box.height / 3)]
    await swipeLeft(page, x, y, box.width * 0.75)
    await expect.poll(() => track(page).evaluate((list) => list.scrollLeft)).toBeGreaterThan(box.width / 2)
    await swipeLeft(page, x, y, box.width * 0.75)
    await expect.poll(() => firstVisibleSlide(page)).toBeGreaterThanOrEqual(2)
    // Once the scroll snap settles, the selected tab names the category of the shop in front.
    await expect
      .poll(async () => {
        const inFront = categoryName(slideCategories[await firstVisibleSlide(page)]!)
        return (await selectedTab(page).textContent()) === inFront
      }, { message: 'the selected tab follows the shop in front' })
      .toBe(true)
    await expect(selectedTab(page)).not.toHaveText(categories[0]!.name)
  })
})
