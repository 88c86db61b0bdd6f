/** A standalone entry (`server/giffer/main.ts`, `server/dashboard/main.ts`) run as its own process, bundled as `npm start` runs it. */
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { projectRoot } from '../../server/project-root.js'
import { serverScript } from './server-build.js'

export interface StandaloneProcess {
  child: ChildProcess
  /** The port it says it listens on. */
  port: number
  /** Every log line it has written so far, and later ones as they come. */
  logged: string[]
}

/** Starts `entry` and resolves once it logs `{name} listening` with its port (port 0: any free one). */
export function startStandalone(entry: 'server/giffer/main.ts' | 'server/dashboard/main.ts', name: string, env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<StandaloneProcess> {
  const child = spawn(process.execPath, [serverScript(entry)], { cwd: projectRoot, env: { ...process.env, SHUTDOWN_DELAY_MS: '0', ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  const logged: string[] = []
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${name} did not start`))
    }, timeoutMs)
    createInterface({ input: child.stdout! }).on('line', (line) => {
      logged.push(line)
      const entry = JSON.parse(line) as { msg?: string; port?: number }
      if (entry.msg === `${name} listening` && entry.port) {
        clearTimeout(timer)
        resolve({ child, port: entry.port, logged })
      }
    })
  })
}
