/**
 * `npm run scale -- machines`: the site spread over machines that share nothing on disk, run on
 * this one, loopback only. Each process gets a DATA_DIR of its own and no more of the environment
 * than PATH and the variables its kind of process needs (README, "Running at scale"):
 *
 *   nginx (docs/nginx.conf) ─► web.1 ─► giffer.1 ─┐
 *                          └─► web.2 ─► giffer.2 ─┴─► the S3-compatible store (one bucket)
 *        web.1 and web.2 ─► the dashboard (accounts), Redis (per-address limits)
 *
 * Each web process sends /giffer/* to an image service of its own (GIFFER_URL) and /app/* to the
 * one dashboard (DASHBOARD_URL); the image services sign with the same GIFFER_SECRET and keep
 * uploads in the bucket, which browsers post to directly. PUBLIC_URL is the edge's address on
 * every process. Then Chromium, as a visitor who knows the public address only, checks:
 *
 *   1. accounts   sign-up on /start/ and log-in on /login/ with the forms; the processes' own
 *                 /metrics show that account POSTs reached both web processes (log-ins are
 *                 repeated in fresh browser contexts until they have, at most LOGIN_TRIES);
 *   2. slideshow  a photo of about 3 MB and a small one uploaded on the slideshow generator
 *                 (straight to the bucket), and the GIF it makes shown;
 *   3. live timer minted through the edge: its URL is on the public origin, and it answers a GIF
 *                 through the edge and directly at each web process and each image service;
 *   4. uploads    each upload read back byte for byte through the edge and directly at each web
 *                 process and each image service (whichever service signed it);
 *   5. browser    no console error and no Content Security Policy violation on any page;
 *   6. disks      no upload in any process's DATA_DIR, every one in the bucket.
 *
 * Prints the figures and a summary; exits 1 when a goal is missed. Everything it starts is
 * stopped at the end, on Ctrl-C and on a failure (which keeps the logs).
 */
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test'
import sharp from 'sharp'
import { SLIDESHOW_WIDTH } from '../shared/generators/slideshow/slideshow.js'
import { HYDRATION_ELEMENT_ID } from '../shared/site.js'
import { startRedis, type TestRedis } from '../tests/support/redis.js'
import { browserPath } from './lib/browser.js'
import { NGINX, REDIS_SERVER, toolPath } from './lib/debian-tools.js'
import {
  accountPosts,
  check,
  grainyPhoto,
  interrupted,
  megabytes,
  onStop,
  readMultipartForm,
  runChecks,
  scrape,
  seconds,
  send,
  startEdge,
  startService,
  type Service,
} from './lib/scale-run.js'
import { startS3Server, S3_SERVER_CREDENTIALS, type S3Server } from './lib/s3-server.js'
import { freePort, PRODUCTION_ENV } from './lib/server-process.js'

/** Web processes, each with an image service of its own. */
const WEB_COUNT = 2
/** Log-ins after the sign-up, at most, until both web processes have answered one: under the per-address limit of 10 a minute. */
const LOGIN_TRIES = 6
const PASSWORD = 'violet kettle zebra 42'
const SLIDESHOW_PAGE = '/image-slideshow-gif-generator/'
/** The photo of check 2: about 3 MB as PNG. */
const PHOTO = { width: 1060, height: 1000 }
const BROWSER_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-dev-shm-usage']
const STEP_TIMEOUT_MS = 30_000

const size = (bytes: number) => (bytes >= 1024 * 1024 ? megabytes(bytes) : `${bytes} bytes`)

interface Machines {
  edgePort: number
  publicUrl: string
  webs: Service[]
  giffers: Service[]
  dashboard: Service
  redis: TestRedis
  s3: S3Server
  /** Each process's own DATA_DIR, by its name. */
  dataDirs: Map<string, string>
  /** The files the visitor picks, and their bytes. */
  files: { name: string; file: string; bytes: Buffer }[]
}

// ---------------------------------------------------------------------------------------------
// The machines

/** Each kind of process as the Procfile runs it: Node's arguments and the variables set on its line. */
const PROCFILE = {
  web: { args: ['--expose-gc', 'dist/server/main.js'], env: PRODUCTION_ENV },
  giffer: { args: ['--expose-gc', 'dist/server/giffer.js'], env: PRODUCTION_ENV },
  dashboard: { args: ['dist/server/dashboard.js'], env: { NODE_ENV: 'production' } },
}

