import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { startStandalone } from '../support/standalone.js'

describe('standalone giffer (npm run giffer)', () => {
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
})
