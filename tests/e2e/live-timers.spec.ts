import type { Page } from '@playwright/test'
import { HYDRATION_ELEMENT_ID } from '../../shared/site.js'
import { expectNoAxeViolations } from './axe.js'
import { expect, gotoHydrated, test } from './fixtures.js'

const path = '/email-countdown-timer-generator/'
const submit = (page: Page) => page.locator('form.generator-form button[type="submit"]')
const result = (page: Page) => page.locator('.generator-result')

/** Generates with the form as it is, and returns the GIF link and the PNG link of the HTML snippet, as shown. */
async function mintFromPage(page: Page) {
  await submit(page).click()
  const link = page.getByLabel('Timer image link')
  await expect(link).toHaveValue(/\/giffer\/countdown\/live\.gif\?/, { timeout: 20_000 })
  await expect(result(page).locator('img.result-image')).toBeVisible({ timeout: 20_000 })
  const gif = await link.inputValue()
  const html = await page.getByLabel('HTML for your email').inputValue()
  const png = /<img src="([^"]+\/live\.png\?[^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&')
  return { gif, png }
}

/** Opens a link as a mail client would, with the merge tag replaced by a recipient's value. */
async function expectImage(page: Page, url: string, type: 'image/gif' | 'image/png') {
  const response = await page.request.get(url)
  expect(response.status(), url).toBe(200)
  expect(response.headers()['content-type']).toBe(type)
  expect((await response.body()).length).toBeGreaterThan(100)
}

