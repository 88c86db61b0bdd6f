import type { Page } from '@playwright/test'
import type { WidgetGroupsFile, WidgetTemplate } from '../../shared/gallery/widget-schema.js'
import { expect, gotoHydrated, isSameDocument, markDocument, readData, test } from './fixtures.js'

const { groups } = readData<WidgetGroupsFile>('generated/widget-groups.json')
const templates = readData<WidgetTemplate[]>('generated/widget-templates.json')
const forms = groups.find((group) => group.slug === 'forms')!
const sub = forms.subs[0]!
const listingPath = `/p/forms/${sub.slug}/`

/** The listing's card ids in page order. */
async function cardIds(page: Page): Promise<string[]> {
  return page.locator('.gallery-grid .template-card a').evaluateAll((links) => links.map((link) => link.getAttribute('href')!.slice(3)))
}

const dialog = (page: Page) => page.getByRole('dialog')

/** A row of the gallery root: its cards' links and their ids in page order. */
async function rootRow(page: Page, index: number) {
  const cards = page.locator('.gallery-row').nth(index).locator('.template-card a')
  const ids = await cards.evaluateAll((links) => links.map((link) => link.getAttribute('href')!.slice(3)))
  return { cards, ids }
}

const historyLength = (page: Page) => page.evaluate(() => window.history.length)

