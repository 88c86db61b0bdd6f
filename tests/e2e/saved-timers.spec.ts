import type { Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe.js'
import { expect, gotoHydrated, readData, test } from './fixtures.js'

const fonts = readData<{ fonts: { id: string; family: string; groups: string[] }[] }>('fonts.json').fonts
const coverage = readData<{ fonts: Record<string, { scripts: string[] }> }>('generated/font-coverage.json').fonts
const GMAIL = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)'

/** Makes a one-date timer on the countdown page and saves it with the keyboard; returns what the page handed out. */
async function saveFromPage(page: Page) {
  await gotoHydrated(page, '/email-countdown-timer-generator/')
  await page.locator('form.generator-form button[type="submit"]').click()
  await expect(page.getByLabel('Timer image link')).toHaveValue(/\/countdown\/live\.gif\?/, { timeout: 20_000 })
  const form = page.getByRole('form', { name: 'Save this timer' })
  await form.getByLabel('Name (optional)').fill('Winter sale')
  await form.getByLabel('Link under the timer (optional)').fill('https://shop.example/sale')
  await form.getByLabel('Link once the time is up (optional)').fill('https://shop.example/next')
  await form.getByLabel('Name (optional)').focus()
  await page.keyboard.press('Enter')
  const saved = page.getByRole('heading', { name: 'Timer saved' })
  await expect(saved).toBeFocused({ timeout: 20_000 })
  return {
    image: await page.getByLabel('Saved timer image link').inputValue(),
    link: await page.getByLabel('Link for the button or image').inputValue(),
    html: await page.getByLabel('HTML for your email').last().inputValue(),
    edit: await page.getByLabel('Edit address').inputValue(),
  }
}

