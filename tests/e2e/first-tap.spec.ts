import type { CDPSession, Locator, Page } from '@playwright/test'
import { HYDRATION_ELEMENT_ID } from '../../shared/site.js'
import { expect, expectEscapeClosesMenu, gotoHydrated, hasReactStarted, isDocumentHydrated, test, waitForHydration } from './fixtures.js'

/** A mid-range phone, as Chromium's performance panel has it. */
const CPU_SLOWDOWN = 4
/** A visitor's first tap comes this soon after the page paints... */
const PAINT_TO_TAP_MS = 100
/** ...and the menu it opens is drawn this soon after (see tapAfterFirstPaint). */
const TAP_TO_OPEN_MS = 200
/**
 * Loads the test may make to land its tap in time (see tapAfterFirstPaint). A load whose tap came
 * late is not counted, whatever the page did: on a busy machine the browser tells of the paint
 * late in most loads, and more of them are needed before one counts.
 */
const ATTEMPTS = 12

/** What the page notes about its first tap, in its own clock (ms since the navigation began). */
interface FirstTap {
  paint: number | null
  /** When the tap was made (the pointerdown's time stamp). */
  tap: number | null
  /** When the test counts the page's answer from (see tapAfterFirstPaint)... */
  counted: number | null
  /** ...and how much of the browser's hold it counts: the page's long tasks within it. */
  busyInHold: number | null
  hydratedAtTap: boolean | null
  /** Whether the page had hydrated when the menu opened: then React opened it, replaying the tap. */
  hydratedAtOpen: boolean | null
  /** The first frame drawn with the menu open, and whether what it opens was visible in it. */
  openFrame: number | null
  shown: boolean | null
  /** Every attribute of the header in that frame (see __e2eHeaderAttributes). */
  header: string[] | null
  /** The page's tasks of 50 ms or more, as [start, end]. */
  longTasks: [number, number][]
  /** Whether the browser reports long tasks (without them, busyInHoldMs would count too little). */
  reportsLongTasks: boolean
  /** The long animation frames the page drew (what held a late menu up, should one be late). */
  frames: string[]
}

interface Watch {
  /** Matches once the menu is open. */
  open: string
  /** What the open menu shows. */
  shown: string
}

type WatchedWindow = Window & {
  __e2eFirstTap: FirstTap
  __e2eIsHydrated: typeof isDocumentHydrated
  __e2eHeaderAttributes: () => string[]
  /** Adds the long tasks the browser has noted but not yet told the page's observer of. */
  __e2eTakeLongTasks: () => void
}

/**
 * Runs in the page before its own scripts: notes the first paint, the first pointer down and the
 * first frame drawn with the menu open.
 */
