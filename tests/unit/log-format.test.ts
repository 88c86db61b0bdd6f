import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../routes/app.js'

/**
 * A preload that makes `pino-pretty` impossible to find, as in a deployment, where development
 * dependencies are pruned. Node hands preloads on to worker threads, pino's transport thread too.
 */
const WITHOUT_PINO_PRETTY = path.join(mkdtempSync(path.join(os.tmpdir(), 'log-format-')), 'without-pino-pretty.cjs')
writeFileSync(
  WITHOUT_PINO_PRETTY,
  `const Module = require('node:module')
const resolve = Module._resolveFilename
Module._resolveFilename = function (request, ...rest) {
  if (request === 'pino-pretty' || request.startsWith('pino-pretty/')) throw Object.assign(new Error('pino-pretty is not installed'), { code: 'MODULE_NOT_FOUND' })
  return resolve.call(this, request, ...rest)
}
`,
)

/** What the logger made for this NODE_ENV writes to stdout for one request line. */
function logLine(nodeEnv: 'development' | 'production' | 'test', preload: string[] = []) {
  const script = `
    const { createLogger } = await import(${JSON.stringify(path.join(ROOT, 'server/process/logger.ts'))})
    const logger = createLogger({ LOG_LEVEL: 'info', NODE_ENV: ${JSON.stringify(nodeEnv)} })
    logger.info({ req: { method: 'GET', url: '/pricing/' } }, 'request completed')
    logger.flush(() => process.exit(0))`
  const child = spawnSync(process.execPath, [...preload.flatMap((file) => ['--require', file]), '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    encoding: 'utf8',
    timeout: 15_000,
  })
  return { status: child.status, stdout: child.stdout, stderr: child.stderr }
}

describe('log lines', () => {
  it('are readable in development, printed by pino-pretty', () => {
    const { status, stdout } = logLine('development')
    expect(status).toBe(0)
    expect(stdout).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: request completed\n/)
    expect(stdout).toContain('"url": "/pricing/"')
    expect(() => JSON.parse(stdout.split('\n')[0]!)).toThrow()
  })

  it.each(['production', 'test'] as const)('are JSON in %s, and need no pino-pretty there', (nodeEnv) => {
    const { status, stdout, stderr } = logLine(nodeEnv, [WITHOUT_PINO_PRETTY])
    expect(status, stderr).toBe(0)
    const lines = stdout.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: '/pricing/' } })
  })

  it('cannot be made in development without pino-pretty, so the check above does hide it', () => {
    const { status, stderr } = logLine('development', [WITHOUT_PINO_PRETTY])
    expect(status).not.toBe(0)
    expect(stderr).toContain('"pino-pretty"')
  })
})

describe('log lines waiting for standard output', () => {
  it('are held up to 4 M characters when nothing reads them, and the rest dropped rather than kept in memory', async () => {
    // 200,000 lines of about 300 characters: 60 M characters, while the pipe is never read.
    const script = `
      const { createLogger } = await import(${JSON.stringify(path.join(ROOT, 'server/process/logger.ts'))})
      const logger = createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'production' })
      globalThis.gc()
      const before = process.memoryUsage().heapUsed
      const padding = 'x'.repeat(220)
      for (let n = 0; n < 200_000; n++) logger.info({ n, padding }, 'request completed')
      globalThis.gc()
      process.stderr.write(String(process.memoryUsage().heapUsed - before), () => process.exit(0))`
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    // Standard output is not read until the measurement is in: the pipe fills at once and stays full.
    child.stdout.pause()
    const [grown] = (await once(child.stderr, 'data')) as [Buffer]
    // Then read and dropped, so that the logger's last flush at exit can finish.
    child.stdout.resume()
    const [code] = (await once(child, 'exit')) as [number | null]
    expect(code).toBe(0)
    // Held whole, the lines took some 60 MB of heap.
    expect(Number(grown.toString()) / 2 ** 20).toBeLessThan(40)
  }, 60_000)
})
