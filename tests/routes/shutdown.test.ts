import { spawn } from 'node:child_process'
import { once } from 'node:events'
import http from 'node:http'
import net from 'node:net'
import readline from 'node:readline'
import { describe, expect, it, vi } from 'vitest'
import { pino } from 'pino'
import { createHttpServer } from '../../server/process/http-server.js'
import { serverScript } from '../support/server-build.js'
import { ROOT, testApp } from './app.js'

/** Starts the real server entry (as `npm start` runs it) and resolves once it logs the port it listens on. */
async function startServer(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [serverScript('server/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'test', SHUTDOWN_DELAY_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: string[] = []
  const port = await new Promise<number>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line)
      const entry = JSON.parse(line) as { msg?: string; port?: number }
      if (entry.msg === 'site listening' && entry.port) resolve(entry.port)
    })
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)))
  })
  return { child, port, lines }
}

const get = (port: number, path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        let body = ''
        res.on('data', (chunk) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      .on('error', reject)
  })

/**
 * A slow client: sends the start of a request, then one more header byte a second, and never
 * finishes. Resolves with what the server answered and when the socket was closed.
 */
function trickle(port: number) {
  const socket = net.connect(port, '127.0.0.1')
  const started = Date.now()
  let answer = ''
  socket.setEncoding('utf8')
  // Once the server has answered, dripping on would only earn a reset for writing to a closed socket.
  socket.on('data', (chunk: string) => {
    answer += chunk
    clearInterval(drip)
  })
  // A reset after the answer is fine: the close below still reports what arrived.
  socket.on('error', () => {})
  socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ')
  const drip = setInterval(() => socket.write('a'), 1_000)
  const closed = new Promise<{ afterMs: number; answer: string }>((resolve) =>
    socket.on('close', () => {
      clearInterval(drip)
      resolve({ afterMs: Date.now() - started, answer })
    }),
  )
  return { socket, closed }
}

