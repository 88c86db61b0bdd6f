import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { printTable, type Measurement, type PageResult } from '../../scripts/bench-load/report.js'

/** One load: task time and CPU time to idle, its blocking time and its longest frame after first paint. */
function load(ms: number, { blocking = 0, frame = 0 }: { blocking?: number; frame?: number } = {}): Measurement {
  return {
    wall: ms,
    cpu: ms / 2,
    firstPaint: 100,
    idle: ms + 1000,
    work: new Map(),
    tasks: 10,
    longTasks: [],
    blocking,
    framesAfterPaint: frame ? [{ start: 200, duration: frame, renderStart: 0, styleAndLayoutStart: 0, scripts: [] }] : [],
    modules: 1,
    backgroundCompile: 0,
  }
}

/** A page whose loads took `withMs` with its scripts and `withoutMs` without them, round by round. */
function page(name: string, withMs: number[], withoutMs: number[], options: { blocking?: number; frame?: number; earlier?: true } = {}): PageResult {
  return {
    name,
    path: `/${name}/`,
    document: { path: `/${name}/`, status: 200, headers: {}, body: '' },
    with: withMs.map((ms) => load(ms, options)),
    without: withoutMs.map((ms) => load(ms)),
    ...(options.earlier ? { earlier: true as const } : {}),
  }
}

/** The bare page: its scripts add 400 ms in every round. */
const bare = (options: { frame?: number; blocking?: number } = {}) => page('bare', [900, 900, 900], [500, 500, 500], options)

let printed: string[]
beforeEach(() => {
  printed = []
  vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void printed.push(parts.join(' ')))
})
afterEach(() => vi.restoreAllMocks())

describe('the load benchmark’s verdict', () => {
  it('passes a page whose scripts add up to 1.5× what the bare page’s add, and fails one that adds more', () => {
    expect(printTable([page('site', [1100, 1100, 1100], [500, 500, 500])], bare(), '4×')).toBe(true)
    expect(printTable([page('site', [1104, 1104, 1104], [500, 500, 500])], bare(), '4×')).toBe(false)
    expect(printed.join('\n')).toMatch(/1\.51× ✗/)
  })

  it('shows each round’s ratio: lowest, median and highest, a round of the bare page that gained almost nothing left out and counted', () => {
    const spread = page('bare', [900, 510, 900, 900], [500, 500, 500, 500])
    printTable([page('site', [900, 900, 1100, 700], [500, 500, 500, 500])], spread, '4×')
    expect(printed.join('\n')).toMatch(/ 0\.50 ·  1\.00 ·  1\.50 \(1 left out\)/)
  })

  it('fails a run whose bare page gained nothing, or whose figures could not be measured', () => {
    expect(printTable([page('site', [600, 600, 600], [500, 500, 500])], page('bare', [500, 500, 500], [500, 500, 500]), '4×')).toBe(false)
    expect(printed.join('\n')).toContain('no ratio can be judged')
    expect(printTable([page('site', [], [])], bare(), '4×')).toBe(false)
  })

  it('judges blocking time against the bare page’s, and the longest frame on the median load', () => {
    expect(printTable([page('site', [1000, 1000, 1000], [500, 500, 500], { blocking: 150, frame: 150 })], bare({ blocking: 50 }), '4×')).toBe(true)
    expect(printTable([page('site', [1000, 1000, 1000], [500, 500, 500], { blocking: 151 })], bare({ blocking: 50 }), '4×')).toBe(false)
    expect(printTable([page('site', [1000, 1000, 1000], [500, 500, 500], { frame: 151 })], bare(), '4×')).toBe(false)
  })

  it('shows the bare page’s own long frame as the reference without failing the run', () => {
    expect(printTable([page('site', [1000, 1000, 1000], [500, 500, 500], { frame: 100 })], bare({ frame: 250 }), '4×')).toBe(true)
    expect(printed.join('\n')).toMatch(/bare \(reference\)\s+0\s+0\s+250\s/)
  })

  it('shows an earlier build’s page beside this build’s without judging it', () => {
    const earlier = page('before', [2000, 2000, 2000], [500, 500, 500], { earlier: true, frame: 400 })
    expect(printTable([page('site', [1000, 1000, 1000], [500, 500, 500]), earlier], bare(), '4×')).toBe(true)
    expect(printed.join('\n')).toMatch(/3\.75× ✗/)
  })
})
