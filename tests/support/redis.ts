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

/**
 * Resolves once the Redis at `url` is `child` (another test's Redis on a taken port would answer
 * PING too); rejects as soon as `child` exits, or after `timeoutMs`.
 */
async function waitForOwnRedis(url: string, child: ChildProcess, output: () => string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (!running(child)) throw new RedisExited(`redis at ${url} exited before it answered: ${output() || `exit ${child.exitCode ?? child.signalCode}`}`)
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null, connectTimeout: 1_000, commandTimeout: 1_000 })
    client.on('error', () => undefined)
    try {
      await client.connect()
      const pid = /^process_id:(\d+)/m.exec(await client.info('server'))?.[1]
      if (pid === String(child.pid)) return
    } catch {
      // Not listening yet.
    } finally {
      client.disconnect()
    }
    if (Date.now() > deadline) throw new Error(`redis at ${url} did not answer within ${timeoutMs / 1000} s: ${output()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

class RedisExited extends Error {}

/** Neither exited nor killed by a signal (a process killed by one has no exit code). */
const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null

export async function startRedis(): Promise<TestRedis> {
  const binary = redisServerPath()
  if (!binary) throw new Error('redis-server is not installed: run `npx tsx scripts/ensure-tools.ts` (or apt-get install redis-server)')
  let port = await freePort()
  let child: ChildProcess | null = null
  const start = async () => {
    if (child && running(child)) return
    let output = ''
    child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'], { stdio: ['ignore', 'pipe', 'pipe'] })
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2_000))
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
    try {
      await waitForOwnRedis(`redis://127.0.0.1:${port}`, child, () => output.trim())
    } catch (error) {
      await stop()
      throw error
    }
  }
  const stop = async () => {
    const stopping = child
    child = null
    if (!stopping || !running(stopping)) return
    const exited = new Promise((resolve) => stopping.once('exit', resolve))
    stopping.kill('SIGKILL')
    await exited
  }
  // Whatever happens to the test run, its Redis goes with it.
  process.once('exit', () => child?.kill('SIGKILL'))
  // A free port can be taken by another test process before Redis binds it: then try another.
  for (let attempt = 1; ; attempt++) {
    try {
      await start()
      break
    } catch (error) {
      if (!(error instanceof RedisExited) || attempt === 3) throw error
      port = await freePort()
    }
  }
  const url = `redis://127.0.0.1:${port}`
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
