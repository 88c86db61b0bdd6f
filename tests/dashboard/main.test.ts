import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { projectRoot } from '../../server/project-root.js'
import { startStandalone } from '../support/standalone.js'

describe('standalone dashboard (npm run dashboard)', () => {
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

  it('refuses to start with a bad variable and names it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/dashboard/main.ts'], {
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
