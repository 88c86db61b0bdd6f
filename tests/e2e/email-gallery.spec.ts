import type { Frame, Page } from '@playwright/test'
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

/** A bare page (no site header) is hydrated once React has attached its props to the choose button. */
async function waitForBareHydration(target: Page | Frame): Promise<void> {
  await target.waitForFunction(() => {
    const button = [...document.querySelectorAll('button')].find((candidate) => candidate.textContent === 'Use this template')
    return button !== undefined && Object.keys(button).some((key) => key.startsWith('__reactProps$'))
  })
}

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

test.describe('embedded email preview', () => {
  const template = inWelcome[1]!

  test('choosing posts the email id to a parent on the site’s origin', async ({ page }) => {
    await gotoHydrated(page, '/')
    const received = page.evaluate(
      () =>
        new Promise((resolve) => {
          window.addEventListener('message', (event) => {
            if (event.data?.event === 'select') resolve({ data: event.data, origin: event.origin })
          })
        }),
    )
    await page.evaluate((src) => {
      const frame = document.createElement('iframe')
      frame.id = 'embedded'
      frame.src = src
      frame.style.cssText = 'position:fixed;inset:0;width:100%;height:100%;z-index:99999;background:#fff'
      document.body.append(frame)
    }, `/email-preview/?id=${template.id}`)
    const embedded = page.frameLocator('#embedded')
    await expect(embedded.getByRole('heading', { name: template.name })).toBeVisible()
    const frame = page.frames().find((candidate) => candidate.url().includes('/email-preview/'))!
    await waitForBareHydration(frame)
    await embedded.getByRole('button', { name: 'Use this template' }).click()
    expect(await received).toEqual({ data: { event: 'select', emailId: template.id }, origin: new URL(page.url()).origin })
  })

  test('outside a frame, choosing goes to the clone link', async ({ page }) => {
    await page.goto(`/email-preview/?id=${template.id}&collection=${inWelcome.map((item) => item.id).join(',')}`)
    await waitForBareHydration(page)
    await expect(page.locator('.preview-pager span')).toHaveText(`2 / ${inWelcome.length}`)
    await page.getByRole('button', { name: 'Use this template' }).click()
    await expect(page).toHaveURL(new RegExp(`/start/\\?next=%2Fapp%2Fclone-email%2F${template.id}`))
  })
})
