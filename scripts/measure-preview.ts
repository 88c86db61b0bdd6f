/**
 * `npx tsx scripts/measure-preview.ts`: the time from a click on a gallery card to the preview
 * drawn (the frame after the dialog opened), in Chromium on the built site; median of 20 clicks.
 */
import { chromium } from '@playwright/test'
import { browserPath } from './lib/browser.js'
import { startSite, stop } from './lib/server-process.js'

const LISTING = process.env.MEASURE_PATH ?? '/p/forms/discounts/'
const CLICKS = 20
const site = await startSite({ LOG_LEVEL: 'warn' })
const browser = await chromium.launch({ executablePath: browserPath(), args: ['--no-sandbox', '--disable-background-networking'] })
const times: number[] = []
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await page.goto(`http://127.0.0.1:${site.port}${LISTING}`, { waitUntil: 'networkidle' })
  await page.waitForFunction(() => Boolean(document.querySelector('.template-card a') && Object.keys(document.querySelector('.template-card a')!).some((key) => key.startsWith('__reactProps'))))
  for (let index = 0; index < CLICKS; index++) {
    const card = page.locator('.gallery-grid .template-card a').nth(index % 6)
    await card.evaluate((link) => {
      const win = window as unknown as { drawn: Promise<number> }
      win.drawn = new Promise((resolve) => {
        const started = performance.now()
        const observer = new MutationObserver(() => {
          if (!document.querySelector('dialog.preview-dialog')) return
          observer.disconnect()
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0))
        })
        observer.observe(document.body, { childList: true, subtree: true })
      })
      ;(link as HTMLElement).click()
    })
    times.push(await page.evaluate(() => (window as unknown as { drawn: Promise<number> }).drawn))
    await page.keyboard.press('Escape')
    await page.waitForSelector('dialog.preview-dialog', { state: 'detached' })
  }
} finally {
  await browser.close()
  await stop(site.child)
}
times.sort((a, b) => a - b)
console.log(`click → preview drawn on ${LISTING}: median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, p90 ${times[Math.floor(times.length * 0.9)]!.toFixed(1)} ms (${CLICKS} clicks)`)
