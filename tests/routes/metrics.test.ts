import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pages } from '../../shared/pages.js'
import { routerPageId } from '../support/router-reference.js'
import { ConfigError, loadConfig } from '../../server/process/config.js'
import { projectRoot } from '../../server/project-root.js'
import { siteRouteOf } from '../../server/process/site-metrics.js'
import { promtoolPath } from '../../scripts/lib/promtool.js'
import { startStandalone } from '../support/standalone.js'
import { testSite } from './app.js'

const TOKEN = 'metrics-token-for-the-tests-0123456789'

/** The route names a request may be counted under: a page id, or one of the fixed names. */
const ROUTE_NAMES = new Set<string>([...pages.map((page) => page.id), 'giffer', 'app', 'api', 'assets', 'thumbnails', 'static', 'clone', 'track', 'other'])

/** The labels of every `<family>_count` series in a scrape. */
function countSeries(text: string, family: string): { labels: Record<string, string>; value: number }[] {
  const pattern = new RegExp(`^${family}_count\\{([^}]*)\\} (\\S+)$`, 'gm')
  return [...text.matchAll(pattern)].map(([, labels, value]) => ({
    labels: Object.fromEntries([...labels!.matchAll(/(\w+)="([^"]*)"/g)].map(([, name, text]) => [name!, text!])),
    value: Number(value),
  }))
}

/** The value of an unlabelled sample, or of the sample with exactly these labels. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${name}${labels ? `{${labels}}` : ''} `))
  return line === undefined ? undefined : Number(line.split(' ').at(-1))
}

/** A small repeatable random source, so a failing run can be replayed. */
function randomSource(seed: number) {
  let state = seed
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state % below
  }
}

const promtool = promtoolPath()
if (!promtool) {
  console.warn('\n!!! promtool not found: the Prometheus format check of /metrics is SKIPPED. `npm test` installs it (scripts/ensure-tools.ts).\n')
}

/** promtool's verdict on a scrape: its exit status and whatever it printed. */
function promtoolCheck(text: string) {
  const result = spawnSync(promtool!, ['check', 'metrics'], { input: text, encoding: 'utf8' })
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() }
}

