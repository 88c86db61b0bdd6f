/**
 * `npm run bench:load`: what each kind of page's JavaScript costs the main thread at load, on
 * the built site, in Chromium with Lighthouse's mobile screen and a real 4× CPU slowdown (of the
 * main thread; see BENCH_LOAD_CPU_BOX below for all of the browser's threads).
 *
 * For every page type it loads the page as served and the same HTML without its scripts (no
 * script that runs, no module preload; page state and styles kept), both answered from memory by a
 * small server in front of the site on one origin (images, styles and scripts come from the
 * site through it), each time in a fresh browser context that first opens an empty page of that
 * origin, and sums the renderer main thread's top-level tasks from navigation start until the
 * thread has been idle for a second. The difference is what the scripts add. The same
 * is measured for a reference page, React 19 and React Router 7 with sixty links and a button,
 * built and hydrated as the site is; the goal is at most 1.5× its figure.
 *
 * What a visitor feels is measured too, on the loads with scripts: total blocking time (each
 * top-level task's time past 50 ms from first contentful paint to idle; goal: at most 100 ms above
 * the bare page's) and the longest animation frame that began after first paint, as the page's own
 * Long Animation Frames observer saw it (goal: at most 150 ms in the median load, each load's
 * figure printed beside it), with the largest contentful paint beside them (shown, not judged).
 * For the median load, each long task after first paint is listed with what it spent its time
 * on, and each long frame with the scripts in it. The ratio goal is judged on both the elapsed and the CPU time; a
 * page whose own scripts add nothing misses it (they cannot have run). The run exits 1 when a
 * page misses a goal, or when the bare page's scripts add nothing (no ratio can be judged then);
 * the bare page's own figures are not judged.
 *
 * The loads are driven over the DevTools protocol, whose Runtime domain (which Playwright and
 * Lighthouse both turn on) makes Chromium look up every stack frame's position when an Error is
 * made: React DOM makes five as it loads, and inside a large bundle each look-up rereads it. The
 * site and the bare page both have them made ahead, in a small script of their own
 * (client/react-dom-errors.ts), so neither pays it.
 *
 * Each variant is loaded BENCH_LOAD_RUNS times (default 3), in interleaved rounds, and the median
 * is reported. Then, per page type, what the main thread did from first paint (or, with
 * BENCH_LOAD_BREAKDOWN_FROM=navigation, from navigation start) to idle: self time per kind of work
 * (median over the runs), and script time by origin (React, React Router, the
 * site's files) from navigation start to idle in three more loads with V8's sampling profiler,
 * through the source maps (the profiler slows scripts a little, so it has loads of its own).
 *
 * Single loads vary a good deal on a small machine, so the ratio table also gives the spread of
 * the ratio round by round: each round's loads of a page against the bare page's of the same round.
 *
 * Arguments limit the run to some page types, by name or path (`npm run bench:load -- /p/ countdown`).
 * BENCH_LOAD_BREAKDOWN_FROM=navigation makes the self time per kind of work cover what the ratio
 * covers, from navigation start (before the first paint too), rather than from first paint
 * (`paint`, the default); the forced layout, image decoding and main-thread compiling figures
 * follow it. Tasks, long tasks and long frames are always those after first paint; compiling on
 * other threads and script time by origin and by function always count from navigation start.
 * BENCH_LOAD_TOP=<n> lists n kinds of work and n functions by self time (8).
 * BENCH_LOAD_TRACE_DIR=folder keeps each profiled trace, to open in DevTools' Performance panel.
 * BENCH_LOAD_BEFORE=<commit> measures that commit's build too (a git worktree, built with this
 * checkout's node_modules, behind a proxy of its own), each page type's "before" row loaded in
 * the same rounds as this build's, so that a change's effect is not lost in the machine's drift.
 *
 * DevTools' slowdown slows the page's main thread only: work a page moves to other threads
 * (compiling as a script streams in, decoding images) runs at full speed. BENCH_LOAD_CPU_BOX=<CPUs>
 * slows the other threads too: the whole browser also runs in a cgroup (root only) whose CPU
 * quota is that many CPUs, shared by all of its threads and processes, raster and network
 * included. That is harsher than a phone, whose browser has cores beside the main thread's: a
 * pessimistic bound for work moved off the main thread. The servers stay outside it.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser } from '@playwright/test'
import { makeBarePage } from './bench-load/bare-page.js'
import { printBreakdown, printTable, type Measurement, type PageResult } from './bench-load/report.js'
import { medianScriptTime, scriptTime, type ScriptTime } from './lib/js-profile.js'
import { browserPath } from './lib/browser.js'
import { cgroupsAvailable, makeBox, shellWord, type CgroupBox } from './lib/cgroup-box.js'
import { CPU_SLOWDOWN, launchBrowser, recordLoad, type LongFrame, type TraceEvent } from './lib/load-trace.js'
import { backgroundCompileMs, blockingMs, busyMs, idleAt, locateLoad, longTasks, moduleScripts, selfTimes, taskCount, type LoadTimeline } from './lib/main-thread.js'
import { fetchDocument, PageProxy, withoutScripts, type ServedDocument } from './lib/page-proxy.js'
import { addBuiltWorktree, GIT_TIMEOUT_MS, type Worktree } from './lib/git-worktree.js'
import { pageTypes } from './lib/page-types.js'
import { stopOnSignals } from './lib/interruption.js'
import { root, startSite, stop } from './lib/server-process.js'
import { SourceOrigins } from './lib/source-origins.js'
import { TimedOut, withTimeout } from '../server/process/timeout.js'

const RUNS = Number(process.env.BENCH_LOAD_RUNS ?? 3)
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_LOAD_RUNS must be a whole number of at least 1, not ${process.env.BENCH_LOAD_RUNS}`)
/** Recording goes on this long after the load event: enough for hydration and a quiet second after it. */
const SETTLE_MS = 4000
/** The longest any one step of the clean-up may take before the next one runs. */
const CLEAN_UP_STEP_MS = 60_000
/** Loads with the sampling profiler per page, for script time by origin (median of them). */
const PROFILED_LOADS = 3
const only = process.argv.slice(2)
const BREAKDOWN_STARTS = { paint: 'first paint', navigation: 'navigation start' } as const
const breakdownFrom = process.env.BENCH_LOAD_BREAKDOWN_FROM ?? 'paint'
if (!Object.hasOwn(BREAKDOWN_STARTS, breakdownFrom)) throw new Error(`BENCH_LOAD_BREAKDOWN_FROM must be paint or navigation, not ${breakdownFrom}`)
const breakdownStart = BREAKDOWN_STARTS[breakdownFrom as keyof typeof BREAKDOWN_STARTS]
const TOP = Number(process.env.BENCH_LOAD_TOP ?? 8)
if (!Number.isInteger(TOP) || TOP < 1) throw new Error(`BENCH_LOAD_TOP must be a whole number of at least 1, not ${process.env.BENCH_LOAD_TOP}`)
const before = process.env.BENCH_LOAD_BEFORE
/** The box's CPU is handed out every 10 ms, so that a task is slowed evenly rather than stopped for most of 100 ms. */
const BOX_PERIOD_US = 10_000
/** The kernel hands out at least 1 ms of CPU a period. */
const MIN_BOX_CPUS = 1000 / BOX_PERIOD_US
const boxCpus = process.env.BENCH_LOAD_CPU_BOX === undefined ? undefined : Number(process.env.BENCH_LOAD_CPU_BOX)
if (boxCpus !== undefined && !(boxCpus >= MIN_BOX_CPUS && boxCpus <= os.availableParallelism())) {
  throw new Error(`BENCH_LOAD_CPU_BOX must be a number of CPUs from ${MIN_BOX_CPUS} to ${os.availableParallelism()}, not ${process.env.BENCH_LOAD_CPU_BOX}`)
}
const boxUnavailable = boxCpus === undefined ? null : cgroupsAvailable()
if (boxUnavailable) throw new Error(`BENCH_LOAD_CPU_BOX: ${boxUnavailable}`)
const boxedChromium = boxCpus === undefined ? undefined : browserPath()
if (boxCpus !== undefined && !boxedChromium) throw new Error("BENCH_LOAD_CPU_BOX needs a Chromium on disk: CHROME_PATH, or Debian's chromium")
const slowdown = `${CPU_SLOWDOWN}× CPU slowdown of the main thread${boxCpus === undefined ? '' : `, the whole browser held to ${boxCpus} CPU`}`
/** Room enough for the browser: the box is there for its CPU quota. */
const BOX_MEMORY_BYTES = 8 * 1024 ** 3

