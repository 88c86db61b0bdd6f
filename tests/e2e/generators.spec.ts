import type { Page } from '@playwright/test'
import { expect, gotoHydrated, readData, test } from './fixtures.js'

const fonts = readData<{ fonts: { id: string; family: string; groups: string[] }[] }>('fonts.json').fonts
const coverage = readData<{ fonts: Record<string, { scripts: string[] }> }>('generated/font-coverage.json').fonts
const inGroup = (group: string) => fonts.filter((font) => font.groups.includes(group))
const submit = (page: Page) => page.locator('form.generator-form button[type="submit"]')
const resultArea = (page: Page) => page.locator('.generator-result')

test.describe('countdown generator', () => {
  const path = '/email-countdown-timer-generator/'

  test('the amount takes digits only, is capped per unit, becomes 1 when left empty, and converts with the unit', async ({ page }) => {
    await gotoHydrated(page, path)
    const amount = page.getByLabel('Time left')
    await amount.fill('')
    await amount.pressSequentially('1.5,-+2')
    await expect(amount).toHaveValue('99')
    await amount.fill('')
    await page.getByLabel('Unit').focus()
    await expect(amount).toHaveValue('1')
    await amount.fill('3')
    await page.getByLabel('Unit').selectOption('hours')
    await expect(amount).toHaveValue('72')
    await amount.fill('5000')
    await expect(amount).toHaveValue('2376')
    await page.getByLabel('Unit').selectOption('minutes')
    await expect(amount).toHaveValue('142560')
  })

  test('a quick pick counts down to the holiday; the result has the GIF, its download and the live timer HTML; settings stay in the address', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await gotoHydrated(page, path)
    const pick = page.locator('.quick-picks button').first()
    await pick.click()
    await expect(pick).toHaveAttribute('aria-pressed', 'true')
    await expect(page).toHaveURL(/\?date=\d{4}-\d{2}-\d{2}/)
    await page.getByLabel('Days caption').fill('Дни')

    let requests = 0
    page.on('request', (request) => {
      if (request.url().endsWith('/giffer/countdown/create')) requests++
    })
    await submit(page).click()
    // Loading: the button says so and further submits are ignored.
    await expect(submit(page)).toHaveText('Generating…')
    await submit(page).click({ force: true })
    const image = resultArea(page).locator('img.result-image')
    await expect(image).toBeVisible({ timeout: 20_000 })
    expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(1200)
    expect(requests).toBe(1)
    await expect(submit(page)).toHaveText('Generate countdown')

    await expect(page.getByLabel('HTML for your email')).toHaveValue(/<!--\[if mso\]><img src="[^"]+\/giffer\/countdown\/live\.png\?/)
    await page.getByRole('button', { name: 'Copy HTML' }).click()
    await expect(page.getByText('Copied!')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('/giffer/countdown/live.gif?')
    await expect(page.getByText('Copied!')).toBeHidden({ timeout: 3000 })

    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Download GIF' }).click()
    expect((await download).suggestedFilename()).toBe('countdown.gif')

    // A reload of the address opens the same countdown and draws it.
    await expect(page).toHaveURL(/days=%D0%94%D0%BD%D0%B8/)
    await page.reload()
    await expect(page.getByLabel('Days caption')).toHaveValue('Дни')
    await expect(resultArea(page).locator('img.result-image')).toBeVisible({ timeout: 20_000 })
  })

  test('a failure shows the error block with the message, and the service’s field message beside its field, for 7 seconds', async ({ page, consoleGuard }) => {
    consoleGuard.allow(/status of 400/)
    await gotoHydrated(page, path)
    await page.route('**/giffer/countdown/create', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { code: 'invalid', message: 'hours: must be at most 16 characters', field: 'hours' } }) }),
    )
    await submit(page).click()
    const block = resultArea(page).getByRole('alert')
    await expect(block).toContainText('Something went wrong. Please try again.')
    await expect(block).toContainText('hours: must be at most 16 characters')
    await expect(page.locator('#countdown-hours-message')).toHaveText('must be at most 16 characters')
    await expect(page.getByLabel('Hours caption')).toHaveAttribute('aria-invalid', 'true')
    await expect(block).toBeHidden({ timeout: 9000 })
  })

  test('the video opens in a popup with the page scroll locked, and Escape closes it', async ({ page }) => {
    await gotoHydrated(page, path)
    const opener = page.getByRole('button', { name: 'See how it works' })
    await opener.click()
    const popup = page.getByRole('dialog', { name: 'How the countdown timer generator works' })
    await expect(popup).toBeVisible()
    await expect(popup.locator('video')).toHaveAttribute('src', '/videos/countdown.webm')
    await expect(page.locator('html')).toHaveClass(/scroll-locked/)
    await page.keyboard.press('Escape')
    await expect(popup).toBeHidden()
    await expect(page.locator('html')).not.toHaveClass(/scroll-locked/)
    await expect(opener).toBeFocused()
  })

  test('the other generators show three cards, and the rest after Show more', async ({ page }) => {
    await gotoHydrated(page, path)
    const cards = page.locator('.generator-cards li')
    await expect(cards).toHaveCount(4)
    await expect(cards.nth(3)).toBeHidden()
    await page.getByRole('button', { name: 'Show more tools' }).click()
    await expect(cards.nth(3)).toBeVisible()
    await expect(cards.nth(3).getByRole('link')).toBeFocused()
  })
})

