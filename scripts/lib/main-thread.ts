/**
 * Reading a page load's trace: the page's renderer main thread (CrRendererMain of the process
 * that committed the navigation), its top-level tasks, when it fell idle, how busy it was,
 * and what it spent that time on, as self time per kind of work.
 */
import type { TraceEvent } from './load-trace.js'
import type { SourceOrigins } from './source-origins.js'

/** A trace event on the main thread, with the events nested inside it. */
export interface TaskNode {
  event: TraceEvent
  start: number
  end: number
  children: TaskNode[]
}

/** One page load, located in its trace (times in microseconds of the trace clock). */
export interface LoadTimeline {
  pid: number
  tid: number
  navigationStart: number
  firstPaint: number
  /** First contentful paint: where total blocking time starts counting. */
  firstContentfulPaint: number
  /** The last largest contentful paint candidate of the main frame; undefined when none was traced. */
  largestContentfulPaint: number | undefined
  /** The main thread's events not nested in another one, in order. */
  roots: TaskNode[]
  /** The last moment the trace covers. */
  traceEnd: number
}

/** The main thread counts as idle once the next second holds at most this much work (1%). */
export const QUIET_MS = 1000
export const QUIET_BUSY_MS = 10

const TASK_NAMES = new Set(['RunTask', 'ThreadControllerImpl::RunTask'])
const isTask = (node: TaskNode) => TASK_NAMES.has(node.event.name)
const ms = (microseconds: number) => microseconds / 1000

/** The main thread's complete events, nested by time. */
function nest(events: TraceEvent[]): TaskNode[] {
  const sorted = events
    .filter((event) => event.ph === 'X' && event.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!)
  const roots: TaskNode[] = []
  const open: TaskNode[] = []
  for (const event of sorted) {
    const node: TaskNode = { event, start: event.ts, end: event.ts + event.dur!, children: [] }
    while (open.length && open.at(-1)!.end <= node.start) open.pop()
    if (open.length) open.at(-1)!.children.push(node)
    else roots.push(node)
    open.push(node)
  }
  return roots
}

/** Finds the load of `url` in a trace: the renderer that committed it, its main thread, navigation start and first paint. */
export function locateLoad(events: TraceEvent[], url: string): LoadTimeline {
  const navigation = events.find(
    (event) => event.name === 'navigationStart' && event.args?.data?.documentLoaderURL === url && event.args.data.isLoadingMainFrame,
  )
  if (!navigation) throw new Error(`no navigation to ${url} in the trace`)
  const { pid, tid } = navigation
  const navigationId = navigation.args!.data.navigationId as string
  const paint = events.find((event) => event.name === 'firstPaint' && event.pid === pid && event.args?.data?.navigationId === navigationId)
  if (!paint) throw new Error(`no first paint of ${url} in the trace`)
  const contentfulPaint = events.find((event) => event.name === 'firstContentfulPaint' && event.pid === pid && event.args?.data?.navigationId === navigationId)
  // The newest candidate by its own count (the trace's order is not guaranteed), the later one on a tie.
  const largestPaint = events
    .filter((event) => event.name === 'largestContentfulPaint::Candidate' && event.pid === pid && event.args?.frame === navigation.args!.frame && event.args?.data?.navigationId === navigationId)
    .reduce<TraceEvent | undefined>((newest, event) => (newest && (newest.args!.data.candidateIndex ?? -1) > (event.args!.data.candidateIndex ?? -1) ? newest : event), undefined)
  return {
    pid,
    tid,
    navigationStart: navigation.ts,
    firstPaint: paint.ts,
    firstContentfulPaint: contentfulPaint?.ts ?? paint.ts,
    largestContentfulPaint: largestPaint?.ts,
    roots: nest(events.filter((event) => event.pid === pid && event.tid === tid)),
    traceEnd: events.reduce((end, event) => Math.max(end, event.ts + (event.dur ?? 0)), 0),
  }
}

/** Microseconds of task time inside [from, to). */
function busyWithin(tasks: TaskNode[], from: number, to: number): number {
  let busy = 0
  for (const task of tasks) {
    if (task.start >= to) break
    busy += Math.max(0, Math.min(task.end, to) - Math.max(task.start, from))
  }
  return busy
}

/**
 * When the main thread fell idle after first paint: the end of the first task after which the
 * next second holds at most 10 ms of work (a background tick now and then is not work left to
 * do). Undefined when the trace ends before such a second.
 */
export function idleAt(load: LoadTimeline): number | undefined {
  const tasks = load.roots.filter(isTask)
  const candidates = [load.firstPaint, ...tasks.map((task) => task.end).filter((end) => end >= load.firstPaint)]
  for (const moment of candidates) {
    if (moment + QUIET_MS * 1000 > load.traceEnd) return undefined
    const later = tasks.filter((task) => task.end > moment)
    if (busyWithin(later, moment, moment + QUIET_MS * 1000) <= QUIET_BUSY_MS * 1000) return moment
  }
  return undefined
}

