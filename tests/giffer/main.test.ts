import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { describe, expect, it } from 'vitest'
import { projectRoot } from '../../server/giffer/fonts.js'

describe('standalone giffer (npm run giffer)', () => {
  it('serves at / on its own port and, on SIGTERM, finishes the request in flight and exits 0', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'giffer-main-'))
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/giffer/main.ts'], {
      cwd: projectRoot,
      env: { ...process.env, GIFFER_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', GIFFER_WORKERS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      const lines = createInterface({ input: child.stdout! })
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('giffer did not start')), 30_000)
        lines.on('line', (line) => {
          const entry = JSON.parse(line) as { msg?: string; port?: number }
          if (entry.msg === 'giffer listening' && entry.port) {
            clearTimeout(timer)
            resolve(entry.port)
          }
        })
      })
      const health = await fetch(`http://127.0.0.1:${port}/healthz`)
      expect(health.status).toBe(200)

      const inFlight = fetch(`http://127.0.0.1:${port}/scrollingtext/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: 'Goodbye, and thanks for all the frames '.repeat(3), font_size: 60 }),
      })
      await new Promise((resolve) => setTimeout(resolve, 30))
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
      child.kill('SIGTERM')
      const res = await inFlight
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/gif')
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000)
      expect(await exited).toBe(0)
    } finally {
      child.kill('SIGKILL')
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
