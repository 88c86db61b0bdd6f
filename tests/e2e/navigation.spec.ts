import type { Locator, Page } from '@playwright/test'
import { expect, expectEscapeClosesMenu, gotoHydrated, hasReactStarted, isSameDocument, markDocument, nav, test } from './fixtures.js'

const itemsOf = (label: string) => nav.groups.find((group) => group.label === label)!.items!
const solutionsItems = itemsOf('Solutions')

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' })
const menuButton = (page: Page, label: string) => mainNav(page).getByRole('button', { name: label, exact: true })
/** The panel a disclosure button controls, found through its aria-controls. */
async function panelOf(page: Page, button: Locator): Promise<Locator> {
  const id = await button.getAttribute('aria-controls')
  expect(id, 'a menu button names its panel in aria-controls').toBeTruthy()
  return page.locator(`[id="${id}"]`)
}

/** Presses Tab from the top of the page until `target` has focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator, maxPresses = 10) {
  for (let presses = 0; presses < maxPresses; presses++) {
    await page.keyboard.press('Tab')
    if (await target.evaluate((element) => element === document.activeElement)) return
  }
  throw new Error(`${String(target)} was not reached within ${maxPresses} presses of Tab`)
}

test.describe('desktop menus by keyboard', () => {
  test.beforeEach(async ({ page }) => {
    await gotoHydrated(page, '/')
  })

  test('Tab reaches Solutions, Enter opens it, arrows, End and Home move between links, Escape closes it and focus returns to the button', async ({ page }) => {
    const solutions = menuButton(page, 'Solutions')
    const links = (await panelOf(page, solutions)).getByRole('link')
    await tabTo(page, solutions)
    await expect(solutions).toHaveAttribute('aria-expanded', 'false')

    await page.keyboard.press('Enter')
    await expect(solutions).toHaveAttribute('aria-expanded', 'true')
    await expect(links).toHaveCount(solutionsItems.length)

    await page.keyboard.press('ArrowDown')
    await expect(links.first()).toBeFocused()
    await expect(links.first()).toHaveAttribute('href', solutionsItems[0]!.href)
    await page.keyboard.press('ArrowDown')
    await expect(links.nth(1)).toBeFocused()
    await page.keyboard.press('ArrowUp')
    await expect(links.first()).toBeFocused()
    await page.keyboard.press('End')
    await expect(links.last()).toBeFocused()
    await page.keyboard.press('Home')
    await expect(links.first()).toBeFocused()

    await page.keyboard.press('Escape')
    await expect(solutions).toHaveAttribute('aria-expanded', 'false')
    await expect(links.first()).toBeHidden()
    await expect(solutions).toBeFocused()
  })

  test('ArrowDown on a closed menu button opens it on the first link, ArrowUp on the last, and the arrows wrap around', async ({ page }) => {
    const templates = menuButton(page, 'Templates')
    const links = (await panelOf(page, templates)).getByRole('link')
    await templates.focus()
    await page.keyboard.press('ArrowDown')
    await expect(templates).toHaveAttribute('aria-expanded', 'true')
    await expect(links.first()).toBeFocused()
    await page.keyboard.press('ArrowUp')
    await expect(links.last()).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(links.first()).toBeFocused()

    await page.keyboard.press('Escape')
    await expect(templates).toHaveAttribute('aria-expanded', 'false')
    await page.keyboard.press('ArrowUp')
    await expect(templates).toHaveAttribute('aria-expanded', 'true')
    await expect(links.last()).toBeFocused()
  })

  test('tabbing out of an open menu closes it', async ({ page }) => {
    const solutions = menuButton(page, 'Solutions')
    const links = (await panelOf(page, solutions)).getByRole('link')
    await solutions.focus()
    await page.keyboard.press('ArrowUp')
    await expect(links.last()).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(menuButton(page, 'Templates')).toBeFocused()
    await expect(solutions).toHaveAttribute('aria-expanded', 'false')
  })
})

test.describe('desktop menus by mouse', () => {
  test.beforeEach(async ({ page }) => {
    await gotoHydrated(page, '/')
  })

  test('clicking Solutions opens its panel; a second click, or a click outside the header, closes it', async ({ page }) => {
    const solutions = menuButton(page, 'Solutions')
    const panel = await panelOf(page, solutions)
    await expect(panel).toBeHidden()
    await solutions.click()
    await expect(solutions).toHaveAttribute('aria-expanded', 'true')
    await expect(panel.getByRole('link', { name: solutionsItems[0]!.label })).toBeVisible()
    await solutions.click()
    await expect(solutions).toHaveAttribute('aria-expanded', 'false')
    await expect(panel).toBeHidden()

    await solutions.click()
    await expect(panel).toBeVisible()
    // The open panel covers the top of the page; the bottom corner of the window is surely outside the header.
    const { height } = page.viewportSize()!
    await page.mouse.click(5, height - 5)
    await expect(solutions).toHaveAttribute('aria-expanded', 'false')
    await expect(panel).toBeHidden()
  })

  test('clicking the open panel between its links keeps it open', async ({ page }) => {
    const solutions = menuButton(page, 'Solutions')
    await solutions.click()
    const panel = await panelOf(page, solutions)
    await expect(panel).toBeVisible()
    // The panel's own padding, above its first link.
    await panel.click({ position: { x: 4, y: 4 } })
    await expect(solutions).toHaveAttribute('aria-expanded', 'true')
    await expect(panel).toBeVisible()
  })

  test('only one menu is open at a time', async ({ page }) => {
    const solutions = menuButton(page, 'Solutions')
    const templates = menuButton(page, 'Templates')
    await solutions.click()
    await templates.click()
    await expect(templates).toHaveAttribute('aria-expanded', 'true')
    await expect(solutions).toHaveAttribute('aria-expanded', 'false')
    await expect(mainNav(page).locator('button[aria-expanded="true"]')).toHaveCount(1)
  })

  test('following a menu link navigates in the same document and closes the menu', async ({ page }) => {
    const faq = itemsOf('Resources').find((item) => item.href === '/faq/')!
    await markDocument(page)
    const resources = menuButton(page, 'Resources')
    await resources.click()
    await (await panelOf(page, resources)).getByRole('link', { name: faq.label }).click()
    await expect(page).toHaveURL(faq.href)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently asked questions')
    await expect(resources).toHaveAttribute('aria-expanded', 'false')
    expect(await isSameDocument(page)).toBe(true)
  })
})

test.describe('mobile menu at 375 × 800', () => {
  test.use({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true })

  test('the menu toggle shows and hides the navigation; a group expands, and following its link navigates and closes the menu', async ({ page }) => {
    await gotoHydrated(page, '/')
    await markDocument(page)
    const toggle = page.locator('.nav-toggle')
    await expect(toggle).toHaveAccessibleName('Open menu')
    await expect(toggle).toHaveAttribute('aria-controls', 'site-nav')
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect(mainNav(page)).toBeHidden()

    await toggle.tap()
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    await expect(toggle).toHaveAccessibleName('Close menu')
    await expect(mainNav(page)).toBeVisible()
    await toggle.tap()
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect(mainNav(page)).toBeHidden()
    await toggle.tap()
    await expect(mainNav(page)).toBeVisible()

    const solutions = menuButton(page, 'Solutions')
    await solutions.tap()
    await expect(solutions).toHaveAttribute('aria-expanded', 'true')
    const target = solutionsItems.find((item) => item.href.startsWith('/usecase/'))!
    const link = (await panelOf(page, solutions)).getByRole('link', { name: target.label })
    await expect(link).toBeVisible()
    await link.tap()

    await expect(page).toHaveURL(target.href)
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect(mainNav(page)).toBeHidden()
    expect(await isSameDocument(page)).toBe(true)
  })

  test('Escape from a link inside the open mobile menu closes it and returns focus to the toggle', async ({ page }) => {
    await gotoHydrated(page, '/')
    const toggle = page.locator('.nav-toggle')
    await toggle.tap()
    await expect(mainNav(page)).toBeVisible()
    const pricing = mainNav(page).getByRole('link', { name: 'Pricing', exact: true })
    await pricing.focus()
    await page.keyboard.press('Escape')
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect(mainNav(page)).toBeHidden()
    await expect(toggle).toBeFocused()
  })
})

/**
 * Until the app has loaded and hydrated (a second or more on a slow phone), the head's menus
 * script opens and closes the menus. Here the app never comes, so everything is that script's.
 */
