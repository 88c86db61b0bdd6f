import type { Page } from '@playwright/test'
import { expect, gotoHydrated, test } from './fixtures.js'

const PASSWORD = 'violet kettle zebra 42'

let counter = 0
/** An address no other test uses, so tests can run in any order against one server. */
const freshEmail = () => `visitor-${Date.now().toString(36)}-${process.pid}-${counter++}@example.com`

/**
 * Each test comes from its own address (the server trusts X-Forwarded-For from loopback), so the
 * per-address limits on log-in and sign-up never mix tests up.
 */
test.beforeEach(async ({ context }) => {
  const octet = () => 1 + Math.floor(Math.random() * 250)
  await context.setExtraHTTPHeaders({ 'X-Forwarded-For': `10.${octet()}.${octet()}.${octet()}` })
})

/** Creates an account through the API, as the sign-up form would. */
async function createAccount(page: Page, email = freshEmail(), password = PASSWORD) {
  const response = await page.request.post('/app/api/v1/users/register', {
    data: { email, password },
    headers: { Origin: new URL(page.url() === 'about:blank' ? 'http://localhost:3210' : page.url()).origin },
  })
  expect(response.status()).toBe(201)
  await page.context().clearCookies()
  return { email, password }
}

/** Calls made to the dashboard API, to prove that nothing was sent. */
function recordApiCalls(page: Page): string[] {
  const calls: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/app/api/') && request.method() === 'POST') calls.push(request.url())
  })
  return calls
}

const form = (page: Page) => page.locator('main form.auth-form')
const emailField = (page: Page) => form(page).getByLabel('Email')
const passwordField = (page: Page) => form(page).getByLabel(/^(New password|Password)$/)
const alert = (page: Page) => form(page).getByRole('alert')

test.describe('log-in form', () => {
  test('an empty submit sends nothing, says "Email is required" and marks every empty field', async ({ page }) => {
    await gotoHydrated(page, '/login/')
    const calls = recordApiCalls(page)
    await form(page).getByRole('button', { name: 'Log in' }).click()
    await expect(alert(page)).toHaveText('Email is required')
    await expect(emailField(page)).toHaveAttribute('aria-invalid', 'true')
    await expect(passwordField(page)).toHaveAttribute('aria-invalid', 'true')
    expect(calls).toEqual([])
  })

  test('a wrong password shows the server message; editing a field clears it', async ({ page, consoleGuard }) => {
    consoleGuard.allow(/status of 401/)
    await page.goto('/login/')
    const { email } = await createAccount(page)
    await gotoHydrated(page, '/login/')
    await emailField(page).fill(email)
    await passwordField(page).fill('not the password at all')
    await form(page).getByRole('button', { name: 'Log in' }).click()
    await expect(alert(page)).toHaveText('Incorrect email or password.')
    await passwordField(page).fill('something else')
    await expect(alert(page)).toHaveCount(0)
  })

  test('while loading the button is disabled, says so, and further submits are ignored', async ({ page }) => {
    await page.goto('/login/')
    const { email } = await createAccount(page)
    await gotoHydrated(page, '/login/')
    const calls = recordApiCalls(page)
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/app/api/v1/users/login*', async (route) => {
      await held
      await route.continue()
    })
    await emailField(page).fill(email)
    await passwordField(page).fill(PASSWORD)
    await passwordField(page).press('Enter')
    const button = form(page).getByRole('button', { name: 'Logging in…' })
    await expect(button).toBeDisabled()
    await passwordField(page).press('Enter')
    await form(page).evaluate((element: HTMLFormElement) => element.requestSubmit())
    release()
    await page.waitForURL('**/app/')
    expect(calls).toHaveLength(1)
  })

  test('an answer without a message shows "Server error"', async ({ page, consoleGuard }) => {
    consoleGuard.allow(/status of 500/)
    await gotoHydrated(page, '/login/')
    await page.route('**/app/api/v1/users/login*', (route) => route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>oops</h1>' }))
    await emailField(page).fill('someone@example.com')
    await passwordField(page).fill(PASSWORD)
    await form(page).getByRole('button', { name: 'Log in' }).click()
    await expect(alert(page)).toHaveText('Server error')
    await expect(form(page).getByRole('button', { name: 'Log in' })).toBeEnabled()
  })

  test('logs in, lands on the app, and the site then knows the visitor is logged in', async ({ page }) => {
    await page.goto('/login/')
    const { email } = await createAccount(page)
    await gotoHydrated(page, '/login/')
    await emailField(page).fill(email)
    await passwordField(page).fill(PASSWORD)
    await form(page).getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL('**/app/')
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible()
    expect(await page.evaluate(() => sessionStorage.getItem('pl_user'))).toContain(email)

    await gotoHydrated(page, '/pricing/')
    const dashboard = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Go to dashboard' })
    await expect(dashboard).toHaveAttribute('href', /\/app\/$/)
    await expect(page.locator('html')).toHaveAttribute('data-has-user', '')

    // Logging out from the app: the site forgets the session at once, not a minute later.
    await page.goto('/app/')
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await gotoHydrated(page, '/pricing/')
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Go to dashboard' })).toHaveCount(0)
    await expect(page.locator('html')).not.toHaveAttribute('data-has-user', '')
  })
})

