/** What `npm run bench:load` prints: the table of what scripts add, and each page type's breakdown. */
import type { ScriptTime } from '../lib/js-profile.js'
import type { LongFrame } from '../lib/load-trace.js'
import { QUIET_BUSY_MS, QUIET_MS, type LongTask } from '../lib/main-thread.js'
import type { ServedDocument } from '../lib/page-proxy.js'

/** One load, read from its trace. */
export interface Measurement {
  /** Top-level task time from navigation start to idle, ms, elapsed. */
  wall: number
  /** The same tasks' CPU time on the thread, ms. */
  cpu: number
  /** Since navigation start, ms. */
  firstPaint: number
  /** The largest contentful paint, since navigation start, ms; NaN when none was traced. */
  largestPaint: number
  /** Since navigation start, ms; undefined when the page never fell idle while recorded. */
  idle: number | undefined
  /** Self time per kind of work to idle, ms: from first paint, or from navigation start (BENCH_LOAD_BREAKDOWN_FROM). */
  work: Map<string, number>
  /** Top-level tasks from first paint to idle, and those of 50 ms or more among them. */
  tasks: number
  longTasks: LongTask[]
  /** Total blocking time: the time past 50 ms of each task from first contentful paint to idle, ms. */
  blocking: number
  /** Long animation frames that began at or after first paint. */
  framesAfterPaint: LongFrame[]
  /** Module scripts compiled. */
  modules: number
  /** CPU time of compiling as scripts streamed in, on the renderer's other threads, ms. */
  backgroundCompile: number
}

export interface PageResult {
  name: string
  path: string
  /** The page as served. */
  document: ServedDocument
  with: Measurement[]
  without: Measurement[]
  /** Script time by origin, from the profiled loads. */
  profile?: ScriptTime
  /** An earlier build's page (BENCH_LOAD_BEFORE), shown beside this build's: its goals are not this build's. */
  earlier?: true
}

/** What the site's scripts may add at load, as a multiple of what the bare page's scripts add. */
export const GOAL_RATIO = 1.5
/** How far a page's total blocking time may be above the bare page's, ms. */
export const GOAL_BLOCKING_OVER_BARE_MS = 100
/** The longest animation frame a page may have after its first paint, in the median of its loads, ms. */
export const GOAL_LONGEST_FRAME_MS = 150

/** The median; NaN when there is none, or when a value could not be measured (NaN would sort anywhere). */
export const median = (values: number[]) => {
  if (!values.length || !values.every(Number.isFinite)) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
/** A figure in whole milliseconds; one that could not be measured (NaN, infinite) as –. */
const round = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '–')
const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0)
const largest = (map: Map<string, number>, count: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, count)

/** What the scripts add: the median with them minus the median without. */
const added = (page: PageResult, measure: 'wall' | 'cpu') => median(page.with.map((run) => run[measure])) - median(page.without.map((run) => run[measure]))

/**
 * The ratio round by round: what the scripts added in each round's two loads of the page, over
 * what they added in that round's two loads of the bare page (the goal is judged on the medians).
 * A round whose bare page gained less than a tenth of what its scripts add (median with minus
 * median without), or a round whose page figures were not measured, gives no ratio that means
 * anything: it is left out, and counted.
 */
function roundRatios(page: PageResult, bare: PageResult, measure: 'wall' | 'cpu'): { ratios: number[]; dropped: number } {
  const rounds = Math.min(page.with.length, page.without.length, bare.with.length, bare.without.length)
  const least = added(bare, measure) / 10
  const ratios: number[] = []
  for (let index = 0; index < rounds; index++) {
    const bareAdds = bare.with[index]![measure] - bare.without[index]![measure]
    const pageAdds = page.with[index]![measure] - page.without[index]![measure]
    if (!(bareAdds > 0 && bareAdds >= least) || !Number.isFinite(pageAdds)) continue
    ratios.push(pageAdds / bareAdds)
  }
  return { ratios, dropped: rounds - ratios.length }
}

