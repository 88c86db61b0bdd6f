/**
 * `npm run lighthouse`: Lighthouse (mobile defaults) on the built site in Chromium (`CHROME_PATH`, Debian's, or Playwright's), for
 * one page of each type (scripts/lib/page-types.ts; arguments name some of them, by path or
 * name, or give other paths). Each page is measured
 * LIGHTHOUSE_RUNS times (default 3) and the run with the median performance score is reported,
 * as Lighthouse's own guidance suggests for noisy machines. Reports go to .lighthouse/.
 * Exits 1 when a score is under its target.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse, { type RunnerResult } from 'lighthouse'
import { chromium } from '@playwright/test'
import { browserPath, MEASURING_FLAGS } from './lib/browser.js'
import { pageTypes } from './lib/page-types.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const wanted = process.argv.slice(2)
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3)
const TARGETS = { performance: 98, accessibility: 100, 'best-practices': 100, seo: 100 } as const
const reportDir = path.join(root, '.lighthouse')

const port = Number(process.env.LIGHTHOUSE_PORT ?? 3301)
const site = spawn(process.execPath, ['dist/server/main.js'], {
  cwd: root,
  // PUBLIC_URL matches the address Lighthouse opens, so canonical links point at the same host.
  env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', PUBLIC_URL: `http://localhost:${port}` },
  stdio: ['ignore', 'ignore', 'inherit'],
})
for (let attempt = 0; ; attempt++) {
  const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((res) => res.ok, () => false)
  if (ok) break
  if (attempt > 100) throw new Error('site did not start')
  await new Promise((resolve) => setTimeout(resolve, 100))
}

const chrome = await chromeLauncher.launch({
  chromePath: browserPath() ?? chromium.executablePath(),
  chromeFlags: ['--headless=new', ...MEASURING_FLAGS],
})

/** Loads a page and every image on demand it refers to (both card formats), four at a time. */
async function warm(url: string): Promise<void> {
  const html = await (await fetch(url)).text()
  const found = new Set<string>()
  for (const [, value] of html.matchAll(/(?:src|srcSet|srcset)="([^"]+)"/g)) {
    for (const candidate of value!.replaceAll('&amp;', '&').split(',')) {
      const address = candidate.trim().split(/\s+/)[0]!
      if (/^\/(thumbnails|giffer)\//.test(address)) found.add(address)
    }
  }
  for (const address of [...found]) if (address.startsWith('/thumbnails/') && address.includes('.webp')) found.add(address.replace('.webp', '.avif'))
  const queue = [...found]
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let address = queue.shift(); address; address = queue.shift()) await fetch(new URL(address, url)).then((response) => response.arrayBuffer())
    }),
  )
}

fs.mkdirSync(reportDir, { recursive: true })
let failed = false
try {
  const known = await pageTypes(`http://127.0.0.1:${port}`, wanted)
  const paths = [...known.map((page) => page.path), ...wanted.filter((item) => item.startsWith('/') && !known.some((page) => page.path === item))]
  for (const pathname of paths) {
    const url = `http://localhost:${port}${pathname}`
    // Warm the page cache and the images drawn on demand (card sizes, text previews), as
    // production traffic and a CDN would have: a cold first encode is not the page's cost.
    await warm(url)
    const runs: RunnerResult[] = []
    for (let attempt = 0; runs.length < RUNS && attempt < RUNS * 2; attempt++) {
      const run = await lighthouse(url, { port: chrome.port, output: ['html', 'json'], logLevel: 'error' })
      // A run whose trace broke (NO_NAVSTART and the like) says nothing about the page: run again.
      if (run && !run.lhr.runtimeError) runs.push(run)
    }
    if (runs.length === 0) throw new Error(`no Lighthouse result for ${url}`)
    runs.sort((a, b) => (a.lhr.categories.performance?.score ?? 0) - (b.lhr.categories.performance?.score ?? 0))
    const result = runs[Math.floor(runs.length / 2)]!
    const scores = Object.fromEntries(
      Object.keys(TARGETS).map((category) => [category, Math.round((result.lhr.categories[category]?.score ?? 0) * 100)]),
    ) as Record<keyof typeof TARGETS, number>
    const misses = (Object.keys(TARGETS) as (keyof typeof TARGETS)[]).filter((category) => scores[category] < TARGETS[category])
    if (misses.length) failed = true
    const audits = result.lhr.audits
    console.log(
      `${pathname.padEnd(38)} performance ${scores.performance}  accessibility ${scores.accessibility}  best-practices ${scores['best-practices']}  seo ${scores.seo}` +
        `   FCP ${audits['first-contentful-paint']?.displayValue}  LCP ${audits['largest-contentful-paint']?.displayValue}  TBT ${audits['total-blocking-time']?.displayValue}  CLS ${audits['cumulative-layout-shift']?.displayValue}` +
        `   (median of ${runs.length}: ${runs.map((run) => Math.round((run.lhr.categories.performance?.score ?? 0) * 100)).join(', ')})` +
        (misses.length ? `   below target: ${misses.join(', ')}` : ''),
    )
    for (const [id, audit] of Object.entries(audits)) {
      if (audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary') console.log(`    failing audit: ${id} — ${audit.title}`)
    }
    const [html, json] = result.report as string[]
    const name = pathname.replace(/\W+/g, '_').replace(/^_|_$/g, '') || 'home'
    fs.writeFileSync(path.join(reportDir, `${name}.html`), html!)
    fs.writeFileSync(path.join(reportDir, `${name}.json`), json!)
  }
} finally {
  chrome.kill()
  site.kill()
}
process.exit(failed ? 1 : 0)
