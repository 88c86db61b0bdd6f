/**
 * `npx tsx scripts/measure-generators.ts`: per generator, the time from a click on its submit
 * button to the result drawn in the page (image decoded, or subject lines on screen), in
 * Chromium on the built site with the local image service and dashboard; median of 7 runs.
 * Each run changes a setting so no answer comes from a cache.
 */
import { chromium, type Page } from '@playwright/test'
import sharp from 'sharp'
import { browserPath } from './lib/browser.js'
import { startSite, stop } from './lib/server-process.js'

const RUNS = 7

interface Generator {
  name: string
  path: string
  /** Changes the form for run `n`. */
  prepare(page: Page, n: number): Promise<void>
  /** Resolves in the page when the result is drawn. */
  done: string
}

const imageDrawn = (selector: string) => `new Promise((resolve) => {
  const check = () => {
    const image = document.querySelector(${JSON.stringify(selector)})
    if (image && image.complete && image.naturalWidth > 0 && !document.querySelector('.generator-result[aria-busy="true"]')) image.decode().then(resolve, resolve)
    else requestAnimationFrame(check)
  }
  check()
})`

const generators: Generator[] = [
  {
    name: 'countdown',
    path: '/email-countdown-timer-generator/',
    prepare: (page, n) => page.getByLabel('Time left').fill(String(3 + n)),
    done: imageDrawn('.generator-result img.result-image'),
  },
  {
    name: 'scrolling text',
    path: '/email-scrolling-text-gif-generator/',
    prepare: (page, n) => page.getByLabel('Text', { exact: true }).fill(`Free shipping this week, order ${n}`),
    done: imageDrawn('.generator-result img.result-image'),
  },
  {
    name: 'text image (first card)',
    path: '/calligraphy-text-generator/',
    prepare: (page, n) => page.getByLabel('Your text', { exact: true }).fill(`Happy Birthday ${n}`),
    done: `new Promise((resolve) => { const check = () => (document.querySelector('.text-image-card.is-ok img[src*="Happy+Birthday+"]') && document.querySelector('.generator-form button[type=submit]').textContent !== 'Drawing…' ? resolve() : requestAnimationFrame(check)); check() })`,
  },
  {
    name: 'subject lines',
    path: '/ai-subject-line-generator/',
    prepare: (page, n) => page.getByLabel('What is your email about?').fill(`Spring sale number ${n}`),
    done: `new Promise((resolve) => { const check = () => (document.querySelector('.subject-row') && !document.querySelector('.generator-result[aria-busy="true"]') ? resolve() : requestAnimationFrame(check)); check() })`,
  },
]

const site = await startSite({ LOG_LEVEL: 'warn' })
const browser = await chromium.launch({ executablePath: browserPath(), args: ['--no-sandbox', '--disable-background-networking'] })
const rows: string[] = []
try {
  for (const generator of generators) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await page.goto(`http://127.0.0.1:${site.port}${generator.path}`, { waitUntil: 'networkidle' })
    await page.waitForFunction(() => Object.keys(document.querySelector('.generator-form button[type=submit]')!).some((key) => key.startsWith('__reactProps')))
    const times: number[] = []
    for (let n = 0; n < RUNS; n++) {
      await generator.prepare(page, n)
      const started = await page.evaluate(() => performance.now())
      await page.locator('.generator-form button[type=submit]').click()
      await page.evaluate(generator.done)
      times.push((await page.evaluate(() => performance.now())) - started)
    }
    times.sort((a, b) => a - b)
    rows.push(`${generator.name.padEnd(24)} median ${times[Math.floor(RUNS / 2)]!.toFixed(0)} ms, slowest ${times.at(-1)!.toFixed(0)} ms`)
    await page.close()
  }

  // The slideshow: three photos uploaded, then the GIF.
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await page.goto(`http://127.0.0.1:${site.port}/image-slideshow-gif-generator/`, { waitUntil: 'networkidle' })
  const photos = await Promise.all(
    ['#e11d48', '#0ea5e9', '#22c55e'].map(async (background, index) => ({
      name: `photo-${index}.png`,
      mimeType: 'image/png',
      buffer: await sharp({ create: { width: 900, height: 900, channels: 3, background } }).png().toBuffer(),
    })),
  )
  await page.locator('input[type=file]').setInputFiles(photos)
  await page.waitForFunction(() => document.querySelectorAll('.upload-card').length === 3 && !document.querySelector('.upload-card.is-loading, .upload-card[aria-busy="true"]'))
  const times: number[] = []
  for (let n = 0; n < 3; n++) {
    const started = await page.evaluate(() => performance.now())
    await page.locator('.generator-form button[type=submit]').click()
    await page.waitForTimeout(50)
    await page.evaluate(imageDrawn('.generator-result img.result-image'))
    times.push((await page.evaluate(() => performance.now())) - started)
  }
  times.sort((a, b) => a - b)
  rows.push(`${'slideshow (3 photos)'.padEnd(24)} median ${times[1]!.toFixed(0)} ms, slowest ${times.at(-1)!.toFixed(0)} ms`)
} finally {
  await browser.close()
  await stop(site.child)
}
console.log(`submit → result drawn (built site, median of ${RUNS} runs; slideshow 3):\n${rows.join('\n')}`)
