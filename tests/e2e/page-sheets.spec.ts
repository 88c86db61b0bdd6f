import type { Page } from '@playwright/test'
import { SHEETS } from '../../shared/site.js'
import { expect, gotoHydrated, isSameDocument, markDocument, test, waitForHydration } from './fixtures.js'

/** The parts of the stylesheet in the head, in document order, each as `name (style|link)`. */
const sheetsIn = (page: Page) => page.evaluate(() => [...document.head.querySelectorAll<HTMLElement>('[data-sheet]')].map((element) => `${element.dataset.sheet} (${element.tagName.toLowerCase()})`))

/**
 * Waits until the page holds all the log-in dialog needs to open: its code has come and its
 * styles have applied. What a test then sees after a moment is the header's choice, not a slow
 * download.
 */
async function dialogReady(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      performance.getEntriesByType('resource').some((entry) => /\/assets\/AuthDialog-[\w-]+\.js$/.test(new URL(entry.name).pathname)) &&
      Boolean((document.querySelector('link[data-sheet="auth"]') as HTMLLinkElement | null)?.sheet),
  )
}

/** Whether the parts in the head come in the cascade's order, each once. */
function inCascadeOrder(sheets: string[]): boolean {
  const order = sheets.map((entry) => SHEETS.indexOf(entry.split(' ')[0] as (typeof SHEETS)[number]))
  return order.every((at, index) => at >= 0 && (index === 0 || at > order[index - 1]!))
}

