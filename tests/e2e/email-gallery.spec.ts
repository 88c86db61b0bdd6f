import type { Page } from '@playwright/test'
import { expect, gotoHydrated, readData, test } from './fixtures.js'

interface EmailTemplate {
  id: string
  name: string
  groups: string[]
}
const { templates } = readData<{ templates: EmailTemplate[] }>('email-templates.json')
const welcome = 'welcome-email-templates'
const inWelcome = templates.filter((template) => template.groups.includes(welcome))
const listingPath = `/e/${welcome}/`
const dialog = (page: Page) => page.getByRole('dialog')

test.describe('email gallery', () => {
  test('a card opens the email over its group; light, dark, inverted and plain text views are kept in the address', async ({ page }) => {
    await gotoHydrated(page, listingPath)
    await expect(page.locator('.breadcrumbs')).toContainText('Emails')
    await expect(page.locator('.gallery-grid .template-card')).toHaveCount(inWelcome.length)
    const first = inWelcome[0]!
    await page.locator('.gallery-grid .template-card a').first().click()
    await expect(page).toHaveURL(`/e/${first.id}`)
    await expect(dialog(page).getByRole('heading', { level: 2 })).toHaveText(first.name)
    await expect(dialog(page).locator('.preview-pager span')).toHaveText(`1 / ${inWelcome.length}`)
    const frame = dialog(page).locator('iframe').first()
    await expect(frame).toHaveAttribute('src', `/app/api/v2/emailmessages/${first.id}/view`)
    // The email itself is drawn in the frame.
    await expect(page.frameLocator('.preview-frame').first().locator('body')).not.toBeEmpty()

    await dialog(page).getByRole('button', { name: 'Dark', exact: true }).click()
    await expect(page).toHaveURL(`/e/${first.id}?view=dark`)
    await expect(frame).toHaveClass(/frame-dark/)
    await dialog(page).getByRole('button', { name: 'Inverted' }).click()
    await expect(page).toHaveURL(`/e/${first.id}?view=inverted`)
    await expect(frame).toHaveClass(/frame-inverted/)
    await dialog(page).getByRole('button', { name: 'Plain text' }).click()
    await expect(page).toHaveURL(`/e/${first.id}?view=text`)
    await expect(frame).toHaveAttribute('src', `/app/api/v2/emailmessages/${first.id}/view?format=text`)

    await expect(dialog(page).getByRole('heading', { name: 'Make it yours' })).toBeVisible()
    for (const bullet of ['Full-featured email editor', 'Mobile-friendly design', 'AI text generator']) await expect(dialog(page).getByText(bullet)).toBeVisible()
    await expect(dialog(page).locator('.size-badge')).toContainText('KB')
    await expect(dialog(page).getByRole('link', { name: 'Get it' })).toHaveAttribute('href', `/te/${first.id}`)
    await dialog(page).getByRole('button', { name: 'Customize this email' }).click()
    await expect(dialog(page).getByRole('heading', { name: 'Create your free account' })).toBeVisible()

    await page.keyboard.press('Escape')
    await page.keyboard.press('Escape')
    await expect(dialog(page)).toBeHidden()
    await expect(page).toHaveURL(listingPath)
  })

  test('a template page is server-rendered with the dialog open, its own title and image', async ({ page }) => {
    const template = templates.find((candidate) => candidate.name === 'Claim your coupon')!
    await page.goto(`/e/${template.id}`)
    await expect(dialog(page)).toBeVisible()
    await expect(page).toHaveTitle(new RegExp(template.name))
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', new RegExp(`/thumbnails/emails/${template.id}-`))
  })

  test('the search finds the seven named templates', async ({ page }) => {
    await gotoHydrated(page, '/e/?q=final%20day')
    await expect(page.locator('.gallery-grid .template-card').filter({ hasText: 'Final day sale' })).toHaveCount(1)
  })
})
