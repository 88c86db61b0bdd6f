import zlib from 'node:zlib'
import { PREPARED_ERRORS_KEY } from '../../client/react-dom-errors.js'
import { EAGER_COMPILE_HINT } from '../../scripts/lib/client-build.js'
import { pageTypes } from '../../scripts/lib/page-types.js'
import { expect, gotoHydrated, test } from './fixtures.js'

/** What a first visit may download in JavaScript, gzipped, menus script included. */
const JS_BUDGET_KB = 120
/**
 * Module scripts a page may load: the boot script, the app, the bundler's helpers, a feature's
 * shared code and the page's own. Each costs a phone a fetch, a parse and a link at load.
 */
const MAX_MODULE_SCRIPTS = 5

test.describe('the scripts a page loads', () => {
  test('every page type loads at most five module scripts and 120 KB of JavaScript, gzipped, each module marked for compiling as it arrives', async ({ page, baseURL }) => {
    test.setTimeout(120_000)
    const types = await pageTypes(baseURL!)
    const lines: string[] = []
    for (const { name, path } of types) {
      const scripts = new Map<string, Promise<number>>()
      const unmarked: string[] = []
      const onResponse = (response: import('@playwright/test').Response) => {
        const url = new URL(response.url())
        if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) scripts.set(
            url.pathname,
            response.body().then((body) => {
              if (!body.toString('utf8', 0, 64).startsWith(`${EAGER_COMPILE_HINT}\n`)) unmarked.push(url.pathname)
              return zlib.gzipSync(body).length
            }),
          )
      }
      page.on('response', onResponse)
      await gotoHydrated(page, path)
      await page.waitForLoadState('networkidle')
      page.off('response', onResponse)
      const inline = await page.evaluate(() => [...document.querySelectorAll('head script:not([src]):not([type])')].map((script) => script.textContent ?? '').join(''))
      const bytes = (await Promise.all(scripts.values())).reduce((sum, size) => sum + size, 0) + zlib.gzipSync(inline).length
      lines.push(`${name}: ${scripts.size} scripts, ${(bytes / 1024).toFixed(1)} KB`)
      expect(scripts.size, `${name} (${path}): ${[...scripts.keys()].join(', ')}`).toBeLessThanOrEqual(MAX_MODULE_SCRIPTS)
      expect(bytes / 1024, `${name} (${path}) KB of JavaScript, gzipped`).toBeLessThanOrEqual(JS_BUDGET_KB)
      expect(unmarked, `${name} (${path}): modules without the compile hint on their first line`).toEqual([])
      // The inline menus script is compiled as the page is read: only what a tap calls, when it does.
      expect(inline, `${name} (${path}): the inline script`).not.toContain(EAGER_COMPILE_HINT)
    }
    test.info().annotations.push({ type: 'scripts', description: lines.join('; ') })
  })
})

test("the log-in dialog's own code, fetched when it opens, is not marked for compiling as it arrives: only what pages run at start is", async ({ page }) => {
  await gotoHydrated(page, '/pricing/')
  const fetched: Promise<[string, boolean]>[] = []
  page.on('response', (response) => {
    const url = new URL(response.url())
    if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) fetched.push(response.body().then((body) => [url.pathname, body.toString('utf8', 0, 64).startsWith(EAGER_COMPILE_HINT)]))
  })
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }).click()
  await expect(page.getByRole('dialog', { name: 'Log in to Poplift' })).toBeVisible()
  // The form code it shares with the log-in page is one the log-in page runs at start, so that one is marked.
  const dialog = (await Promise.all(fetched)).filter(([file]) => /\/AuthDialog-[\w-]+\.js$/.test(file))
  expect(dialog).toEqual([[expect.stringMatching(/AuthDialog/), false]])
})

test('React DOM takes the five errors it makes as it loads from those the boot script prepared', async ({ page }) => {
  await gotoHydrated(page, '/')
  // The boot script leaves an array of five; each of React DOM's five takes one.
  const left = await page.evaluate((key) => (globalThis as unknown as Record<symbol, unknown[] | undefined>)[Symbol.for(key)]?.length, PREPARED_ERRORS_KEY)
  expect(left).toBe(0)
})