test.describe('menus before the app has loaded', () => {
  test.beforeEach(async ({ page }) => {
    // The app's file is asked for and never answered.
    await page.route('**/assets/app-*.js', () => undefined)
    await page.goto('/', { waitUntil: 'domcontentloaded' })
  })
  test.afterEach(async ({ page }) => {
    expect(await page.evaluate(hasReactStarted), 'React never started').toBe(false)
  })

  test('on a desktop, Escape closes the open menu from its button or from a link in it, and the focus goes back to the button', async ({ page }) => {
    const solutions = menuButton(page, 'Solutions')
    const panel = await panelOf(page, solutions)
    await solutions.click()
    await expectEscapeClosesMenu(page, solutions, panel)
    await expect(solutions).toBeFocused()

    await solutions.click()
    await panel.getByRole('link').first().focus()
    await page.keyboard.press('Escape')
    await expect(panel).toBeHidden()
    await expect(solutions).toBeFocused()
  })

  test('on a desktop, ArrowDown on a menu button opens it on its first link, ArrowUp on its last', async ({ page }) => {
    const solutions = menuButton(page, 'Solutions')
    const links = (await panelOf(page, solutions)).getByRole('link')
    await solutions.focus()
    await page.keyboard.press('ArrowDown')
    await expect(solutions).toHaveAttribute('aria-expanded', 'true')
    await expect(links.first()).toBeFocused()
    const other = menuButton(page, nav.groups.find((group) => group.items && group.label !== 'Solutions')!.label)
    await other.focus()
    await page.keyboard.press('ArrowUp')
    await expect(other).toHaveAttribute('aria-expanded', 'true')
    await expect((await panelOf(page, other)).getByRole('link').last()).toBeFocused()
    // One open at a time.
    await expect(solutions).toHaveAttribute('aria-expanded', 'false')
  })

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true })

    test('Escape closes an open group first, then the menu, and the focus goes back to the button that opened each', async ({ page }) => {
      const toggle = page.locator('.nav-toggle')
      await toggle.tap()
      await expect(toggle).toHaveAttribute('aria-expanded', 'true')
      await expect(mainNav(page)).toBeVisible()
      const solutions = menuButton(page, 'Solutions')
      await solutions.tap()
      const panel = await panelOf(page, solutions)
      await expect(panel).toBeVisible()
      await panel.getByRole('link').first().focus()

      await page.keyboard.press('Escape')
      await expect(panel).toBeHidden()
      await expect(solutions).toBeFocused()
      await expect(mainNav(page)).toBeVisible()

      await page.keyboard.press('Escape')
      await expect(toggle).toHaveAttribute('aria-expanded', 'false')
      await expect(mainNav(page)).toBeHidden()
      await expect(toggle).toBeFocused()
    })

    test('Escape from outside the open group closes the group and the menu, so neither is open when the menu opens again', async ({ page }) => {
      const toggle = page.locator('.nav-toggle')
      await toggle.tap()
      const solutions = menuButton(page, 'Solutions')
      await solutions.tap()
      await expect(solutions).toHaveAttribute('aria-expanded', 'true')
      await toggle.focus()
      await page.keyboard.press('Escape')
      await expect(mainNav(page)).toBeHidden()
      await expect(toggle).toBeFocused()
      await toggle.tap()
      await expect(mainNav(page)).toBeVisible()
      await expect(solutions).toHaveAttribute('aria-expanded', 'false')
      await expect(await panelOf(page, solutions)).toBeHidden()
    })
  })
})

test.describe('once the header has hydrated', () => {
  test.use({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true })

  test('the menus are its own: the toggle\'s label, which only it changes, follows a tap and Escape', async ({ page }) => {
    await gotoHydrated(page, '/')
    const toggle = page.locator('.nav-toggle')
    await toggle.tap()
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    await expect(toggle).toHaveAccessibleName('Close menu')
    await page.keyboard.press('Escape')
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect(toggle).toHaveAccessibleName('Open menu')
    // Had the head's script closed it behind React's back, React would still hold it open, and this tap would close it.
    await toggle.tap()
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    await expect(toggle).toHaveAccessibleName('Close menu')
  })
})