test.describe('sign-up', () => {
  test('shows the legal text with links to the terms and the privacy policy', async ({ page }) => {
    await gotoHydrated(page, '/start/')
    const legal = form(page).locator('.legal')
    await expect(legal).toContainText('By creating an account you agree to the Terms of Service and the Privacy Policy.')
    await expect(legal.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms/')
    await expect(legal.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy/')
  })

  test('a weak password is refused with the reason, next to nothing sent twice', async ({ page, consoleGuard }) => {
    consoleGuard.allow(/status of 400/)
    await gotoHydrated(page, '/start/')
    await emailField(page).fill(freshEmail())
    await passwordField(page).fill('password')
    await form(page).getByRole('button', { name: 'Create account' }).click()
    await expect(alert(page)).toHaveText('This password is one of the most common leaked passwords. Choose another.')
    await expect(passwordField(page)).toHaveAttribute('aria-invalid', 'true')
  })

  test('signs up from a clone link and comes back to the clone: the template is in the new account', async ({ page }) => {
    await page.goto('/app/clone/wt8mybhg')
    await expect(page).toHaveURL(/\/start\/\?next=%2Fapp%2Fclone%2Fwt8mybhg$/)
    await gotoHydrated(page, page.url())
    const email = freshEmail()
    await emailField(page).fill(email)
    await passwordField(page).fill(PASSWORD)
    const register = page.waitForRequest('**/app/api/v1/users/register')
    await form(page).getByRole('button', { name: 'Create account' }).click()
    const body = (await register).postDataJSON() as { tracking: { context: { clone_id?: string }; cookies: Record<string, string | null> } }
    expect(body.tracking.context.clone_id).toBe('wt8mybhg')
    expect(body.tracking.cookies.pl_traffic).toBeTruthy()
    await page.waitForURL('**/app/')
    await expect(page.getByText('First order 10%')).toBeVisible()
  })
})

test.describe('password reset', () => {
  test('from the request to the mail, the new-password page, and back to log-in', async ({ page, consoleGuard }) => {
    consoleGuard.allow(/status of (400|401)/)
    await page.goto('/reset/')
    const { email } = await createAccount(page)
    await gotoHydrated(page, '/reset/')
    await form(page).getByRole('button', { name: 'Send reset link' }).click()
    await expect(alert(page)).toHaveText('Email is required')
    await emailField(page).fill(email)
    await form(page).getByRole('button', { name: 'Send reset link' }).click()
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible()

    // The local dashboard keeps the mail in its outbox.
    await expect(async () => {
      await page.goto('/app/outbox/')
      await expect(page.locator('article.mail', { hasText: email }).first()).toBeVisible({ timeout: 500 })
    }).toPass({ timeout: 10_000 })
    const mail = await page.locator('article.mail', { hasText: email }).first().locator('pre').textContent()
    const link = /https?:\/\/\S+\/reset\/new\/\?token=[\w-]+/.exec(mail ?? '')?.[0]
    expect(link, 'the mail carries a reset link').toBeTruthy()

    await gotoHydrated(page, new URL(link!).pathname + new URL(link!).search)
    await passwordField(page).fill('short')
    await form(page).getByRole('button', { name: 'Set new password' }).click()
    await expect(alert(page)).toHaveText('Use at least 8 characters.')
    await passwordField(page).fill('amber otter lantern 7')
    await form(page).getByRole('button', { name: 'Set new password' }).click()
    await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible()
    await page.getByRole('link', { name: 'Log in' }).last().click()
    await expect(page).toHaveURL(/\/login\/$/)
    await gotoHydrated(page, '/login/')

    await emailField(page).fill(email)
    await passwordField(page).fill(PASSWORD)
    await form(page).getByRole('button', { name: 'Log in' }).click()
    await expect(alert(page)).toHaveText('Incorrect email or password.')
    await passwordField(page).fill('amber otter lantern 7')
    await form(page).getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL('**/app/')

    // The link works once.
    await gotoHydrated(page, new URL(link!).pathname + new URL(link!).search)
    await expect(page.getByText('This reset link has expired or was already used. Ask for a new one below.')).toBeVisible()
  })
})

test.describe('overlays', () => {
  test('Log in opens over the page: focus inside and kept there, Escape closes and focus returns', async ({ page }) => {
    await gotoHydrated(page, '/pricing/')
    const opener = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' })
    await opener.click()
    const dialog = page.getByRole('dialog', { name: 'Log in to Poplift' })
    await expect(dialog).toBeVisible()
    await expect(page).toHaveURL(/\/pricing\/$/)
    // The page behind is inert while the dialog is open.
    expect(await page.evaluate(() => document.querySelector('dialog')?.matches(':modal'))).toBe(true)

    for (let presses = 0; presses < 12; presses++) {
      await page.keyboard.press('Tab')
      expect(await dialog.evaluate((element) => element.contains(document.activeElement)), `focus inside after ${presses + 1} Tab`).toBe(true)
    }
    await page.keyboard.press('Shift+Tab')
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true)

    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(opener).toBeFocused()
  })

  test('the close button closes; sign-up opens from Get started and switches to log-in inside', async ({ page }) => {
    await gotoHydrated(page, '/')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Get started free' }).click()
    const signup = page.getByRole('dialog', { name: 'Create your free account' })
    await expect(signup).toBeVisible()
    await expect(signup.getByText('By creating an account you agree to the Terms of Service and the Privacy Policy.')).toBeVisible()
    await signup.getByRole('button', { name: 'Log in' }).click()
    const login = page.getByRole('dialog', { name: 'Log in to Poplift' })
    await expect(login).toBeVisible()
    await login.getByRole('button', { name: 'Close' }).click()
    await expect(login).toBeHidden()
  })

  test('signs up inside the overlay and lands on the app', async ({ page }) => {
    await gotoHydrated(page, '/')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Get started free' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create your free account' })
    const email = freshEmail()
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByLabel('Password').fill(PASSWORD)
    await dialog.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL('**/app/')
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible()
  })
})

