/**
 * `npm run videos`: records the short "see how it works" video of each generator page: the
 * built site in Chromium, a scripted visitor filling the form and getting the result, captured
 * as screenshots and encoded to WebM (VP9) with ffmpeg, plus a poster image. Written to
 * public/videos/; commit them. Needs ffmpeg (`apt-get install ffmpeg`); the site never does.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type Page } from '@playwright/test'
import sharp from 'sharp'
import { browserPath } from './lib/browser.js'
import { root, startSite, stop } from './lib/server-process.js'
import { generatedDir } from '../server/project-root.js'

const FPS = 8
const VIEWPORT = { width: 1100, height: 720 }
const outDir = path.join(root, 'public', 'videos')

interface Recording {
  name: string
  path: string
  play(page: Page): Promise<void>
}

const pause = (page: Page, ms: number) => page.waitForTimeout(ms)
const type = (page: Page, label: string, text: string) => page.getByLabel(label, { exact: true }).pressSequentially(text, { delay: 70 })

const recordings: Recording[] = [
  {
    name: 'countdown',
    path: '/email-countdown-timer-generator/',
    async play(page) {
      await page.locator('.quick-picks button').nth(1).click()
      await pause(page, 700)
      await page.getByLabel('Digits color').evaluate((input: HTMLInputElement) => {
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, '#ffffff')
        input.dispatchEvent(new Event('input', { bubbles: true }))
      })
      await page.getByLabel('Background').evaluate((input: HTMLInputElement) => {
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, '#1e1b4b')
        input.dispatchEvent(new Event('input', { bubbles: true }))
      })
      await pause(page, 500)
      await page.locator('.generator-form button[type=submit]').click()
      await page.locator('.generator-result img.result-image').waitFor()
      await page.locator('.generator-result').scrollIntoViewIfNeeded()
      await pause(page, 2500)
    },
  },
  {
    name: 'scrolling-text',
    path: '/email-scrolling-text-gif-generator/',
    async play(page) {
      await page.getByLabel('Text', { exact: true }).fill('')
      await type(page, 'Text', 'Summer sale: 30% off')
      await page.getByRole('button', { name: 'Gift icon' }).click()
      await pause(page, 500)
      await page.locator('.generator-form button[type=submit]').click()
      await page.locator('.generator-result img.result-image').waitFor()
      await pause(page, 3000)
    },
  },
  {
    name: 'text-image',
    path: '/calligraphy-text-generator/',
    async play(page) {
      await page.getByLabel('Your text', { exact: true }).fill('')
      await type(page, 'Your text', 'Thank you, Anna')
      await page.getByRole('radio', { name: /^Calligraphy/ }).check()
      await pause(page, 400)
      await page.locator('.generator-form button[type=submit]').click()
      await page.locator('.text-image-card.is-ok').first().waitFor()
      await page.locator('.text-image-result').scrollIntoViewIfNeeded()
      await pause(page, 1200)
      await page.mouse.wheel(0, 500)
      await pause(page, 1500)
    },
  },
  {
    name: 'subject-lines',
    path: '/ai-subject-line-generator/',
    async play(page) {
      await type(page, 'What is your email about?', 'Spring sandals, 25% off this weekend')
      await page.getByLabel('Industry').selectOption('fashion')
      await page.getByLabel('Tone').selectOption('playful')
      await page.getByLabel('Add emoji').check()
      await pause(page, 400)
      await page.locator('.generator-form button[type=submit]').click()
      await page.locator('.subject-row').first().waitFor()
      await page.locator('.generator-result').scrollIntoViewIfNeeded()
      await pause(page, 3000)
    },
  },
  {
    name: 'slideshow',
    path: '/image-slideshow-gif-generator/',
    async play(page) {
      // Three of the product photos the email templates use stand in for the visitor's own.
      const photos = ['hero-beach', 'hero-mountains', 'hero-flowers'].map((name) => path.join(generatedDir, 'emails', 'assets', `${name}.png`))
      await page.locator('#slideshow-files').setInputFiles(photos)
      await page.locator('.upload-card').nth(2).waitFor()
      await page.waitForFunction(() => document.querySelectorAll('.upload-card.is-loading').length === 0)
      await pause(page, 800)
      await page.locator('.upload-card-handle').first().focus()
      await page.keyboard.press('ArrowRight')
      await pause(page, 800)
      await page.locator('.generator-form button[type=submit]').click()
      await page.locator('.slideshow-result img').waitFor()
      await page.locator('.generator-result').scrollIntoViewIfNeeded()
      await pause(page, 3000)
    },
  },
]

if (!fs.existsSync(path.join(root, 'dist/server/main.js'))) {
  console.error('Build first: npm run build')
  process.exit(1)
}
execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' })
fs.mkdirSync(outDir, { recursive: true })

const site = await startSite({ LOG_LEVEL: 'warn' })
const browser = await chromium.launch({ executablePath: browserPath(), args: ['--no-sandbox', '--disable-background-networking'] })
try {
  // `npm run videos -- countdown` records only the named ones.
  const wanted = process.argv.slice(2)
  for (const recording of recordings.filter((each) => wanted.length === 0 || wanted.includes(each.name))) {
    const frames = fs.mkdtempSync(path.join(os.tmpdir(), `video-${recording.name}-`))
    const page = await browser.newPage({ viewport: VIEWPORT })
    page.setDefaultTimeout(20_000)
    await page.goto(`http://127.0.0.1:${site.port}${recording.path}`, { waitUntil: 'networkidle' })
    await page.waitForFunction(() => Object.keys(document.querySelector('.generator-form button[type=submit]')!).some((key) => key.startsWith('__reactProps')))
    await page.locator('.generator-tool').evaluate((tool) => window.scrollTo(0, tool.getBoundingClientRect().top + window.scrollY - 16))
    // Frames are taken at a steady rate while the visitor acts; each is one video frame.
    let count = 0
    let capturing = true
    const capture = (async () => {
      while (capturing) {
        const started = Date.now()
        await page.screenshot({ path: path.join(frames, `${String(count++).padStart(4, '0')}.jpg`), type: 'jpeg', quality: 85 })
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 / FPS - (Date.now() - started))))
      }
    })()
    try {
      await pause(page, 600)
      await recording.play(page)
    } finally {
      capturing = false
      await capture
    }
    await page.close()
    const video = path.join(outDir, `${recording.name}.webm`)
    execFileSync('ffmpeg', ['-y', '-loglevel', 'error', '-framerate', String(FPS), '-i', path.join(frames, '%04d.jpg'), '-c:v', 'libvpx-vp9', '-b:v', '0', '-crf', '42', '-row-mt', '1', '-pix_fmt', 'yuv420p', '-an', video])
    await sharp(path.join(frames, `${String(count - 1).padStart(4, '0')}.jpg`)).resize({ width: 960 }).webp({ quality: 70 }).toFile(path.join(outDir, `${recording.name}.webp`))
    fs.rmSync(frames, { recursive: true, force: true })
    console.log(`${recording.name}: ${count} frames, ${Math.round(fs.statSync(video).size / 1024)} KB`)
  }
} finally {
  await browser.close()
  await stop(site.child)
}
