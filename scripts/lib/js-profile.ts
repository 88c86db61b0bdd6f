/**
 * Script time by where the code comes from, from V8's sampling profiler in a trace (the
 * `disabled-by-default-v8.cpu_profiler` category): each sample's running function, mapped
 * through the scripts' source maps to React, React Router or the site's own file. Builtins such
 * as JSON.parse have no frame of their own: their time counts in the function that called them.
 */
import type { TraceEvent } from './load-trace.js'
import { groupOf, type SourceOrigins } from './source-origins.js'

export interface ScriptTime {
  /** React, React Router, site code, browser APIs, GC… → ms. */
  byGroup: Map<string, number>
  /** Package, or the site's source file → ms. */
  byFile: Map<string, number>
  /** `file:line name` → ms. */
  byFunction: Map<string, number>
  /** Script file → ms in its top-level code and everything that code called (evaluation at load). */
  evaluation: Map<string, number>
  /** The site's own functions (`file:line name`) → ms with everything they called. */
  siteTotal: Map<string, number>
}

interface CallFrame {
  functionName: string
  url?: string
  lineNumber?: number
  columnNumber?: number
}

interface ProfileNode {
  id: number
  parent?: number
  callFrame: CallFrame
}

/** What one sampled frame is charged to: [group, file, function], or undefined for time that is not script. */
function chargeOf(frame: CallFrame, origins: SourceOrigins): [string, string, string] | undefined {
  const name = frame.functionName
  if (name === '(program)' || name === '(idle)' || name === '(root)') return undefined
  if (name === '(garbage collector)') return ['GC', 'GC', '(garbage collector)']
  if (!frame.url) return ['browser APIs', 'browser APIs', `${name || '(native)'}()`]
  const line = frame.lineNumber ?? 0
  const column = frame.columnNumber ?? 0
  const origin = origins.at(frame.url, line, column)
  const label = line === 0 && column === 0 && !name ? '(top-level code)' : (origin.name ?? (name || '(anonymous)'))
  return [groupOf(origin.owner), origin.owner === 'site' ? origin.file : origin.owner, `${origin.file}${origin.line ? `:${origin.line}` : ''} ${label}`]
}

/** The script whose top-level code is on the stack (innermost), if any. */
function topLevelOf(nodes: Map<number, ProfileNode>, id: number): string | undefined {
  for (let node = nodes.get(id); node; node = node.parent === undefined ? undefined : nodes.get(node.parent)) {
    const { url, functionName, lineNumber, columnNumber } = node.callFrame
    if (url && !functionName && !lineNumber && !columnNumber) return url.slice(url.lastIndexOf('/') + 1)
  }
  return undefined
}

/** The site's functions on a sample's stack, each once. */
function siteFunctionsOn(nodes: Map<number, ProfileNode>, id: number, origins: SourceOrigins): Set<string> {
  const names = new Set<string>()
  for (let node = nodes.get(id); node; node = node.parent === undefined ? undefined : nodes.get(node.parent)) {
    const charge = node.callFrame.url ? chargeOf(node.callFrame, origins) : undefined
    if (charge?.[0] === 'site code') names.add(charge[2])
  }
  return names
}

/** Script time on one thread between `from` and `to` (trace microseconds), by origin. */
export function scriptTime(events: TraceEvent[], pid: number, tid: number, from: number, to: number, origins: SourceOrigins): ScriptTime {
  const result: ScriptTime = { byGroup: new Map(), byFile: new Map(), byFunction: new Map(), evaluation: new Map(), siteTotal: new Map() }
  const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value)
  for (const profile of events.filter((event) => event.name === 'Profile' && event.pid === pid && event.tid === tid)) {
    const nodes = new Map<number, ProfileNode>()
    const samples: number[] = []
    const deltas: number[] = []
    for (const chunk of events.filter((event) => event.name === 'ProfileChunk' && event.pid === pid && event.id === profile.id)) {
      const data = chunk.args!.data
      for (const node of (data.cpuProfile?.nodes ?? []) as ProfileNode[]) nodes.set(node.id, node)
      samples.push(...((data.cpuProfile?.samples ?? []) as number[]))
      deltas.push(...((data.timeDeltas ?? []) as number[]))
    }
    let time = profile.args!.data.startTime as number
    const times = deltas.map((delta) => (time += delta))
    // On a busy machine the sampler itself sometimes goes unscheduled for a while; a sample
    // counts for at most three usual intervals, so that such a gap is left out rather than
    // charged to whatever ran just before it.
    const longest = 3 * [...deltas].sort((a, b) => a - b)[deltas.length >> 1]!
    for (let index = 0; index + 1 < samples.length; index++) {
      if (times[index]! < from || times[index]! >= to) continue
      const frame = nodes.get(samples[index]!)?.callFrame
      const charge = frame && chargeOf(frame, origins)
      if (!charge) continue
      const duration = Math.min(times[index + 1]! - times[index]!, longest) / 1000
      add(result.byGroup, charge[0], duration)
      add(result.byFile, charge[1], duration)
      add(result.byFunction, charge[2], duration)
      const evaluating = topLevelOf(nodes, samples[index]!)
      if (evaluating) add(result.evaluation, evaluating, duration)
      for (const name of siteFunctionsOn(nodes, samples[index]!, origins)) add(result.siteTotal, name, duration)
    }
  }
  return result
}

/** Per origin, file and function, the median over several profiled loads (missing from a load: 0 there). */
export function medianScriptTime(loads: ScriptTime[]): ScriptTime {
  const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!
  const merge = (maps: Map<string, number>[]) =>
    new Map([...new Set(maps.flatMap((map) => [...map.keys()]))].map((key) => [key, medianOf(maps.map((map) => map.get(key) ?? 0))]))
  return {
    byGroup: merge(loads.map((load) => load.byGroup)),
    byFile: merge(loads.map((load) => load.byFile)),
    byFunction: merge(loads.map((load) => load.byFunction)),
    evaluation: merge(loads.map((load) => load.evaluation)),
    siteTotal: merge(loads.map((load) => load.siteTotal)),
  }
}
