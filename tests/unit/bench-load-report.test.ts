import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { printTable, type Measurement, type PageResult } from '../../scripts/bench-load/report.js'

/** One load: task time to idle, its CPU time (half of it unless given), its blocking time and its longest frame after first paint (none: 0). */
function load(ms: number, blocking = 0, frame = 0, cpu = ms / 2): Measurement {
  return {
    wall: ms,
    cpu,
    firstPaint: 100,
    largestPaint: 300,
    idle: 2000,
    work: new Map(),
    tasks: 10,
    longTasks: [],
    blocking,
    framesAfterPaint: frame !== 0 ? [{ start: 200, duration: frame, renderStart: 0, styleAndLayoutStart: 0, scripts: [] }] : [],
    modules: 1,
    backgroundCompile: 0,
  }
}

interface Options {
  blocking?: number
  /** The longest frame after first paint: one for every load, or each load's. */
  frames?: number | number[]
  /** CPU time of the loads with scripts, when not half their task time. */
  cpu?: number[]
  earlier?: true
}

/** A page whose loads took `withMs` with its scripts and `withoutMs` without them, round by round. */
function page(name: string, withMs: number[], withoutMs: number[], { blocking = 0, frames = 0, cpu, earlier }: Options = {}): PageResult {
  return {
    name,
    path: `/${name}/`,
    document: { path: `/${name}/`, status: 200, headers: {}, body: '' },
    with: withMs.map((ms, round) => load(ms, blocking, Array.isArray(frames) ? frames[round] : frames, cpu?.[round])),
    without: withoutMs.map((ms) => load(ms)),
    ...(earlier ? { earlier } : {}),
  }
}

/** The bare page: its scripts add 400 ms in every round. */
const bare = (options: Options = {}) => page('bare', [900, 900, 900], [500, 500, 500], options)

let printed: string
beforeEach(() => {
  printed = ''
  vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void (printed += `${parts.join(' ')}\n`))
})
afterEach(() => vi.restoreAllMocks())

