import type { Page } from '@playwright/test'
import { expect, gotoHydrated, isSameDocument, markDocument, readData, test } from './fixtures.js'

interface PlanData {
  id: number
  name: string
  prices: Record<string, { price: number; price_yearly: number; price_old: number | null }>
  features: { VIEWS: number | null; EMAILS_DISCOUNT: number }
}
const plans = readData<{ plans: PlanData[] }>('plans.json').plans
const planId = (name: string) => plans.find((plan) => plan.name === name)!.id
const CREATOR = planId('Creator')
const PRO = planId('Pro')
const PRO_MAX = planId('Pro Max')

const price = (page: Page, id: number) => page.getByTestId(`price-${id}`)
const emails = (page: Page, id: number) => page.getByTestId(`emails-${id}`)
/** The plan card around a plan's price. */
const card = (page: Page, id: number) => page.locator('.plan-card').filter({ has: price(page, id) })
/** The crossed-out price of a plan; it reads "Was …" to screen readers. */
const oldPrice = (page: Page, id: number) => card(page, id).locator('s')

test.describe('pricing page', () => {
  test.beforeEach(async ({ page }) => {
    await gotoHydrated(page, '/pricing/')
  })

  test('by default it shows monthly RUB prices: 490 ₽, 790 ₽, 790 ₽ with old prices 990 ₽ and 1,390 ₽', async ({ page }) => {
    await expect(page.getByRole('radio', { name: 'Monthly' })).toBeChecked()
    await expect(page.getByRole('radio', { name: 'RUB' })).toBeChecked()
    await expect(price(page, CREATOR)).toHaveText('490 ₽')
    await expect(price(page, PRO)).toHaveText('790 ₽')
    await expect(price(page, PRO_MAX)).toHaveText('790 ₽')
    await expect(oldPrice(page, CREATOR)).toHaveText('Was 990 ₽')
    await expect(oldPrice(page, PRO)).toHaveText('Was 1,390 ₽')
    await expect(oldPrice(page, PRO_MAX)).toHaveText('Was 1,390 ₽')
  })

  test('switching to Yearly shows 390 ₽ for Creator and 690 ₽ for Pro and Pro Max', async ({ page }) => {
    await page.getByRole('radio', { name: 'Yearly' }).check()
    await expect(price(page, CREATOR)).toHaveText('390 ₽')
    await expect(price(page, PRO)).toHaveText('690 ₽')
    await expect(price(page, PRO_MAX)).toHaveText('690 ₽')
    await expect(card(page, CREATOR)).toContainText('Billed yearly, save 20%')
  })

  test('switching to USD shows $9 and $19 monthly with $19 crossed out for Creator, and $7 and $14 yearly', async ({ page }) => {
    await page.getByRole('radio', { name: 'USD' }).check()
    await expect(price(page, CREATOR)).toHaveText('$9')
    await expect(price(page, PRO)).toHaveText('$19')
    await expect(price(page, PRO_MAX)).toHaveText('$19')
    await expect(oldPrice(page, CREATOR)).toHaveText('Was $19')
    // Pro has no old price in USD, and a monthly price is never crossed out against itself.
    await expect(oldPrice(page, PRO)).toHaveCount(0)

    await page.getByRole('radio', { name: 'Yearly' }).check()
    await expect(price(page, CREATOR)).toHaveText('$7')
    await expect(price(page, PRO)).toHaveText('$14')
    await expect(price(page, PRO_MAX)).toHaveText('$14')
    await expect(card(page, CREATOR)).toContainText('Billed yearly, save 22%')
  })

  test('the price per 1000 emails is $2 on Creator, $1.50 −25% on Pro and $1 −50% on Pro Max', async ({ page }) => {
    await expect(emails(page, CREATOR)).toHaveText('$2 per 1000 emails')
    await expect(emails(page, PRO)).toHaveText('$1.50 per 1000 emails−25%')
    await expect(emails(page, PRO_MAX)).toHaveText('$1 per 1000 emails−50%')
  })

  test('widget views read 20,000 on Creator, 100,000 on Pro and Unlimited on Pro Max', async ({ page }) => {
    await expect(card(page, CREATOR)).toContainText('20,000 widget views a month')
    await expect(card(page, PRO)).toContainText('100,000 widget views a month')
    await expect(card(page, PRO_MAX)).toContainText('Unlimited widget views a month')
  })

  test('the billing and currency radio groups work with the arrow keys', async ({ page }) => {
    const monthly = page.getByRole('radio', { name: 'Monthly' })
    await monthly.focus()
    await page.keyboard.press('ArrowRight')
    await expect(page.getByRole('radio', { name: 'Yearly' })).toBeChecked()
    await expect(page.getByRole('radio', { name: 'Yearly' })).toBeFocused()
    await expect(price(page, CREATOR)).toHaveText('390 ₽')
    await page.keyboard.press('ArrowLeft')
    await expect(monthly).toBeChecked()
    await expect(price(page, CREATOR)).toHaveText('490 ₽')

    await page.keyboard.press('Tab')
    await expect(page.getByRole('radio', { name: 'RUB' })).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(page.getByRole('radio', { name: 'USD' })).toBeChecked()
    await expect(price(page, CREATOR)).toHaveText('$9')
  })

  test('a feature anchor link scrolls to the feature’s section', async ({ page }) => {
    const section = page.locator('#branding-removal')
    await expect(section).not.toBeInViewport()
    await page.getByRole('navigation', { name: 'Features' }).getByRole('link', { name: 'Branding removal' }).click()
    await expect(page).toHaveURL(/\/pricing\/#branding-removal$/)
    await expect(section).toBeInViewport()
    await expect(section).toContainText('Hide the “Made with Poplift” badge')
  })
})

test('/pricing/?currency=USD&billing=yearly is rendered in USD, yearly, by the server', async ({ page }) => {
  const url = '/pricing/?currency=USD&billing=yearly'
  const response = await page.request.get(url)
  expect(response.status()).toBe(200)
  const html = await response.text()
  const serverPrice = (id: number) => new RegExp(`data-testid="price-${id}"[^>]*>([^<]*)<`).exec(html)?.[1]
  expect(serverPrice(CREATOR)).toBe('$7')
  expect(serverPrice(PRO)).toBe('$14')
  expect(serverPrice(PRO_MAX)).toBe('$14')
  expect(html).toMatch(/<input type="radio" name="currency" checked="" value="USD"\/>/)
  expect(html).toMatch(/<input type="radio" name="billing" checked="" value="yearly"\/>/)

  // Hydration keeps what the server drew (a mismatch would log an error and fail the test).
  await gotoHydrated(page, url)
  await expect(page.getByRole('radio', { name: 'USD' })).toBeChecked()
  await expect(page.getByRole('radio', { name: 'Yearly' })).toBeChecked()
  await expect(price(page, CREATOR)).toHaveText('$7')
})

test('when the pricing data request fails with 500 during a client-side navigation, the page shows an error inside the site chrome', async ({ page, consoleGuard }) => {
  // The failed data request is the point of the test; Chromium reports it on the console.
  consoleGuard.allow(/Failed to load resource: the server responded with a status of 500/)
  let dataRequests = 0
  await page.route(
    (url) => url.pathname === '/pricing/' && url.searchParams.get('_data') === 'pricing',
    async (route) => {
      dataRequests++
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"boom"}}' })
    },
  )
  await gotoHydrated(page, '/')
  await markDocument(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing', exact: true }).click()

  await expect(page).toHaveURL('/pricing/')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Something went wrong')
  await expect(page.getByText('This page could not be loaded. Please try again in a moment.')).toBeVisible()
  await expect(page).toHaveTitle('Something went wrong | Poplift')
  await expect(page.getByTestId(`price-${CREATOR}`)).toHaveCount(0)
  expect(dataRequests).toBe(1)
  expect(await isSameDocument(page)).toBe(true)

  // The header still works and the error page's own link leads home.
  const solutions = page.getByRole('button', { name: 'Solutions' })
  await solutions.click()
  await expect(solutions).toHaveAttribute('aria-expanded', 'true')
  await page.keyboard.press('Escape')
  await page.locator('main').getByRole('link', { name: 'Go to the home page' }).click()
  await expect(page).toHaveURL('/')
  await expect(page.locator('#store-track')).toBeVisible()
})