/** How a process of this kind starts: its Procfile line, PATH, and what it is told; nothing else of this shell reaches it. */
const procfileStart = (kind: keyof typeof PROCFILE, variables: Record<string, string>) => ({
  args: PROCFILE[kind].args,
  env: { PATH: process.env.PATH, ...PROCFILE[kind].env, ...variables },
})

/** The variables of each kind of process, named once, for the start-up lines. */
const describeEnv = (variables: Record<string, string>) => Object.keys(variables).join(' ')

async function startMachines(nginx: string, dir: string): Promise<Machines> {
  const edgeDir = path.join(dir, 'nginx')
  mkdirSync(edgeDir)
  // nginx's workers drop root for `nobody`, and must reach their cache and temporary files.
  chmodSync(dir, 0o755)
  chmodSync(edgeDir, 0o755)
  const dataDirs = new Map<string, string>()
  const dataDir = (name: string) => {
    const folder = path.join(dir, 'data', name)
    mkdirSync(folder, { recursive: true })
    dataDirs.set(name, folder)
    return folder
  }
  const service = async (name: string): Promise<Service> => ({ name, port: await freePort(), logFile: path.join(dir, `${name}.log`) })

  const edgePort = await freePort()
  const publicUrl = `http://127.0.0.1:${edgePort}`
  const redis = await startRedis()
  onStop(() => redis.stop())
  // Browsers post uploads to the bucket from the site's pages: its CORS rule names the public origin.
  const s3 = await startS3Server({ corsOrigins: [publicUrl] })
  onStop(() => s3.close())
  const bucket = { S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.endpoint, S3_FORCE_PATH_STYLE: 'true' }
  const secret = randomBytes(32).toString('hex')

  const dashboard = await service('dashboard')
  const dashboardEnv = { DASHBOARD_PORT: String(dashboard.port), HOST: '127.0.0.1', PUBLIC_URL: publicUrl, DATA_DIR: dataDir('dashboard'), TRUST_PROXY: 'loopback', LOG_LEVEL: 'warn' }
  const dashboardMs = startService(dashboard, procfileStart('dashboard', dashboardEnv))

  const giffers: Service[] = []
  const gifferEnvs: Record<string, string>[] = []
  for (let index = 1; index <= WEB_COUNT; index++) {
    const giffer = await service(`giffer.${index}`)
    giffers.push(giffer)
    gifferEnvs.push({
      GIFFER_PORT: String(giffer.port),
      HOST: '127.0.0.1',
      PUBLIC_URL: publicUrl,
      DATA_DIR: dataDir(giffer.name),
      GIFFER_SECRET: secret,
      ...bucket,
      ...S3_SERVER_CREDENTIALS,
      LOG_LEVEL: 'warn',
    })
  }
  const gifferMs = Promise.all(giffers.map((giffer, index) => startService(giffer, procfileStart('giffer', gifferEnvs[index]!))))

  const webs: Service[] = []
  const webEnvs: Record<string, string>[] = []
  for (let index = 1; index <= WEB_COUNT; index++) {
    const web = await service(`web.${index}`)
    webs.push(web)
    webEnvs.push({
      PORT: String(web.port),
      HOST: '127.0.0.1',
      PUBLIC_URL: publicUrl,
      DATA_DIR: dataDir(web.name),
      REDIS_URL: redis.url,
      GIFFER_URL: `http://127.0.0.1:${giffers[index - 1]!.port}`,
      DASHBOARD_URL: `http://127.0.0.1:${dashboard.port}/app`,
      TRUST_PROXY: 'loopback',
      // The pages' Content Security Policy lets them post uploads to the bucket.
      ...bucket,
      LOG_LEVEL: 'warn',
    })
  }
  const webMs = Promise.all(webs.map((web, index) => startService(web, procfileStart('web', webEnvs[index]!))))
  const [dashboardUpMs, giffersUpMs, websUpMs] = await Promise.all([dashboardMs, gifferMs, webMs])
  await startEdge(nginx, edgeDir, edgePort, webs)

  const ports = (services: Service[]) => services.map((one) => `${one.name} :${one.port}`).join(', ')
  console.log(`edge (nginx) ${publicUrl} → ${ports(webs)} (up in ${websUpMs.map(seconds).join(', ')})`)
  console.log(`  web:       ${describeEnv(webEnvs[0]!)}`)
  console.log(`${ports(giffers)} (up in ${giffersUpMs.map(seconds).join(', ')}), web.N → giffer.N`)
  console.log(`  giffer:    ${describeEnv(gifferEnvs[0]!)}`)
  console.log(`${ports([dashboard])} (up in ${seconds(dashboardUpMs)})`)
  console.log(`  dashboard: ${describeEnv(dashboardEnv)}`)
  console.log(`redis ${redis.url}; S3-compatible store ${s3.endpoint}, bucket ${s3.bucket}, CORS for ${publicUrl}`)

  const filesDir = path.join(dir, 'files')
  mkdirSync(filesDir)
  const files = [
    { name: 'photo.png', bytes: await grainyPhoto(PHOTO.width, PHOTO.height) },
    { name: 'small.png', bytes: await sharp({ create: { width: 120, height: 90, channels: 3, background: '#2a7ab0' } }).png().toBuffer() },
  ].map((entry) => {
    const file = path.join(filesDir, entry.name)
    writeFileSync(file, entry.bytes)
    return { ...entry, file }
  })
  return { edgePort, publicUrl, webs, giffers, dashboard, redis, s3, dataDirs, files }
}