describe('server process', () => {
  it('finishes the request in flight on SIGTERM, stops accepting, and exits 0', async () => {
    const { child, port, lines } = await startServer()
    expect((await get(port, '/healthz')).status).toBe(200)

    // A request the server has certainly begun: it answers "100 Continue" once it has read the
    // headers, and the body is sent only after the shutdown has started.
    const socket = net.connect(port, '127.0.0.1')
    socket.setEncoding('utf8')
    let answer = ''
    socket.on('data', (chunk: string) => (answer += chunk))
    const body = '{}'
    socket.write(
      'POST /giffer/uploads/sign HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    )
    await vi.waitFor(() => expect(answer).toContain('100 Continue'), { timeout: 10_000, interval: 10 })
    child.kill('SIGTERM')
    await vi.waitFor(() => expect(lines.some((line) => line.includes('site stopping'))).toBe(true), {
      timeout: 10_000,
      interval: 10,
    })
    socket.write(body)
    await once(socket, 'close')
    const [code] = await once(child, 'exit')
    expect(answer).toMatch(/HTTP\/1\.1 200 OK[\s\S]*Connection: close/i)
    expect(code).toBe(0)
    await expect(get(port, '/healthz')).rejects.toThrow()
  }, 30_000)

  it('turns /readyz 503 at once on SIGTERM and keeps serving for SHUTDOWN_DELAY_MS, then stops accepting and exits 0', async () => {
    const { child, port, lines } = await startServer({ SHUTDOWN_DELAY_MS: '1500' })
    const ready = await get(port, '/readyz')
    expect(ready.status).toBe(200)
    expect(JSON.parse(ready.body)).toEqual({ status: 'ready', dependencies: {} })
    const exited = once(child, 'exit')
    const signalled = Date.now()
    child.kill('SIGTERM')
    await vi.waitFor(() => expect(lines.some((line) => line.includes('site draining'))).toBe(true), { timeout: 5_000, interval: 10 })
    const draining = await get(port, '/readyz')
    expect(draining.status).toBe(503)
    expect(JSON.parse(draining.body).status).toBe('draining')
    // Still serving while the router takes notice.
    expect((await get(port, '/healthz')).status).toBe(200)
    expect((await get(port, '/pricing/')).status).toBe(200)
    const [code] = await exited
    expect(code).toBe(0)
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1_400)
    await expect(get(port, '/readyz')).rejects.toThrow()
  }, 30_000)

  it('skips the delay on Ctrl-C (SIGINT)', async () => {
    const { child } = await startServer({ SHUTDOWN_DELAY_MS: '20000' })
    const signalled = Date.now()
    child.kill('SIGINT')
    const [code] = await once(child, 'exit')
    expect(code).toBe(0)
    expect(Date.now() - signalled).toBeLessThan(5_000)
  }, 30_000)

  it('on SIGTERM does not wait for a request whose headers never arrived: exits 0 in under 3 s', async () => {
    const { child, port } = await startServer()
    const { closed } = trickle(port)
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    const started = Date.now()
    child.kill('SIGTERM')
    const [code] = await once(child, 'exit')
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(code).toBe(0)
    await closed
  }, 30_000)

  it('survives a request that comes in during shutdown and is answered at once', async () => {
    let release: (() => void) | undefined
    const served = createHttpServer((req, res) => {
      if (req.url === '/slow') release = () => res.end('slow')
      else res.end('fast')
    }, pino({ level: 'silent' }))
    served.server.listen(0, '127.0.0.1')
    await once(served.server, 'listening')
    const socket = net.connect((served.server.address() as net.AddressInfo).port, '127.0.0.1')
    let answer = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk))
    socket.write('GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n')
    await vi.waitFor(() => expect(release).toBeDefined(), { interval: 10 })
    const closed = served.close(5_000)
    // The next request on the same socket, which the handler answers at once: the shutdown's
    // "Connection: close" must be set before its headers are out, not after (ERR_HTTP_HEADERS_SENT).
    socket.write('GET /fast HTTP/1.1\r\nHost: localhost\r\n\r\n')
    await new Promise((resolve) => setTimeout(resolve, 100))
    release!()
    await Promise.all([once(socket, 'close'), closed])
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*Connection: close[\s\S]*slow$/)
  })

  // The tests from here on only start a process and read what it says or answers: they wait on
  // it (a trickling client waits out the 15 s header limit) and time nothing, so they run at once.
  // Started together on a busy machine, a process may take 10 s or more to listen: each has a
  // minute in all.
  it.concurrent('reports each service it calls in /readyz, and stays ready while they are away: pages need none of them', async () => {
    const { child, port } = await startServer({ GIFFER_URL: 'http://127.0.0.1:9', DASHBOARD_URL: 'http://127.0.0.1:9/app' })
    try {
      const ready = await get(port, '/readyz')
      expect(ready.status).toBe(200)
      expect(JSON.parse(ready.body)).toEqual({
        status: 'ready',
        dependencies: { giffer: { reachable: false, optional: true }, dashboard: { reachable: false, optional: true } },
      })
    } finally {
      child.kill('SIGKILL')
    }
  }, 60_000)

  it.concurrent('closes a socket whose headers trickle in within 20 s, with 408', async () => {
    const { child, port } = await startServer()
    try {
      const { closed } = trickle(port)
      const { afterMs, answer } = await closed
      expect(afterMs).toBeLessThan(20_000)
      expect(answer).toMatch(/^HTTP\/1\.1 408/)
    } finally {
      child.kill('SIGKILL')
    }
  }, 60_000)

  it.concurrent('refuses to start with a bad variable and names it', async () => {
    const child = spawn(process.execPath, [serverScript('server/main.ts')], {
      cwd: ROOT,
      env: { ...process.env, PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr!.on('data', (chunk) => (stderr += chunk))
    const [code] = await once(child, 'exit')
    expect(code).toBe(1)
    expect(stderr).toContain('PORT')
  }, 60_000)

  it.concurrent('started with PUBLIC_URL=https://example.com and nothing else, refuses, saying GIFFER_SECRET is needed and why', async () => {
    const child = spawn(process.execPath, [serverScript('server/main.ts')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: 'https://example.com' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr!.on('data', (chunk) => (stderr += chunk))
    const [code] = await once(child, 'exit')
    expect(code).toBe(1)
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^GIFFER_SECRET: required when the image service's links are public \(https:\/\/example\.com\)/)])
  }, 60_000)

  it.concurrent('with what a public site needs, starts and reports its risks in one line: an open /metrics, mail kept in the outbox', async () => {
    const { child, port, lines } = await startServer({ PUBLIC_URL: 'https://example.com', GIFFER_SECRET: 'a-secret-of-the-deployment' })
    try {
      expect((await get(port, '/healthz')).status).toBe(200)
      const reports = lines.map((line) => JSON.parse(line) as { msg: string; warnings?: string[] }).filter((line) => line.msg.startsWith('configuration:'))
      expect(reports).toHaveLength(1)
      expect(reports[0]!.warnings).toEqual([
        'METRICS_TOKEN is not set: /metrics is open to anyone who finds it.',
        'SMTP_URL is not set: account mail (reset links) stays in the local outbox and reaches nobody.',
        'NODE_ENV is test: development pages (the outbox) are on and errors say more.',
      ])
    } finally {
      child.kill('SIGKILL')
    }
  }, 60_000)

  it.concurrent('sizes itself once at start: one line says what its box is and what it chose', async () => {
    const { child, port, lines } = await startServer({ GIFFER_WORKERS: '1' })
    try {
      // The image service and the dashboard in the process are made by now: neither sizes again.
      expect((await get(port, '/giffer/fonts')).status).toBe(200)
      expect((await get(port, '/app/api/v2/users/login_check')).status).toBe(200)
      const starts = lines.map((line) => JSON.parse(line) as { msg: string }).filter((line) => line.msg.startsWith('box: '))
      expect(starts).toEqual([expect.objectContaining({ msg: expect.stringMatching(/chose 1 render thread, \d+ MB for renders and password hashes,/) })])
    } finally {
      child.kill('SIGKILL')
    }
  }, 60_000)

  it.concurrent('with nothing set, reports nothing: a local start stays as it was', async () => {
    const { child, port, lines } = await startServer()
    try {
      expect((await get(port, '/healthz')).status).toBe(200)
      expect(lines.filter((line) => line.includes('configuration:'))).toEqual([])
    } finally {
      child.kill('SIGKILL')
    }
  }, 60_000)
})

describe('request targets', () => {
  /** Sends a raw request line and gives the status and Location the server answers with. */
  async function answerTo(port: number, target: string): Promise<{ status: number; location: string | undefined }> {
    const socket = net.connect(port, '127.0.0.1')
    socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    let answer = ''
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')))
    await once(socket, 'close')
    return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]), location: /^location: (.*)\r$/im.exec(answer)?.[1] }
  }
  const statusFor = async (port: number, target: string) => (await answerTo(port, target)).status

  it('answers a request line in absolute form as its path (never a 500), and a target that is neither with 400', async () => {
    const seen: string[] = []
    const http = createHttpServer((req, res) => {
      seen.push(req.url ?? '')
      res.end('ok')
    }, pino({ level: 'silent' }))
    http.server.listen(0, '127.0.0.1')
    await once(http.server, 'listening')
    const { port } = http.server.address() as net.AddressInfo
    try {
      expect(await statusFor(port, 'http://a/pricing/?token=x')).toBe(200)
      expect(await statusFor(port, 'HTTPS://a:8080/reset/new/')).toBe(200)
      expect(await statusFor(port, 'http://a?q=1')).toBe(200)
      expect(seen).toEqual(['/pricing/?token=x', '/reset/new/', '/?q=1'])
      expect(await statusFor(port, '*')).toBe(400)
      expect(await statusFor(port, 'ftp://a/')).toBe(400)
      expect(await statusFor(port, 'http://a:port/')).toBe(400)
      expect(seen).toHaveLength(3)
    } finally {
      await http.close(1000)
    }
  })

  it('takes an absolute-form path as sent, unresolved, so both forms of a target reach the same place', async () => {
    const site = createHttpServer(testApp(), pino({ level: 'silent' }))
    site.server.listen(0, '127.0.0.1')
    await once(site.server, 'listening')
    const { port } = site.server.address() as net.AddressInfo
    try {
      for (const path of ['/help/%2e%2e/metrics', '/help/../metrics', '/help\\..\\metrics']) {
        const originForm = await answerTo(port, path)
        expect(originForm.status, path).not.toBe(200)
        expect(await answerTo(port, `http://a${path}`), path).toEqual(originForm)
      }
      expect(await answerTo(port, 'http://a/help/%2e%2e/metrics')).toEqual({ status: 301, location: '/help/%2e%2e/metrics/' })
      expect((await answerTo(port, 'http://a/metrics')).status).toBe(200)
    } finally {
      await site.close(1000)
    }
  })
})
