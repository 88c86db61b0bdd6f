import { pino } from 'pino'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { testApp } from './app.js'

describe('request log under load shedding', () => {
  it('logs a burst of 503 busy answers as one warning without a stack, and no error lines', async () => {
    const lines: Record<string, unknown>[] = []
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) })
    const app = testApp({ GIFFER_WORKERS: '1', GIFFER_QUEUE_MAX: '0' }, { logger })
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, n) => request(app).post('/giffer/countdown/create').send({ delay: 90_000 + n, days: 'Days' })),
    )
    const busy = responses.filter((res) => res.status === 503)
    expect(busy.length).toBeGreaterThan(5)
    for (const res of busy) {
      expect(res.headers['retry-after']).toBe('2')
      expect(res.body.error.code).toBe('busy')
    }
    expect(lines.filter((line) => line.msg === 'shedding load: answered with Retry-After')).toEqual([
      expect.objectContaining({ level: 40, status: 503, code: 'busy', path: '/giffer/countdown/create' }),
    ])
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([])
    expect(JSON.stringify(lines)).not.toContain('stack')
    // Requests that were served are still logged one line each.
    expect(lines.filter((line) => line.msg === 'request completed')).toHaveLength(responses.length - busy.length)
  }, 60_000)
})