// ---------------------------------------------------------------------------------------------
// The visitor

/** What the browser reported on every page it opened. */
interface Visitor {
  browser: Browser
  consoleErrors: string[]
  violations: string[]
  /** A fresh context (no cookies, no storage), reporting into the lists above. */
  context(): Promise<BrowserContext>
}

/**
 * Tells the binding of each refusal by the page's Content Security Policy. Plain text: this file
 * is compiled with names kept (esbuild wraps named functions in its __name function), which the
 * page does not have; the functions given to page.evaluate and waitForFunction below name nothing
 * for the same reason.
 */
const REPORT_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (event) => {
  window.__reportViolation(event.effectiveDirective + ' refused ' + (event.blockedURI || 'inline') + ' on ' + location.pathname)
})`

async function launchVisitor(): Promise<Visitor> {
  // Ctrl-C stops the browser with everything else (onStop), rather than ending this process at once.
  const browser = await chromium.launch({ executablePath: browserPath(), args: BROWSER_ARGS, handleSIGINT: false, handleSIGTERM: false })
  onStop(() => browser.close())
  const visitor: Visitor = {
    browser,
    consoleErrors: [],
    violations: [],
    async context() {
      const context = await browser.newContext()
      context.setDefaultTimeout(STEP_TIMEOUT_MS)
      await context.exposeBinding('__reportViolation', (_source, text: string) => void visitor.violations.push(text))
      await context.addInitScript({ content: REPORT_VIOLATIONS })
      context.on('console', (message) => {
        if (message.type() === 'error') visitor.consoleErrors.push(`${message.page()?.url() ?? '?'}: ${message.text()}`)
      })
      context.on('weberror', (error) => visitor.consoleErrors.push(`${error.page()?.url() ?? '?'}: ${error.error().message}`))
      return context
    },
  }
  return visitor
}

/**
 * Opens a page and resolves once React has hydrated it: React attaches its props to each node it
 * hydrates, the header's brand link first and the page-state script last; two animation frames
 * later its effects have run.
 */
async function gotoHydrated(page: Page, url: string): Promise<void> {
  const response = await page.goto(url)
  if (response?.status() !== 200) throw new Error(`${url} answered ${response?.status()}`)
  await page.waitForFunction(
    (stateId) =>
      [document.querySelector('.site-header .brand'), document.getElementById(stateId)].every((node) => node !== null && Object.keys(node).some((key) => key.startsWith('__reactProps$'))),
    HYDRATION_ELEMENT_ID,
  )
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
}

const authForm = (page: Page) => page.locator('main form.auth-form')

/** Fills and sends the sign-up or log-in form, and waits for the app's home. */
async function submitAuthForm(page: Page, email: string, button: 'Create account' | 'Log in'): Promise<void> {
  await authForm(page).getByLabel('Email').fill(email)
  await authForm(page).getByLabel(/^(New password|Password)$/).fill(PASSWORD)
  await authForm(page).getByRole('button', { name: button }).click()
  await page.waitForURL('**/app/')
  await page.getByText(`Signed in as ${email}`).waitFor()
}

// ---------------------------------------------------------------------------------------------
// The checks

/** Runs a check's steps; a step that throws (a time-out, a refused request) is that check's miss, and the run goes on. */
async function attempt(name: string, goal: string, steps: () => Promise<void>): Promise<void> {
  try {
    await steps()
  } catch (error) {
    if (interrupted()) throw error
    const reason = (error as Error).message.split('\n')[0]!
    console.log(`   stopped: ${reason}`)
    check(name, goal, `error: ${reason.slice(0, 80)}`, false)
  }
}

async function accounts(machines: Machines, visitor: Visitor): Promise<void> {
  console.log(`\n1. Accounts: sign-up on /start/ and log-in on /login/ with the forms, through the edge; which web process answered, from their /metrics`)
  const posts = () => Promise.all(machines.webs.map(async (web) => accountPosts(await scrape(web))))
  const before = await posts()
  const answered = async () => (await posts()).map((count, index) => count - before[index]!)
  const describe = (counts: number[]) => machines.webs.map((web, index) => `${web.name} ${counts[index]}`).join(', ')
  const email = `scale-${Date.now().toString(36)}@example.com`
  let logIns = 0
  await attempt('1 sign-up, then log-in, with the forms', 'on /app/', async () => {
    const signUp = await visitor.context()
    const page = await signUp.newPage()
    await gotoHydrated(page, `${machines.publicUrl}/start/`)
    await submitAuthForm(page, email, 'Create account')
    await signUp.close()
    console.log(`   signed up as ${email}: on /app/; account POSTs answered so far: ${describe(await answered())}`)
    let counts: number[]
    do {
      const fresh = await visitor.context()
      const login = await fresh.newPage()
      // Each log-in makes as many requests reach a process as the one before (the visit, the
      // log-in check, the log-in, the app's page: 4), so nginx's strict turn would give every one
      // to the same process. A retry opens the log-in page with a query string of its own, a page
      // the edge has not kept yet: one request more, and the turn moves on by one.
      await gotoHydrated(login, `${machines.publicUrl}/login/${logIns === 0 ? '' : `?retry=${logIns}`}`)
      await submitAuthForm(login, email, 'Log in')
      await fresh.close()
      logIns++
      counts = await answered()
      console.log(`   log-in ${logIns} (fresh context): on /app/; account POSTs answered so far: ${describe(counts)}`)
    } while (counts.some((count) => count === 0) && logIns < LOGIN_TRIES)
    check('1 sign-up, then log-in, with the forms', 'on /app/', `on /app/ (1 sign-up, ${logIns} log-in${logIns === 1 ? '' : 's'})`, true)
  })
  const counts = await answered()
  const both = counts.filter((count) => count > 0).length
  check('1 web processes that answered account POSTs', `${WEB_COUNT} of ${WEB_COUNT}`, `${both} of ${WEB_COUNT} (${describe(counts)})`, both === WEB_COUNT)
}

/** The uploads the page resolved, as the URLs it was given, with their keys and the bytes the browser posted under each. */
type Uploads = { url: string; name: string; posted?: Buffer }[]

async function slideshow(machines: Machines, visitor: Visitor): Promise<Uploads> {
  const [photo, small] = machines.files
  console.log(`\n2. Slideshow on ${SLIDESHOW_PAGE}: ${photo!.name} (${size(photo!.bytes.length)}) and ${small!.name} (${size(small!.bytes.length)}) uploaded, then the GIF`)
  const uploads: Uploads = []
  const posted: number[] = []
  await attempt('2 slideshow GIF shown on the page', `${SLIDESHOW_WIDTH} px wide`, async () => {
    const context = await visitor.context()
    const page = await context.newPage()
    const resolving: Promise<void>[] = []
    // What the browser posts to the bucket: the page prepares each photo (reduced, without
    // metadata) before it goes, so the bucket must hold those bytes, not the files picked.
    const postedFiles = new Map<string, Buffer>()
    await page.route(`${machines.s3.endpoint}/**`, async (route) => {
      const request = route.request()
      const form = request.method() === 'POST' ? readMultipartForm((await request.allHeaders())['content-type'] ?? '', request.postDataBuffer() ?? Buffer.alloc(0)) : null
      if (form?.file && form.fields.key) postedFiles.set(form.fields.key, form.file)
      await route.continue()
    })
    page.on('response', (response) => {
      const url = new URL(response.url())
      if (url.origin === machines.s3.endpoint && response.request().method() === 'POST') posted.push(response.status())
      if (url.pathname === '/giffer/uploads/resolve' && response.ok()) {
        const key = url.searchParams.get('key') ?? ''
        resolving.push(response.json().then((body: { url: string }) => void uploads.push({ url: body.url, name: key })))
      }
    })
    await gotoHydrated(page, `${machines.publicUrl}${SLIDESHOW_PAGE}`)
    await page.locator('#slideshow-files').setInputFiles(machines.files.map((entry) => entry.file))
    await page.locator('.upload-card-handle').nth(machines.files.length - 1).waitFor()
    await page.waitForFunction(() => document.querySelectorAll('.upload-card.is-loading').length === 0)
    const messages = (await page.locator('.upload-messages').allTextContents()).join(' ').trim()
    if (messages) throw new Error(`the uploader says: ${messages}`)
    await Promise.all(resolving)
    for (const upload of uploads) upload.posted = postedFiles.get(upload.name)
    console.log(`   uploads posted by the browser to the bucket (${machines.s3.endpoint}): ${posted.length}, answered ${posted.join(' ')}; ${[...postedFiles.values()].map((bytes) => size(bytes.length)).join(' and ')} of photo`)
    console.log(`   resolved: ${uploads.map((upload) => upload.url).join(', ')}`)

    const made = page.waitForResponse((response) => response.url().includes('/giffer/slideshow/create-'))
    await page.getByRole('button', { name: 'Generate slideshow' }).click()
    const answer = await made
    // The page reads the body itself (into a blob); the browser still knows how much came.
    const { responseBodySize } = await answer.request().sizes()
    const result = page.locator('.slideshow-result img')
    await result.waitFor()
    await page.waitForFunction(() => (document.querySelector('.slideshow-result img') as HTMLImageElement | null)?.naturalWidth !== 0)
    const width = await result.evaluate((image: HTMLImageElement) => image.naturalWidth)
    console.log(`   ${new URL(answer.url()).pathname}: ${answer.status()} ${answer.headers()['content-type']}, ${responseBodySize} bytes; shown ${width} px wide`)
    check('2 slideshow GIF shown on the page', `${SLIDESHOW_WIDTH} px wide`, `${width} px (${answer.status()} ${answer.headers()['content-type']})`, width === SLIDESHOW_WIDTH && answer.status() === 200)
    await context.close()
  })
  const statuses = [...new Set(posted)].join('/') || '-'
  check('2 uploads posted from the page to the bucket', `${machines.files.length} × 204`, `${posted.length} × ${statuses}`, posted.length === machines.files.length && posted.every((status) => status === 204))
  return uploads
}

/** Where a path of the image service answers: the edge and each web process (under /giffer), each image service (at /). */
function everyDoor(machines: Machines, giffer: string): { name: string; port: number; path: string }[] {
  return [
    { name: 'edge', port: machines.edgePort, path: `/giffer${giffer}` },
    ...machines.webs.map((web) => ({ name: web.name, port: web.port, path: `/giffer${giffer}` })),
    ...machines.giffers.map((service) => ({ name: service.name, port: service.port, path: giffer })),
  ]
}

