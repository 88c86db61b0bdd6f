import type { BrowserContext, Page } from '@playwright/test'
import { expect, gotoHydrated, test } from './fixtures.js'

/** The traffic cookies as the browser holds them after a page view has been reported. */
async function trafficCookies(context: BrowserContext) {
  const jar = Object.fromEntries((await context.cookies()).map((cookie) => [cookie.name, cookie]))
  return {
    traffic: jar.pl_traffic ? JSON.parse(decodeURIComponent(jar.pl_traffic.value)) : undefined,
    session: jar.pl_session ? JSON.parse(decodeURIComponent(jar.pl_session.value)) : undefined,
    ref: jar.pl_ref,
    raw: jar,
  }
}

/** Opens a page and waits for its view to be reported. */
async function visit(page: Page, url: string, referer?: string) {
  const reported = page.waitForResponse((response) => response.url().endsWith('/track/visit') && response.request().method() === 'POST')
  const answer = await page.goto(url, referer ? { referer } : undefined)
  expect(answer?.headers()['set-cookie']).toBeUndefined()
  expect((await reported).status()).toBe(204)
  return answer!
}

test.describe('traffic cookies', () => {
  test('a landing with UTM tags: the page sets nothing itself, its report sets the same cookies as ever', async ({ page, context }) => {
    const answer = await visit(page, '/pricing/?utm_source=newsletter&utm_medium=email&utm_campaign=autumn')
    expect(answer.headers()['cache-control']).toContain('s-maxage=')
    const { traffic, session, raw } = await trafficCookies(context)
    expect(traffic.first).toMatchObject({ type: 'utm', source: 'newsletter', medium: 'email', campaign: 'autumn' })
    expect(traffic.firstVisit.entry).toBe('/pricing/?utm_source=newsletter&utm_medium=email&utm_campaign=autumn')
    expect(traffic.visits).toBe(1)
    expect(traffic.promo).toBeGreaterThanOrEqual(100000)
    expect(session).toEqual({ pages: 1 })
    expect(raw.pl_traffic!.sameSite).toBe('Lax')
    expect(raw.pl_traffic!.httpOnly).toBe(false)
    expect(raw.pl_traffic!.expires - Date.now() / 1000).toBeGreaterThan(179 * 86400)
    expect(raw.pl_session!.expires - Date.now() / 1000).toBeLessThanOrEqual(1800)
    // Sign-up reads them from the page.
    expect(await page.evaluate(() => document.cookie)).toContain('pl_traffic=')
  })

  test('a landing from a search engine is organic; client navigations count as pages of the same visit', async ({ page, context }) => {
    await visit(page, '/blog/', 'https://www.google.com/')
    expect((await trafficCookies(context)).traffic.first).toMatchObject({ type: 'organic', source: 'google' })
    await gotoHydrated(page, '/blog/')
    const reported = page.waitForResponse((response) => response.url().endsWith('/track/visit'))
    await page.getByRole('link', { name: 'Pricing', exact: true }).first().click()
    await expect(page).toHaveURL('/pricing/')
    await reported
    const { traffic, session } = await trafficCookies(context)
    expect(session.pages).toBeGreaterThanOrEqual(3)
    expect(traffic.visits).toBe(1)
    expect(traffic.first).toMatchObject({ type: 'organic', source: 'google' })
  })

  test('a partner link is remembered for 60 days', async ({ page, context }) => {
    await visit(page, '/?ref=partner_42')
    const { ref } = await trafficCookies(context)
    expect(ref?.value).toBe('partner_42')
    expect(ref!.expires - Date.now() / 1000).toBeGreaterThan(59 * 86400)
  })

  test('without scripts the page’s image reports the view', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    const pixel = page.waitForResponse((response) => response.url().endsWith('/track/visit.gif'))
    await page.goto('/faq/?utm_source=print')
    expect((await pixel).status()).toBe(200)
    const { traffic } = await trafficCookies(context)
    expect(traffic.first).toMatchObject({ type: 'utm', source: 'print' })
    expect(traffic.firstVisit.entry).toBe('/faq/?utm_source=print')
    await context.close()
  })

  test('a page kept for visitor A carries nothing of A to visitor B', async ({ browser }) => {
    const a = await browser.newContext()
    const pageA = await a.newPage()
    await visit(pageA, '/about/?utm_source=visitor_a&ref=partner_a')
    const cookiesA = (await a.cookies()).map((cookie) => cookie.value).join(' ')
    const b = await browser.newContext()
    const pageB = await b.newPage()
    const answer = await visit(pageB, '/about/?utm_source=visitor_a&ref=partner_a')
    // The same URL from the page cache: the bytes are the same, nothing of A's cookies in them.
    expect(answer.headers()['server-timing']).toContain('cache')
    const html = await answer.text()
    const promoA = /"promo":(\d+)/.exec(decodeURIComponent(cookiesA))![1]!
    expect(html).not.toContain(promoA)
    expect((await trafficCookies(b)).traffic.promo).not.toBe(Number(promoA))
    await a.close()
    await b.close()
  })
})