test.describe('holiday calendar', () => {
  test('a holiday opens the countdown set to it', async ({ page }) => {
    await gotoHydrated(page, '/email-marketing-holiday-calendar/')
    const row = page.locator('.holiday-table tbody tr').first()
    const date = await row.locator('time').getAttribute('datetime')
    await row.getByRole('link').click()
    await expect(page).toHaveURL(`/email-countdown-timer-generator/?date=${date}`)
    await expect(page.locator('.quick-picks button[aria-pressed="true"]')).toHaveCount(1)
  })
})

test.describe('scrolling text generator', () => {
  const path = '/email-scrolling-text-gif-generator/'

  test('estimates the size before rendering, warns over the email budget, and draws the GIF with its download', async ({ page }) => {
    await gotoHydrated(page, path)
    await expect(page.locator('.estimate')).toContainText(/About \d+ frames, [\d,]+ KB\./)
    await page.getByLabel('Text', { exact: true }).fill('Free shipping on every order over fifty dollars this week only')
    await expect(page.locator('.estimate')).toContainText('Over the 400 KB')
    await page.getByLabel('Text', { exact: true }).fill('Sale today')
    await expect(page.locator('.estimate')).not.toContainText('Over the')
    await page.getByRole('button', { name: 'Gift icon' }).click()
    await page.getByRole('radio', { name: 'Right' }).check()
    await submit(page).click()
    const image = resultArea(page).locator('img.result-image')
    await expect(image).toBeVisible({ timeout: 20_000 })
    expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(1200)
    await expect(page).toHaveURL(/direction=right/)
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Download GIF' }).click()
    expect((await download).suggestedFilename()).toBe('scrolling-text.gif')
  })

  test('the image service’s message for a bad separator shows beside the separator', async ({ page, consoleGuard }) => {
    consoleGuard.allow(/status of 400/)
    await gotoHydrated(page, path)
    await page.getByLabel('Separator', { exact: true }).fill('123456789')
    await submit(page).click()
    await expect(resultArea(page).getByRole('alert')).toContainText('Something went wrong. Please try again.')
    await expect(page.locator('#scroll-separator-message')).toBeVisible()
  })
})

