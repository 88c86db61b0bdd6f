import { spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { projectRoot } from '../../server/project-root.js'
import { serverScript } from '../support/server-build.js'
import { startStandalone } from '../support/standalone.js'

/** Runs the service expecting it to refuse to start: its exit code and what it printed. */
function refusal(env: NodeJS.ProcessEnv): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [serverScript('server/giffer/main.ts')], {
    cwd: projectRoot,
    env: { ...process.env, GIFFER_PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: '', GIFFER_PUBLIC_URL: '', GIFFER_SECRET: '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  })
  return { status: run.status, stderr: run.stderr }
}

describe('standalone giffer (npm run giffer)', () => {
  it('sizes itself once at start: one line says what its box is and what it chose', async () => {
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'giffer-main-'))
    const { child, logged } = await startStandalone('server/giffer/main.ts', 'giffer', { GIFFER_PORT: '0', HOST: '127.0.0.1', DATA_DIR: stateDir, LOG_LEVEL: 'info', GIFFER_WORKERS: '1' })
    try {
      const lines = logged.map((line) => JSON.parse(line) as { msg: string })
      expect(lines.filter((line) => line.msg.startsWith('box: '))).toEqual([expect.objectContaining({ msg: expect.stringMatching(/chose 1 render thread, \d+ MB for renders,/) })])
    } finally {
      child.kill('SIGKILL')
      await rm(stateDir, { recursive: true, force: true })
    }
  }, 30_000)

  it('serves at / on its own port and, on SIGTERM, finishes the request in flight and exits 0', async () => {
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'giffer-main-'))
    const { child, port, logged } = await startStandalone('server/giffer/main.ts', 'giffer', { GIFFER_PORT: '0', HOST: '127.0.0.1', DATA_DIR: stateDir, LOG_LEVEL: 'info', GIFFER_WORKERS: '1' })
    try {
      const health = await fetch(`http://127.0.0.1:${port}/healthz`)
      expect(health.status).toBe(200)

      // A request the service has certainly begun: it answers "100 Continue" once it has read the
      // headers; the body follows only after the shutdown has started.
      const body = JSON.stringify({ text: 'Goodbye, and thanks for all the frames '.repeat(3), font_size: 60 })
      const socket = net.connect(port, '127.0.0.1')
      const chunks: Buffer[] = []
      socket.on('data', (chunk: Buffer) => chunks.push(chunk))
      const answer = () => Buffer.concat(chunks).toString('latin1')
      socket.write(
        'POST /scrollingtext/create HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
      )
      await vi.waitFor(() => expect(answer()).toContain('100 Continue'), { timeout: 10_000, interval: 10 })
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
      child.kill('SIGTERM')
      await vi.waitFor(() => expect(logged.some((line) => line.includes('giffer stopping'))).toBe(true), {
        timeout: 10_000,
        interval: 10,
      })
      socket.write(body)
      await once(socket, 'close')
      const [head, gif] = answer().split('\r\n\r\n').slice(1)
      expect(head).toMatch(/^HTTP\/1\.1 200 OK/)
      expect(head).toMatch(/content-type: image\/gif/i)
      expect(gif!.length).toBeGreaterThan(1000)
      expect(await exited).toBe(0)
    } finally {
      child.kill('SIGKILL')
      await rm(stateDir, { recursive: true, force: true })
    }
  }, 60_000)

  it('behind the site, hands out live timers and upload targets on PUBLIC_URL/giffer, never its own address', async () => {
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'giffer-main-'))
    const env = { GIFFER_PORT: '0', HOST: '127.0.0.1', DATA_DIR: stateDir, GIFFER_WORKERS: '1', PUBLIC_URL: 'https://www.example.com', GIFFER_SECRET: 'secret-of-the-deployment-1' }
    const { child, port } = await startStandalone('server/giffer/main.ts', 'giffer', env)
    try {
      const live = await fetch(`http://127.0.0.1:${port}/countdown/live-url`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ until: new Date(Date.now() + 86_400_000).toISOString() }) })
      expect(live.status).toBe(200)
      const { url, png_url } = (await live.json()) as { url: string; png_url: string }
      expect(url).toMatch(/^https:\/\/www\.example\.com\/giffer\/countdown\/live\.gif\?/)
      expect(png_url).toMatch(/^https:\/\/www\.example\.com\/giffer\/countdown\/live\.png\?/)
      const signed = (await (await fetch(`http://127.0.0.1:${port}/uploads/sign`, { method: 'POST' })).json()) as { url: string }
      expect(signed.url).toBe('/giffer/uploads')
    } finally {
      child.kill('SIGKILL')
      await rm(stateDir, { recursive: true, force: true })
    }
  }, 60_000)

  it('refuses to start in production with neither PUBLIC_URL nor GIFFER_PUBLIC_URL, in one line naming what to set', () => {
    const { status, stderr } = refusal({ NODE_ENV: 'production' })
    expect(status).toBe(1)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toMatch(/^PUBLIC_URL: set it to the site's public address .* or GIFFER_PUBLIC_URL /)
  }, 30_000)

  it('refuses to start with public links and no GIFFER_SECRET, saying that live timers in emails depend on it', () => {
    const { status, stderr } = refusal({ NODE_ENV: 'production', PUBLIC_URL: 'https://www.example.com' })
    expect(status).toBe(1)
    expect(stderr).toMatch(/^GIFFER_SECRET: required .*Live timers sent in emails are signed with it/)
  }, 30_000)

  it('keeps a live timer minted before a restart with a rotated secret working, with the old secret as GIFFER_SECRET_PREVIOUS', async () => {
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'giffer-main-'))
    const base = { GIFFER_PORT: '0', HOST: '127.0.0.1', DATA_DIR: stateDir, GIFFER_WORKERS: '1', PUBLIC_URL: 'https://www.example.com' }
    const run = async (secrets: Record<string, string>, work: (origin: string) => Promise<void>) => {
      const { child, port } = await startStandalone('server/giffer/main.ts', 'giffer', { ...base, ...secrets })
      try {
        await work(`http://127.0.0.1:${port}`)
      } finally {
        child.kill('SIGTERM')
        await once(child, 'exit')
      }
    }
    let minted = ''
    await run({ GIFFER_SECRET: 'the-secret-before-rotation' }, async (origin) => {
      const res = await fetch(`${origin}/countdown/live-url`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ until: new Date(Date.now() + 86_400_000).toISOString() }) })
      minted = ((await res.json()) as { url: string }).url
    })
    const onService = (origin: string) => minted.replace('https://www.example.com/giffer', origin)
    try {
      await run({ GIFFER_SECRET: 'the-secret-after-rotation', GIFFER_SECRET_PREVIOUS: 'the-secret-before-rotation' }, async (origin) => {
        const timer = await fetch(onService(origin))
        expect(timer.status).toBe(200)
        expect(timer.headers.get('content-type')).toBe('image/gif')
      })
      // Once the previous secret is dropped, what it signed is refused.
      await run({ GIFFER_SECRET: 'the-secret-after-rotation' }, async (origin) => {
        const timer = await fetch(onService(origin))
        expect(timer.status).toBe(403)
        expect(((await timer.json()) as { error: { code: string } }).error.code).toBe('bad_signature')
      })
    } finally {
      await rm(stateDir, { recursive: true, force: true })
    }
  }, 90_000)
})
