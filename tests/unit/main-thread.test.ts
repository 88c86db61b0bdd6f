import { describe, expect, it } from 'vitest'
import type { TraceEvent } from '../../scripts/lib/load-trace.js'
import { locateLoad, selfTimes } from '../../scripts/lib/main-thread.js'
import type { SourceOrigins } from '../../scripts/lib/source-origins.js'

const URL = 'http://127.0.0.1:1/'
const at = (ms: number) => 1_000_000 + ms * 1000
const complete = (name: string, start: number, duration: number, args?: Record<string, unknown>): TraceEvent => ({ name, cat: 'toplevel', ph: 'X', ts: at(start), dur: duration * 1000, pid: 1, tid: 2, args })
/** A top-level task with the scheduler's task inside, posted by `postedFrom`, holding `inside`. */
const task = (start: number, duration: number, postedFrom: string, inside: TraceEvent[] = []) => [
  complete('RunTask', start, duration),
  complete('ThreadControllerImpl::RunTask', start, duration, { src_file: 'x.cc', src_func: postedFrom }),
  ...inside,
]

function loadOf(events: TraceEvent[]) {
  return locateLoad(
    [
      { name: 'navigationStart', cat: 'blink.user_timing', ph: 'R', ts: at(0), pid: 1, tid: 2, args: { data: { documentLoaderURL: URL, isLoadingMainFrame: true, navigationId: 'n' } } },
      { name: 'firstPaint', cat: 'loading', ph: 'R', ts: at(10), pid: 1, tid: 2, args: { data: { navigationId: 'n' } } },
      ...events,
    ],
    URL,
  )
}

describe('what the main thread spent its time on', () => {
  it('names script resumed after scheduler.yield() as script, not as network callbacks', () => {
    const load = loadOf([...task(20, 30, 'DOMTaskContinuation'), ...task(60, 5, 'PostTaskToMainThread')])
    const times = selfTimes(load, load.firstPaint, at(100), {} as SourceOrigins)
    expect(Object.fromEntries(times)).toEqual({
      'Task time outside named events (JS resumed after scheduler.yield())': 30,
      'Task time outside named events (network callbacks, IPC and the like)': 5,
    })
  })

  it('still names a task by the events inside it first', () => {
    const load = loadOf(task(20, 8, 'DOMTaskContinuation', [complete('DocumentModuleScriptFetcher::NotifyFinished', 21, 2)]))
    const times = selfTimes(load, load.firstPaint, at(100), {} as SourceOrigins)
    expect(times.get('Task time outside named events (a module script arrived)')).toBe(8)
  })
})
