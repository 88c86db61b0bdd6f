/**
 * `npm run lighthouse`: Lighthouse (mobile defaults) on the built site in Chromium (`CHROME_PATH`, Debian's, or Playwright's), for
 * one page of each type (scripts/lib/page-types.ts; arguments name some of them, by path or
 * name, or give other paths). Each page is measured
 * LIGHTHOUSE_RUNS times (default 3) and the run with the median performance score is reported,
 * as Lighthouse's own guidance suggests for noisy machines. Reports go to .lighthouse/.
 * Exits 1 when a score is under this build's target.
 *
 * LIGHTHOUSE_BEFORE=<commit> measures that commit's build too (a git worktree, built with this
 * checkout's node_modules), page by page beside this one, so a before and after come from one
 * run on one machine.
 *
 * LIGHTHOUSE_REFERENCE=1 also measures, in the same run, what this machine gives pages that run
 * no script of ours: each page as this build renders it, its scripts taken out (the inline ones and
 * the app; page state and styles kept), and a bare React 19 + React Router 7 page built and
 * hydrated as the site's pages are (the reference of `npm run bench:load`). Both come through a
 * small server in front of this build, on an origin of their own, compressed as the site sends
 * its pages. Their scores are shown, not judged: they say how near the target this machine lets
 * any page come.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse, { type RunnerResult } from 'lighthouse'
import { chromium } from '@playwright/test'
import { browserPath, MEASURING_FLAGS } from './lib/browser.js'
import { makeBarePage } from './bench-load/bare-page.js'
import { addBuiltWorktree, removeOrWarn, type Worktree } from './lib/git-worktree.js'
import { fetchDocument, PageProxy, withoutScripts } from './lib/page-proxy.js'
import { stopOnSignals } from './lib/interruption.js'
import { answersOk, bindable, listensOn, stopChild, track } from './lib/server-process.js'
import { pageTypes } from './lib/page-types.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const wanted = process.argv.slice(2)
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3)
const TARGETS = { performance: 98, accessibility: 100, 'best-practices': 100, seo: 100 } as const
const reportDir = path.join(root, '.lighthouse')

const port = Number(process.env.LIGHTHOUSE_PORT ?? 3301)
/** A commit whose build is measured beside this one, page by page (which goes first alternating), for a before and after. */
const before = process.env.LIGHTHOUSE_BEFORE
/** Whether pages running none of our scripts are measured beside ours, for what this machine allows. */
const withReference = process.env.LIGHTHOUSE_REFERENCE === '1'

interface Site {
  label: string
  port: number
  child: ChildProcess
}

