import { describe, expect, it } from 'vitest'
import type { TraceEvent } from '../../scripts/lib/load-trace.js'
import { locateLoad, selfTimes } from '../../scripts/lib/main-thread.js'
import type { SourceOrigins } from '../../scripts/lib/source-origins.js'

const URL = 'http://127.0.0.1:1/'
const at = (ms: number) => 1_000_000 + ms * 1000
const complete = (name: string, start: number, duration: number, args?: Record<string, unknown>): TraceEvent => ({ name, cat: 'toplevel', ph: 'X', ts: at(start), dur: duration * 1000, pid: 1, tid: 2, args })
/**
 * A top-level task as Chromium records it: the scheduler's task inside (posted by `postedFrom`,
 * `ownMs` long, holding `inside`), then the microtask checkpoint with `microtasksMs` of promise jobs.
 */
const task = (start: number, ownMs: number, postedFrom: string, inside: TraceEvent[] = [], microtasksMs = 0) => [
  complete('RunTask', start, ownMs + microtasksMs),
  complete('ThreadControllerImpl::RunTask', start, ownMs, { src_file: 'x.cc', src_func: postedFrom }),
  ...inside,
  ...(microtasksMs ? [complete('BlinkScheduler_PerformMicrotaskCheckpoint', start + ownMs, microtasksMs), complete('RunMicrotasks', start + ownMs, microtasksMs)] : []),
]

function loadOf(events: TraceEvent[]) {
  return locateLoad(
    [
      { name: 'navigationStart', cat: 'blink.user_timing', ph: 'R', ts: at(0), pid: 1, tid: 2, args: { frame: 'F', data: { documentLoaderURL: URL, isLoadingMainFrame: true, navigationId: 'n' } } },
      { name: 'firstPaint', cat: 'loading', ph: 'R', ts: at(10), pid: 1, tid: 2, args: { data: { navigationId: 'n' } } },
      ...events,
    ],
    URL,
  )
}

describe('finding the load in its trace', () => {
  const candidate = (ms: number, frame: string, navigationId = 'n', candidateIndex?: number): TraceEvent => ({
    name: 'largestContentfulPaint::Candidate',
    cat: 'loading',
    ph: 'R',
    ts: at(ms),
    pid: 1,
    tid: 2,
    args: { frame, data: { navigationId, candidateIndex } },
  })

  it('takes the largest paint from the last candidate of the page itself, not of a frame in it or of another navigation', () => {
    const load = loadOf([candidate(40, 'F'), candidate(90, 'F'), candidate(120, 'IFRAME'), candidate(150, 'F', 'other')])
    expect((load.largestContentfulPaint! - load.navigationStart) / 1000).toBe(90)
  })

  it('takes the candidate the browser counted last, whatever the order of the trace', () => {
    const load = loadOf([candidate(90, 'F', 'n', 2), candidate(40, 'F', 'n', 1)])
    expect((load.largestContentfulPaint! - load.navigationStart) / 1000).toBe(90)
  })

  it('leaves the largest paint unknown when the trace has none', () => {
    expect(loadOf([]).largestContentfulPaint).toBeUndefined()
  })
})

describe('what the main thread spent its time on', () => {
  it('names script resumed after scheduler.yield() as such, not as microtasks in general or network callbacks', () => {
    const load = loadOf([
      // The continuation: the scheduler's task, then the promise job in the microtask checkpoint.
      ...task(20, 2, 'DOMTaskContinuation', [], 28),
      // A promise job after another task, and a task of the network.
      ...task(60, 5, 'PostTaskToMainThread', [], 3),
      ...task(70, 5, 'PostTaskToMainThread'),
    ])
    const times = selfTimes(load, load.firstPaint, at(100), {} as SourceOrigins)
    expect(Object.fromEntries(times)).toEqual({
      'JS resumed after scheduler.yield()': 28,
      'Task time outside named events (JS resumed after scheduler.yield())': 2,
      'Microtasks outside JS calls (promise jobs, module linking)': 3,
      'Task time outside named events (network callbacks, IPC and the like)': 10,
    })
  })

  it('reads who posted the task from the top-level event too', () => {
    const load = loadOf([
      complete('RunTask', 20, 12, { src_file: 'dom_task_continuation.cc', src_func: 'DOMTaskContinuation' }),
      complete('BlinkScheduler_PerformMicrotaskCheckpoint', 22, 10),
      complete('RunMicrotasks', 22, 10),
    ])
    const times = selfTimes(load, load.firstPaint, at(100), {} as SourceOrigins)
    expect(Object.fromEntries(times)).toEqual({ 'JS resumed after scheduler.yield()': 10, 'Task time outside named events (JS resumed after scheduler.yield())': 2 })
  })

  it('still names a task by the events inside it first', () => {
    const load = loadOf(task(20, 8, 'DOMTaskContinuation', [complete('DocumentModuleScriptFetcher::NotifyFinished', 21, 2)]))
    const times = selfTimes(load, load.firstPaint, at(100), {} as SourceOrigins)
    expect(times.get('Task time outside named events (a module script arrived)')).toBe(8)
  })
})