test.describe('text image generator', () => {
  const path = '/calligraphy-text-generator/'

  test('draws one card per font of the group, switches groups on submit, and trims the text to 3 lines of 35', async ({ page }) => {
    await gotoHydrated(page, path)
    const cards = page.locator('.text-image-card')
    await expect(cards).toHaveCount(inGroup('calligraphy').length)
    await expect(cards.first()).toHaveClass(/is-ok/)
    await page.getByLabel('Your text', { exact: true }).fill(`Line one\nLine two\nLine three\nLine four ${'x'.repeat(40)}`)
    await expect(page.getByLabel('Your text', { exact: true })).toHaveValue('Line one\nLine two\nLine three')
    await page.getByLabel('Gothic').check()
    await submit(page).click()
    await expect(cards).toHaveCount(inGroup('gothic').length)
    await expect(page.locator('#result-title')).toHaveText(`Gothic fonts: ${inGroup('gothic').length}`)
    await expect(cards.first().locator('img')).toHaveAttribute('src', /text=Line\+one%0ALine\+two%0ALine\+three/)
    await expect(page).toHaveURL(/group=gothic/)
    await expect(cards.first()).toHaveClass(/is-ok/)
  })

  test('a card whose image fails says so and loses its actions; the download is a calligraphy png', async ({ page, consoleGuard }) => {
    consoleGuard.allow(/status of 500/)
    const broken = inGroup('calligraphy')[1]!
    await page.route(
      (url) => url.pathname === '/giffer/text/preview' && url.searchParams.get('font') === broken.id,
      (route) => route.fulfill({ status: 500, body: 'no' }),
    )
    await gotoHydrated(page, path)
    const card = page.locator('.text-image-card').nth(1)
    await expect(card).toHaveClass(/is-error/)
    await expect(card.getByText('Image not loaded')).toBeVisible()
    await expect(card.getByRole('button', { name: 'Copy link' })).toHaveCount(0)
    const first = page.locator('.text-image-card').first()
    const download = page.waitForEvent('download')
    await first.getByRole('button', { name: 'Download' }).click()
    expect((await download).suggestedFilename()).toBe(`calligraphy-${inGroup('calligraphy')[0]!.id}.png`)
  })
})

test.describe('Cyrillic in the generators', () => {
  test('the text image lists only the fonts that draw Russian when asked', async ({ page }) => {
    await gotoHydrated(page, '/calligraphy-text-generator/')
    await page.getByLabel('Your text', { exact: true }).fill('Привет, мир')
    await submit(page).click()
    const covering = inGroup('calligraphy').filter((font) => coverage[font.id]!.scripts.includes('cyrillic'))
    const only = page.getByLabel(/Only fonts that draw my text/)
    await expect(only).toBeVisible()
    await expect(page.locator('label[for="text-covering"]')).toHaveText(`Only fonts that draw my text (${covering.length} of ${inGroup('calligraphy').length})`)
    // Unfiltered, a font without Cyrillic says so in words and offers nothing to download.
    const lacking = inGroup('calligraphy').find((font) => !coverage[font.id]!.scripts.includes('cyrillic'))!
    const lackingCard = page.locator('.text-image-card').filter({ has: page.getByRole('heading', { name: lacking.family, exact: true }) })
    await expect(lackingCard).toContainText('No Cyrillic letters in this font')
    await expect(lackingCard.locator('img')).toHaveCount(0)
    await expect(lackingCard.getByRole('button', { name: 'Download' })).toHaveCount(0)
    const coveringCard = page.locator('.text-image-card').filter({ has: page.getByRole('heading', { name: covering[0]!.family, exact: true }) })
    await expect(coveringCard.getByRole('button', { name: 'Download' })).toBeVisible()
    await only.check()
    await expect(page.locator('.text-image-card')).toHaveCount(covering.length)
    await expect(page.locator('.text-image-card h3').first()).toHaveText(covering[0]!.family)
  })

  test('the countdown offers Russian captions and marks the fonts that lack Cyrillic', async ({ page }) => {
    await gotoHydrated(page, '/email-countdown-timer-generator/')
    const fontField = page.getByLabel('Font', { exact: true })
    // A font chosen before the list is written again (its options are HTML React leaves be) stays chosen.
    const kept = fonts.find((font) => font.groups.includes('seasonal') && coverage[font.id]!.scripts.includes('cyrillic'))!
    await fontField.selectOption(kept.id)
    await page.getByRole('button', { name: 'Русские подписи' }).click()
    await expect(page.getByLabel('Days caption')).toHaveValue('Дни')
    await expect(page.getByLabel('Seconds caption')).toHaveValue('Секунды')
    const lacking = fonts.find((font) => font.groups.includes('seasonal') && !coverage[font.id]!.scripts.includes('cyrillic'))!
    await expect(page.locator(`select[name="font"] option[value="${lacking.id}"]`)).toHaveText(`${lacking.family} (no Cyrillic)`)
    await expect(fontField).toHaveValue(kept.id)
    await expect(fontField.locator('option:checked')).toHaveText(kept.family)
    await expect(page.locator('.font-warning')).toHaveCount(0)
    await fontField.selectOption(lacking.id)
    await expect(page.getByText('No Cyrillic letters in this font: those letters are drawn in a plain fallback face.')).toBeVisible()
  })
})