async function liveTimer(machines: Machines, visitor: Visitor): Promise<void> {
  console.log('\n3. Live timer: minted by the page through the edge (POST /giffer/countdown/live-url), then opened everywhere')
  const doors = everyDoor(machines, '').length
  await attempt('3 live timer opened', `${doors} × 200 image/gif`, async () => {
    const context = await visitor.context()
    const page = await context.newPage()
    await gotoHydrated(page, `${machines.publicUrl}/email-countdown-timer-generator/`)
    const until = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString()
    const minted = await page.evaluate(async (deadline) => {
      const response = await fetch('/giffer/countdown/live-url', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ until: deadline }) })
      return { status: response.status, body: (await response.json()) as { url?: string } }
    }, until)
    await context.close()
    const url = new URL(minted.body.url ?? 'about:blank')
    const expected = `${machines.publicUrl}/giffer/countdown/live.gif`
    console.log(`   ${minted.status}: ${minted.body.url}`)
    check('3 live-timer URL', `${expected}?…`, `${url.origin}${url.pathname}?…`, `${url.origin}${url.pathname}` === expected && url.searchParams.has('sig'))
    const giffer = `${url.pathname.slice('/giffer'.length)}${url.search}`
    const answers = await Promise.all(
      everyDoor(machines, giffer).map(async (door) => {
        const answer = await send(door.port, { path: door.path })
        return { door, status: answer.status, type: String(answer.headers['content-type']), bytes: answer.body.length }
      }),
    )
    for (const { door, status, type, bytes } of answers) console.log(`   ${door.name.padEnd(8)} :${door.port} ${door.path.split('?')[0]}?…  ${status} ${type} ${bytes} bytes`)
    const good = answers.filter((answer) => answer.status === 200 && answer.type === 'image/gif').length
    check('3 live timer opened', `${doors} × 200 image/gif`, `${good} of ${answers.length}`, good === answers.length)
  })
}