/** Main-thread time in top-level tasks starting in [from, to), ms: elapsed (wall clock) and the thread's CPU time. */
export function busyMs(load: LoadTimeline, from: number, to: number): { wall: number; cpu: number } {
  const tasks = load.roots.filter((node) => isTask(node) && node.start >= from && node.start < to)
  return {
    wall: ms(tasks.reduce((sum, node) => sum + (node.end - node.start), 0)),
    cpu: ms(tasks.reduce((sum, node) => sum + (node.event.tdur ?? 0), 0)),
  }
}

/** How many top-level tasks start in [from, to). */
export function taskCount(load: LoadTimeline, from: number, to: number): number {
  return load.roots.filter((node) => isTask(node) && node.start >= from && node.start < to).length
}

/** A task's time past 50 ms blocks input: the part total blocking time counts. */
export const LONG_TASK_MS = 50

/**
 * Total blocking time on the real (slowed) main thread: the time past 50 ms of every top-level task
 * that starts between first contentful paint and `to`, ms. Lighthouse's own differs a little: it
 * also counts the part after first contentful paint of a task that began before it, and ends at
 * its interactive mark rather than at this idle point.
 */
export function blockingMs(load: LoadTimeline, to: number): number {
  const tasks = load.roots.filter((node) => isTask(node) && node.start >= load.firstContentfulPaint && node.start < to)
  return ms(tasks.reduce((sum, node) => sum + Math.max(0, node.end - node.start - LONG_TASK_MS * 1000), 0))
}

/** How many module scripts the page compiled (each one fetched, finished and evaluated in tasks of its own). */
export function moduleScripts(load: LoadTimeline): number {
  const urls = new Set<string>()
  const visit = (node: TaskNode) => {
    if (node.event.name === 'v8.compileModule') urls.add(node.event.args?.data?.url)
    node.children.forEach(visit)
  }
  load.roots.filter((node) => node.start >= load.navigationStart).forEach(visit)
  return urls.size
}

// What each kind of event is called in the report. Events not named here take their parent's name.
const RUNS_SCRIPT = new Set(['FunctionCall', 'EvaluateScript', 'v8.evaluateModule', 'v8.callFunction', 'RunMicrotasks', 'v8.run'])
const PAINT = new Set(['PrePaint', 'Paint', 'PaintImage', 'Layerize', 'Commit', 'UpdateLayer', 'UpdateLayerTree', 'CompositeLayers'])
const DECODE = new Set(['Decode Image', 'ImageDecodeTask', 'Decode LazyPixelRef', 'Draw LazyPixelRef', 'Resize Image'])
const GC = /GC|Scavenge|Sweep|Mark(ing|Compact)/
const TRIGGERS: Record<string, (event: TraceEvent) => string> = {
  TimerFire: () => 'timer',
  EventDispatch: (event) => `${event.args?.data?.type ?? ''} event`.trim(),
  FireAnimationFrame: () => 'animation frame',
  FireIdleCallback: () => 'idle callback',
  RunMicrotasks: () => 'microtask',
  'v8.evaluateModule': () => 'module top level',
  ParseHTML: () => 'while parsing',
}

const fileName = (url: string) => url.slice(url.lastIndexOf('/') + 1).split('?')[0] || '(inline)'

/** The report's name for an event's own time, given its ancestors (outermost first); undefined to take the parent's. */
function labelOf(event: TraceEvent, ancestors: TraceEvent[], origins: SourceOrigins): string | undefined {
  const { name } = event
  const inScript = ancestors.some((ancestor) => RUNS_SCRIPT.has(ancestor.name))
  if (GC.test(name)) return 'GC'
  if (name.startsWith('v8.compile') || name.startsWith('V8.Compile')) {
    if (ancestors.some((ancestor) => ancestor.name.startsWith('v8.compile') || ancestor.name.startsWith('V8.Compile'))) return undefined
    const url = event.args?.data?.url ?? event.args?.fileName
    return url ? `Compile ${fileName(url)}` : 'Compile functions on first call (lazy compile)'
  }
  if (name === 'FunctionCall') {
    const data = event.args?.data ?? {}
    const trigger = [...ancestors].reverse().find((ancestor) => TRIGGERS[ancestor.name])
    const origin = origins.at(data.url ?? '', Math.max(0, (data.lineNumber ?? 1) - 1), Math.max(0, (data.columnNumber ?? 1) - 1))
    const called = origin.owner === 'site' ? origin.file : origin.owner === 'scheduler' ? "scheduler (React's work loop: render, hydrate, effects)" : origin.owner
    return `JS (${trigger ? TRIGGERS[trigger.name]!(trigger) : 'task'}) → ${called}`
  }
  if (name === 'v8.evaluateModule') return 'Module top-level code'
  if (name === 'EvaluateScript') return `Script top-level code ${fileName(event.args?.data?.url ?? '')}`
  if (name === 'RunMicrotasks') return 'Microtasks outside JS calls (promise jobs, module linking)'
  if (name === 'TimerFire') return 'Timers (outside JS)'
  if (name === 'EventDispatch') return 'Event dispatch (outside JS)'
  if (name === 'ParseHTML') return 'Parse HTML'
  if (name === 'ParseAuthorStyleSheet') return 'Parse stylesheet'
  if (name === 'UpdateLayoutTree') return inScript ? 'Recalculate style (forced by script)' : 'Recalculate style'
  if (name === 'Layout') return inScript ? 'Layout (forced by script)' : 'Layout'
  if (PAINT.has(name)) return 'Paint (pre-paint, paint, layerize, commit)'
  if (DECODE.has(name)) return 'Image decode (main thread)'
  if (name === 'IntersectionObserverController::computeIntersections') return 'Intersection observers'
  if (name === 'HitTest') return 'Hit test'
  if (name === 'DocumentLoader::CommitNavigation') return 'Navigation commit (new document, script context)'
  return undefined
}