async function startSite(label: string, dir: string, sitePort: number): Promise<Site> {
  // Lighthouse opens localhost, which Chromium tries on ::1 first: a process there would be
  // measured in this site's place, though the site itself could bind 127.0.0.1.
  if (!(await bindable(sitePort))) throw new Error(`${label}: port ${sitePort} is taken (on 127.0.0.1 or ::1); stop what holds it or set LIGHTHOUSE_PORT`)
  // Killed when this process ends, even by a second Ctrl-C that skips the clean-up.
  const child = track(
    spawn(process.execPath, ['dist/server/main.js'], {
      cwd: dir,
      // PUBLIC_URL matches the address Lighthouse opens, so canonical links point at the same host.
      env: { ...process.env, NODE_ENV: 'production', PORT: String(sitePort), HOST: '127.0.0.1', LOG_LEVEL: 'warn', PUBLIC_URL: `http://localhost:${sitePort}`, SHUTDOWN_DELAY_MS: '0' },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  )
  const site = { label, port: sitePort, child }
  // Kept from the start, so that the clean-up stops it even if it never answers.
  sites.push(site)
  for (let attempt = 0; ; attempt++) {
    goOn()
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${label}: the site exited (${child.exitCode ?? child.signalCode}); is port ${sitePort} taken?`)
    if (await answersOk(`http://127.0.0.1:${sitePort}/healthz`)) {
      // Another process answering on the port (a server an earlier run left) would be measured in its place.
      if (listensOn(child.pid, sitePort) === false) throw new Error(`${label}: another process answers on port ${sitePort}`)
      return site
    }
    if (attempt > 100) throw new Error(`${label}: site did not start`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

// Ctrl-C and the like: Chromium closes, the run stops at its next step, its `finally` stops the
// servers and removes the worktree.
const interruption = stopOnSignals(() => chrome?.kill())
const goOn = interruption.goOn

let worktree: Worktree | undefined
const sites: Site[] = []
let chrome: chromeLauncher.LaunchedChrome | undefined
let referenceProxy: PageProxy | undefined
let bareFolder: string | undefined
let barePath: string | undefined

/** How long the page or one image may take to come while warming (a first encode included). */
const WARM_TIMEOUT_MS = 60_000

/** Loads a page and every image on demand it refers to (both card formats), four at a time. */
async function warm(url: string): Promise<void> {
  const signal = () => AbortSignal.any([interruption.signal, AbortSignal.timeout(WARM_TIMEOUT_MS)])
  const html = await (await fetch(url, { signal: signal() })).text()
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
      for (let address = queue.shift(); address; address = queue.shift()) await fetch(new URL(address, url), { signal: signal() }).then((response) => response.arrayBuffer())
    }),
  )
}

/** Lighthouse on a page, RUNS good runs (a run whose trace broke, NO_NAVSTART and the like, says nothing about the page). */
async function measure(url: string): Promise<{ result: RunnerResult; scores: number[] }> {
  const runs: RunnerResult[] = []
  for (let attempt = 0; runs.length < RUNS && attempt < RUNS * 2; attempt++) {
    goOn()
    const run = await lighthouse(url, { port: chrome!.port, output: ['html', 'json'], logLevel: 'error' })
    if (run && !run.lhr.runtimeError) runs.push(run)
  }
  if (runs.length === 0) throw new Error(`no Lighthouse result for ${url}`)
  runs.sort((a, b) => (a.lhr.categories.performance?.score ?? 0) - (b.lhr.categories.performance?.score ?? 0))
  const scores = runs.map((run) => Math.round((run.lhr.categories.performance?.score ?? 0) * 100))
  return { result: runs[Math.floor(runs.length / 2)]!, scores }
}

/** Prints the median run's scores and metrics; says whether every score met its target. */
function report(label: string, pathname: string, { result, scores: runScores }: { result: RunnerResult; scores: number[] }, judged = true): boolean {
  const scores = Object.fromEntries(
    Object.keys(TARGETS).map((category) => [category, Math.round((result.lhr.categories[category]?.score ?? 0) * 100)]),
  ) as Record<keyof typeof TARGETS, number>
  const misses = (Object.keys(TARGETS) as (keyof typeof TARGETS)[]).filter((category) => scores[category] < TARGETS[category])
  const audits = result.lhr.audits
  console.log(
    `${pathname.padEnd(38)} ${sites.length > 1 || withReference ? `${label.padEnd(22)} ` : ''}performance ${scores.performance}  accessibility ${scores.accessibility}  best-practices ${scores['best-practices']}  seo ${scores.seo}` +
      `   FCP ${audits['first-contentful-paint']?.displayValue}  LCP ${audits['largest-contentful-paint']?.displayValue}  TBT ${audits['total-blocking-time']?.displayValue}  CLS ${audits['cumulative-layout-shift']?.displayValue}` +
      `   (median of ${runScores.length}: ${runScores.join(', ')})` +
      (!judged ? '   (reference, not judged)' : misses.length ? `   below target: ${misses.join(', ')}` : ''),
  )
  if (!judged) return true
  for (const [id, audit] of Object.entries(audits)) {
    if (audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary') console.log(`    failing audit: ${id} — ${audit.title}`)
  }
  return misses.length === 0
}

/** A reference row: shown, never judged; one that cannot be measured is said so and the run goes on. */
async function reference(label: string, pathname: string, measuring: () => ReturnType<typeof measure>): Promise<void> {
  try {
    report(label, pathname, await measuring(), false)
  } catch (error) {
    // Chromium closed by a stop: the run ends, nothing to say of the page.
    goOn()
    console.log(`${pathname.padEnd(38)} ${label.padEnd(22)} not measured: ${(error as Error).message}`)
  }
}

fs.mkdirSync(reportDir, { recursive: true })
let failed = false
try {
  worktree = before ? await addBuiltWorktree(before, 'lighthouse-before', interruption.signal) : undefined
  goOn()
  await startSite('this build', root, port)
  if (worktree) await startSite(`before (${before})`, worktree.dir, port + 1)
  if (withReference) {
    // Compressed as the site sends its pages and scripts: Lighthouse's network counts the bytes.
    referenceProxy = await PageProxy.start({ compress: true })
    referenceProxy.forward(`http://127.0.0.1:${port}`)
    // Under node_modules, as bench:load's: a folder left by a run stopped at once stays out of the way.
    fs.mkdirSync(path.join(root, 'node_modules/.cache'), { recursive: true })
    bareFolder = fs.mkdtempSync(path.join(root, 'node_modules/.cache/lighthouse-bare-'))
    try {
      const bare = await makeBarePage(bareFolder)
      for (const [pathname, file] of bare.files) referenceProxy.serveFile(pathname, file)
      referenceProxy.serve({ path: bare.path, status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: bare.html })
      barePath = bare.path
    } catch (error) {
      console.log(`bare React + Router page not measured: building it failed: ${(error as Error).message}`)
    }
  }
  goOn()
  // chrome-launcher's own Ctrl-C handler exits at once, leaving the servers and the worktree behind.
  chrome = await chromeLauncher.launch({ chromePath: browserPath() ?? chromium.executablePath(), chromeFlags: ['--headless=new', ...MEASURING_FLAGS], handleSIGINT: false })
  goOn()
  const known = await pageTypes(`http://127.0.0.1:${port}`, wanted, interruption.signal)
  const paths = [...known.map((page) => page.path), ...wanted.filter((item) => item.startsWith('/') && !known.some((page) => page.path === item))]
  if (referenceProxy && barePath) {
    const url = new URL(barePath, referenceProxy.origin.replace('127.0.0.1', 'localhost')).href
    await reference('bare React + Router', barePath, () => measure(url))
  }
  for (const [index, pathname] of paths.entries()) {
    // Which build goes first alternates, so drift on the machine lands on both alike.
    for (const site of index % 2 ? [...sites].reverse() : sites) {
      goOn()
      const url = `http://localhost:${site.port}${pathname}`
      // Warm the page cache and the images drawn on demand (card sizes, text previews), as
      // production traffic and a CDN would have: a cold first encode is not the page's cost.
      await warm(url)
      const measured = await measure(url)
      const isThisBuild = site.port === port
      if (!report(site.label, pathname, measured) && isThisBuild) failed = true
      if (!isThisBuild) continue
      const [html, json] = measured.result.report as string[]
      const name = pathname.replace(/\W+/g, '_').replace(/^_|_$/g, '') || 'home'
      fs.writeFileSync(path.join(reportDir, `${name}.html`), html!)
      fs.writeFileSync(path.join(reportDir, `${name}.json`), json!)
    }
    if (referenceProxy) {
      const proxy = referenceProxy
      // The page as this build serves it, its scripts taken out, answered from memory on the proxy's origin.
      await reference('without scripts', pathname, async () => {
        proxy.serve(withoutScripts(await fetchDocument(`http://127.0.0.1:${port}${pathname}`)))
        const url = new URL(pathname, proxy.origin.replace('127.0.0.1', 'localhost')).href
        await warm(url)
        return measure(url)
      })
    }
  }
} catch (error) {
  // Stopped by a signal: the clean-up below is what is left to do, and the exit code says why.
  if (!interruption.signal.aborted) throw error
  console.error(`  (as it stopped: ${String((error as Error | undefined)?.message ?? error).split('\n')[0]})`)
} finally {
  // Each step on its own, so that one failing leaves the others done.
  try {
    chrome?.kill()
  } catch (error) {
    console.error(`stopping Chromium: ${(error as Error).message}`)
  }
  await referenceProxy?.close().catch((error: unknown) => console.error(`stopping the reference proxy: ${(error as Error).message}`))
  try {
    if (bareFolder) fs.rmSync(bareFolder, { recursive: true, force: true })
  } catch (error) {
    console.error(`removing ${bareFolder}: ${(error as Error).message}`)
  }
  // Each server stops at once (no shutdown delay); killed after ten seconds.
  const stops = await Promise.allSettled(sites.map(({ child }) => stopChild(child, 'SIGTERM', 10_000)))
  for (const stop of stops) if (stop.status === 'rejected') console.error(`stopping a site: ${(stop.reason as Error).message}`)
  await removeOrWarn(worktree)
}
process.exit(interruption.signal.aborted ? Number(process.exitCode) : failed ? 1 : 0)