async function uploadsReadBack(machines: Machines, uploads: Uploads): Promise<void> {
  console.log('\n4. Uploads read back through the edge, each web process and each image service')
  const doors = everyDoor(machines, '').length
  let identical = 0
  for (const upload of uploads) {
    const giffer = new URL(upload.url, machines.publicUrl).pathname.slice('/giffer'.length)
    const results = await Promise.all(
      everyDoor(machines, giffer).map(async (door) => {
        const answer = await send(door.port, { path: door.path })
        const same = answer.status === 200 && upload.posted !== undefined && answer.body.equals(upload.posted)
        if (same) identical++
        return `${door.name} ${same ? 'identical' : `${answer.status}, ${answer.body.length} bytes, differs`}`
      }),
    )
    console.log(`   ${upload.name} (${upload.posted ? size(upload.posted.length) : 'not seen posted'}) ${giffer}: ${results.join(', ')}`)
  }
  const expected = machines.files.length * doors
  check('4 uploads read back byte for byte as the browser posted them', `${expected} identical`, `${identical} of ${uploads.length * doors}`, identical === expected)
}

function browserReport(visitor: Visitor): void {
  console.log('\n5. The browser: console errors and Content Security Policy violations on every page it opened')
  for (const line of visitor.consoleErrors.slice(0, 5)) console.log(`   console error: ${line}`)
  for (const line of visitor.violations.slice(0, 5)) console.log(`   CSP violation: ${line}`)
  check('5 console errors in the browser', '0', String(visitor.consoleErrors.length), visitor.consoleErrors.length === 0)
  check('5 CSP violations in the browser', '0', String(visitor.violations.length), visitor.violations.length === 0)
}

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
}