/** An empty page of the site's origin, opened before each recorded load (see LoadOptions.startUrl). */
const START_PAGE: ServedDocument = { path: '/bench-load-start/', status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><title>Start</title>' }

/**
 * Loads a document through the proxy and finds the load in its trace. A trace now and then
 * lacks the renderer's first events (as Lighthouse's NO_NAVSTART): such a load is made again.
 */
interface Load {
  events: TraceEvent[]
  timeline: LoadTimeline
  /** Long animation frames that began at or after the page's first paint. */
  framesAfterPaint: LongFrame[]
}

async function load(browser: Browser, proxy: PageProxy, document: ServedDocument, profile = false): Promise<Load> {
  goOn()
  proxy.serve(document)
  const url = proxy.origin + document.path
  for (let attempt = 1; ; attempt++) {
    const { events, longFrames, firstPaint } = await recordLoad(browser, { url, startUrl: proxy.origin + START_PAGE.path, settleMs: SETTLE_MS, profile })
    try {
      if (firstPaint === undefined) throw new Error(`${url} never painted`)
      return { events, timeline: locateLoad(events, url), framesAfterPaint: longFrames.filter((frame) => frame.start >= firstPaint) }
    } catch (error) {
      if (attempt === 5) throw error
      console.error(`  ${(error as Error).message}; loading again`)
    }
  }
}

function measure({ events, timeline, framesAfterPaint }: Load, origins: SourceOrigins): Measurement {
  const idle = idleAt(timeline)
  const end = idle ?? timeline.traceEnd
  return {
    blocking: blockingMs(timeline, end),
    longTasks: longTasks(timeline, timeline.firstPaint, end, origins),
    framesAfterPaint,
    ...busyMs(timeline, timeline.navigationStart, end),
    firstPaint: (timeline.firstPaint - timeline.navigationStart) / 1000,
    largestPaint: timeline.largestContentfulPaint === undefined ? NaN : (timeline.largestContentfulPaint - timeline.navigationStart) / 1000,
    idle: idle === undefined ? undefined : (idle - timeline.navigationStart) / 1000,
    work: selfTimes(timeline, breakdownFrom === 'navigation' ? timeline.navigationStart : timeline.firstPaint, end, origins),
    tasks: taskCount(timeline, timeline.firstPaint, end),
    modules: moduleScripts(timeline),
    backgroundCompile: backgroundCompileMs(events, timeline, end),
  }
}

/** A build of the site behind a proxy of its own; the site takes the proxy's address as its own, so its absolute links lead through the proxy too. */
async function proxiedSite(cwd?: string) {
  const proxy = await PageProxy.start()
  proxy.serve(START_PAGE)
  try {
    const site = await startSite({ LOG_LEVEL: 'warn', SHUTDOWN_DELAY_MS: '0', PUBLIC_URL: proxy.origin }, cwd)
    const origin = `http://127.0.0.1:${site.port}`
    proxy.forward(origin)
    return { proxy, site, origin }
  } catch (error) {
    await proxy.close()
    throw error
  }
}

/** Whether a process of that id runs (or runs as another user). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** What the run started, stopped in its `finally` whatever failed. */
let worktree: Worktree | undefined
const started: Awaited<ReturnType<typeof proxiedSite>>[] = []
let opened: Browser | undefined
let box: CgroupBox | undefined
// The bare page's build and the box's launch script: under node_modules, where programs may run
// (unlike a /tmp mounted noexec). Folders left by runs that ended without their clean-up go.
const scratch = path.join(root, 'node_modules', '.cache')
if (!fs.existsSync(scratch)) {
  fs.mkdirSync(scratch, { recursive: true })
  // Made by root for a boxed run, it stays node_modules' owner's, for the tools that write there.
  const { uid, gid } = fs.statSync(path.dirname(scratch))
  if (process.getuid?.() === 0 && uid !== 0) fs.chownSync(scratch, uid, gid)
}
// Named by machine and process, so that a run in another container sharing node_modules is left be.
const host = os.hostname().replace(/[^\w.]/g, '_')
for (const left of fs.readdirSync(scratch)) {
  const [, owner, pid] = /^bench-load-(.+)-(\d+)-\w{6}$/.exec(left) ?? []
  if (owner !== host || processRuns(Number(pid))) continue
  try {
    fs.rmSync(path.join(scratch, left), { recursive: true, force: true })
  } catch (error) {
    console.warn(`a folder an earlier run left: ${(error as Error).message}`)
  }
}
const bareFolder = fs.mkdtempSync(path.join(scratch, `bench-load-${host}-${process.pid}-`))

// Ctrl-C and the like: the browser closes, the run stops at its next step, its `finally` cleans up.
const interruption = stopOnSignals(() => void opened?.close().catch(() => undefined))
const goOn = interruption.goOn

try {
  // The box first: a machine that cannot make one says so before a build and two servers start.
  let boxedBrowser: string | undefined
  if (boxCpus !== undefined && boxedChromium) {
    const chromium = path.resolve(boxedChromium)
    box = makeBox(`bench-load-browser-${process.pid}`, { memoryBytes: BOX_MEMORY_BYTES, cpus: boxCpus, periodUs: BOX_PERIOD_US })
    // Started through a shell that enters the box first, the browser and every process it starts run in it.
    boxedBrowser = path.join(bareFolder, 'boxed-browser.sh')
    fs.writeFileSync(boxedBrowser, `#!/bin/sh\n${box.enterCommand}exec ${shellWord(chromium)} "$@"\n`, { mode: 0o755 })
    console.error(`the browser runs in a cgroup held to ${boxCpus} CPU`)
  }
  if (before) worktree = await addBuiltWorktree(before, 'bench-load-before', interruption.signal)
  goOn()
  const main = await proxiedSite()
  started.push(main)
  goOn()
  const { proxy, origin: siteOrigin } = main
  const earlier = worktree ? await proxiedSite(worktree.dir) : undefined
  if (earlier) started.push(earlier)
  goOn()
  const browser = await launchBrowser(boxedBrowser)
  opened = browser
  goOn()
  const barePage = await makeBarePage(bareFolder)
  goOn()
  for (const [pathname, file] of barePage.files) proxy.serveFile(pathname, file)
  const bare: PageResult = {
    name: 'bare React + Router',
    path: barePage.path,
    document: { path: barePage.path, status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: barePage.html },
    with: [],
    without: [],
  }
  const pages: PageResult[] = []
  /** The proxy each page is loaded through: the earlier build's pages through its own. */
  const proxyOf = new Map<PageResult, PageProxy>()
  const chosen = await pageTypes(siteOrigin, only, interruption.signal)
  // A page asked for by a name or path that matches none would leave nothing to judge.
  const unmatched = only.filter((wanted) => !chosen.some((page) => page.path === wanted || page.name.includes(wanted)))
  if (unmatched.length) throw new Error(`no page type matches ${unmatched.map((wanted) => `"${wanted}"`).join(', ')}: give a name or path of the list in scripts/lib/page-types.ts`)
  for (const { name, path: pathname } of chosen) {
    goOn()
    pages.push({ name, path: pathname, document: await fetchDocument(siteOrigin + pathname), with: [], without: [] })
    if (!earlier) continue
    goOn()
    const page: PageResult = { name: `${name} (${before})`, path: pathname, document: await fetchDocument(earlier.origin + pathname), with: [], without: [], earlier: true }
    pages.push(page)
    proxyOf.set(page, earlier.proxy)
  }
  const origins = new SourceOrigins(root, (url) => {
    // Scripts with no address (the recorder's own observer) have no map.
    if (!URL.canParse(url)) return undefined
    const { pathname, origin } = new URL(url)
    const build = earlier && worktree && origin === earlier.proxy.origin ? worktree.dir : root
    return pathname.startsWith('/assets/') ? path.join(build, 'dist/public', `${pathname}.map`) : barePage.files.get(`${pathname}.map`)
  })

  // A first, unmeasured load of each page draws the images made on demand, as production traffic would have.
  for (const page of [...pages, bare]) await load(browser, proxyOf.get(page) ?? proxy, page.document)

  for (let run = 0; run < RUNS; run++) {
    for (const page of [...pages, bare]) {
      // Alternating which variant goes first keeps drift on the machine out of the difference.
      const order = run % 2 ? (['without', 'with'] as const) : (['with', 'without'] as const)
      const taken: string[] = []
      for (const variant of order) {
        const measurement = measure(await load(browser, proxyOf.get(page) ?? proxy, variant === 'with' ? page.document : withoutScripts(page.document)), origins)
        page[variant].push(measurement)
        taken.push(`${variant} ${Math.round(measurement.wall)} ms (CPU ${Math.round(measurement.cpu)})${measurement.idle === undefined ? ' never idle' : ''}`)
      }
      console.error(`run ${run + 1}/${RUNS}  ${page.name.padEnd(20)} ${taken.join(', ')}`)
    }
  }

  const traceFolder = process.env.BENCH_LOAD_TRACE_DIR
  if (traceFolder) fs.mkdirSync(traceFolder, { recursive: true })
  for (const page of [...pages, bare]) {
    const profiles: ScriptTime[] = []
    for (let run = 0; run < PROFILED_LOADS; run++) {
      const { events, timeline } = await load(browser, proxyOf.get(page) ?? proxy, page.document, true)
      // All script work of the load, from navigation start: scripts that start before first paint count too.
      profiles.push(scriptTime(events, timeline.pid, timeline.tid, timeline.navigationStart, idleAt(timeline) ?? timeline.traceEnd, origins))
      if (traceFolder && run === 0) fs.writeFileSync(path.join(traceFolder, `${page.name.replace(/\W+/g, '-')}.json`), JSON.stringify({ traceEvents: events }))
    }
    page.profile = medianScriptTime(profiles)
    console.error(`profiled ${page.name}`)
  }

  const met = printTable(pages, bare, slowdown)
  console.log(`\nWhat the main thread does from ${breakdownStart} to idle, per page type (self time: time in an event minus the events inside it)`)
  for (const page of [...pages, bare]) printBreakdown(page, breakdownStart, TOP)
  if (!met) process.exitCode = 1
} catch (error) {
  // Stopped by a signal: what failed on the way out (most often a load as the browser closed) is said in a line.
  if (!interruption.signal.aborted) throw error
  console.error(`  (as it stopped: ${String((error as Error | undefined)?.message ?? error).split('\n')[0]})`)
} finally {
  // Each step of the clean-up runs whatever the one before did, so a browser that fails to close
  // leaves no server, worktree, cgroup or folder behind.
  const steps: [string, () => unknown, number?][] = [
    ['closing the browser', () => opened?.close()],
    ['removing the browser\'s cgroup', () => box?.remove()],
    ...started.flatMap(({ site, proxy }): [string, () => unknown][] => [
      ['stopping a site', () => stop(site.child)],
      ['closing its proxy', () => proxy.close()],
    ]),
    // Git's removal, and when it fails, the two git commands of the removal by hand.
    ['removing the worktree', () => worktree?.remove(), 4 * GIT_TIMEOUT_MS],
    ['removing the bare page', () => fs.rmSync(bareFolder, { recursive: true, force: true })],
  ]
  let hung = false
  for (const [what, step, ms = CLEAN_UP_STEP_MS] of steps) {
    try {
      await withTimeout(Promise.resolve().then(step), ms, what)
    } catch (error) {
      console.error('clean-up:', error)
      process.exitCode ||= 1
      hung ||= error instanceof TimedOut
    }
  }
  // What never ended (a browser's connection, a server) would keep the run open: it ends here.
  if (hung) process.exit()
}
