import type { Locator, Page } from '@playwright/test'
import sharp from 'sharp'
import { expect, gotoHydrated, isSameDocument, markDocument, readData, test } from './fixtures.js'

interface EmailTemplate {
  id: string
  name: string
  groups: string[]
}
const { templates } = readData<{ templates: EmailTemplate[] }>('generated/email-templates.json')
const welcome = 'welcome-email-templates'
const inWelcome = templates.filter((template) => template.groups.includes(welcome))
const listingPath = `/e/${welcome}/`
const dialog = (page: Page) => page.getByRole('dialog')

/** The element as drawn on screen, as raw RGB pixels. */
async function pixels(element: Locator): Promise<Buffer> {
  return sharp(await element.screenshot()).removeAlpha().raw().toBuffer()
}

/** How far apart two drawings of the same size are: the mean difference per channel, 0 to 255. */
function meanDifference(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length)
  let total = 0
  for (let index = 0; index < a.length; index++) total += Math.abs(a[index]! - b[index]!)
  return total / a.length
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
    // The email itself is drawn in the frame, every picture of it loaded: the browser tests' site
    // has no PUBLIC_URL, so this also holds the default public address to the port it listens on.
    await expect(page.frameLocator('.preview-frame').first().locator('body')).not.toBeEmpty()
    const pictures = page.frameLocator('.preview-frame').first().locator('img')
    expect(await pictures.count()).toBeGreaterThan(0)
    await expect
      .poll(() => pictures.evaluateAll((images) => images.filter((image) => !(image as HTMLImageElement).complete || (image as HTMLImageElement).naturalWidth === 0).length))
      .toBe(0)

    await dialog(page).getByRole('button', { name: 'Dark', exact: true }).click()
    await expect(page).toHaveURL(`/e/${first.id}?view=dark`)
    await expect(frame).toHaveClass(/frame-dark/)
    await dialog(page).getByRole('button', { name: 'Inverted' }).click()
    await expect(page).toHaveURL(`/e/${first.id}?view=inverted`)
    await expect(frame).toHaveAttribute('src', `/app/api/v2/emailmessages/${first.id}/view?view=inverted`)
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
  test('a card on the gallery root opens its preview in place; the arrows move through its row, Escape goes back to the root', async ({ page }) => {
    await gotoHydrated(page, '/e/')
    await markDocument(page)
    // A group's row: its cards are the set, although the same emails are in the "All" row too.
    const row = page.locator('.gallery-row').filter({ has: page.locator(`a[href="${listingPath}"]`) })
    const cards = row.locator('.template-card a')
    const ids = await cards.evaluateAll((links) => links.map((link) => link.getAttribute('href')!.slice(3)))
    expect(ids).toEqual(inWelcome.slice(0, ids.length).map((template) => template.id))

    await cards.first().click()
    await expect(dialog(page)).toBeVisible()
    await expect(page).toHaveURL(`/e/${ids[0]}`)
    await expect(dialog(page).locator('.preview-pager span')).toHaveText(`1 / ${ids.length}`)
    await page.keyboard.press('ArrowRight')
    await expect(page).toHaveURL(`/e/${ids[1]}`)
    await expect(dialog(page).getByRole('heading', { level: 2 })).toHaveText(inWelcome[1]!.name)
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    await expect(page).toHaveURL(`/e/${ids.at(-1)}`)

    await page.keyboard.press('Escape')
    await expect(dialog(page)).toBeHidden()
    await expect(page).toHaveURL('/e/')
    expect(await isSameDocument(page)).toBe(true)
  })

  test('on a phone the root fetches the card images near the first screen only, and each row\'s as it scrolls near', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 })
    const fetched = new Set<string>()
    page.on('request', (request) => {
      if (request.resourceType() === 'image' && request.url().includes('/thumbnails/emails/')) fetched.add(new URL(request.url()).pathname)
    })
    await gotoHydrated(page, '/e/')
    await page.waitForLoadState('networkidle')
    const rows = page.locator('.gallery-row')
    const rowCount = await rows.count()
    expect(rowCount).toBeGreaterThan(4)
    // An image the browser has not started to fetch has no current source yet. A template in
    // two rows is drawn from the memory cache in both, so only the row's own cards count.
    const startedIn = (row: Locator) =>
      row.evaluate((section) => {
        const elsewhere = new Set([...document.querySelectorAll('.gallery-row')].filter((other) => other !== section).flatMap((other) => [...other.querySelectorAll('img')].map((image) => image.getAttribute('src'))))
        const own = [...section.querySelectorAll('img')].filter((image) => !elsewhere.has(image.getAttribute('src')))
        return own.filter((image) => image.currentSrc !== '').length
      })
    // The first row's first card, drawn at once; nothing of the last row, far below.
    expect(await rows.first().locator('img').first().evaluate((image: HTMLImageElement) => image.currentSrc)).not.toBe('')
    const last = rows.nth(rowCount - 1)
    expect(await startedIn(last)).toBe(0)
    // Far below, the last row is not even laid out or drawn yet.
    const rendered = (row: Locator) => row.locator('.template-card').first().evaluate((card) => card.checkVisibility({ contentVisibilityAuto: true }))
    expect(await rendered(rows.first())).toBe(true)
    expect(await rendered(last)).toBe(false)
    expect(fetched.size).toBeGreaterThan(0)
    expect(fetched.size).toBeLessThan(12)

    await last.scrollIntoViewIfNeeded()
    await expect.poll(() => rendered(last)).toBe(true)
    await expect.poll(() => startedIn(last)).toBeGreaterThan(0)
    const first = last.locator('.template-card img').first()
    await expect.poll(() => first.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0)
    // Drawn, the row keeps its place: it is as tall as the rows above it were held.
    const heights = await rows.evaluateAll((sections) => sections.map((section) => Math.round(section.getBoundingClientRect().height)))
    expect(Math.max(...heights) - Math.min(...heights)).toBeLessThan(30)
  })

  test('the inverted view darkens the email as forced-dark clients do and leaves its pictures as they are', async ({ page }) => {
    const first = inWelcome[0]!
    await gotoHydrated(page, `/e/${first.id}?view=inverted`)
    const frameElement = dialog(page).locator('iframe').first()
    await expect(frameElement).toHaveAttribute('src', `/app/api/v2/emailmessages/${first.id}/view?view=inverted`)
    const frame = page.frameLocator('.preview-frame').first()
    const picture = frame.locator('img').first()
    await expect(picture).toHaveJSProperty('complete', true)
    // The page is inverted once and the picture once more: as drawn.
    expect(await frame.locator('html').evaluate((html) => getComputedStyle(html).filter)).toBe('invert(1) hue-rotate(180deg)')
    expect(await picture.evaluate((image) => getComputedStyle(image).filter)).toBe('invert(1) hue-rotate(180deg)')
    const invertedPicture = await pixels(picture)
    const invertedPage = await pixels(frameElement)

    await dialog(page).getByRole('button', { name: 'Light' }).click()
    await expect(frameElement).toHaveAttribute('src', `/app/api/v2/emailmessages/${first.id}/view`)
    await expect(picture).toHaveJSProperty('complete', true)
    expect(await picture.evaluate((image) => getComputedStyle(image).filter)).toBe('none')
    expect(meanDifference(await pixels(picture), invertedPicture)).toBeLessThan(6)
    expect(meanDifference(await pixels(frameElement), invertedPage)).toBeGreaterThan(60)
  })
})