test.describe('the parts of the stylesheet a page draws with', () => {
  test('a page carries its own parts inline; the next page fetches the parts it lacks, in the cascade\'s order, before it is drawn', async ({ page }) => {
    await gotoHydrated(page, '/pricing/')
    const first = await sheetsIn(page)
    expect(first).toEqual(['site (style)', 'home (style)', 'pricing (style)', 'footer (style)'])
    await markDocument(page)
    // Fetching a part takes a while, so the new page is drawn only once it has come.
    await page.route(/\/assets\/galleries-[\w-]+\.css$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500))
      await route.continue()
    })
    const galleryDrawn = page.waitForFunction(() => {
      const track = document.querySelector('.gallery-track')
      return track ? { display: getComputedStyle(track).display, sheet: document.querySelector('link[data-sheet="galleries"]') !== null } : false
    })
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Templates', exact: true }).click()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^All widget templates/ }).click()
    await expect(page).toHaveURL(/\/p\/$/)
    expect(await isSameDocument(page), 'a client-side navigation').toBe(true)
    // The first frame with the gallery has its styles: each row of templates a grid (galleries.css), not a list.
    expect(await (await galleryDrawn).jsonValue()).toEqual({ display: 'grid', sheet: true })
    const second = await sheetsIn(page)
    expect(inCascadeOrder(second), second.join(', ')).toBe(true)
    expect(second).toEqual(expect.arrayContaining(['site (style)', 'home (style)', 'pricing (style)', 'footer (style)', 'cards (link)', 'galleries (link)']))
    // Back, and on again: nothing fetched twice.
    const fetched: string[] = []
    page.on('request', (request) => {
      if (request.url().endsWith('.css')) fetched.push(request.url())
    })
    await page.goBack()
    await expect(page).toHaveURL(/\/pricing\/$/)
    await expect(page.locator('.pricing-controls')).toBeVisible()
    await page.goForward()
    await expect(page).toHaveURL(/\/p\/$/)
    await expect(page.locator('.gallery-track').first()).toBeVisible()
    expect(await sheetsIn(page)).toEqual(second)
    expect(fetched).toEqual([])
  })

  test('the log-in dialog fetches its parts as it opens, on a page without them, and is styled from its first frame', async ({ page }) => {
    await gotoHydrated(page, '/pricing/')
    expect(await sheetsIn(page)).not.toContain('auth (style)')
    await page.route(/\/assets\/auth-[\w-]+\.css$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500))
      await route.continue()
    })
    // auth.css gives the dialog's card its padding.
    const firstFrame = page.waitForFunction(() => {
      const card = document.querySelector('dialog .auth-card')
      return card ? getComputedStyle(card).paddingTop : false
    })
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }).click()
    expect(await (await firstFrame).jsonValue()).toBe('40px')
    await expect(page.getByRole('dialog', { name: 'Log in to Poplift' })).toBeVisible()
    expect(await sheetsIn(page)).toContain('auth (link)')
  })

  test('a dialog that comes after the visitor has moved on stays shut', async ({ page }) => {
    await gotoHydrated(page, '/pricing/')
    await markDocument(page)
    // The dialog's styles are held until the visitor has moved on: its arrival comes after, for sure.
    let release!: () => void
    const movedOn = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/assets\/auth-[\w-]+\.css$/, async (route) => {
      await movedOn
      await route.continue().catch(() => undefined)
    })
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }).click()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Resources', exact: true }).click()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^FAQ/ }).click()
    await expect(page).toHaveURL(/\/faq\/$/)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    const arrived = page.waitForResponse(/\/assets\/auth-[\w-]+\.css$/)
    release()
    await arrived
    // The styles applied, and a moment for a dialog to open after them.
    await dialogReady(page)
    await page.waitForTimeout(500)
    await expect(page.getByRole('dialog')).toHaveCount(0)
    expect(await isSameDocument(page)).toBe(true)
  })

  test('a dialog that comes while the next page is still on its way stays shut', async ({ page }) => {
    await gotoHydrated(page, '/pricing/')
    await markDocument(page)
    // The dialog's styles come only once the visitor has followed the FAQ link, and the FAQ's code
    // only once the dialog's styles have applied: the dialog arrives mid-navigation, for sure.
    let releaseDialog!: () => void
    const dialogHeld = new Promise<void>((resolve) => (releaseDialog = resolve))
    let releasePage!: () => void
    const pageHeld = new Promise<void>((resolve) => (releasePage = resolve))
    await page.route(/\/assets\/auth-[\w-]+\.css$/, async (route) => {
      await dialogHeld
      await route.continue().catch(() => undefined)
    })
    await page.route(/\/assets\/Faq-[\w-]+\.js$/, async (route) => {
      await pageHeld
      await route.continue().catch(() => undefined)
    })
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }).click()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Resources', exact: true }).click()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^FAQ/ }).click()
    releaseDialog()
    await dialogReady(page)
    expect(page.url(), 'the FAQ is still on its way').toMatch(/\/pricing\/$/)
    // A moment for a dialog to open after its styles, the next page still held.
    await page.waitForTimeout(500)
    await expect(page.getByRole('dialog')).toHaveCount(0)
    releasePage()
    await expect(page).toHaveURL(/\/faq\/$/)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    expect(await isSameDocument(page)).toBe(true)
  })

  test('the log-in link leads to the log-in page when the dialog is slow to come', async ({ page }) => {
    await gotoHydrated(page, '/pricing/')
    await page.route(/\/assets\/auth-[\w-]+\.css$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 6000))
      await route.continue().catch(() => undefined)
    })
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }).click()
    await expect(page).toHaveURL(/\/login\/$/, { timeout: 5500 })
    await expect(page.getByRole('heading', { name: 'Log in to Poplift', level: 1 })).toBeVisible()
  })

  test('the log-in link leads to the log-in page when the dialog\'s styles cannot be fetched', async ({ page, consoleGuard }) => {
    consoleGuard.allow(/Failed to load resource|could not be loaded/)
    await gotoHydrated(page, '/pricing/')
    await page.route(/\/assets\/auth-[\w-]+\.css$/, (route) => route.abort(), { times: 1 })
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }).click()
    await expect(page).toHaveURL(/\/login\/$/)
    await expect(page.getByRole('heading', { name: 'Log in to Poplift', level: 1 })).toBeVisible()
    expect(await sheetsIn(page)).toContain('auth (style)')
  })

  test('offline, the log-in link says so and the visitor stays; back online, it opens the dialog', async ({ page, context, consoleGuard }) => {
    consoleGuard.allow(/Failed to load resource|could not be loaded|ERR_INTERNET_DISCONNECTED/)
    await gotoHydrated(page, '/pricing/')
    const notice = page.getByRole('status').filter({ hasText: 'offline' })
    await context.setOffline(true)
    const logIn = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' })
    await logIn.click()
    await expect(notice).toHaveText('You’re offline. Log in once you’re back online.')
    await expect(page).toHaveURL(/\/pricing\/$/)
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await context.setOffline(false)
    await expect(notice).toHaveCount(0)
    // Chromium fetches the dialog's code again (a browser that keeps the failure opens the link's page).
    await logIn.click()
    await expect(page.getByRole('dialog', { name: 'Log in to Poplift' })).toBeVisible()
    await expect(page).toHaveURL(/\/pricing\/$/)
  })

  test('offline on a phone, Log in in the menu says so and the focus goes back to the menu button', async ({ page, context, consoleGuard }) => {
    consoleGuard.allow(/Failed to load resource|could not be loaded|ERR_INTERNET_DISCONNECTED/)
    await page.setViewportSize({ width: 375, height: 667 })
    await gotoHydrated(page, '/pricing/')
    // The live region is there, empty, before anything is said in it.
    await expect(page.locator('.site-header [role="status"]')).toHaveCount(1)
    await expect(page.locator('.site-header [role="status"]')).toBeEmpty()
    await context.setOffline(true)
    const toggle = page.getByRole('button', { name: 'Open menu' })
    await toggle.click()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'offline' })).toHaveText('You’re offline. Log in once you’re back online.')
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused()
    await context.setOffline(false)
  })

  for (const [what, file] of [
    ['styles', /\/assets\/galleries-[\w-]+\.css$/],
    ['code', /\/assets\/Gallery-[\w-]+\.js$/],
  ] as const) {
    test(`a page whose ${what} cannot be fetched on the way there is loaded in full, and works`, async ({ page, consoleGuard }) => {
      consoleGuard.allow(/Failed to load resource|could not be loaded|Failed to fetch dynamically imported module/)
      await gotoHydrated(page, '/pricing/')
      await markDocument(page)
      let refused = 0
      // Once: the full load then finds it.
      await page.route(
        file,
        async (route) => {
          refused++
          await route.abort()
        },
        { times: 1 },
      )
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Templates', exact: true }).click()
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^All widget templates/ }).click()
      await expect(page.getByRole('heading', { name: 'Widget templates', level: 1 })).toBeVisible()
      await expect(page).toHaveURL(/\/p\/$/)
      expect(refused).toBe(1)
      expect(await isSameDocument(page), 'a full page load').toBe(false)
      expect(await sheetsIn(page)).toContain('galleries (style)')
      expect(await page.locator('.gallery-track').first().evaluate((track) => getComputedStyle(track).display)).toBe('grid')
      await waitForHydration(page)
    })
  }
})