test.describe('saved timers', () => {
  test('saving hands out the image, the link and an edit address with its key in the fragment, shown once with a warning', async ({ page }) => {
    const saved = await saveFromPage(page)
    expect(saved.image).toMatch(/\/giffer\/countdown\/t\/[A-Za-z0-9_-]{10,24}\.gif$/)
    expect(saved.link).toMatch(/\/giffer\/countdown\/t\/[A-Za-z0-9_-]{10,24}\/go$/)
    expect(saved.html).toContain(`<a href="${saved.link}"`)
    expect(saved.edit).toMatch(/\/email-countdown-timer-generator\/timers\/[A-Za-z0-9_-]{10,24}\/#key=[A-Za-z0-9_-]{32,}$/)
    // Copied as shown.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.getByRole('button', { name: 'Copy edit address' }).click()
    await expect(page.getByText('Copied!')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(saved.edit)
    await expect(page.getByText('Whoever has it can change or delete this timer and see its counts. It is shown only this once')).toBeVisible()
    await expectNoAxeViolations(page)
    const image = await page.request.get(saved.image)
    expect(image.status()).toBe(200)
    expect(image.headers()['content-type']).toBe('image/gif')
    const go = await page.request.get(saved.link, { maxRedirects: 0 })
    expect(go.status()).toBe(302)
    expect(go.headers().location).toBe('https://shop.example/sale')
  })

  for (const [device, viewport] of [
    ['a desktop', { width: 1280, height: 800 }],
    ['a phone', { width: 390, height: 844 }],
  ] as const) {
    test.describe(`on ${device}`, () => {
      test.use({ viewport })
    test('the edit page changes the deadline on the same URL, names a refused field, counts opens by reader, downloads them as CSV and deletes after a confirmation', async ({ page, consoleGuard }) => {
      // The refused link below is the service's 400.
      consoleGuard.allow(/Failed to load resource: the server responded with a status of 400/)
      const saved = await saveFromPage(page)
      await gotoHydrated(page, saved.edit)
      const form = page.getByRole('form', { name: 'Timer settings' })
      await expect(form.getByLabel('Name')).toHaveValue('Winter sale', { timeout: 20_000 })
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Winter sale')
      await expect(page.getByRole('img', { name: 'The timer as it shows now' })).toHaveAttribute('src', /[?&]v=1$/)
      await expectNoAxeViolations(page)

      // A link the service refuses is named at its field.
      await form.getByLabel('Link under the timer').fill('javascript:alert(1)')
      await form.getByRole('button', { name: 'Save changes' }).click()
      const linkField = form.getByLabel('Link under the timer')
      await expect(linkField).toHaveAttribute('aria-invalid', 'true')
      await expect(form.getByRole('alert')).toHaveText('must be an absolute http(s) URL, like https://shop.example/sale')
      await linkField.fill('https://shop.example/winter')
      // Captions in Russian: the fonts without Cyrillic say so, and a font chosen before the list
      // is written again (another than the one it marks) stays chosen.
      const fontField = form.getByLabel('Font', { exact: true })
      const marked = await fontField.inputValue()
      const chosenFont = fonts.find((font) => font.groups.includes('seasonal') && font.id !== marked && coverage[font.id]!.scripts.includes('cyrillic'))!
      await fontField.selectOption(chosenFont.id)
      const daysCaption = form.getByLabel('Caption: days')
      const caption = await daysCaption.inputValue()
      await daysCaption.fill('Дни')
      await expect(fontField.locator('option', { hasText: '(no Cyrillic)' }).first()).toBeAttached()
      await expect(fontField).toHaveValue(chosenFont.id)
      await expect(fontField.locator('option:checked')).toHaveText(chosenFont.family)
      await daysCaption.fill(caption)
      await expect(fontField.locator('option', { hasText: '(no Cyrillic)' })).toHaveCount(0)
      // The end message is drawn in the font too.
      const expiry = await form.locator('input[name="expired"]:checked').inputValue()
      await form.locator('input[name="expired"][value="message"]').check()
      await form.getByLabel('Message', { exact: true }).fill('Акция закончилась')
      await expect(fontField.locator('option', { hasText: '(no Cyrillic)' }).first()).toBeAttached()
      await form.locator(`input[name="expired"][value="${expiry}"]`).check()
      await expect(fontField.locator('option', { hasText: '(no Cyrillic)' })).toHaveCount(0)
      // Back to the timer's own font: the save below changes the end date alone.
      await fontField.selectOption(marked)
      // A day later, at the same address.
      const before = await (await page.request.get(saved.image)).body()
      const endsAt = form.getByLabel('Ends at')
      const later = new Date(Date.parse(`${await endsAt.inputValue()}:00Z`) + 86_400_000).toISOString().slice(0, 16)
      await endsAt.fill(later)
      await form.getByRole('button', { name: 'Save changes' }).click()
      await expect(form.getByRole('status')).toHaveText('Changes saved. Every email shows them within a few seconds.')
      await expect(page.getByRole('img', { name: 'The timer as it shows now' })).toHaveAttribute('src', /[?&]v=2$/)
      const go = await page.request.get(saved.link, { maxRedirects: 0 })
      expect(go.headers().location).toBe('https://shop.example/winter')
      const after = await (await page.request.get(saved.image)).body()
      expect(after.equals(before)).toBe(false)

      // An open from Gmail's proxy, counted by its reader (the two loads above are opens of other readers).
      expect((await page.request.get(saved.image, { headers: { 'User-Agent': GMAIL } })).status()).toBe(200)
      await page.getByRole('button', { name: 'Refresh counts' }).click()
      const readers = page.getByRole('table', { name: 'Opens by reader' })
      await expect(readers.getByRole('row', { name: /Gmail/ })).toHaveText(/Gmail\s*1/)
      await expect(page.getByRole('region', { name: 'Opens per hour, as a table' })).toBeVisible()
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()])
      const csv = await (await download.createReadStream())!.toArray()
      expect(Buffer.concat(csv).toString()).toMatch(/^hour,opens,first_opens,expired_opens,clicks,gmail,apple_privacy,yahoo,outlook,other\r\n\d{4}-\d\d-\d\dT\d\d:00:00\.000Z,3,0,0,1,1,0,0,0,2\r\n$/)
      await expectNoAxeViolations(page)

      // Deleting asks first, with the focus on the question; the timer then draws as ended.
      await page.getByRole('button', { name: 'Delete this timer…' }).click()
      await expect(page.getByText('Delete this timer? Emails already sent will show it as ended')).toBeFocused()
      await page.getByRole('button', { name: 'Keep it' }).click()
      await page.getByRole('button', { name: 'Delete this timer…' }).click()
      await page.getByRole('button', { name: 'Delete', exact: true }).click()
      await expect(page.getByRole('status').filter({ hasText: 'Timer deleted.' })).toBeVisible()
      expect((await page.request.get(saved.image)).status()).toBe(200)
      expect((await page.request.get(saved.link, { maxRedirects: 0 })).status()).toBe(404)
    })
    })
  }

  test('an edit address without its key says what to open instead', async ({ page }) => {
    await gotoHydrated(page, '/email-countdown-timer-generator/timers/abcdefghijklmnop/')
    await expect(page.getByRole('alert')).toHaveText(/This address has no edit key/)
    await expectNoAxeViolations(page)
  })
})
