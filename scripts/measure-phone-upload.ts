/**
 * How long ten phone photos take to go up from the slideshow page over a mobile link, before and
 * after the page prepared photos itself: `npx tsx scripts/measure-phone-upload.ts [before-ref]`.
 *
 * Ten 12-megapixel camera photos (each under the 5 MB the page took before) are chosen on the
 * page of each build, in Chromium with its network held to 10 Mbit/s each way and 40 ms of
 * latency; the time is from the choice until every card is ready to draw, with the bytes posted.
 * The earlier build (`before-ref`, the commit before the page prepared photos unless given) is
 * built in a git worktree that shares this checkout's node_modules; this checkout's build must
 * be there (`npm run build`). Each build is measured three times, taking turns; medians.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { chromium, type Browser } from '@playwright/test'
import { browserPath } from './lib/browser.js'
import { twelveMegapixelRoll } from './lib/camera-photos.js'
import { addWorktree, type Worktree } from './lib/git-worktree.js'
import { root, startSite, stop } from './lib/server-process.js'
import { HYDRATION_ELEMENT_ID } from '../shared/site.js'

const exec = promisify(execFile)
const BEFORE = process.argv[2] ?? 'cf4ed91'
const RUNS = 3
const BUILD_TIMEOUT_MS = 5 * 60_000
const LINK = { offline: false, latency: 40, downloadThroughput: 10_000_000 / 8, uploadThroughput: 10_000_000 / 8 }

interface Measure {
  seconds: number
  sentMb: number
}

async function measure(browser: Browser, origin: string, photos: string[]): Promise<Measure> {
  const page = await browser.newPage()
  try {
    await page.goto(`${origin}/image-slideshow-gif-generator/`)
    // Hydrated: the browser tests' check (tests/e2e/fixtures.ts), written inline, where tsx adds no helper to it.
    await page.waitForFunction(
      (id) => [document.querySelector('.site-header .brand'), document.getElementById(id)].every((node) => node !== null && Object.keys(node).some((key) => key.startsWith('__reactProps$'))),
      HYDRATION_ELEMENT_ID,
      { timeout: 20_000 },
    )
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', LINK)
    // The bodies posted, by their Content-Length: Playwright does not hand out a posted file's bytes.
    const posted: Promise<number>[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/giffer/uploads')) posted.push(request.allHeaders().then((headers) => Number(headers['content-length'] ?? NaN)))
    })
    const start = performance.now()
    await page.locator('#slideshow-files').setInputFiles(photos)
    await page.locator('.upload-card-handle').nth(photos.length - 1).waitFor()
    await page.locator('.upload-card.is-loading').first().waitFor({ state: 'detached', timeout: 300_000 })
    const seconds = (performance.now() - start) / 1000
    const sent = (await Promise.all(posted)).reduce((sum, bytes) => sum + bytes, 0)
    return { seconds, sentMb: sent / 2 ** 20 }
  } finally {
    await page.close()
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const dir = await mkdtemp(path.join(os.tmpdir(), 'phone-upload-'))
let before: Worktree | null = null
const sites: Awaited<ReturnType<typeof startSite>>[] = []
try {
  const photos = await twelveMegapixelRoll()
  before = await addWorktree(BEFORE, path.join(dir, 'before'))
  const tree = before.dir
  await exec(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/build.ts'], { cwd: tree, timeout: BUILD_TIMEOUT_MS })
  const env = { LOG_LEVEL: 'warn', UPLOADS_PER_ADDRESS: '100000' }
  const builds = [
    { label: `before (${BEFORE}): photos sent as chosen`, site: await startSite({ ...env, DATA_DIR: path.join(dir, 'data-before') }, tree) },
    { label: 'after: photos prepared in the browser', site: await startSite({ ...env, DATA_DIR: path.join(dir, 'data-after') }) },
  ]
  sites.push(...builds.map((build) => build.site))
  const browser = await chromium.launch({ executablePath: browserPath(), args: ['--no-sandbox', '--disable-gpu'] })
  const results = builds.map(() => [] as Measure[])
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const [i, build] of builds.entries()) results[i]!.push(await measure(browser, `http://127.0.0.1:${build.site.port}`, photos))
    }
  } finally {
    await browser.close()
  }
  console.log(`Ten 12-megapixel photos (${photos.length}), 10 Mbit/s up and down, 40 ms latency; median of ${RUNS}:`)
  for (const [i, build] of builds.entries()) {
    const seconds = median(results[i]!.map((m) => m.seconds))
    const sent = median(results[i]!.map((m) => m.sentMb))
    console.log(`  ${build.label}: ${seconds.toFixed(1)} s, ${sent.toFixed(1)} MB posted (runs: ${results[i]!.map((m) => m.seconds.toFixed(1)).join(', ')} s)`)
  }
} finally {
  await Promise.all(sites.map((site) => stop(site.child)))
  await before?.remove()
  await rm(dir, { recursive: true, force: true })
}
