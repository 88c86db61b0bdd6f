import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { projectRoot } from '../../server/project-root.js'
import { serverScript } from '../support/server-build.js'
import { startStandalone } from '../support/standalone.js'

describe('standalone dashboard (npm run dashboard)', () => {
  it('sizes itself once at start: one line says what its box is and the memory it keeps for password hashes', async () => {
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'dashboard-main-'))
    const { child, logged } = await startStandalone('server/dashboard/main.ts', 'dashboard', { DASHBOARD_PORT: '0', HOST: '127.0.0.1', DATA_DIR: stateDir, LOG_LEVEL: 'info', PUBLIC_URL: 'https://site.example' })
    try {
      const lines = logged.map((line) => JSON.parse(line) as { msg: string })
      expect(lines.filter((line) => line.msg.startsWith('box: '))).toEqual([expect.objectContaining({ msg: expect.stringMatching(/chose \d+ MB for password hashes$/) })])
    } finally {
      child.kill('SIGKILL')
      await rm(stateDir, { recursive: true, force: true })
    }
  }, 30_000)

  it('serves /app on its own port, keeps accounts in DATA_DIR, and exits 0 on SIGTERM', async () => {
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'dashboard-main-'))
    const { child, port } = await startStandalone('server/dashboard/main.ts', 'dashboard', { DASHBOARD_PORT: '0', HOST: '127.0.0.1', DATA_DIR: stateDir, LOG_LEVEL: 'info', PUBLIC_URL: 'https://site.example' })
    try {
      const base = `http://127.0.0.1:${port}/app`
      expect(await (await fetch(`${base}/api/v2/users/login_check`)).json()).toEqual({ status: 'anonymous' })
      const refused = await fetch(`${base}/api/v1/users/password_reset?dual=1`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, body: '{"email":"a@b.example"}' })
      expect(refused.status).toBe(403)
      const answered = await fetch(`${base}/api/v1/users/password_reset?dual=1`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://site.example' }, body: '{"email":"a@b.example"}' })
      expect(answered.status).toBe(200)

      child.kill('SIGTERM')
      const [code] = await once(child, 'exit')
      expect(code).toBe(0)
    } finally {
      child.kill('SIGKILL')
      await rm(stateDir, { recursive: true, force: true })
    }
  }, 40_000)

  it('answers /healthz, and /readyz with its SMTP server\'s state; on SIGTERM /readyz turns 503 while it still serves, for SHUTDOWN_DELAY_MS', async () => {
    const stateDir = await mkdtemp(path.join(os.tmpdir(), 'dashboard-main-'))
    const env = { DASHBOARD_PORT: '0', HOST: '127.0.0.1', DATA_DIR: stateDir, LOG_LEVEL: 'info', PUBLIC_URL: 'https://site.example', SMTP_URL: 'smtp://127.0.0.1:9', SHUTDOWN_DELAY_MS: '1500' }
    const { child, port, logged } = await startStandalone('server/dashboard/main.ts', 'dashboard', env)
    try {
      const base = `http://127.0.0.1:${port}`
      expect((await fetch(`${base}/healthz`)).status).toBe(200)
      const ready = await fetch(`${base}/readyz`)
      expect(ready.status).toBe(200)
      expect(await ready.json()).toEqual({ status: 'ready', dependencies: { smtp: { reachable: false, optional: true } } })
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      await vi.waitFor(() => expect(logged.some((line) => line.includes('dashboard draining'))).toBe(true), { timeout: 5_000, interval: 10 })
      expect((await fetch(`${base}/readyz`)).status).toBe(503)
      expect((await fetch(`${base}/app/api/v2/users/login_check`)).status).toBe(200)
      const [code] = await exited
      expect(code).toBe(0)
    } finally {
      child.kill('SIGKILL')
      await rm(stateDir, { recursive: true, force: true })
    }
  }, 40_000)

  it('refuses to start in production without PUBLIC_URL, since reset links point there', async () => {
    const child = spawn(process.execPath, [serverScript('server/dashboard/main.ts')], {
      cwd: projectRoot,
      env: { ...process.env, NODE_ENV: 'production', DASHBOARD_PORT: '0', PUBLIC_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const [code] = await once(child, 'exit')
    expect(code).toBe(1)
    expect(stderr).toMatch(/^PUBLIC_URL: set it to the site's public address: reset links/)
  }, 30_000)

  it('refuses to start with a bad variable and names it', async () => {
    const child = spawn(process.execPath, [serverScript('server/dashboard/main.ts')], {
      cwd: projectRoot,
      env: { ...process.env, DASHBOARD_PORT: 'eighty', SMTP_URL: 'not a url' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const [code] = await once(child, 'exit')
    expect(code).toBe(1)
    expect(stderr).toContain('DASHBOARD_PORT')
    expect(stderr).toContain('SMTP_URL')
  }, 30_000)
})