test.describe('social sign-in', () => {
  test('the popup signs the visitor up and the page goes on to the app', async ({ page, context }) => {
    await gotoHydrated(page, '/start/')
    const popupOpened = context.waitForEvent('page')
    await page.getByRole('link', { name: 'Continue with Google' }).click()
    const popup = await popupOpened
    await popup.waitForLoadState()
    const email = freshEmail()
    await popup.getByLabel('Or use another email').fill(email)
    await popup.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL('**/app/')
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible()
  })

  test('with popups blocked, the provider opens in the same tab and goes on to the app', async ({ page }) => {
    await page.addInitScript(() => {
      window.open = () => null
    })
    await gotoHydrated(page, '/start/')
    await page.getByRole('link', { name: 'Continue with Google' }).click()
    await expect(page.getByRole('heading', { name: 'Sign up with Google' })).toBeVisible()
    const email = freshEmail()
    await page.getByLabel('Or use another email').fill(email)
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL('**/app/')
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible()
  })

  test('a signupComplete message from anything but the opened popup is ignored', async ({ page }) => {
    await gotoHydrated(page, '/start/')
    await page.evaluate(() => {
      window.postMessage({ type: 'signupComplete', user: { id: 1 }, login_url: 'https://evil.example/', backend: 'google-oauth2', is_new: true }, '*')
    })
    await page.waitForTimeout(300)
    await expect(page).toHaveURL(/\/start\/$/)
  })
})

test.describe('next', () => {
  for (const vector of [
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    '/%5Cevil.example',
    'https:evil.example',
    'javascript:alert(1)',
    '/app/\r\nLocation: https://evil.example',
  ]) {
    test(`refuses ${JSON.stringify(vector)} and goes to the app instead`, async ({ page }) => {
      await page.goto('/login/')
      const { email } = await createAccount(page)
      await gotoHydrated(page, `/login/?next=${encodeURIComponent(vector)}`)
      await emailField(page).fill(email)
      await passwordField(page).fill(PASSWORD)
      await form(page).getByRole('button', { name: 'Log in' }).click()
      await page.waitForURL((url) => url.pathname === '/app/')
      expect(new URL(page.url()).host).toBe(new URL(page.url()).host)
      expect(page.url()).not.toContain('evil')
    })
  }

  test('a next kept in session storage is used when the URL has none', async ({ page }) => {
    await page.goto('/login/')
    const { email } = await createAccount(page)
    await gotoHydrated(page, '/login/?next=%2Fapp%2Fclone%2F9iinjkia')
    await gotoHydrated(page, '/login/')
    await emailField(page).fill(email)
    await passwordField(page).fill(PASSWORD)
    await form(page).getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL('**/app/')
    // The app home lists the cloned template by its name.
    await expect(page.getByText('Haunted countdown')).toBeVisible()
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the log-in form posts to its page, which answers in the right state', async ({ page, consoleGuard }) => {
    // The page answering a refused form carries the refusal's status.
    consoleGuard.allow(/status of (400|401)/)
    await page.goto('/login/')
    await form(page).getByRole('button', { name: 'Log in' }).click()
    await expect(alert(page)).toHaveText('Email is required')
    await expect(emailField(page)).toHaveAttribute('aria-invalid', 'true')

    const { email } = await createAccount(page)
    await page.goto('/login/?next=%2Fapp%2Fclone%2F82vlsm4q')
    await emailField(page).fill(email)
    await passwordField(page).fill('wrong password here')
    await form(page).getByRole('button', { name: 'Log in' }).click()
    await expect(alert(page)).toHaveText('Incorrect email or password.')
    await expect(emailField(page)).toHaveValue(email)
    await passwordField(page).fill(PASSWORD)
    await form(page).getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL('**/app/')
    await expect(page.getByText('Monster mash party')).toBeVisible()
  })

  test('the reset form says "Check your email"', async ({ page }) => {
    await page.goto('/reset/')
    await emailField(page).fill(freshEmail())
    await form(page).getByRole('button', { name: 'Send reset link' }).click()
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible()
  })
})