/** The spread of the round-by-round ratios: lowest, median and highest, each to two places, aligned. */
function spread({ ratios, dropped }: { ratios: number[]; dropped: number }): string {
  const left = dropped ? ` (${dropped} left out)` : ''
  if (ratios.length === 0) return `–${left}`
  if (ratios.length === 1) return `${ratios[0]!.toFixed(2)}${left}`
  const sorted = [...ratios].sort((a, b) => a - b)
  const figure = (ratio: number) => ratio.toFixed(2).padStart(5)
  // Two rounds have no median of their own: their lowest and highest alone.
  const middle = sorted.length < 3 ? '–'.padStart(5) : figure(median(sorted))
  return `${figure(sorted[0]!)} · ${middle} · ${figure(sorted.at(-1)!)}${left}`
}

function printColumns(header: string[], rows: string[][], leftAligned: number[]) {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)))
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (leftAligned.includes(column) ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd()
  console.log(line(header))
  for (const row of rows) console.log(line(row))
}

/** The longest animation frame after first paint in one load, ms (0 when none reached 50 ms). */
const longestFrame = (run: Measurement) => Math.max(0, ...run.framesAfterPaint.map((frame) => frame.duration))

/** Prints the tables and says whether every page met every goal; `slowdown` says how the browser was slowed. */
export function printTable(pages: PageResult[], bare: PageResult, slowdown: string): boolean {
  let met = true
  const runs = bare.with.length
  const idle = (loads: Measurement[]) => {
    const times = loads.map((run) => run.idle).filter((time) => time !== undefined)
    return times.length ? `${(median(times) / 1000).toFixed(1)} s` : 'never'
  }
  for (const measure of ['wall', 'cpu'] as const) {
    console.log(
      measure === 'wall'
        ? `\nMain-thread time at load, navigation start → idle (${QUIET_MS} ms with ≤ ${QUIET_BUSY_MS} ms of work), ${slowdown}, median of ${runs} (ms)`
        : `\nThe same tasks in the main thread's own CPU time (the slowdown included; time spent waiting for a core while other processes ran left out), median of ${runs} (ms)`,
    )
    const bareAdds = added(bare, measure)
    // No ratio can be judged against a bare page whose scripts added nothing: the run fails, and
    // every page misses the goal.
    if (!(bareAdds > 0)) {
      console.log(`the bare page's scripts added ${round(bareAdds)} ms here: no ratio can be judged (✗)`)
      met = false
    }
    const rows = [...pages, bare].map((page) => {
      const ratio = added(page, measure) / bareAdds
      // NaN (a figure not measured) or a bare page that gained nothing fails as well, and so does
      // a page whose own scripts gained nothing: they cannot have run (a file that did not load,
      // a script that threw at once), and its other figures would pass for the wrong reason. The
      // bare page itself, the reference, is not judged.
      const over = page !== bare && (!(ratio <= GOAL_RATIO) || !(bareAdds > 0) || !(added(page, measure) > 0))
      if (over && !page.earlier) met = false
      const never = [...page.with, ...page.without].filter((run) => run.idle === undefined).length
      const row = [
        page === bare ? `${page.name} (reference)` : page.name,
        page.path,
        round(median(page.with.map((run) => run[measure]))),
        round(median(page.without.map((run) => run[measure]))),
        round(added(page, measure)),
        round(bareAdds),
        `${Number.isFinite(ratio) && bareAdds > 0 ? `${ratio.toFixed(2)}×` : '–'}${over ? ' ✗' : ''}`,
        page === bare ? '' : spread(roundRatios(page, bare, measure)),
      ]
      if (measure === 'wall') row.push(`${idle(page.with)} / ${idle(page.without)}${never ? ` (${never} loads never idle)` : ''}`)
      return row
    })
    const header = ['page', 'path', 'with scripts', 'without', 'scripts add', 'bare adds', 'ratio', 'per round: low · median · high']
    if (measure === 'wall') header.push('idle at, with / without')
    printColumns(header, rows, [0, 1, 7, 8])
  }
  console.log(
    `goal: scripts add at most ${GOAL_RATIO}× what they add to the bare React 19 + React Router 7 page (✗: over), judged on the medians;` +
      " each round's ratio beside it shows how far single loads vary (a round where the bare page's scripts added under a tenth of what they add over all rounds, or whose page figures were not measured, is left out)",
  )

  console.log(
    `\nResponsiveness at load, ${slowdown}, median of ${runs}: total blocking time (each task's time past 50 ms, first contentful paint → idle)` +
      ` and the longest animation frame that began after first paint (Long Animation Frames API; 0: none of 50 ms or more);` +
      ' the largest contentful paint, ms after navigation start, shown and not judged',
  )
  const bareBlocking = median(bare.with.map((run) => run.blocking))
  const rows = [...pages, bare].map((page) => {
    const blocking = median(page.with.map((run) => run.blocking))
    const frame = median(page.with.map(longestFrame))
    // The bare page is what the others are measured against: its own figures are shown, not judged.
    // A figure that could not be measured (NaN) misses its goal.
    const reference = page === bare
    const over = !reference && !(blocking - bareBlocking <= GOAL_BLOCKING_OVER_BARE_MS)
    const long = !reference && !(frame <= GOAL_LONGEST_FRAME_MS)
    if ((over || long) && !page.earlier) met = false
    return [
      reference ? `${page.name} (reference)` : page.name,
      `${round(blocking)}${over ? ' ✗' : ''}`,
      round(median(page.without.map((run) => run.blocking))),
      `${round(frame)}${long ? ' ✗' : ''}`,
      page.with.map((run) => round(longestFrame(run))).join(', '),
      round(median(page.without.map(longestFrame))),
      round(median(page.with.map((run) => run.largestPaint))),
      round(median(page.without.map((run) => run.largestPaint))),
    ]
  })
  printColumns(['page', 'TBT ms', 'without scripts', 'longest frame ms', 'each load', 'without scripts', 'largest paint ms', 'without scripts'], rows, [0, 4])
  console.log(
    `goals: TBT at most ${GOAL_BLOCKING_OVER_BARE_MS} ms above the bare page's (${round(bareBlocking)} ms); the median load's longest frame after first paint at most ${GOAL_LONGEST_FRAME_MS} ms (✗: missed);` +
      ' the bare page is the reference, its own figures not judged',
  )
  return met
}