function watchFirstTap({ open, shown, stateId }: Watch & { stateId: string }) {
  const page = window as unknown as WatchedWindow
  const record: FirstTap = {
    paint: null,
    tap: null,
    counted: null,
    busyInHold: null,
    hydratedAtTap: null,
    hydratedAtOpen: null,
    openFrame: null,
    shown: null,
    header: null,
    longTasks: [],
    reportsLongTasks: PerformanceObserver.supportedEntryTypes.includes('longtask'),
    frames: [],
  }
  page.__e2eFirstTap = record
  // The menu's texts (its label and icon) are React's to change once it has hydrated; the rest
  // of the header must already read as React renders it.
  page.__e2eHeaderAttributes = () =>
    Array.from(document.querySelectorAll('.site-header, .site-header *')).flatMap((element) =>
      Array.from(element.attributes)
        .filter((attribute) => !(attribute.name === 'd' && element.closest('.nav-toggle')))
        .map((attribute) => `${element.tagName.toLowerCase()} ${attribute.name}="${attribute.value}"`),
    )
  new PerformanceObserver((list) => {
    record.paint ??= list.getEntriesByName('first-paint')[0]?.startTime ?? null
  }).observe({ type: 'paint', buffered: true })
  const noteLongTasks = (tasks: PerformanceEntryList) => {
    for (const task of tasks) record.longTasks.push([task.startTime, task.startTime + task.duration])
  }
  const longTasks = new PerformanceObserver((list) => noteLongTasks(list.getEntries()))
  longTasks.observe({ type: 'longtask', buffered: true })
  page.__e2eTakeLongTasks = () => noteLongTasks(longTasks.takeRecords())
  if (!PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')) record.frames.push('(this browser does not report long animation frames)')
  new PerformanceObserver((list) => {
    type Script = { invoker: string; sourceURL: string; sourceFunctionName: string; sourceCharPosition: number; startTime: number; duration: number }
    for (const frame of list.getEntries() as (PerformanceEntry & { renderStart: number; scripts: Script[] })[]) {
      const scripts = frame.scripts.map(
        (script) =>
          `${script.invoker} [${script.sourceURL.split('/').pop()} ${script.sourceFunctionName}@${script.sourceCharPosition}] at ${Math.round(script.startTime)} for ${Math.round(script.duration)}`,
      )
      const render = frame.renderStart > 0 ? `render from ${Math.round(frame.renderStart - frame.startTime)}` : 'nothing drawn'
      record.frames.push(`${Math.round(frame.startTime)}+${Math.round(frame.duration)} ms (${render}${scripts.length ? `; ${scripts.join(', ')}` : ''})`)
    }
  }).observe({ type: 'long-animation-frame', buffered: true })
  addEventListener(
    'pointerdown',
    (event) => {
      if (record.tap !== null) return
      record.tap = event.timeStamp
      record.hydratedAtTap = page.__e2eIsHydrated(stateId)
    },
    { capture: true },
  )
  const observer = new MutationObserver(() => {
    if (!document.querySelector(open)) return
    observer.disconnect()
    record.hydratedAtOpen = page.__e2eIsHydrated(stateId)
    requestAnimationFrame(() => {
      record.openFrame = performance.now()
      record.shown = document.querySelector(shown)?.checkVisibility() ?? false
      record.header = page.__e2eHeaderAttributes()
    })
  })
  observer.observe(document, { subtree: true, attributes: true })
}

/**
 * Resolves when the next document the page loads has painted, as soon as Chromium says so: its
 * lifecycle event comes before the page's own paint entries reach a PerformanceObserver.
 */
function nextFirstPaint(cdp: CDPSession): Promise<void> {
  return new Promise((resolve) => {
    let loader: string | undefined
    const onEvent = ({ name, loaderId }: { name: string; loaderId: string }) => {
      if (name === 'init') loader ??= loaderId
      if (name !== 'firstPaint' || loaderId !== loader) return
      cdp.off('Page.lifecycleEvent', onEvent)
      resolve()
    }
    cdp.on('Page.lifecycleEvent', onEvent)
  })
}

interface LatencyComponent {
  component_type: string
  time_us: number
}

type TraceEvents = { traceEvents: { name: string; args?: { chrome_latency_info?: { component_info?: LatencyComponent[] } } }[] }

/**
 * How long the browser held the tap (its first pointer press) before passing it on to the page's
 * renderer, in ms, from Chromium's own record of the input's latency: from the press's time stamp
 * (what the page sees as the event's timeStamp) to the browser's handing it to the page's widget.
 * A touch sent through the DevTools protocol, as Playwright taps, is held until the page has drawn
 * its next frame (the protocol's way of making sure newly added listeners see it), yet keeps the
 * time it was sent. A finger's touch is not held for a frame; a mouse press is not held either,
 * and its hold reads 0.
 */
function heldByBrowserMs(trace: TraceEvents): number {
  const presses = trace.traceEvents.filter(
    ({ name, args }) => (name === 'InputLatency::TouchStart' || name === 'InputLatency::MouseDown') && args?.chrome_latency_info?.component_info?.length,
  )
  expect(presses, 'records of the press in the trace').toHaveLength(1)
  const components = presses[0]!.args!.chrome_latency_info!.component_info!
  const time = (type: string) => components.find(({ component_type }) => component_type === `COMPONENT_INPUT_EVENT_LATENCY_${type}`)?.time_us
  const [made, passedOn] = [time('ORIGINAL'), time('BEGIN_RWH')]
  if (made === undefined || passedOn === undefined) throw new Error('the browser kept no record of when it passed the tap on to the page')
  const held = (passedOn - made) / 1000
  expect(held, 'ms the browser held the tap').toBeGreaterThanOrEqual(0)
  expect(held, 'ms the browser held the tap').toBeLessThan(5000)
  return held
}

/**
 * The page's long tasks (50 ms or more) within the browser's hold of the tap, in ms. A finger's
 * touch is not held for a frame, but it too waits for the task running when it comes, and the
 * menu's frame waits for the rendering a start-up frame would have done, so those stay counted:
 * the test counts the page's answer from the tap plus the rest of the hold. What it leaves out is
 * the hold's time outside long tasks: waiting, and tasks under 50 ms, which the browser does not
 * report (a finger's touch comes before tasks still waiting to run, so it would mostly not wait
 * for them).
 */
function busyInHoldMs({ tap, longTasks }: FirstTap, held: number): number {
  const overlap = ([start, end]: [number, number]) => Math.max(0, Math.min(end, tap! + held) - Math.max(start, tap!))
  return longTasks.reduce((sum, task) => sum + overlap(task), 0)
}

/**
 * Loads `url` once to find the target, then again as a first visit on a phone's CPU, and taps or
 * clicks the target as soon as the page has painted. The test learns of the paint from the
 * browser, which a busy page tells late: when that made the tap come more than PAINT_TO_TAP_MS
 * after the paint, the load does not count and the test loads the page again. So does a load in
 * which the page hydrated between the tap and the menu opening (the app's start-up task held the
 * tap until then, and React opened the menu): it says nothing of the page before hydration, and
 * every load must still open the menu within TAP_TO_OPEN_MS, counted from the tap plus what of
 * the browser's hold was not the page's long tasks (see heldByBrowserMs and busyInHoldMs).
 * Resolves, once the page has hydrated, with what the page noted on each load.
 */
async function tapAfterFirstPaint(page: Page, url: string, target: Locator, watch: Watch, tap: (x: number, y: number) => Promise<void>) {
  await page.addInitScript({ content: `window.__e2eIsHydrated = ${isDocumentHydrated.toString()}` })
  await page.addInitScript(watchFirstTap, { ...watch, stateId: HYDRATION_ELEMENT_ID })
  await gotoHydrated(page, url)
  const box = await target.boundingBox()
  expect(box, `${String(target)} is on screen`).not.toBeNull()

  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Page.enable')
  await cdp.send('Page.setLifecycleEventsEnabled', { enabled: true })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
  // A first visit: nothing of the page in the browser's cache.
  await cdp.send('Network.enable')
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
  const browser = page.context().browser()!
  const loads: FirstTap[] = []
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    // Only the input's latency record: nothing else of the page is traced.
    await browser.startTracing(page, { categories: ['latencyInfo'] })
    let trace: Buffer | undefined
    try {
      const painted = nextFirstPaint(cdp)
      await page.goto(url, { waitUntil: 'commit' })
      await painted
      await tap(box!.x + box!.width / 2, box!.y + box!.height / 2)
      await waitForHydration(page)
    } finally {
      // Should the load have failed, its error is the one to see.
      trace = await browser.stopTracing().catch(() => undefined)
    }
    if (!trace) throw new Error('the trace of the load could not be read')
    const held = heldByBrowserMs(JSON.parse(trace.toString()) as TraceEvents)
    const record = await page.evaluate(() => {
      const watched = window as unknown as WatchedWindow
      watched.__e2eTakeLongTasks()
      return watched.__e2eFirstTap
    })
    expect(record.reportsLongTasks, 'the browser reports long tasks').toBe(true)
    const busyInHold = record.tap === null ? null : busyInHoldMs(record, held)
    loads.push({ ...record, busyInHold, counted: busyInHold === null ? null : record.tap! + held - busyInHold })
    if (tappedInTime(record) && record.hydratedAtOpen === false) break
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
  const hydratedHeader = await page.evaluate(() => (window as unknown as WatchedWindow).__e2eHeaderAttributes())
  const ms = (from: number | null, to: number | null) => (from === null || to === null ? '?' : Math.round(to - from))
  const described = loads.map(
    ({ paint, tap, counted, busyInHold, openFrame }) =>
      `tap ${ms(paint, tap)} ms after the first paint, counted from ${ms(tap, counted)} ms later (${Math.round(busyInHold ?? 0)} ms of long tasks in the hold counted), open ${ms(counted, openFrame)} ms after that`,
  )
  test.info().annotations.push({ type: 'first tap', description: described.join('; ') })
  // Whoever opened it, the menu opened at once on every load whose tap came in time.
  for (const record of loads.filter(tappedInTime)) expectOpenedInTime(record)
  return { record: loads.at(-1)!, hydratedHeader }
}

/** Whether the tap came within PAINT_TO_TAP_MS of the first paint, as the test means it to. */
const tappedInTime = ({ paint, tap }: FirstTap) => paint !== null && tap !== null && tap - paint <= PAINT_TO_TAP_MS

/** The menu was drawn open within TAP_TO_OPEN_MS of the tap (counted as tapAfterFirstPaint says). */
function expectOpenedInTime({ counted, openFrame, frames }: FirstTap) {
  expect(openFrame, 'the menu opened').not.toBeNull()
  const what = `ms from the tap, counted from ${Math.round(counted!)} ms, to the first frame with the menu open (long frames: ${frames.join(' | ') || 'none'})`
  expect(openFrame! - counted!, what).toBeLessThanOrEqual(TAP_TO_OPEN_MS)
}

/** The page was tapped soon after its first paint, before it hydrated, and drew the open menu soon after. */
function expectOpenedAtOnce(record: FirstTap) {
  const { paint, tap, hydratedAtTap, hydratedAtOpen, shown } = record
  expect(paint, 'the page noted its first paint').not.toBeNull()
  expect(tap, 'the page noted the tap').not.toBeNull()
  expect(tap! - paint!, 'ms from the first paint to the tap').toBeGreaterThanOrEqual(0)
  expect(tap! - paint!, 'ms from the first paint to the tap').toBeLessThanOrEqual(PAINT_TO_TAP_MS)
  expect(hydratedAtTap, 'the page had hydrated at the tap, so the test proves nothing').toBe(false)
  expectOpenedInTime(record)
  expect(hydratedAtOpen, 'the menu opened only once the page had hydrated').toBe(false)
  expect(shown, 'the open menu showed in that frame').toBe(true)
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' })

test.describe('the first tap on the menu, before the page has hydrated, on a phone', () => {
  test.use({ viewport: { width: 412, height: 823 }, hasTouch: true, isMobile: true })

  for (const url of ['/', '/pricing/', '/email-countdown-timer-generator/']) {
    test(`${url}: the menu opens at once, and the header carries on from there once hydrated`, async ({ page }) => {
      const toggle = page.locator('.nav-toggle')
      const watch = { open: '.site-header.is-mobile-open', shown: '#site-nav' }
      const { record, hydratedHeader } = await tapAfterFirstPaint(page, url, toggle, watch, (x, y) => page.touchscreen.tap(x, y))
      expectOpenedAtOnce(record)
      expect(hydratedHeader, 'the header opened before hydration reads as React renders it open').toEqual(record.header)

      await expect(toggle).toHaveAttribute('aria-expanded', 'true')
      await expect(toggle).toHaveAccessibleName('Close menu')
      await expect(mainNav(page)).toBeVisible()
      await toggle.tap()
      await expect(toggle).toHaveAttribute('aria-expanded', 'false')
      await expect(toggle).toHaveAccessibleName('Open menu')
      await expect(mainNav(page)).toBeHidden()
    })
  }
})

test.describe('the first click on a menu, before the page has hydrated, on a desktop', () => {
  test('Solutions opens at once, and once hydrated Escape closes it', async ({ page }) => {
    const solutions = mainNav(page).getByRole('button', { name: 'Solutions', exact: true })
    const watch = { open: '.nav-group.is-open', shown: '.nav-group.is-open .nav-panel' }
    const { record, hydratedHeader } = await tapAfterFirstPaint(page, '/', solutions, watch, (x, y) => page.mouse.click(x, y))
    expectOpenedAtOnce(record)
    expect(hydratedHeader, 'the header opened before hydration reads as React renders it open').toEqual(record.header)

    const panel = page.locator(`[id="${await solutions.getAttribute('aria-controls')}"]`)
    await expectEscapeClosesMenu(page, solutions, panel)
  })
})

/**
 * Runs in the page before its own scripts: as soon as the app has begun hydrating (React has
 * marked the document as its root) and before it has finished, presses the mobile menu's toggle
 * with every event of a press, then clicks it, noting after each whether the page had hydrated
 * by the end of its dispatch.
 */
function pressWhileHydrating({ stateId, events }: { stateId: string; events: readonly string[] }) {
  const page = window as unknown as WatchedWindow & { __e2ePress: Record<string, boolean> | null; __e2eHasReactStarted: typeof hasReactStarted }
  page.__e2ePress = null
  const poll = () => {
    const started = page.__e2eHasReactStarted()
    if (started && !page.__e2eIsHydrated(stateId)) {
      const toggle = document.querySelector('.nav-toggle')!
      const press: Record<string, boolean> = {}
      for (const type of [...events, 'click']) {
        const init = { bubbles: true, cancelable: true, composed: true }
        const event = type.startsWith('key') ? new KeyboardEvent(type, { ...init, key: 'Enter' }) : type === 'click' ? new MouseEvent(type, init) : new Event(type, init)
        toggle.dispatchEvent(event)
        press[type] = page.__e2eIsHydrated(stateId)
      }
      page.__e2ePress = press
      return
    }
    if (!page.__e2eIsHydrated(stateId)) setTimeout(poll, 0)
  }
  setTimeout(poll, 0)
}

/**
 * Every event of a press on a button that React, while it hydrates, answers by hydrating the whole
 * page at once (its "discrete replayable" events a press or a drag can bring), the click aside.
 */
const PRESS_EVENTS = ['pointerdown', 'pointerup', 'pointercancel', 'mousedown', 'mouseup', 'touchstart', 'touchend', 'touchcancel', 'contextmenu', 'dblclick', 'auxclick', 'keydown', 'keypress', 'keyup', 'dragstart', 'dragend', 'drop']

test.describe('a press on the menu while the page hydrates, on a phone', () => {
  test.use({ viewport: { width: 412, height: 823 }, hasTouch: true, isMobile: true })

  test('does not make React hydrate the whole page at once, and opens the menu', async ({ page }) => {
    await page.addInitScript({ content: `window.__e2eIsHydrated = ${isDocumentHydrated.toString()}` })
    await page.addInitScript({ content: `window.__e2eHasReactStarted = ${hasReactStarted.toString()}` })
    await page.addInitScript(pressWhileHydrating, { stateId: HYDRATION_ELEMENT_ID, events: PRESS_EVENTS })
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    await page.goto('/email-countdown-timer-generator/')
    await waitForHydration(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
    const press = await page.evaluate(() => (window as unknown as { __e2ePress: Record<string, boolean> | null }).__e2ePress)
    expect(press, 'the press came while the page hydrated').not.toBeNull()
    // React, had it seen any of them, would have hydrated the whole page before its dispatch returned.
    const hydratedBy = Object.entries(press!).filter(([, hydrated]) => hydrated).map(([type]) => type)
    expect(hydratedBy, 'the events after which the page had hydrated').toEqual([])
    // The click opened the menu, and the header carried on from there once hydrated: the toggle's
    // label, a text only React changes, says so.
    await expect(page.locator('.nav-toggle')).toHaveAttribute('aria-expanded', 'true')
    await expect(page.locator('.nav-toggle')).toHaveAccessibleName('Close menu')
    await expect(mainNav(page)).toBeVisible()
  })
})
