/**
 * One page load in Chromium recorded as a trace, the way Lighthouse's mobile run sees a page:
 * its phone screen and browser name (UA string), the CPU slowed down 4×, and a fresh browser
 * context (cold cache) each time.
 */
import { chromium, type Browser } from '@playwright/test'
import { screenEmulationMetrics, userAgents } from 'lighthouse/core/config/constants.js'
import { browserPath, MEASURING_FLAGS } from './browser.js'

/** A Chromium trace event, as far as the measurements read it (times in microseconds). */
export interface TraceEvent {
  name: string
  cat: string
  ph: string
  ts: number
  dur?: number
  /** CPU time of the thread during the event (not counting the time it was paused or waiting). */
  tdur?: number
  pid: number
  tid: number
  id?: string
  /** Each kind of event has arguments of its own. */
  args?: Record<string, any>
}

export interface LoadOptions {
  url: string
  /**
   * A page of the same site opened first, before recording starts. The page is then mostly
   * loaded by a renderer already running, traced from its start: one started for the navigation
   * itself often loses its first events (navigation start among them) from the trace.
   */
  startUrl?: string
  /** Adds V8's sampling profiler to the trace (for attributing script time; it slows scripts down a little). */
  profile?: boolean
  /** How long to keep recording after the load event. */
  settleMs: number
}

/** Lighthouse's mobile CPU slowdown, applied for real (Lighthouse itself simulates it). */
export const CPU_SLOWDOWN = 4

const CATEGORIES = [
  // Tasks, script, style, layout, paint, image decode, timers, events, GC; user timing (navigation start).
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink.user_timing',
  // Also needed: ThreadControllerImpl::RunTask (toplevel), first paint (loading), module compile and
  // GC phases (v8), and V8's compiling of functions on first call on the main thread (v8.compile).
  'toplevel',
  'loading',
  'v8',
  'disabled-by-default-v8.compile',
  '__metadata',
]

/**
 * Chromium as scripts/lighthouse.ts starts it (MEASURING_FLAGS), or through `executablePath` (a
 * wrapper that boxes it). Signals are the caller's to handle: Playwright's own handlers would end
 * the process on Ctrl-C before its clean-up, or close the browser under it on the others.
 */
export async function launchBrowser(executablePath = browserPath()): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: MEASURING_FLAGS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  })
}

/** A long animation frame as the page saw it (the Long Animation Frames API), times in ms since navigation start. */
export interface LongFrame {
  start: number
  duration: number
  /** When the frame's rendering began (style, layout, paint): what came before it was tasks and scripts. */
  renderStart: number
  /** Style and layout inside the frame's rendering and forced by its scripts. */
  styleAndLayoutStart: number
  /** The scripts that ran in it, longest first: who called them, from which file and function. */
  scripts: { invoker: string; source: string; duration: number; forcedStyleAndLayout: number }[]
}

/** What the page records from its first instant: every long animation frame (50 ms or more) and when it first painted. */
function observeFrames() {
  const frames: unknown[] = []
  ;(window as unknown as { __longFrames: unknown[] }).__longFrames = frames
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as unknown as {
      startTime: number
      duration: number
      renderStart: number
      styleAndLayoutStart: number
      scripts: { invoker: string; sourceURL: string; sourceFunctionName: string; duration: number; forcedStyleAndLayoutDuration: number }[]
    }[]) {
      frames.push({
        start: entry.startTime,
        duration: entry.duration,
        renderStart: entry.renderStart,
        styleAndLayoutStart: entry.styleAndLayoutStart,
        scripts: entry.scripts
          .map((script) => ({
            invoker: script.invoker,
            source: `${script.sourceURL.slice(script.sourceURL.lastIndexOf('/') + 1)}${script.sourceFunctionName ? ` ${script.sourceFunctionName}` : ''}`,
            duration: script.duration,
            forcedStyleAndLayout: script.forcedStyleAndLayoutDuration,
          }))
          .sort((a, b) => b.duration - a.duration),
      })
    }
  }).observe({ type: 'long-animation-frame', buffered: true })
}

export interface RecordedLoad {
  events: TraceEvent[]
  /** Long animation frames, from navigation start until recording ended. */
  longFrames: LongFrame[]
  /** First paint as the page saw it, ms since navigation start. */
  firstPaint: number | undefined
}

/** Loads the page once and returns the trace events of the whole load and the long animation frames the page saw. */
export async function recordLoad(browser: Browser, options: LoadOptions): Promise<RecordedLoad> {
  const screen = screenEmulationMetrics.mobile
  const context = await browser.newContext({
    viewport: { width: screen.width, height: screen.height },
    deviceScaleFactor: screen.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
    userAgent: userAgents.mobile,
  })
  try {
    const page = await context.newPage()
    await page.addInitScript(observeFrames)
    if (options.startUrl) await page.goto(options.startUrl)
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    const categories = options.profile ? [...CATEGORIES, 'disabled-by-default-v8.cpu_profiler'] : CATEGORIES
    await cdp.send('Tracing.start', { transferMode: 'ReturnAsStream', traceConfig: { includedCategories: categories } })
    await page.goto(options.url, { waitUntil: 'load', timeout: 60_000 })
    await page.waitForTimeout(options.settleMs)
    const [supported, longFrames, firstPaint] = await page.evaluate(() => [
      PerformanceObserver.supportedEntryTypes.includes('long-animation-frame'),
      (window as unknown as { __longFrames: LongFrame[] }).__longFrames,
      performance.getEntriesByName('first-paint')[0]?.startTime,
    ] as const)
    // Without the API every page would seem to have no long frame at all.
    if (!supported) throw new Error('this Chromium has no Long Animation Frames API (Chromium 123 or later has): set CHROME_PATH to a newer one')
    const complete = new Promise<string>((resolve) => cdp.once('Tracing.tracingComplete', (event) => resolve(event.stream!)))
    await cdp.send('Tracing.end')
    const handle = await complete
    const parts: Buffer[] = []
    for (;;) {
      const chunk = await cdp.send('IO.read', { handle })
      parts.push(Buffer.from(chunk.data, chunk.base64Encoded ? 'base64' : 'utf8'))
      if (chunk.eof) break
    }
    await cdp.send('IO.close', { handle })
    const trace = JSON.parse(Buffer.concat(parts).toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[]
    return { events: Array.isArray(trace) ? trace : trace.traceEvents, longFrames, firstPaint }
  } finally {
    await context.close()
  }
}