describe('/metrics', () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-metrics-'))
  const site = testSite({ DATA_DIR: stateDir, GIFFER_WORKERS: '1' })
  let text = ''

  beforeAll(async () => {
    await request(site.app).get('/').expect(200)
    await request(site.app).get('/').expect(200)
    await request(site.app).get('/api/prices').expect(200)
    await request(site.app).get('/no-such-page/').expect(404)
    // Files of public/, at its top and in a folder of it.
    await request(site.app).get('/favicon.svg').expect(200)
    await request(site.app).get(`/examples/${fs.readdirSync(path.join(projectRoot, 'public', 'examples'))[0]}`).expect(200)
    await request(site.app)
      .get('/giffer/text/preview')
      .query({ text: 'Metrics', font: 'roboto', font_size: 32, font_weight: 'regular', text_align: 'center', lineheight: 1.2, color: '#111111', padding: 7, scale: 1 })
      .expect(200)
    text = (await request(site.app).get('/metrics').expect(200)).text
  })
  afterAll(async () => {
    await site.close()
    fs.rmSync(stateDir, { recursive: true, force: true })
  })

  it('answers Prometheus text that no cache may keep, without cookies', async () => {
    const response = await request(site.app).get('/metrics').expect(200)
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.headers['set-cookie']).toBeUndefined()
  })

  it('counts requests by route (a page id or a mount), method and status', () => {
    const series = countSeries(text, 'http_request_duration_seconds')
    const count = (route: string, status: string) => series.find((s) => s.labels.route === route && s.labels.status === status && s.labels.method === 'GET')?.value
    expect(count('home', '200')).toBe(2)
    expect(count('api', '200')).toBe(1)
    expect(count('not-found', '404')).toBe(1)
    expect(count('giffer', '200')).toBe(1)
    expect(count('static', '200')).toBe(2)
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0.001",route="home",method="GET",status="200"\} \d+$/m)
  })

  it('counts page-cache hits and misses', () => {
    expect(sample(text, 'page_cache_misses_total')).toBe(1)
    expect(sample(text, 'page_cache_hits_total')).toBe(1)
  })

  it('reports the image service: queue, threads, shed jobs, and wait and render times per generator', () => {
    expect(sample(text, 'giffer_job_wait_seconds_count', 'kind="text-preview"')).toBe(1)
    expect(sample(text, 'giffer_job_render_seconds_count', 'kind="text-preview"')).toBe(1)
    expect(sample(text, 'giffer_job_render_seconds_sum', 'kind="text-preview"')).toBeGreaterThan(0)
    expect(sample(text, 'giffer_job_render_seconds_count', 'kind="countdown"')).toBe(0)
    expect(sample(text, 'giffer_queue_length')).toBe(0)
    expect(sample(text, 'giffer_render_threads')).toBe(1)
    expect(sample(text, 'giffer_jobs_completed_total')).toBe(1)
    expect(sample(text, 'giffer_shed_total', 'code="busy"')).toBe(0)
    expect(sample(text, 'giffer_shed_total', 'code="render_timeout"')).toBe(0)
    expect(sample(text, 'giffer_thread_recycles_total')).toBe(0)
    expect(sample(text, 'giffer_thread_releases_total')).toBe(0)
    for (const reason of ['timer_full', 'store_full', 'address_limit']) expect(sample(text, 'giffer_live_keys_unstored_total', `reason="${reason}"`)).toBe(0)
  })

  it("reports the process: RSS, heap and event-loop delay (prom-client's defaults)", () => {
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0)
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \S+$/m)
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \S+$/m)
  })

  it('does not count the scrapes themselves', async () => {
    const fresh = testSite()
    await request(fresh.app).get('/metrics').expect(200)
    const second = (await request(fresh.app).get('/metrics').expect(200)).text
    expect(countSeries(second, 'http_request_duration_seconds')).toEqual([])
    await fresh.close()
  })

  it('keeps route and method labels to a fixed set, whatever paths are asked for', async () => {
    const fuzzed = testSite()
    const random = randomSource(20_240_611)
    const pieces = ['p', 'e', 'api', 'app', 'blog', 'help', '%ff', '%2e%2e', 'x.y', '..', 'a%20b', 'ünï', 'widgets', 'assets', 't', 'track', String(Date.now())]
    const methods = ['get', 'head', 'post', 'put', 'delete', 'options', 'propfind'] as const
    for (let n = 0; n < 200; n++) {
      const segments = Array.from({ length: 1 + random(4) }, () => pieces[random(pieces.length)]! + (random(3) === 0 ? random(100_000).toString(36) : ''))
      const method = methods[random(methods.length)]!
      const target = `/${segments.join('/')}${random(2) ? '/' : ''}${random(4) === 0 ? `?q=${n}` : ''}`
      await (request(fuzzed.app) as unknown as Record<string, (url: string) => Promise<unknown>>)[method]!(encodeURI(target).replace(/%25/g, '%'))
    }
    const series = countSeries((await request(fuzzed.app).get('/metrics').expect(200)).text, 'http_request_duration_seconds')
    expect(series.reduce((total, s) => total + s.value, 0)).toBe(200)
    for (const { labels } of series) {
      expect(ROUTE_NAMES, labels.route).toContain(labels.route)
      expect(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'other']).toContain(labels.method)
      expect(labels.status).toMatch(/^[1-5](\d\d|xx)$/)
    }
    expect(series.length).toBeLessThan(100)
    await fuzzed.close()
  })

  it('names a status no process sends (an upstream\'s) by its class, so answers cannot add series', async () => {
    const { createServer } = await import('node:http')
    const statuses = [418, 451, 499, 299, 599]
    let next = 0
    const upstream = createServer((_req, res) => {
      res.statusCode = statuses[next++ % statuses.length]!
      res.end('{}')
    }).listen(0, '127.0.0.1')
    await new Promise((resolve) => upstream.once('listening', resolve))
    const proxied = testSite({ GIFFER_URL: `http://127.0.0.1:${(upstream.address() as import('node:net').AddressInfo).port}` })
    try {
      for (const _status of statuses) await request(proxied.app).get('/giffer/fonts')
      const series = countSeries((await request(proxied.app).get('/metrics').expect(200)).text, 'http_request_duration_seconds')
      expect(series.filter((s) => s.labels.route === 'giffer').map((s) => s.labels.status).sort()).toEqual(['2xx', '4xx', '5xx'])
      expect(series.find((s) => s.labels.status === '4xx')?.value).toBe(3)
    } finally {
      upstream.close()
      await proxied.close()
    }
  })

  it('names every page of the sitemap, and any other page path, by the page id the router matches', async () => {
    const sitemap = (await request(site.app).get('/sitemap.xml').expect(200)).text
    const paths = [...sitemap.matchAll(/<loc>https:\/\/site\.example([^<]*)<\/loc>/g)].map(([, pathname]) => pathname!)
    expect(paths.length).toBeGreaterThan(100)
    const variants = paths.flatMap((pathname) => [pathname, pathname.toUpperCase(), pathname.replace(/\/$/, ''), `${pathname}extra/`, `/x${pathname}`])
    const routeOf = siteRouteOf(fs.readdirSync(path.join(projectRoot, 'public')))
    for (const pathname of [...variants, '/', '/reset/new/', '/RESET/NEW', '/p/abc/def/ghi/', '/blog/a/b/c/d/e/f/', '/%ff/', '/p/%41/']) {
      expect(routeOf(pathname), pathname).toBe(routerPageId(pathname) ?? 'other')
    }
  })

  it('is disallowed in robots.txt', async () => {
    const response = await request(site.app).get('/robots.txt').expect(200)
    expect(response.text).toContain('Disallow: /metrics\n')
  })

  it.skipIf(!promtool)('passes `promtool check metrics` with no problems', async () => {
    const scraped = (await request(site.app).get('/metrics').expect(200)).text
    expect(promtoolCheck(scraped)).toEqual({ status: 0, output: '' })
  })
})