describe('the load benchmark’s verdict', () => {
  it('passes a page whose scripts add up to 1.5× what the bare page’s add, and fails one that adds more', () => {
    expect(printTable([page('site', [1100, 1100, 1100], [500, 500, 500])], bare(), '4×')).toBe(true)
    expect(printTable([page('site', [1104, 1104, 1104], [500, 500, 500])], bare(), '4×')).toBe(false)
    expect(printed).toMatch(/^site .* 1\.51× ✗/m)
  })

  it('sets each round’s gain against the bare page’s in the same round, leaving out and counting a round where the bare page gained almost nothing', () => {
    // The bare page gains 400, 10, 500 and 300 ms (a median of 350); the page 400, 400, 600 and 200.
    const bareWithQuietRound = page('bare', [900, 510, 1000, 800], [500, 500, 500, 500])
    printTable([page('site', [900, 900, 1100, 700], [500, 500, 500, 500])], bareWithQuietRound, '4×')
    expect(printed).toMatch(/^site .* 0\.67 ·  1\.00 ·  1\.20 \(1 left out\)$/m)
  })

  it('shows two rounds as their lowest and highest alone', () => {
    // Of four rounds the bare page gains 400, 10, 5 and 400 ms: two are left out.
    const bareWithQuietRounds = page('bare', [900, 510, 505, 900], [500, 500, 500, 500])
    printTable([page('site', [900, 900, 900, 1100], [500, 500, 500, 500])], bareWithQuietRounds, '4×')
    expect(printed).toMatch(/^site .* 1\.00 ·     – ·  1\.50 \(2 left out\)$/m)
  })

  it('fails every page when the bare page’s scripts gained nothing', () => {
    // The page's ratio, +100 ms over -10 ms (-10×), would pass were it judged on its own.
    const gainedNothing = page('bare', [490, 490, 490], [500, 500, 500])
    expect(printTable([page('site', [600, 600, 600], [500, 500, 500])], gainedNothing, '4×')).toBe(false)
    expect(printed).toContain("the bare page's scripts added -10 ms here: no ratio can be judged (✗)")
    expect(printed).toMatch(/^site .* – ✗/m)
    // The bare page is the reference: not judged even then.
    expect(printed).toMatch(/^bare \(reference\)\s+\/bare\/\s+490\s+500\s+-10\s+-10\s+–\s+2\.0 s/m)
  })

  it('fails the run when the bare page’s scripts gained nothing, even with no other page to judge', () => {
    expect(printTable([], page('bare', [490, 490, 490], [500, 500, 500]), '4×')).toBe(false)
  })

  it('leaves out a round where the bare page gained under a tenth of its median gain, and keeps one at a tenth', () => {
    // The bare page gains 400, 39, 40, 400 and 400 ms: 400 over all rounds, a tenth of it 40.
    const bareUneven = page('bare', [900, 539, 540, 900, 900], [500, 500, 500, 500, 500])
    printTable([page('site', [900, 900, 900, 900, 900], [500, 500, 500, 500, 500])], bareUneven, '4×')
    expect(printed).toMatch(/^site .* 1\.00 ·  1\.00 · 10\.00 \(1 left out\)$/m)
  })

  it('judges the CPU time too: a page within the goal in task time but over it in CPU time fails', () => {
    // Task time: 600 ms added against the bare page's 400 (1.5×); CPU time: 304 against 200 (1.52×).
    const cpuHeavy = page('site', [1100, 1100, 1100], [500, 500, 500], { cpu: [554, 554, 554] })
    expect(printTable([cpuHeavy], bare(), '4×')).toBe(false)
    expect(printed).toMatch(/^site .* 1\.50× {2}/m)
    expect(printed).toMatch(/^site .* 1\.52× ✗/m)
  })

  it('fails a page whose blocking time or frame could not be measured, wherever the figure sits among its loads', () => {
    for (const at of [0, 1, 2]) {
      const frames = [100, 100, 100]
      frames[at] = NaN
      expect(printTable([page('site', [1000, 1000, 1000], [500, 500, 500], { frames })], bare(), '4×')).toBe(false)
      const unmeasured = page('site', [1000, 1000, 1000], [500, 500, 500])
      unmeasured.with[at]!.blocking = NaN
      expect(printTable([unmeasured], bare(), '4×')).toBe(false)
    }
    expect(printed).toMatch(/^site\s+0\s+0\s+– ✗/m)
    expect(printed).toMatch(/^site\s+– ✗\s+0\s+0\s/m)
  })

  it('fails a page whose scripts gained nothing, as if they never ran, however well its other figures read', () => {
    expect(printTable([page('site', [500, 500, 500], [500, 500, 500])], bare(), '4×')).toBe(false)
    expect(printed).toMatch(/^site .* 0\.00× ✗/m)
    expect(printTable([page('site', [501, 501, 501], [500, 500, 500])], bare(), '4×')).toBe(true)
  })

  it('leaves out of the spread a round whose page figures were not measured, and counts it', () => {
    const unmeasured = page('site', [NaN, NaN, NaN], [500, 500, 500])
    printTable([unmeasured], bare(), '4×')
    expect(printed).toMatch(/^site .*– \(3 left out\)/m)
  })

  it('fails a page with no loads at all', () => {
    expect(printTable([page('site', [], [])], bare(), '4×')).toBe(false)
  })

  it('fails a page whose time could not be measured, and shows it as –', () => {
    const unmeasured = page('site', [NaN, NaN, NaN], [500, 500, 500])
    expect(printTable([unmeasured], bare(), '4×')).toBe(false)
    expect(printed).toMatch(/^site\s+\/site\/\s+–\s+500\s+–\s+400\s+– ✗/m)
  })

  it('judges blocking time against the bare page’s, and the longest frame on the median load', () => {
    expect(printTable([page('site', [1000, 1000, 1000], [500, 500, 500], { blocking: 150, frames: [100, 150, 400] })], bare({ blocking: 50 }), '4×')).toBe(true)
    expect(printTable([page('site', [1000, 1000, 1000], [500, 500, 500], { blocking: 151 })], bare({ blocking: 50 }), '4×')).toBe(false)
    expect(printTable([page('site', [1000, 1000, 1000], [500, 500, 500], { frames: [100, 151, 151] })], bare(), '4×')).toBe(false)
  })

  it('shows the bare page’s own long frame as the reference without failing the run', () => {
    expect(printTable([page('site', [1000, 1000, 1000], [500, 500, 500], { frames: 100 })], bare({ frames: 250 }), '4×')).toBe(true)
    expect(printed).toMatch(/^bare \(reference\)\s+0\s+0\s+250\s+250, 250, 250\s+0\s+300\s+300$/m)
  })

  it('shows an earlier build’s page beside this build’s without judging it', () => {
    const earlier = page('before', [2000, 2000, 2000], [500, 500, 500], { earlier: true, frames: 400 })
    expect(printTable([page('site', [1000, 1000, 1000], [500, 500, 500]), earlier], bare(), '4×')).toBe(true)
    expect(printed).toMatch(/^before .* 3\.75× ✗/m)
  })
})
