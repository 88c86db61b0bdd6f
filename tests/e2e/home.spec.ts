import type { Page } from '@playwright/test'
import type { HomeContent } from '../../shared/content/schema.js'
import { expect, gotoHydrated, isSameDocument, markDocument, readData, test } from './fixtures.js'

const home = readData<HomeContent>('home.json')
const names = {
  widgets: new Map(readData<{ id: string; name: string }[]>('generated/widget-templates.json').map((template) => [template.id, template.name])),
  emails: new Map(readData<{ templates: { id: string; name: string }[] }>('generated/email-templates.json').templates.map((template) => [template.id, template.name])),
}
const rowOf = (kind: 'widgets' | 'emails') => home.templates.rows.find((row) => row.kind === kind)!
const templatesSection = (page: Page) => page.getByRole('region', { name: home.templates.title })

test.describe('home page templates', () => {
  for (const [kind, prefix, article] of [
    ['widgets', 'p', 'a widget'],
    ['emails', 'e', 'an email'],
  ] as const) {
    test(`${article} card opens its template page with the preview, in the same document`, async ({ page }) => {
      await gotoHydrated(page, '/')
      await markDocument(page)
      const hid = rowOf(kind).ids[1]!
      const name = names[kind].get(hid)!
      const card = templatesSection(page).getByRole('link', { name })
      await expect(card).toHaveAttribute('href', `/${prefix}/${hid}`)
      await card.click()

      await expect(page).toHaveURL(`/${prefix}/${hid}`)
      const dialog = page.getByRole('dialog')
      await expect(dialog).toBeVisible()
      await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(name)
      expect(await isSameDocument(page)).toBe(true)
    })
  }

  test('"See all" leads to each gallery', async ({ page }) => {
    await gotoHydrated(page, '/')
    await templatesSection(page).getByRole('link', { name: 'See all widget templates' }).click()
    await expect(page).toHaveURL('/p/')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Widget templates')
    await page.goBack()
    await templatesSection(page).getByRole('link', { name: 'See all email templates' }).click()
    await expect(page).toHaveURL('/e/')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Email templates')
  })

  test('on a phone the page keeps to the screen, the rows of cards scroll sideways, and the hero downloads a small cut', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 })
    await gotoHydrated(page, '/')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375)
    const row = page.locator('.template-row-cards').first()
    expect(await row.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true)

    const hero = page.locator('.hero img[fetchpriority="high"]')
    await expect(hero).toHaveAttribute('alt', new RegExp(names.widgets.get(home.hero.showcase.widget)!))
    await expect.poll(() => hero.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0)
    // Drawn about 300 px wide at one device pixel per CSS pixel: a 360 px cut, not the 716 px master.
    expect(await hero.evaluate((image: HTMLImageElement) => image.currentSrc)).toMatch(new RegExp(`/thumbnails/widgets/${home.hero.showcase.widget}-360\\.webp`))
  })
})