describe('/metrics with METRICS_TOKEN', () => {
  const site = testSite({ METRICS_TOKEN: TOKEN })
  afterAll(() => site.close())

  it('answers 401 with WWW-Authenticate: Bearer without a token or with a wrong one', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, 'Bearer']) {
      const attempt = request(site.app).get('/metrics')
      const response = await (authorization ? attempt.set('Authorization', authorization) : attempt)
      expect(response.status, authorization).toBe(401)
      expect(response.headers['www-authenticate']).toMatch(/^Bearer\b/)
      expect(response.headers['cache-control']).toBe('no-store')
      expect(response.headers['set-cookie']).toBeUndefined()
      expect(response.text).not.toContain('process_')
    }
  })

  it('serves the metrics for the right token', async () => {
    const response = await request(site.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)
    expect(response.text).toContain('# TYPE http_request_duration_seconds histogram')
    await request(site.app).get('/metrics').set('Authorization', `bearer ${TOKEN}`).expect(200)
  })

  it('must be at least 16 characters', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError)
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/)
  })
})

describe('/metrics of the standalone image service', () => {
  it('serves its own metrics behind METRICS_TOKEN', async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giffer-metrics-'))
    const { child, port } = await startStandalone('server/giffer/main.ts', 'giffer', { GIFFER_PORT: '0', HOST: '127.0.0.1', DATA_DIR: stateDir, LOG_LEVEL: 'info', GIFFER_WORKERS: '1', METRICS_TOKEN: TOKEN })
    try {
      const base = `http://127.0.0.1:${port}`
      expect((await fetch(`${base}/metrics`)).status).toBe(401)
      expect((await fetch(`${base}/countdown/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"delay":60}' })).status).toBe(200)
      const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
      expect(response.status).toBe(200)
      const scraped = await response.text()
      expect(sample(scraped, 'giffer_job_render_seconds_count', 'kind="countdown"')).toBe(1)
      expect(sample(scraped, 'http_request_duration_seconds_count', 'route="giffer",method="POST",status="200"')).toBe(1)
      expect(scraped).toContain('process_resident_memory_bytes')
      if (promtool) expect(promtoolCheck(scraped)).toEqual({ status: 0, output: '' })
    } finally {
      child.kill('SIGKILL')
      fs.rmSync(stateDir, { recursive: true, force: true })
    }
  }, 60_000)
})
