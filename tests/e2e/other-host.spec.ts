/**
 * A visitor who opens the site by another host name than its configured one (the browser tests'
 * site has no PUBLIC_URL, so its links default to localhost; here the visitor comes by
 * 127.0.0.1): links to the site's own pages, the app after log-in included, keep the visitor's
 * host, where the session cookie is; what is made to be embedded (an email's pictures) loads
 * from the configured one.
 */
import { expect, gotoHydrated, readData, test } from './fixtures.js'

const PASSWORD = 'violet kettle zebra 42'
const { templates } = readData<{ templates: { id: string; name: string }[] }>('generated/email-templates.json')

test('on 127.0.0.1 with no PUBLIC_URL, a visitor logs in and lands in the app on the same host', async ({ page, baseURL, context }) => {
  const origin = baseURL!.replace('//localhost:', '//127.0.0.1:')
  await context.setExtraHTTPHeaders({ 'X-Forwarded-For': `10.77.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}` })
  const email = `other-host-${Date.now().toString(36)}-${process.pid}@example.com`
  const created = await page.request.post(`${origin}/app/api/v1/users/register`, { data: { email, password: PASSWORD }, headers: { Origin: baseURL! } })
  expect(created.status()).toBe(201)
  expect((await created.json()).login_url).toBe('/app/')
  await context.clearCookies()

  await gotoHydrated(page, `${origin}/login/`)
  const form = page.locator('main form.auth-form')
  await form.getByLabel('Email').fill(email)
  await form.getByLabel('Password').fill(PASSWORD)
  await form.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(`${origin}/app/`)
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible()
})

test('on 127.0.0.1 with no PUBLIC_URL, an email template\'s pictures all load in its preview', async ({ page, baseURL }) => {
  const origin = baseURL!.replace('//localhost:', '//127.0.0.1:')
  const template = templates.find((candidate) => candidate.name === 'Claim your coupon')!
  await page.goto(`${origin}/e/${template.id}`)
  const frame = page.frameLocator('.preview-frame').first()
  await expect(frame.locator('body')).not.toBeEmpty()
  const pictures = frame.locator('img')
  expect(await pictures.count()).toBeGreaterThan(0)
  await expect
    .poll(() => pictures.evaluateAll((images) => images.filter((image) => !(image as HTMLImageElement).complete || (image as HTMLImageElement).naturalWidth === 0).length))
    .toBe(0)
})
