import { existsSync } from 'node:fs'
import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import { resolveWorkerFile } from '../../server/giffer/pool.js'
import { startGiffer, testSizing, type TestGiffer } from './setup.js'

let g: TestGiffer | null = null
afterEach(async () => {
  await g?.close()
  g = null
})

const heavy = (n: number) => ({ text: `Busy line number ${n} `.repeat(8), font: 'roboto', font_size: 72 })

describe('render pool', () => {
  it('runs from sources with the worker bundled into node_modules/.cache', () => {
    const file = resolveWorkerFile()
    expect(file).toMatch(/node_modules[\\/]\.cache[\\/]giffer[\\/]render\.worker-[0-9a-f]{16}\.cjs$/)
    expect(existsSync(file)).toBe(true)
    expect(resolveWorkerFile()).toBe(file)
  })

  it('runs the render threads and the memory budget the process handed it', async () => {
    const sized = testSizing({ workers: 2 })
    g = await startGiffer(sized)
    const health = await request(g.app).get('/giffer/healthz').expect(200)
    expect(health.body.pool).toMatchObject({ workers: 2, memory: { budget: sized.budget.totalBytes } })
    expect(sized.budget.totalBytes).toBe(sized.sizing.nativeBudgetBytes)
  })

  it('answers 503 with Retry-After once the queue is full, and serves the rest', async () => {
    g = await startGiffer({ queueMax: 1 })
    const app = g.app
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, n) => request(app).post('/giffer/scrollingtext/create').send(heavy(n))),
    )
    const statuses = responses.map((res) => res.status)
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2)
    const busy = responses.filter((res) => res.status === 503)
    expect(busy.length).toBeGreaterThanOrEqual(1)
    for (const res of busy) {
      expect(res.headers['retry-after']).toBe('2')
      expect(res.body.error.code).toBe('busy')
    }
    expect(g.giffer.stats!.shed).toEqual({ busy: busy.length, render_timeout: 0 })
    // once the queue drains, requests are served again
    const later = await request(app).post('/giffer/scrollingtext/create').send(heavy(99))
    expect(later.status).toBe(200)
  })

  it('renders identical requests that arrive together once', async () => {
    g = await startGiffer()
    const app = g.app
    const before = g.giffer.stats!.completed
    const body = { delay: 4242, days: 'd', duration: 30 }
    const responses = await Promise.all(Array.from({ length: 5 }, () => request(app).post('/giffer/countdown/create').send(body)))
    expect(responses.every((res) => res.status === 200)).toBe(true)
    const sources = responses.map((res) => res.headers['x-giffer-cache']).sort()
    expect(sources.filter((s) => s === 'rendered')).toHaveLength(1)
    expect(g.giffer.stats!.completed - before).toBe(1)
    expect(new Set(responses.map((res) => res.headers.etag)).size).toBe(1)

    const health = await request(app).get('/giffer/healthz').expect(200)
    expect(health.body.cache.entries).toBe(1)
    expect(health.body.cache.bytes).toBeGreaterThan(Number(responses[0]!.headers['content-length']))
    expect(health.body.memory.rssMb).toBeGreaterThan(0)
  })

  it('stops a job that runs past its time limit with 503 render_timeout, and keeps working', async () => {
    g = await startGiffer({ jobTimeoutMs: 1 })
    const res = await request(g.app).post('/giffer/scrollingtext/create').send(heavy(1))
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe('render_timeout')
    expect(res.headers['retry-after']).toBeDefined()
    expect(g.giffer.stats!.shed).toEqual({ busy: 0, render_timeout: 1 })
    const health = await request(g.app).get('/giffer/healthz')
    expect(health.status).toBe(200)
  })

  it('keeps answering other routes while the workers are busy', async () => {
    g = await startGiffer({ queueMax: 16 })
    const app = g.app
    app.get('/ping', (_req, res) => {
      res.send('pong')
    })
    let rendered = 0
    const work = Promise.all(
      Array.from({ length: 4 }, (_, n) =>
        request(app)
          .post('/giffer/scrollingtext/create')
          .send(heavy(100 + n))
          .then((res) => {
            rendered++
            return res
          }),
      ),
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    // Drawing on the event loop would hold these back until the renders were done.
    for (let i = 0; i < 10; i++) await request(app).get('/ping').expect(200)
    expect(rendered).toBeLessThan(4)
    expect((await work).every((res) => res.status === 200)).toBe(true)
  })
})
