/**
 * One request followed across processes: the id the site gives a request (or takes from a
 * trusted proxy in front) reaches a remote image service, whose log lines carry it; the request
 * log names the visitor's address as `trust proxy` reads it; a crash is logged before the exit.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { projectRoot } from '../../server/project-root.js'
import { startStandalone, type StandaloneProcess } from '../support/standalone.js'
import { testSite } from './app.js'

interface LogLine {
  msg?: string
  level?: number
  req?: { id?: string; url?: string; remoteAddress?: string }
}

/** A site whose log lines are kept, parsed. */
function siteWithLog(env: Record<string, string> = {}) {
  const lines: LogLine[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine)
      done()
    },
  })
  return { site: testSite(env, { logger: pino({ level: 'info' }, sink) }), lines }
}

describe('one request id across the site and a remote image service', () => {
  let giffer: StandaloneProcess
  let stateDir: string
  beforeAll(async () => {
    stateDir = await mkdtemp(path.join(os.tmpdir(), 'request-id-'))
    giffer = await startStandalone('server/giffer/main.ts', 'giffer', { GIFFER_PORT: '0', HOST: '127.0.0.1', DATA_DIR: stateDir, LOG_LEVEL: 'info', GIFFER_WORKERS: '1', PUBLIC_URL: 'https://site.example', GIFFER_SECRET: 'a-secret-of-the-deployment' })
  })
  afterAll(async () => {
    giffer.child.kill('SIGKILL')
    await rm(stateDir, { recursive: true, force: true })
  })

  it('passes the id a trusted proxy gave the request to the image service, whose log line carries it', async () => {
    const { site, lines } = siteWithLog({ GIFFER_URL: `http://127.0.0.1:${giffer.port}` })
    const answer = await request(site.app).get('/giffer/fonts').set('X-Request-Id', 'edge-7f3a9c').expect(200)
    expect(answer.headers['x-request-id']).toBe('edge-7f3a9c')
    expect(lines.find((line) => line.msg === 'request completed')?.req).toMatchObject({ id: 'edge-7f3a9c', url: '/giffer/fonts' })
    await vi.waitFor(() => {
      const logged = giffer.logged.map((line) => JSON.parse(line) as LogLine).find((line) => line.msg === 'request completed' && line.req?.url === '/fonts')
      expect(logged?.req?.id).toBe('edge-7f3a9c')
    })
  })

  it('reports the image service in /readyz as reachable', async () => {
    const { site } = siteWithLog({ GIFFER_URL: `http://127.0.0.1:${giffer.port}` })
    const ready = await request(site.app).get('/readyz').expect(200)
    expect(ready.body.dependencies).toEqual({ giffer: { reachable: true, optional: true } })
  })

  it('passes a new id along when the request came without one', async () => {
    const { site } = siteWithLog({ GIFFER_URL: `http://127.0.0.1:${giffer.port}` })
    const answer = await request(site.app).get('/giffer/healthz').expect(200)
    const id = answer.headers['x-request-id'] as string
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    await vi.waitFor(() => expect(giffer.logged.some((line) => line.includes(`"id":"${id}"`))).toBe(true))
  })
})

describe('what the request log says of the visitor', () => {
  it('ignores an X-Request-Id from a peer TRUST_PROXY does not trust, and gives the request its own', async () => {
    const { site } = siteWithLog({ TRUST_PROXY: '10.0.0.0/8' })
    const answer = await request(site.app).get('/pricing/').set('X-Request-Id', 'forged-by-a-client').expect(200)
    expect(answer.headers['x-request-id']).not.toBe('forged-by-a-client')
  })

  it('logs the visitor\'s address as trust proxy reads it, not the balancer\'s', async () => {
    const { site, lines } = siteWithLog()
    await request(site.listener).get('/pricing/').set('X-Forwarded-For', '203.0.113.9').expect(200)
    // The second time, answered before Express from memory: the same address.
    await request(site.listener).get('/api/widget-groups').set('X-Forwarded-For', '203.0.113.9').expect(200)
    await request(site.listener).get('/api/widget-groups').set('X-Forwarded-For', '203.0.113.9').expect(200)
    const addresses = lines.filter((line) => line.msg === 'request completed').map((line) => line.req?.remoteAddress)
    expect(addresses).toEqual(['203.0.113.9', '203.0.113.9', '203.0.113.9'])
  })
})

describe('a crash', () => {
  it('is written to the log as a fatal line before the process exits 1', () => {
    const script = [
      "import { createLogger, logFatalErrors } from './server/process/logger.ts'",
      "const logger = createLogger({ LOG_LEVEL: 'info' })",
      'logFatalErrors(logger)',
      "setTimeout(() => { throw new Error('the disk is on fire') }, 10)",
    ].join('\n')
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: projectRoot, encoding: 'utf8', timeout: 20_000 })
    expect(run.status).toBe(1)
    const fatal = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as LogLine & { err?: { message?: string } }).find((line) => line.level === 60)
    expect(fatal).toMatchObject({ msg: 'fatal error: the process stops', err: { message: 'the disk is on fire' } })
  })
})
