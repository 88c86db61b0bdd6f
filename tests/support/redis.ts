/**
 * A throwaway Redis for tests: Debian's redis-server on a free loopback port, nothing saved to
 * disk, stopped at the end. `npm test` installs redis-server first (scripts/ensure-tools.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { Redis } from 'ioredis'
import { REDIS_SERVER, toolPath } from '../../scripts/lib/debian-tools.js'
import { freePort } from '../../scripts/lib/server-process.js'

export const redisServerPath = (): string | undefined => toolPath(REDIS_SERVER)

export interface TestRedis {
  url: string
  port: number
  /** Stops the server (as a crash would), keeping the port for `start`. */
  stop(): Promise<void>
  start(): Promise<void>
  flush(): Promise<void>
}

async function waitForPing(url: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null })
    client.on('error', () => undefined)
    try {
      await client.connect()
      if ((await client.ping()) === 'PONG') return
    } catch {
      if (Date.now() > deadline) throw new Error(`redis at ${url} did not start`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    } finally {
      client.disconnect()
    }
  }
}

export async function startRedis(): Promise<TestRedis> {
  const binary = redisServerPath()
  if (!binary) throw new Error('redis-server is not installed: run `npx tsx scripts/ensure-tools.ts` (or apt-get install redis-server)')
  const port = await freePort()
  const url = `redis://127.0.0.1:${port}`
  let child: ChildProcess | null = null
  const start = async () => {
    if (child && child.exitCode === null) return
    child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'], { stdio: 'ignore' })
    await waitForPing(url)
  }
  const stop = async () => {
    const running = child
    child = null
    if (!running || running.exitCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    running.kill('SIGKILL')
    await exited
  }
  // Whatever happens to the test run, its Redis goes with it.
  process.once('exit', () => child?.kill('SIGKILL'))
  await start()
  return {
    url,
    port,
    start,
    stop,
    async flush() {
      const client = new Redis(url)
      await client.flushall()
      client.disconnect()
    },
  }
}