test.describe('subject line generator', () => {
  const path = '/ai-subject-line-generator/'

  test('writes subject lines with preheaders and copy buttons, and saves the prompt in the browser', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await gotoHydrated(page, path)
    await page.getByLabel('What is your email about?').fill('  Spring sandals 25% off  ')
    await page.getByLabel('Industry').selectOption('fashion')
    await page.getByLabel('Tone').selectOption('playful')
    await submit(page).click()
    const rows = page.locator('.subject-row')
    await expect(rows.first()).toBeVisible()
    expect(await rows.count()).toBeGreaterThanOrEqual(5)
    const first = (await rows.first().locator('.subject-line').textContent())!
    expect(first).not.toMatch(/\p{Extended_Pictographic}/u)
    await expect(rows.first().locator('.subject-preheader')).not.toBeEmpty()
    await expect(page.locator('.subject-link a')).toHaveAttribute('href', '/start/')
    await rows.first().getByRole('button', { name: 'Copy' }).click()
    await expect(rows.first().getByText('Copied!')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first)

    await page.reload()
    await expect(page.getByLabel('Your saved prompts')).toBeVisible()
    await expect(page.getByLabel('Your saved prompts').locator('option').nth(1)).toHaveText(/Spring sandals 25% off \(Fashion, playful\)/)
  })

  test('an empty answer says no subject line was returned; a failure shows the error block', async ({ page, consoleGuard }) => {
    consoleGuard.allow(/status of 503/)
    await gotoHydrated(page, path)
    await page.route('**/app/api/v2/public/ai/email-subject-generate', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"subjects":[]}' }))
    await submit(page).click()
    await expect(resultArea(page).getByText('No email subject line returned.')).toBeVisible()
    await page.unroute('**/app/api/v2/public/ai/email-subject-generate')
    await page.route('**/app/api/v2/public/ai/email-subject-generate', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"The writer is busy."}' }))
    await submit(page).click()
    await expect(resultArea(page).getByRole('alert')).toContainText('Something went wrong. Please try again.')
    await expect(resultArea(page).getByRole('alert')).toContainText('The writer is busy.')
  })

  test('a ready prompt fills the form', async ({ page }) => {
    await gotoHydrated(page, path)
    await page.getByLabel('Ready prompts').selectOption({ index: 1 })
    await expect(page.getByLabel('What is your email about?')).toHaveValue('Black Friday: 30% off everything for 48 hours')
    await expect(page.getByLabel('Tone')).toHaveValue('urgent')
    await expect(page.getByLabel('Add emoji')).toBeChecked()
  })
})