test.describe('live timers of every type from the countdown generator', () => {
  test('one date: the link opens, and "Hide the timer" is in it', async ({ page }) => {
    await gotoHydrated(page, path)
    await page.getByLabel('Hide the timer').check()
    await expect(page).toHaveURL(/\?expired=hide$/)
    const { gif, png } = await mintFromPage(page)
    expect(new URL(gif).searchParams.get('expired')).toBe('hide')
    await expect(page.getByRole('button', { name: 'Download GIF' })).toBeVisible()
    await expectNoAxeViolations(page)
    await expectImage(page, gif, 'image/gif')
    await expectImage(page, png, 'image/png')
  })

  test("from each subscriber's first open, chosen with the keyboard: the link carries the platform's tag and opens for a subscriber", async ({ page }) => {
    await gotoHydrated(page, path)
    const first = page.getByRole('radio', { name: /^One date/ })
    await first.focus()
    // Arrow keys move through a radio group: the third type.
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await expect(page.getByRole('radio', { name: /^From each subscriber's first open/ })).toBeChecked()
    await expect(page.locator('.quick-picks')).toHaveCount(0)
    // Each subscriber gets at most 90 days.
    await page.getByLabel('Time left').fill('99')
    await expect(page.getByLabel('Time left')).toHaveValue('90')
    await page.getByLabel('Unit').selectOption('hours')
    await page.getByLabel('Time left').fill('2')
    await expectNoAxeViolations(page, { include: 'form.generator-form' })
    const { gif } = await mintFromPage(page)
    expect(gif).toMatch(/&r=\*\|UNIQID\|\*$/)
    expect(new URL(gif).searchParams.get('for')).toBe('7200')
    await page.getByLabel('Sending platform').selectOption('klaviyo')
    const klaviyo = await page.getByLabel('Timer image link').inputValue()
    expect(klaviyo).toMatch(/&r=\{\{ person\.id \}\}$/)
    await expect(page.getByText(/Apple Mail loads images when the email arrives/)).toBeVisible()
    await expect(page.getByRole('button', { name: 'Download GIF' })).toHaveCount(0)
    await expectNoAxeViolations(page)
    const html = await page.getByLabel('HTML for your email').inputValue()
    const png = /<img src="([^"]+\/live\.png\?[^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&')
    expect(png).toContain('r={{ person.id }}')
    await expectImage(page, klaviyo.replace('{{ person.id }}', 'test-subscriber-1'), 'image/gif')
    await expectImage(page, png.replace('{{ person.id }}', 'test-subscriber-1'), 'image/png')
  })

  test("a date from the subscriber's list: the link ends in the date field's tag and opens for a date in range", async ({ page }) => {
    await gotoHydrated(page, path)
    await page.getByRole('radio', { name: /^A date from your list/ }).check()
    await expect(page.getByLabel('Time left')).toHaveCount(0)
    const today = new Date()
    const inTenDays = new Date(today.getTime() + 10 * 86_400_000).toISOString().slice(0, 10)
    const inThirtyDays = new Date(today.getTime() + 30 * 86_400_000).toISOString().slice(0, 10)
    await page.getByLabel('Latest date').fill(inThirtyDays)
    await page.getByLabel('Show a message').check()
    await page.getByLabel('Message', { exact: true }).fill('Your trial has ended')
    await expectNoAxeViolations(page, { include: 'form.generator-form' })
    const { gif, png } = await mintFromPage(page)
    expect(gif).toMatch(/&until=\*\|DEADLINE\|\*$/)
    expect(new URL(gif).searchParams.get('message')).toBe('Your trial has ended')
    await expectNoAxeViolations(page)
    await expectImage(page, gif.replace('*|DEADLINE|*', `${inTenDays}T12:00`), 'image/gif')
    await expectImage(page, png.replace('*|DEADLINE|*', `${inTenDays}T12:00`), 'image/png')

    // A shared link opens with the type, its dates and the message, drawn by the server as such.
    await expect(page).toHaveURL(new RegExp(`\\?timer=per-recipient&to=${inThirtyDays}&tz=[^&]+&expired=message&message=Your\\+trial\\+has\\+ended$`))
    await page.reload()
    await expect(page.getByRole('radio', { name: /^A date from your list/ })).toBeChecked()
    await expect(page.getByLabel('Latest date')).toHaveValue(inThirtyDays)
    await expect(page.getByLabel('Message', { exact: true })).toHaveValue('Your trial has ended')
    await expect(page.getByLabel('Timer image link')).toHaveValue(/&until=\*\|DEADLINE\|\*$/, { timeout: 20_000 })
  })

  test('every day or week at a time: the link carries the time, the days and the zone, and opens as it is', async ({ page }) => {
    await gotoHydrated(page, path)
    await page.getByRole('radio', { name: /^Every day or week at a time/ }).check()
    await expect(page.getByText('When the time is up')).toHaveCount(0)
    await page.getByLabel('Time of day').fill('16:30')
    await page.getByLabel('Sat').check()
    await page.getByLabel('Time zone').selectOption('Europe/Berlin')
    await expectNoAxeViolations(page, { include: 'form.generator-form' })
    const { gif, png } = await mintFromPage(page)
    const params = new URL(gif).searchParams
    expect(params.get('at')).toBe('16:30')
    expect(params.get('weekdays')).toBe('1,2,3,4,5,6')
    expect(params.get('tz')).toBe('Europe/Berlin')
    await expect(page.getByLabel('Sending platform')).toHaveCount(0)
    await expectNoAxeViolations(page)
    await expectImage(page, gif, 'image/gif')
    await expectImage(page, png, 'image/png')

    // The address keeps the choices: reopened, the page shows them and makes the same timer.
    await expect(page).toHaveURL(/\?timer=recurring&at=16%3A30&weekdays=1%2C2%2C3%2C4%2C5%2C6&tz=Europe%2FBerlin$/)
    await page.reload()
    await expect(page.getByRole('radio', { name: /^Every day or week at a time/ })).toBeChecked()
    await expect(page.getByLabel('Time of day')).toHaveValue('16:30')
    await expect(page.getByLabel('Sat')).toBeChecked()
    await expect(page.getByLabel('Sun')).not.toBeChecked()
    await expect(page.getByLabel('Time zone')).toHaveValue('Europe/Berlin')
    await expect(page.getByLabel('Timer image link')).toHaveValue(/[?&]at=16%3A30&/, { timeout: 20_000 })
  })
})

test.describe("the visitor's own day and zone", () => {
  // A zone other than the server's, so that its defaults are not the visitor's.
  test.use({ timezoneId: 'Asia/Tokyo' })

  /** The visitor's calendar day, in the browser's zone. */
  const browserDay = (page: Page, offsetDays = 0) =>
    page.evaluate((days) => {
      const now = new Date(Date.now() + days * 86_400_000)
      return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
    }, offsetDays)

  test('a type with dates and a zone starts from the visitor’s day and zone, whichever type the page opened with', async ({ page }) => {
    await gotoHydrated(page, path)
    // Another choice first: the visitor's day and zone are taken in with it, and kept.
    await page.getByLabel('Hide the timer').check()
    await page.getByRole('radio', { name: /^A date from your list/ }).check()
    await expect(page.getByLabel('Hide the timer')).toBeChecked()
    await expect(page.getByLabel('Earliest date')).toHaveValue(await browserDay(page))
    await expect(page.getByLabel('Latest date')).toHaveValue(await browserDay(page, 90))
    await expect(page.getByLabel('Time zone')).toHaveValue('Asia/Tokyo')
    await expect(page).toHaveURL(/\?timer=per-recipient&tz=Asia%2FTokyo&expired=hide$/)
    await page.getByRole('radio', { name: /^Every day or week at a time/ }).check()
    await expect(page.getByLabel('Time zone')).toHaveValue('Asia/Tokyo')

    // Opened with such a type, the page shows the visitor's own at once.
    await gotoHydrated(page, `${path}?timer=recurring`)
    await expect(page.getByLabel('Time zone')).toHaveValue('Asia/Tokyo')
  })

  test('the holidays are asked for again only when the visitor’s day is not the one the page counted from', async ({ page }) => {
    const asked: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/holidays') asked.push(new URL(request.url()).searchParams.get('from') ?? '')
    })
    const pageDay = async () => {
      const day = await page.evaluate((id) => {
        const state = JSON.parse(document.getElementById(id)?.textContent ?? '{}') as { loaderData?: Record<string, { quickPicksFrom?: string }> }
        return state.loaderData?.['countdown-generator']?.quickPicksFrom
      }, HYDRATION_ELEMENT_ID)
      expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      return day!
    }
    await gotoHydrated(page, path)
    const served = await pageDay()
    const noonInTokyo = (day: string, later = 0) => new Date(Date.parse(`${day}T12:00:00+09:00`) + later * 86_400_000)

    // A visitor on the page's own day: the page's list is theirs.
    await page.clock.setFixedTime(noonInTokyo(served))
    asked.length = 0
    await gotoHydrated(page, path)
    await page.waitForLoadState('networkidle')
    expect(asked).toEqual([])

    // Three days on (a page kept in a cache since, or another zone): the list for their own day.
    await page.clock.setFixedTime(noonInTokyo(served, 3))
    const theirDay = await browserDay(page)
    await gotoHydrated(page, path)
    await expect.poll(() => asked).toEqual([theirDay])
    const holidays = (await (await page.request.get(`/api/holidays?from=${theirDay}`)).json()) as { title: string; value: string }[]
    await expect(page.locator('.quick-picks button').first()).toContainText(holidays[0]!.title)
  })
})
