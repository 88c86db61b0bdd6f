import type { Locator, Page } from '@playwright/test'
import { expect, gotoHydrated, isSameDocument, markDocument, sampleContent, test } from './fixtures.js'

/** Whether React has taken the element over (it keeps its props on the elements it hydrated or drew). */
const isReactElement = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps$')))

/** How many of the elements `selector` finds React has taken over, of how many. */
const reactOwned = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((elements) => ({
    owned: elements.filter((element) => Object.keys(element).some((key) => key.startsWith('__reactProps$'))).length,
    of: elements.length,
  }))

/** None of the elements `selector` finds (and it finds some) is React's. */
async function expectNoneReact(page: Page, selector: string) {
  const { owned, of } = await reactOwned(page, selector)
  expect(of, `${selector} finds elements`).toBeGreaterThan(0)
  expect(owned, `${selector}: elements React took over`).toBe(0)
}

/**
 * On a help article, follows the first other article of the sidebar (still the server's HTML) the
 * way `follow` does, and waits until React has drawn the next article in the same document.
 * Answers the followed link as React drew it.
 */
async function followSidebarLink(page: Page, follow: (link: Locator) => Promise<void>) {
  const { helpSection, helpArticle } = sampleContent
  await gotoHydrated(page, `/help/${helpSection.slug}/${helpArticle}/`)
  await markDocument(page)
  const sibling = page.locator('.sidebar a:not([aria-current])').first()
  const href = await sibling.getAttribute('href')
  await follow(sibling)
  await expect(page).toHaveURL(href!)
  expect(await isSameDocument(page)).toBe(true)
  await expect.poll(() => isReactElement(page, 'main .page[data-static] h1')).toBe(true)
  const followed = page.locator(`.sidebar a[href="${href}"]`)
  await expect(followed).toHaveAttribute('aria-current', 'page')
  return { followed, href: href! }
}

/** Each part of the page left as the server drew it: its text and its links' addresses. */
const staticParts = (page: Page) =>
  page.locator('[data-static]').evaluateAll((elements) =>
    elements.map((element) => ({
      tag: element.tagName,
      text: element.textContent,
      links: Array.from(element.querySelectorAll('a'), (anchor) => anchor.getAttribute('href')),
    })),
  )

