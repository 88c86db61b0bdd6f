import { pino } from 'pino'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BackPressureLog } from '../../server/process/logger.js'

function capture() {
  const lines: Record<string, unknown>[] = []
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) })
  return { lines, logger }
}

describe('load-shedding log', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('writes the first 503 of a run at warn level, then one count per interval', () => {
    const { lines, logger } = capture()
    const log = new BackPressureLog(logger, 10_000)
    for (let i = 0; i < 500; i++) log.note(503, 'busy', '/giffer/countdown/create')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 40, status: 503, code: 'busy', path: '/giffer/countdown/create', msg: 'shedding load: answered with Retry-After' })
    expect(JSON.stringify(lines[0])).not.toContain('stack')

    vi.advanceTimersByTime(10_000)
    expect(lines).toHaveLength(2)
    expect(lines[1]).toMatchObject({ level: 40, status: 503, code: 'busy', count: 499, intervalSeconds: 10 })
  })

  it('counts each code apart, and starts a new run after a quiet interval', () => {
    const { lines, logger } = capture()
    const log = new BackPressureLog(logger, 10_000)
    log.note(503, 'busy', '/a')
    log.note(503, 'render_timeout', '/b')
    log.note(503, 'render_timeout', '/b')
    expect(lines.map((line) => line.code)).toEqual(['busy', 'render_timeout'])

    vi.advanceTimersByTime(10_000)
    expect(lines.slice(2)).toEqual([expect.objectContaining({ code: 'render_timeout', count: 1 })])

    // A quiet interval ends the run; the next one is written in full again.
    vi.advanceTimersByTime(30_000)
    expect(lines).toHaveLength(3)
    log.note(503, 'busy', '/a')
    expect(lines).toHaveLength(4)
    expect(lines[3]).toMatchObject({ code: 'busy', msg: 'shedding load: answered with Retry-After' })
    expect(vi.getTimerCount()).toBe(1)
  })

  it('calls a 429 a rate limit, not load shedding', () => {
    const { lines, logger } = capture()
    const log = new BackPressureLog(logger, 10_000)
    log.note(429, 'rate_limited', '/app/api/v1/users/login')
    log.note(429, 'rate_limited', '/app/api/v1/users/login')
    vi.advanceTimersByTime(10_000)
    expect(lines.map((line) => line.msg)).toEqual(['rate limited: answered with Retry-After', 'rate limited: more answers with Retry-After'])
  })
})