const YIELD_CONTINUATION = 'JS resumed after scheduler.yield()'

/** The function that posted a top-level task, as its trace event says (the task itself, or the scheduler's task inside it). */
function postedBy(task: TaskNode): string | undefined {
  const inner = task.children.find((child) => child.event.name === 'ThreadControllerImpl::RunTask')
  return (task.event.args?.src_func ?? inner?.event.args?.src_func) as string | undefined
}

/** What a task was about, judging by the events inside it, for naming the time not in any event named above. */
function taskKind(task: TaskNode): string {
  const names = new Set<string>()
  const collect = (node: TaskNode) => {
    names.add(node.event.name)
    node.children.forEach(collect)
  }
  collect(task)
  if (names.has('DocumentModuleScriptFetcher::NotifyFinished')) return 'a module script arrived'
  // Script resumed after `await scheduler.yield()` runs in a task of its own, as a promise job
  // with no JS event of its own; the task says who posted it.
  if (postedBy(task) === 'DOMTaskContinuation') return YIELD_CONTINUATION
  if (names.has('v8.evaluateModule')) return 'module evaluation'
  if (names.has('FunctionCall')) return 'JS'
  if (names.has('ParseHTML')) return 'HTML parsing'
  if (['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Commit'].some((name) => names.has(name))) return 'rendering a frame'
  return 'network callbacks, IPC and the like'
}

/** Adds one top-level task's self time per kind of work to `totals` (ms). */
function addSelfTimes(root: TaskNode, origins: SourceOrigins, totals: Map<string, number>) {
  const kind = taskKind(root)
  const visit = (node: TaskNode, ancestors: TraceEvent[], inherited: string) => {
    // Script resumed after scheduler.yield() runs as a promise job of its task: named as such
    // rather than as microtasks in general.
    const resumed = kind === YIELD_CONTINUATION && node.event.name === 'RunMicrotasks' ? YIELD_CONTINUATION : undefined
    const label = resumed ?? labelOf(node.event, ancestors, origins) ?? inherited
    const own = node.end - node.start - node.children.reduce((sum, child) => sum + (child.end - child.start), 0)
    totals.set(label, (totals.get(label) ?? 0) + ms(Math.max(0, own)))
    for (const child of node.children) visit(child, [...ancestors, node.event], label)
  }
  visit(root, [], `Task time outside named events (${kind})`)
}

/** Self time (ms) per kind of work, over the tasks that start in [from, to). */
export function selfTimes(load: LoadTimeline, from: number, to: number, origins: SourceOrigins): Map<string, number> {
  const totals = new Map<string, number>()
  for (const root of load.roots) if (isTask(root) && root.start >= from && root.start < to) addSelfTimes(root, origins, totals)
  return totals
}

/** A task of 50 ms or more: when it started (ms since navigation start), how long it took, and its largest kinds of work. */
export interface LongTask {
  start: number
  duration: number
  work: [string, number][]
}

/** The long tasks that start in [from, to), each with the three kinds of work it spent most on. */
export function longTasks(load: LoadTimeline, from: number, to: number, origins: SourceOrigins): LongTask[] {
  return load.roots
    .filter((node) => isTask(node) && node.start >= from && node.start < to && node.end - node.start >= LONG_TASK_MS * 1000)
    .map((node) => {
      const totals = new Map<string, number>()
      addSelfTimes(node, origins, totals)
      const work = [...totals].sort((a, b) => b[1] - a[1]).slice(0, 3)
      return { start: ms(node.start - load.navigationStart), duration: ms(node.end - node.start), work }
    })
}

/**
 * CPU time of compiling scripts as they stream in, on the renderer's other threads (V8's
 * background compile tasks), from navigation start to `to`, ms: work the main thread is spared,
 * though on a phone it still takes a core and a script runs only once it is done. CPU time, as a
 * task's elapsed time includes its waits for the rest of the file.
 */
export function backgroundCompileMs(events: TraceEvent[], load: LoadTimeline, to: number): number {
  const tasks = events.filter(
    (event) => event.name === 'BackgroundCompileTask::Run' && event.ph === 'X' && event.pid === load.pid && event.tid !== load.tid && event.ts >= load.navigationStart && event.ts < to,
  )
  // A task without its thread's CPU time is left out rather than counted with its waits.
  return ms(tasks.reduce((sum, event) => sum + (event.tdur ?? 0), 0))
}