test.describe('parts of a page with nothing to do but follow links are left as the server drew them', () => {
  test('on the home page the footer, every section and the shops in the carousel stay as served, and their links still navigate in the page', async ({ page }) => {
    const served = await (await page.request.get('/')).text()
    await gotoHydrated(page, '/')
    // The footer, the hero, the widget kinds, the template rows, each feature, the generators.
    const parts = await staticParts(page)
    expect(parts.length).toBeGreaterThanOrEqual(6)
    expect(parts.map((part) => part.tag)).toContain('FOOTER')

    // React hydrated the elements themselves (their click handler), not what is inside them.
    expect(await isReactElement(page, 'footer[data-static]')).toBe(true)
    await expectNoneReact(page, 'footer[data-static] a')
    await expectNoneReact(page, '.hero[data-static] a')
    // The carousel's tabs and arrows are React's; the shops in its row are the server's.
    expect(await isReactElement(page, '.store-tab')).toBe(true)
    expect(await isReactElement(page, '#store-track[data-static]')).toBe(true)
    await expectNoneReact(page, '#store-track a')
    // The header's menus are React's; the links in their panels are the server's.
    expect(await isReactElement(page, '.nav-trigger')).toBe(true)
    await expectNoneReact(page, '.nav-panel ul[data-static] a')

    // What is inside is the server's HTML as it came.
    const footer = await page.locator('footer[data-static]').evaluate((element) => element.innerHTML)
    const servedFooter = await page.evaluate((html) => new DOMParser().parseFromString(html, 'text/html').querySelector('footer')!.innerHTML, served)
    expect(footer).toBe(servedFooter)

    // A link of the server's HTML to a page of the site navigates without loading a document.
    await markDocument(page)
    await page.locator('footer a[href="/pricing/"]').click()
    await expect(page).toHaveURL('/pricing/')
    await expect(page).toHaveTitle('Pricing and plans | Poplift')
    expect(await isSameDocument(page)).toBe(true)

    // Back on the home page, React draws the same sections itself; the footer, the same on
    // every page, is still the server's and still navigates in the page.
    await page.goBack()
    await expect(page).toHaveURL('/')
    await expect(page.locator('#store-track')).toBeVisible()
    expect(await isSameDocument(page)).toBe(true)
    expect(await staticParts(page)).toEqual(parts)
    expect(await isReactElement(page, '.hero[data-static] a')).toBe(true)
    expect(await isReactElement(page, 'footer[data-static] a')).toBe(false)
    await page.locator('footer a[href="/faq/"]').click()
    await expect(page).toHaveURL('/faq/')
    expect(await isSameDocument(page)).toBe(true)
  })

  test('a menu’s links, left as the server drew them, are reached with the arrow keys and navigate in the page', async ({ page }) => {
    await gotoHydrated(page, '/')
    await markDocument(page)
    const solutions = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Solutions', exact: true })
    await solutions.focus()
    await page.keyboard.press('ArrowDown')
    const panel = page.locator('.nav-group.is-open .nav-panel')
    const links = panel.locator('a')
    await expect(links.first()).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(links.nth(1)).toBeFocused()
    await page.keyboard.press('End')
    await expect(links.last()).toBeFocused()
    const href = await links.last().getAttribute('href')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(href!)
    expect(await isSameDocument(page)).toBe(true)
    // The navigation closed the menu; its links are still the server's.
    await expect(page.locator('.nav-group.is-open')).toHaveCount(0)
    await expectNoneReact(page, '.nav-panel ul[data-static] a')
  })

  test('a click with a modifier key on a link of the server’s HTML is the browser’s: the page stays, the link opens apart', async ({ page, context }) => {
    await gotoHydrated(page, '/')
    const opened = context.waitForEvent('page')
    await page.locator('footer a[href="/pricing/"]').click({ modifiers: ['ControlOrMeta'] })
    const tab = await opened
    // A new tab starts as about:blank, then goes to the link's address.
    await expect(tab).toHaveURL(/^http:\/\/[^/]+\/pricing\/$/)
    await expect(page).toHaveURL('/')
    await tab.close()
  })

  test('a link to a #fragment of the page keeps the browser’s own behaviour', async ({ page }) => {
    await gotoHydrated(page, '/pricing/')
    await markDocument(page)
    // The features' anchors are plain links to places on the page.
    const anchor = page.locator('.feature-details[data-static] .feature-anchors a').first()
    const fragment = await anchor.getAttribute('href')
    expect(fragment).toMatch(/^#/)
    await anchor.click()
    await expect(page).toHaveURL(`/pricing/${fragment}`)
    await expect(page.locator(fragment!)).toBeInViewport()
    expect(await isSameDocument(page)).toBe(true)
  })

  test('the pricing page leaves each plan’s feature list as served while the period and currency change its prices', async ({ page }) => {
    await gotoHydrated(page, '/pricing/')
    const lists = page.locator('.plan-features[data-static]')
    expect(await lists.count()).toBeGreaterThan(0)
    await expectNoneReact(page, '.plan-features[data-static] li')
    const served = await lists.evaluateAll((elements) => elements.map((element) => element.innerHTML))
    const price = page.locator('.plan-price-current').first()
    const monthly = await price.textContent()
    await page.getByRole('radio', { name: 'Yearly' }).check()
    await expect(price).not.toHaveText(monthly!)
    const yearly = await price.textContent()
    await page.locator('.pricing-controls fieldset').nth(1).getByRole('radio').last().check()
    await expect(price).not.toHaveText(yearly!)
    // The lists are the server's still, the same; the prices React's.
    expect(await lists.evaluateAll((elements) => elements.map((element) => element.innerHTML))).toEqual(served)
    await expectNoneReact(page, '.plan-features[data-static] li')
    expect(await isReactElement(page, '.plan-price-current')).toBe(true)
    // A feature's link still leads to its description.
    await lists.first().locator('a').first().click()
    await expect(page).toHaveURL(/\/pricing\/#/)
  })

  test('a generator page leaves its examples, explanation and questions as served; the questions still open', async ({ page }) => {
    await gotoHydrated(page, '/email-countdown-timer-generator/')
    expect(await isReactElement(page, '.generator-faq[data-static]')).toBe(true)
    expect(await isReactElement(page, '.generator-faq[data-static] details')).toBe(false)
    const question = page.locator('.generator-faq details').first()
    await question.locator('summary').click()
    await expect(question).toHaveAttribute('open', '')
    // The form above them is React's.
    expect(await isReactElement(page, '.generator-tool form')).toBe(true)
  })
})

test.describe('a gallery leaves its cards as the server drew them', () => {
  test('a card of the server’s HTML opens its preview over the page, and the row still scrolls', async ({ page }) => {
    await gotoHydrated(page, '/p/')
    expect(await isReactElement(page, '.gallery-track[data-static]')).toBe(true)
    expect(await isReactElement(page, '.gallery-track[data-static] a')).toBe(false)
    await markDocument(page)
    const card = page.locator('.gallery-track a').first()
    const href = await card.getAttribute('href')
    await card.click()
    await expect(page).toHaveURL(href!)
    await expect(page.getByRole('dialog')).toBeVisible()
    expect(await isSameDocument(page)).toBe(true)
    await page.keyboard.press('Escape')
    await expect(page.getByRole('dialog')).toBeHidden()
    await expect(page).toHaveURL('/p/')
    await expect(card).toBeFocused()

    const track = page.locator('.gallery-track').first()
    await page.locator('.gallery-row').first().getByRole('button', { name: /forward/ }).click()
    await expect.poll(() => track.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0)
  })

  test('a filter draws the other cards, and back without it React draws the first ones again, not the copy of what was served', async ({ page }) => {
    // A listing of one kind of form: its Type filter keeps the address's path (the same page, other data).
    const listing = '/p/forms/discounts/'
    await gotoHydrated(page, listing)
    const grid = page.locator('.gallery-grid[data-static]').first()
    const served = await grid.locator('a').evaluateAll((links) => links.map((link) => link.getAttribute('href')))
    expect(await isReactElement(page, '.gallery-grid[data-static] a')).toBe(false)
    await markDocument(page)
    const type = page.getByLabel('Type')
    const other = await type.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value).find((value) => value !== ''))
    await type.selectOption(other!)
    await expect(page).toHaveURL(`${listing}?position=${other}`)
    await expect.poll(() => grid.locator('a').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).not.toEqual(served)
    expect(await isReactElement(page, '.gallery-grid[data-static] a')).toBe(true)
    await page.goBack()
    await expect(page).toHaveURL(listing)
    await expect.poll(() => grid.locator('a').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual(served)
    expect(await isReactElement(page, '.gallery-grid[data-static] a')).toBe(true)
    expect(await isSameDocument(page)).toBe(true)
  })
})

test.describe('the content pages are left as the server drew them', () => {
  test('a blog post’s Markdown links still navigate in the page, and its title follows the page', async ({ page }) => {
    const { blogTheme, blogPost } = sampleContent
    await gotoHydrated(page, `/blog/${blogTheme.slug}/${blogPost}/`)
    const title = await page.title()
    expect(await isReactElement(page, 'main .page[data-static]')).toBe(true)
    expect(await isReactElement(page, 'main .page[data-static] .prose')).toBe(false)
    await markDocument(page)
    const link = page.locator('main .prose a[href^="/blog/"], main .prose a[href^="/usecase/"]').first()
    const href = await link.getAttribute('href')
    await link.click()
    await expect(page).toHaveURL(href!)
    expect(await isSameDocument(page)).toBe(true)
    await expect(page).not.toHaveTitle(title)
    // One title in the document: the page's own (the server's was React's to replace).
    expect(await page.locator('head title').count()).toBe(1)

    // Pages reached in the browser are React's to draw, the first one too when the visitor comes back to it.
    expect(await isReactElement(page, 'main .page[data-static] h1')).toBe(true)
    await page.goBack()
    await expect(page).toHaveTitle(title)
    expect(await isReactElement(page, 'main .page[data-static] h1')).toBe(true)
    await expect(page.locator('main .page[data-static] h1')).toHaveCount(1)
    expect(await isSameDocument(page)).toBe(true)
  })

  test('a link in the server’s HTML followed with the keyboard keeps the focus once React draws the part', async ({ page }) => {
    const { followed, href } = await followSidebarLink(page, async (link) => {
      await link.focus()
      await page.keyboard.press('Enter')
    })
    // The same page component draws the next article: its sidebar link is focused, as before the switch, with its ring.
    await expect(followed).toBeFocused()
    expect(await followed.evaluate((link) => link.matches(':focus-visible'))).toBe(true)
    // And the keyboard goes on from there: to the next link of the sidebar, or past the page when it was the last.
    const sidebar = await page.locator('.sidebar a').evaluateAll((links) => links.map((link) => link.getAttribute('href')))
    const next = sidebar[sidebar.indexOf(href) + 1]
    await page.keyboard.press('Tab')
    if (next) await expect(page.locator(`.sidebar a[href="${next}"]`)).toBeFocused()
    else expect(await page.evaluate(() => document.activeElement?.closest('footer') !== null)).toBe(true)
  })

  test('a link of the server’s HTML clicked with the mouse shows no focus ring once React draws the part', async ({ page }) => {
    const { followed } = await followSidebarLink(page, (link) => link.click())
    // The link is focused again, as when React had drawn it, and a ring is drawn only for the keyboard.
    await expect(followed).toBeFocused()
    expect(await followed.evaluate((link) => link.matches(':focus-visible'))).toBe(false)
  })

  test('a link of the server’s HTML followed with the focus on nothing (a tap, a screen reader’s cursor) has it afterwards', async ({ page }) => {
    const { followed } = await followSidebarLink(page, async (link) => {
      // A click that leaves the focus on the page, as a tap in Safari or a screen reader's activation may.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
      await link.evaluate((element: HTMLElement) => element.click())
    })
    await expect(followed).toBeFocused()
  })

  test('a link of the server’s HTML followed with the focus elsewhere leaves it there', async ({ page }) => {
    const elsewhere = page.locator('header button:visible').first()
    await followSidebarLink(page, async (link) => {
      await elsewhere.focus()
      await link.evaluate((element: HTMLElement) => element.click())
    })
    await expect(elsewhere).toBeFocused()
  })

  test('a link of the server’s HTML followed with the focus outside the part, on something that then goes, does not pull the focus into the part', async ({ page }) => {
    const { followed } = await followSidebarLink(page, (link) =>
      link.evaluate((element: HTMLElement) => {
        // A control outside the part (as in a menu or dialog that closes as the page changes):
        // focused as the link is followed, gone before the part is drawn afresh, so the focus is
        // on nothing by then. Where it was when the link was followed decides, not where it is.
        const control = document.createElement('button')
        control.textContent = 'Elsewhere'
        document.querySelector('main')!.before(control)
        control.focus()
        element.click()
        control.remove()
      }),
    )
    await expect(followed).not.toBeFocused()
    expect(await page.evaluate(() => document.activeElement === document.body || document.activeElement === null)).toBe(true)
  })

  test('a link followed with the keyboard to a page without it leaves the focus alone: no other link takes it', async ({ page }) => {
    const { helpSection, helpArticle } = sampleContent
    await gotoHydrated(page, `/help/${helpSection.slug}/${helpArticle}/`)
    await markDocument(page)
    // The breadcrumb to the section: the same page component draws the section, where that link is not.
    const crumb = page.locator('main .breadcrumbs a').last()
    const href = await crumb.getAttribute('href')
    await crumb.focus()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(href!)
    expect(await isSameDocument(page)).toBe(true)
    await expect(page.locator('main .page[data-static] h1')).toHaveCount(1)
    await expect.poll(() => isReactElement(page, 'main .page[data-static] h1')).toBe(true)
    const focusedLink = await page.evaluate(() => document.activeElement?.closest('a')?.getAttribute('href') ?? null)
    expect(focusedLink === null || focusedLink === href, `focus on ${focusedLink}`).toBe(true)
  })
})