function disks(machines: Machines, uploads: Uploads): void {
  console.log(`\n6. Disks: what each process wrote to its own DATA_DIR, and what the bucket holds`)
  let strays = 0
  for (const [name, dir] of machines.dataDirs) {
    const files = filesUnder(dir)
    const uploaded = files.filter((file) => file.split(path.sep).includes('uploads'))
    strays += uploaded.length
    console.log(`   ${name.padEnd(9)} ${files.length === 0 ? '(nothing)' : files.join(', ')}`)
  }
  const keys = machines.s3.keys()
  const stored = uploads.filter((upload) => keys.includes(new URL(upload.url, machines.publicUrl).pathname.slice('/giffer/'.length))).length
  console.log(`   bucket ${machines.s3.bucket}: ${keys.join(', ') || '(nothing)'}`)
  check("6 upload files in the processes' DATA_DIRs", '0', String(strays), strays === 0)
  check('6 uploads in the bucket', `${machines.files.length} of ${machines.files.length}`, `${stored} of ${uploads.length}`, stored === machines.files.length)
}

export function runMachines(): Promise<number> {
  return runChecks({
    tools: [REDIS_SERVER, NGINX],
    name: 'poplift-scale-machines',
    logs: 'web.N.log, giffer.N.log, dashboard.log, nginx/error.log, nginx/access.log; each DATA_DIR in data/',
    async body(dir) {
      const machines = await startMachines(toolPath(NGINX)!, dir)
      const visitor = await launchVisitor()
      await accounts(machines, visitor)
      const uploads = await slideshow(machines, visitor)
      await liveTimer(machines, visitor)
      await uploadsReadBack(machines, uploads)
      browserReport(visitor)
      disks(machines, uploads)
    },
  })
}