/** Median self time per kind of work over several loads (a kind missing from a load counts 0 there). */
function medianWork(loads: Measurement[]): Map<string, number> {
  const labels = new Set(loads.flatMap((run) => [...run.work.keys()]))
  return new Map([...labels].map((label) => [label, median(loads.map((run) => run.work.get(label) ?? 0))]))
}

/** The load with the median longest frame: each of its long tasks after first paint, and each long frame with the scripts in it. */
function printLongWork(page: PageResult) {
  const byFrame = [...page.with].sort((a, b) => longestFrame(a) - longestFrame(b))
  const run = byFrame[(byFrame.length - 1) >> 1]!
  console.log(`   in the load with the median longest frame: ${run.longTasks.length} long tasks after first paint, ${run.framesAfterPaint.length} long frames`)
  for (const task of run.longTasks) {
    console.log(`     task at ${round(task.start)} ms, ${round(task.duration)} ms: ${task.work.map(([label, value]) => `${label} ${round(value)}`).join(' · ')}`)
  }
  for (const frame of run.framesAfterPaint) {
    const scripts = frame.scripts.slice(0, 3).map((script) => `${script.invoker} (${script.source}) ${round(script.duration)}${script.forcedStyleAndLayout >= 1 ? `, forced layout ${round(script.forcedStyleAndLayout)}` : ''}`)
    const rendering = frame.start + frame.duration - frame.renderStart
    console.log(`     frame at ${round(frame.start)} ms, ${round(frame.duration)} ms (rendering ${round(frame.renderStart ? rendering : 0)}): ${scripts.join(' · ') || 'no script'}`)
  }
}