test.describe('widget gallery', () => {
  test('a card opens the preview over the listing; the arrows move through it and wrap both ways', async ({ page }) => {
    await gotoHydrated(page, listingPath)
    const ids = await cardIds(page)
    expect(ids.length).toBe(templates.filter((template) => template.group === 'forms' && template.sub === sub.slug).length)
    const first = templates.find((template) => template.id === ids[0])!

    await page.locator('.gallery-grid .template-card a').first().click()
    await expect(dialog(page)).toBeVisible()
    await expect(page).toHaveURL(`/p/${ids[0]}`)
    await expect(dialog(page).getByRole('heading', { level: 2 })).toHaveText(first.name)
    await expect(dialog(page).locator('.preview-pager span')).toHaveText(`1 / ${ids.length}`)
    await expect(dialog(page)).toHaveAttribute('aria-modal', 'true')

    // Previous from the first wraps to the last; next from there wraps to the first.
    await page.keyboard.press('ArrowLeft')
    await expect(page).toHaveURL(`/p/${ids.at(-1)}`)
    await expect(dialog(page).locator('.preview-pager span')).toHaveText(`${ids.length} / ${ids.length}`)
    await dialog(page).getByRole('button', { name: 'Next template' }).click()
    await expect(page).toHaveURL(`/p/${ids[0]}`)
    await page.keyboard.press('ArrowRight')
    await expect(page).toHaveURL(`/p/${ids[1]}`)

    // Previous/next replace the address: one step back leaves the preview.
    await page.keyboard.press('Escape')
    await expect(dialog(page)).toBeHidden()
    await expect(page).toHaveURL(listingPath)
    // Focus goes back to the card that opened it.
    await expect(page.locator('.gallery-grid .template-card a').first()).toBeFocused()
  })

  test('back closes a preview opened from the listing, forward opens it again', async ({ page }) => {
    await gotoHydrated(page, listingPath)
    const ids = await cardIds(page)
    await page.locator('.gallery-grid .template-card a').nth(2).click()
    await expect(page).toHaveURL(`/p/${ids[2]}`)
    await page.goBack()
    await expect(dialog(page)).toBeHidden()
    await expect(page).toHaveURL(listingPath)
    await page.goForward()
    await expect(page).toHaveURL(`/p/${ids[2]}`)
    await expect(dialog(page)).toBeVisible()
  })

  test('landing on a template and closing leads to its listing; device and colour are kept in the address', async ({ page }) => {
    const themed = templates.find((template) => template.dark && !template.name.includes('Custom'))!
    await gotoHydrated(page, `/p/${themed.id}?device=mobile&view=dark`)
    await expect(dialog(page)).toBeVisible()
    await expect(dialog(page).getByRole('button', { name: 'Mobile' })).toHaveAttribute('aria-pressed', 'true')
    await expect(dialog(page).getByRole('button', { name: 'Dark' })).toHaveAttribute('aria-pressed', 'true')
    await expect(dialog(page).locator('iframe')).toHaveAttribute('src', `/app/preview/${themed.id}?theme=dark`)

    await dialog(page).getByRole('button', { name: 'Desktop' }).click()
    await expect(page).toHaveURL(`/p/${themed.id}?view=dark`)
    await dialog(page).getByRole('button', { name: 'Light' }).click()
    await expect(page).toHaveURL(`/p/${themed.id}`)
    await expect(dialog(page).locator('iframe')).toHaveAttribute('src', `/app/preview/${themed.id}`)

    await dialog(page).getByRole('button', { name: 'Close preview' }).click()
    await expect(dialog(page)).toBeHidden()
    const home = templates.find((template) => template.id === themed.id)!
    await expect(page).toHaveURL(`/p/${home.group}/${home.sub ? `${home.sub}/` : ''}`)
  })

  test('the preview keeps focus inside and the page behind inert; Escape closes the sign-up panel first', async ({ page }) => {
    await gotoHydrated(page, listingPath)
    await page.locator('.gallery-grid .template-card a').first().click()
    await expect(dialog(page)).toBeVisible()
    for (let step = 0; step < 20; step++) {
      await page.keyboard.press('Tab')
      // Polled: the widget's frame runs in a process of its own, and focus crosses into and out of it in steps.
      await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('dialog')))).toBe(true)
    }
    // The listing behind cannot be clicked while the preview is open.
    await expect(page.locator('.gallery-grid .template-card a').nth(1).click({ timeout: 1000 })).rejects.toThrow()

    await dialog(page).getByRole('button', { name: 'Take this template' }).click()
    await expect(dialog(page).getByRole('heading', { name: 'Create your free account' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(dialog(page).getByRole('heading', { name: 'Make it yours' })).toBeVisible()
    await expect(dialog(page)).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(dialog(page)).toBeHidden()
  })

  test('the filters change the address, work as links, and keep the listing in view', async ({ page }) => {
    await gotoHydrated(page, listingPath)
    const ids = await cardIds(page)
    const position = templates.find((template) => template.id === ids[0])!.position
    await page.mouse.wheel(0, 1500)
    await page.getByLabel('Type').selectOption(position)
    await expect(page).toHaveURL(`${listingPath}?position=${position}`)
    await expect.poll(async () => {
      const filtered = await cardIds(page)
      return filtered.every((id) => templates.find((template) => template.id === id)!.position === position) && filtered.length
    }).toBeGreaterThan(0)
    expect(await page.evaluate(() => window.scrollY)).toBeLessThanOrEqual(258)

    await page.getByLabel('Search', { exact: true }).fill('zzqqxx')
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect(page.getByText('No matches found, try resetting filter')).toBeVisible()
    await page.getByRole('link', { name: 'Reset filter' }).click()
    await expect(page).toHaveURL(listingPath)
  })

  test('the category dropdown leads to that category, and on a phone the listing takes the full width above the groups', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 })
    await gotoHydrated(page, listingPath)
    const main = await page.locator('.gallery-main').boundingBox()
    const side = await page.locator('.gallery-sidebar').boundingBox()
    expect(main!.width).toBeGreaterThan(320)
    expect(side!.y).toBeGreaterThan(main!.y + main!.height - 1)
    const other = forms.subs[1]!
    await page.getByLabel('Category').selectOption(other.slug)
    await expect(page).toHaveURL(`/p/forms/${other.slug}/`)
    await expect(page.locator('.gallery-sidebar a[aria-current="page"]')).toHaveText(other.name)
    // The sidebar, below the listing here, is a filter too: tracked, and the listing kept in view.
    const third = forms.subs[2]!
    await page.locator('.gallery-sidebar').getByRole('link', { name: third.name, exact: true }).click()
    await expect(page).toHaveURL(`/p/forms/${third.slug}/`)
    await expect(page.locator('.gallery-sidebar a[aria-current="page"]')).toHaveText(third.name)
    expect(await page.evaluate(() => window.scrollY)).toBeLessThanOrEqual(258)
    const tracked = await page.evaluate(() => ((window as { dataLayer?: Array<{ event?: string; url?: string }> }).dataLayer ?? []).filter((entry) => entry.event === 'galleryFilter').map((entry) => entry.url))
    expect(tracked).toEqual([`/p/forms/${other.slug}/`, `/p/forms/${third.slug}/`])
  })
  test('a card on the gallery root opens its preview in place; the arrows move through its row and wrap, Escape goes back to the root as it was', async ({ page }) => {
    await gotoHydrated(page, '/p/')
    await markDocument(page)
    // The second row (a group), so the set is that row's cards and not the first ones of the page.
    const { cards, ids } = await rootRow(page, 1)
    expect(ids.length).toBeGreaterThan(2)
    await cards.nth(1).scrollIntoViewIfNeeded()
    const scrollY = await page.evaluate(() => window.scrollY)
    expect(scrollY).toBeGreaterThan(0)

    await cards.nth(1).click()
    await expect(dialog(page)).toBeVisible()
    await expect(page).toHaveURL(`/p/${ids[1]}`)
    await expect(dialog(page).getByRole('heading', { level: 2 })).toHaveText(templates.find((template) => template.id === ids[1])!.name)
    await expect(dialog(page).locator('.preview-pager span')).toHaveText(`2 / ${ids.length}`)
    const opened = await historyLength(page)

    await page.keyboard.press('ArrowRight')
    await expect(page).toHaveURL(`/p/${ids[2]}`)
    await expect(dialog(page).locator('.preview-pager span')).toHaveText(`3 / ${ids.length}`)
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    await expect(page).toHaveURL(`/p/${ids[0]}`)
    await page.keyboard.press('ArrowLeft')
    await expect(page).toHaveURL(`/p/${ids.at(-1)}`)
    await expect(dialog(page).locator('.preview-pager span')).toHaveText(`${ids.length} / ${ids.length}`)
    await page.keyboard.press('ArrowRight')
    await expect(page).toHaveURL(`/p/${ids[0]}`)
    // Previous and next replace the address instead of adding to the history.
    expect(await historyLength(page)).toBe(opened)
    // "Show all templates" leads to the row's group.
    const rowPath = (await page.locator('.gallery-row').nth(1).locator('.see-all').getAttribute('href'))!
    await expect(dialog(page).getByRole('link', { name: 'Show all templates' })).toHaveAttribute('href', rowPath)

    await page.keyboard.press('Escape')
    await expect(dialog(page)).toBeHidden()
    await expect(page).toHaveURL('/p/')
    await expect(page.locator('h1')).toHaveText('Widget templates')
    expect(await isSameDocument(page)).toBe(true)
    expect(await page.evaluate(() => window.scrollY)).toBe(scrollY)
    await expect(cards.nth(1)).toBeFocused()
  })

  test('Back closes a preview opened from the gallery root; a ctrl/cmd click on a card stays a link to the template page', async ({ page }) => {
    await gotoHydrated(page, '/p/')
    await markDocument(page)
    const { cards, ids } = await rootRow(page, 0)
    await cards.nth(3).click()
    await expect(page).toHaveURL(`/p/${ids[3]}`)
    await expect(dialog(page)).toBeVisible()
    await page.goBack()
    await expect(dialog(page)).toBeHidden()
    await expect(page).toHaveURL('/p/')
    expect(await isSameDocument(page)).toBe(true)

    const opened = page.context().waitForEvent('page')
    await cards.nth(3).click({ modifiers: ['ControlOrMeta'] })
    const tab = await opened
    // A new tab starts on about:blank and is loaded there before it navigates to the link.
    await expect(tab).toHaveURL(`/p/${ids[3]}`)
    await expect(dialog(page)).toBeHidden()
    await expect(page).toHaveURL('/p/')
  })

  test('in the sidebar a group’s link and its categories toggle are separate controls; the toggle works by keyboard', async ({ page }) => {
    const messages = groups.find((group) => group.slug === 'messages')!
    await gotoHydrated(page, listingPath)
    const sidebar = page.locator('.gallery-sidebar')
    await expect(sidebar.locator('summary')).not.toHaveCount(0)
    await expect(sidebar.locator('summary :is(a, button, input, select, [tabindex])')).toHaveCount(0)
    // The current group's categories are open, with the current one marked.
    await expect(sidebar.getByRole('link', { name: sub.name, exact: true })).toHaveAttribute('aria-current', 'page')
    await expect(sidebar.getByRole('link', { name: forms.name, exact: true })).toBeVisible()

    const messagesLink = sidebar.getByRole('link', { name: messages.name, exact: true })
    const toggle = sidebar.locator('summary', { hasText: `${messages.name} categories` })
    const firstCategory = sidebar.getByRole('link', { name: messages.subs[0]!.name, exact: true })
    await expect(firstCategory).toBeHidden()
    // Tab goes from the group's link to its toggle; Enter opens the categories, Space closes them.
    await messagesLink.focus()
    await page.keyboard.press('Tab')
    await expect(toggle).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(firstCategory).toBeVisible()
    await expect(page).toHaveURL(listingPath)
    await page.keyboard.press('Space')
    await expect(firstCategory).toBeHidden()
  })

  test('a template page has the same sidebar, without a link inside a summary', async ({ page }) => {
    await gotoHydrated(page, `/p/${templates.find((template) => template.group === 'messages')!.id}`)
    await expect(page.locator('.gallery-sidebar summary')).not.toHaveCount(0)
    await expect(page.locator('.gallery-sidebar summary a')).toHaveCount(0)
  })
})

test.describe('widget gallery without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the sidebar shows the current group’s categories, and the other groups’ toggles open theirs', async ({ page }) => {
    const messages = groups.find((group) => group.slug === 'messages')!
    await page.goto(listingPath)
    const sidebar = page.locator('.gallery-sidebar')
    await expect(sidebar.getByRole('link', { name: sub.name, exact: true })).toBeVisible()
    const firstCategory = sidebar.getByRole('link', { name: messages.subs[0]!.name, exact: true })
    await expect(firstCategory).toBeHidden()
    await sidebar.locator('summary', { hasText: `${messages.name} categories` }).click()
    await expect(firstCategory).toBeVisible()
  })
})
