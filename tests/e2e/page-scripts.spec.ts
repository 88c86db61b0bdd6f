import zlib from 'node:zlib'
import { PREPARED_ERRORS_KEY } from '../../client/react-dom-errors.js'
import { pageTypes } from '../../scripts/lib/page-types.js'
import { expect, gotoHydrated, test } from './fixtures.js'

/** What a first visit may download in JavaScript, gzipped, the inline menus and boot scripts included. */
const JS_BUDGET_KB = 120
/**
 * Module scripts a page may load: the app (the bundler's helpers in it), code the page shares
 * with some others (a feature's, or a blog post's with the blog index) and the page's own. Each costs a phone a fetch, a parse and a link at load.
 */
const MAX_MODULE_SCRIPTS = 3

test.describe('the scripts a page loads', () => {
  test('every page type loads at most three module scripts and 120 KB of JavaScript, gzipped', async ({ page, baseURL }) => {
    test.setTimeout(120_000)
    const types = await pageTypes(baseURL!)
    const lines: string[] = []
    for (const { name, path } of types) {
      const scripts = new Map<string, Promise<number>>()
      const onResponse = (response: import('@playwright/test').Response) => {
        const url = new URL(response.url())
        if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) scripts.set(url.pathname, response.body().then((body) => zlib.gzipSync(body).length))
      }
      page.on('response', onResponse)
      await gotoHydrated(page, path)
      await page.waitForLoadState('networkidle')
      page.off('response', onResponse)
      const inline = await page.evaluate(() => [...document.querySelectorAll('script:not([src]):not([type])')].map((script) => script.textContent ?? '').join(''))
      const bytes = (await Promise.all(scripts.values())).reduce((sum, size) => sum + size, 0) + zlib.gzipSync(inline).length
      lines.push(`${name}: ${scripts.size} scripts, ${(bytes / 1024).toFixed(1)} KB`)
      expect(scripts.size, `${name} (${path}): ${[...scripts.keys()].join(', ')}`).toBeLessThanOrEqual(MAX_MODULE_SCRIPTS)
      expect(bytes / 1024, `${name} (${path}) KB of JavaScript, gzipped`).toBeLessThanOrEqual(JS_BUDGET_KB)
    }
    test.info().annotations.push({ type: 'scripts', description: lines.join('; ') })
  })
})

test('React DOM takes the five errors it makes as it loads from those the boot script prepared', async ({ page }) => {
  await gotoHydrated(page, '/')
  // The boot script leaves an array of five; each of React DOM's five takes one.
  const left = await page.evaluate((key) => (globalThis as unknown as Record<symbol, unknown[] | undefined>)[Symbol.for(key)]?.length, PREPARED_ERRORS_KEY)
  expect(left).toBe(0)
})
