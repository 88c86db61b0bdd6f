/**
 * The built services as separate processes on ports chosen beforehand, for browser tests of a
 * deployment shape other than the default site's (an image service on its own origin, uploads in
 * a bucket). Each process's output is kept, to say why it did not start.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { root, waitUntilServing } from '../../scripts/lib/server-process.js'

export interface RunningService {
  name: string
  origin: string
  child: ChildProcess
  /** The last lines the process wrote. */
  output(): string
  stop(): Promise<void>
}

/**
 * Runs `dist/server/{script}` with `env` (on top of this process's) and resolves once
 * `http://127.0.0.1:{port}/healthz` answers, within 20 s.
 */
export async function startService(name: string, script: string, port: number, env: Record<string, string>): Promise<RunningService> {
  const child = spawn(process.execPath, [path.join('dist/server', script)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-8_000)
  }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const exited = () => child.exitCode !== null || child.signalCode !== null
  const service: RunningService = {
    name,
    origin: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    async stop() {
      if (exited()) return
      const gone = once(child, 'exit')
      child.kill('SIGTERM')
      const late = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await gone
      clearTimeout(late)
    },
  }
  try {
    await waitUntilServing(child, port, `${service.origin}/healthz`, name, () => output)
  } catch (error) {
    await service.stop()
    throw error
  }
  return service
}

/** A new empty folder under the system's temporary one. */
export function temporaryFolder(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

/** The files of a folder and its subfolders, as paths relative to it with `/`. */
export function filesUnder(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
}

export interface PolicyViolations {
  /** Console errors, and every console message about the Content Security Policy. */
  consoleErrors: string[]
  /** The `securitypolicyviolation` events of the page, as `directive blocked-uri`. */
  violations(): Promise<string[]>
}

/**
 * Records what a page reports of its Content Security Policy and its console errors, from the
 * first document on: call before the page opens.
 */
export async function watchPolicy(page: Page): Promise<PolicyViolations> {
  const consoleErrors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) consoleErrors.push(`console.${message.type()}: ${message.text()}`)
  })
  await page.addInitScript(() => {
    const list: string[] = []
    ;(window as Window & { __policyViolations?: string[] }).__policyViolations = list
    document.addEventListener('securitypolicyviolation', (event) => list.push(`${event.effectiveDirective} ${event.blockedURI}`))
  })
  return {
    consoleErrors,
    violations: () => page.evaluate(() => (window as Window & { __policyViolations?: string[] }).__policyViolations ?? ['the page was not watched']),
  }
}
