import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from '@playwright/test'
import { expect, test } from './fixtures.js'

/**
 * Serves a page of the site with its HTML cut before the footer: the part before it at once, the
 * rest `stallMs` later, as a slow or stalling connection would. Other addresses answer empty:
 * painting needs nothing but the HTML (its styles are inline).
 */
async function withStalledFooter(html: string, stallMs: number, run: (url: string) => Promise<void>) {
  const cut = html.indexOf('<footer')
  expect(cut, 'the page has a footer').toBeGreaterThan(0)
  const timers = new Set<NodeJS.Timeout>()
  const server = http.createServer((request, response) => {
    if (request.url !== '/') return response.writeHead(204).end()
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.write(html.slice(0, cut))
    timers.add(setTimeout(() => response.end(html.slice(cut)), stallMs))
  })
  server.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
  } finally {
    timers.forEach(clearTimeout)
    server.closeAllConnections()
    server.close()
  }
}

/** When the page first painted, ms after its navigation began (waits for the paint). */
async function firstPaintAt(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(url, { waitUntil: 'commit' })
    return await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            const paint = list.getEntries().find((entry) => entry.name === 'first-paint')
            if (paint) resolve(paint.startTime)
          }).observe({ type: 'paint', buffered: true })
        }),
    )
  } finally {
    await context.close()
  }
}

test.describe('the first paint', () => {
  test('waits until the page has been parsed through its footer', async ({ browser, request }) => {
    const html = await (await request.get('/pricing/')).text()
    await withStalledFooter(html, 1000, async (url) => {
      expect(await firstPaintAt(browser, url)).toBeGreaterThanOrEqual(1000)
    })
  })

  test('comes after 3 s at most when the rest of the page is slow to come', async ({ browser, request }) => {
    test.setTimeout(60_000)
    const html = await (await request.get('/pricing/')).text()
    await withStalledFooter(html, 30_000, async (url) => {
      const paint = await firstPaintAt(browser, url)
      expect(paint).toBeGreaterThanOrEqual(3000)
      // Long before the footer comes; the margin is for a busy test machine.
      expect(paint).toBeLessThan(8000)
    })
  })
})