/** The JSON text of the page state, from the page's HTML. */
const pageState = (html: string) => /<script type="application\/json" id="(?:__router_state|bare-state)"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''

/** Prints what the main thread did in a page type's loads from `from` (first paint or navigation start) to idle: `top` kinds of work, and `top` functions by self time. */
export function printBreakdown(page: PageResult, from: string, top: number) {
  const withWork = medianWork(page.with)
  const withoutWork = medianWork(page.without)
  const idles = page.with.map((run) => run.idle).filter((time) => time !== undefined)
  console.log(`\n── ${page.name}  ${page.path}`)
  console.log(
    `   first paint ${round(median(page.with.map((run) => run.firstPaint)))} ms, idle ${idles.length ? `${round(median(idles))} ms` : 'never'}:` +
      ` ${round(median(page.with.map((run) => sum(run.work.values()))))} ms of main-thread work from ${from} to idle` +
      ` (${round(median(page.without.map((run) => sum(run.work.values()))))} ms without scripts); ${round(median(page.with.map((run) => run.tasks)))} tasks after first paint,` +
      ` ${round(median(page.with.map((run) => run.longTasks.length)))} of them long (≥ 50 ms)`,
  )
  console.log(`   self time from ${from} to idle, median of ${page.with.length}`.padEnd(78) + 'with scripts   without')
  for (const [label, value] of largest(withWork, top)) {
    const without = withoutWork.get(label)
    console.log(`     ${label.padEnd(72)} ${round(value).padStart(6)} ms ${without ? `${round(without).padStart(6)} ms` : '       –'}`)
  }
  const forced = sum([...withWork].filter(([label]) => label.includes('forced by script')).map(([, value]) => value))
  const state = pageState(page.document.body)
  const elements = (page.document.body.match(/<[a-zA-Z][\w-]*[\s/>]/g) ?? []).length
  const profile = page.profile
  const readState = profile ? sum([...profile.byFunction].filter(([name]) => name.startsWith('shared/router-state.ts')).map(([, value]) => value)) : 0
  console.log(
    `   ${median(page.with.map((run) => run.modules))} module scripts; ${elements.toLocaleString('en-US')} elements in the HTML; page state ${(state.length / 1024).toFixed(1)} KB, read (JSON.parse) in ${round(readState)} ms;` +
      ` style and layout forced by scripts ${round(forced)} ms; image decoding on the main thread ${round(withWork.get('Image decode (main thread)') ?? 0)} ms`,
  )
  printLongWork(page)
  if (!profile) return
  const compile = [...withWork].filter(([label]) => label.startsWith('Compile'))
  console.log(
    `   compiling on the main thread: ${round(sum(compile.map(([, value]) => value)))} ms` +
      ` (on first call ${round(withWork.get('Compile functions on first call (lazy compile)') ?? 0)} ms, the rest whole scripts);` +
      ` as they streamed in, on other threads: ${round(median(page.with.map((run) => run.backgroundCompile)))} ms of CPU`,
  )
  console.log(`   script self time by origin, navigation start → idle, median of the profiled loads (ms): ${largest(profile.byGroup, 10).map(([group, value]) => `${group} ${round(value)}`).join(' · ')}`)
  console.log(`     evaluating each script (its top-level code and all it calls): ${largest(profile.evaluation, 6).map(([file, value]) => `${file} ${round(value)}`).join(' · ')}`)
  const siteFiles = largest(new Map([...profile.byFile].filter(([file]) => /^(shared|client|scripts)\//.test(file))), 6)
  if (siteFiles.length) console.log(`     site files: ${siteFiles.map(([file, value]) => `${file} ${round(value)}`).join(' · ')}`)
  console.log('     functions with the most self time:')
  for (const [name, value] of largest(profile.byFunction, top)) console.log(`       ${round(value).padStart(5)} ms  ${name}`)
  console.log("     the site's functions by total time (with all they call: React, React Router, the browser):")
  for (const [name, value] of largest(profile.siteTotal, 6)) console.log(`       ${round(value).padStart(5)} ms  ${name}`)
}
