/** Starting and stopping the built server as a child process, for the load scripts. */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** Servers started here and still running: killed should this process end first (a run stopped midway). */
const running = new Set<ChildProcess>()
process.on('exit', () => running.forEach((child) => child.kill('SIGKILL')))
export function track(child: ChildProcess): ChildProcess {
  running.add(child)
  child.once('exit', () => running.delete(child))
  return child
}

/** Spawns a server process and resolves with its port once it prints `port=N` or logs `"port":N`. */
export async function startProcess(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = track(spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] }))
  const port = await new Promise<number>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      const match = /"port":(\d+)|^port=(\d+)$/.exec(line)
      if (match) {
        resolve(Number(match[1] ?? match[2]))
        // From here on the logs are read and dropped, as a log shipper would.
        lines.removeAllListeners('line')
        child.stdout!.resume()
      }
    })
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)))
  })
  return { child, port }
}

/**
 * The environment `npm start` and the Procfile give the server (which they also run with
 * `--expose-gc`, for the collection once the server falls quiet: server/process/quiet-gc.ts): glibc's
 * allocator with one arena for every thread and a 32 KB threshold above which blocks are mapped
 * on their own, so the image buffers of the render threads go back to the system when freed
 * instead of staying in per-thread arenas.
 */
export const PRODUCTION_ENV = { NODE_ENV: 'production', MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '32768' }

/**
 * A port free on loopback right now, for a server started next. It is drawn at random outside the
 * kernel's ephemeral range: a port the kernel hands out itself (to a server bound to port 0, or
 * to an outgoing connection) could go to another process between this check and the server's
 * start. Never the same port twice in one process. A server's start still checks that the port
 * is its own (`listensOn`): another process drawing the same port at the same moment is rare, not
 * impossible.
 */
export async function freePort(): Promise<number> {
  const range = portsToDraw()
  for (let attempt = 0; range && attempt < 50; attempt++) {
    const port = range[0] + Math.floor(Math.random() * (range[1] - range[0] + 1))
    if (handedOut.has(port) || !(await bindable(port))) continue
    handedOut.add(port)
    return port
  }
  // No range outside the kernel's (a host that gave it all ports), or none free in it: a port the
  // kernel picks, which a start's check of its listener still tells from another process's.
  const server = net.createServer((socket) => socket.destroy())
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port))
  })
  await new Promise((resolve) => server.close(resolve))
  handedOut.add(port)
  return port
}

const handedOut = new Set<number>()

/** Ports below this are left to services on fixed ports (the site's own tests, 3210; Redis; SMTP). */
const FIXED_PORTS_BELOW = 20_000

/**
 * Where ports are drawn: below the kernel's ephemeral range (Linux: 32768–60999 by default), or
 * above it where a host has widened it down to the fixed ports (none where it spans them all); the
 * IANA range's complement where the kernel's cannot be read.
 */
function portsToDraw(): [number, number] | undefined {
  let [low, high] = [49_152, 65_535]
  try {
    const read = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number)
    if (read.length === 2 && read.every(Number.isInteger)) [low, high] = read as [number, number]
  } catch {
    // Not Linux: the IANA range.
  }
  if (low - FIXED_PORTS_BELOW >= 1_000) return [FIXED_PORTS_BELOW, low - 1]
  if (65_535 - high >= 1_000) return [high + 1, 65_535]
  return undefined
}

/**
 * Whether a server could listen on `port` of loopback now: on 127.0.0.1, and on ::1 where the
 * machine has IPv6 (a browser asked for localhost tries ::1 first).
 */
export async function bindable(port: number): Promise<boolean> {
  if (!(await probe(port, { host: '127.0.0.1' }))) return false
  return probe(port, { host: '::1', ipv6Only: true }, ['EADDRNOTAVAIL', 'EAFNOSUPPORT'])
}

/** Listens on `port` and closes again; false on an error, unless its code is one of `harmless`. */
async function probe(port: number, address: { host: string; ipv6Only?: boolean }, harmless: string[] = []): Promise<boolean> {
  // A client that connects meanwhile (a browser retrying the port) must not hold the close up.
  const server = net.createServer((socket) => socket.destroy())
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) => resolve(harmless.includes(error.code ?? '')))
    server.listen({ port, ...address }, () => resolve(true))
  })
  if (server.listening) await new Promise((resolve) => server.close(resolve))
  return listening
}

/**
 * Whether process `pid` holds a listening TCP socket on `port` (Linux: its open sockets against
 * the kernel's table); undefined where that cannot be read. A probe that a server has started
 * can then tell it from another process that answers on the same port.
 */
export function listensOn(pid: number | undefined, port: number): boolean | undefined {
  if (pid === undefined) return undefined
  let sockets: Set<string>
  try {
    sockets = new Set(
      readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
        try {
          return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.slice(1) ?? []
        } catch {
          // Closed meanwhile.
          return []
        }
      }),
    )
  } catch {
    return undefined
  }
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`
  let listeners = 0
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string
    try {
      text = readFileSync(table, 'utf8')
    } catch {
      continue
    }
    // Columns: slot, local address, remote address, state (0A: listening), …, inode (the tenth).
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      if (!fields[1]?.endsWith(local) || fields[3] !== '0A') continue
      if (sockets.has(fields[9] ?? '')) return true
      listeners++
    }
  }
  // No listener on the port in the kernel's tables: they cannot say (a sandbox that hides them).
  return listeners ? false : undefined
}

/** How long a server may take to answer its health check once started. */
const START_TIMEOUT_MS = 20_000

/**
 * Waits until `child` answers `url` (2xx) from its own socket on `port`: another process that
 * took the port meanwhile may answer too. Throws once it exits, or after 20 s, naming `name`.
 */
export async function waitUntilServing(child: ChildProcess, port: number, url: string, name: string, output = () => ''): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS
  let answeredByOther = false
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited with ${child.exitCode ?? child.signalCode} while starting${answeredByOther ? ` (another process answers on port ${port})` : ''}${withOutput(output())}`)
    const left = deadline - Date.now()
    if (left <= 0) break
    if (await answersOk(url, Math.min(1_000, left))) {
      if (listensOn(child.pid, port) !== false) return
      answeredByOther = true
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${name} did not answer ${url} within ${START_TIMEOUT_MS / 1000} s${answeredByOther ? ` (another process answers on port ${port})` : ''}${withOutput(output())}`)
}

const withOutput = (text: string) => (text ? `:\n${text}` : '')

/** Whether `url` answers 2xx within `timeoutMs` (a process that accepts but never answers is not up). */
export const answersOk = (url: string, timeoutMs = 1_000) =>
  fetch(url, { signal: AbortSignal.timeout(timeoutMs) }).then(
    async (res) => {
      // The body is not needed: its connection goes back at once.
      await res.body?.cancel().catch(() => undefined)
      return res.ok
    },
    () => false,
  )

/**
 * Starts the built site on a free port and resolves once /healthz answers; for runs whose log
 * level hides the start-up line. `cwd`: the checkout whose build runs (another build, for a
 * before-and-after measure).
 */
export async function startSite(env: Record<string, string>, cwd = root): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort()
  const child = track(
    spawn(process.execPath, ['--expose-gc', 'dist/server/main.js'], {
      cwd,
      // Its own address is its public one unless told otherwise (canonical links, email images, allowed origins).
      env: { ...process.env, ...PRODUCTION_ENV, HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, ...env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  )
  try {
    await waitUntilServing(child, port, `http://127.0.0.1:${port}/healthz`, 'the site')
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return { child, port }
}

/** How long a killed process may take to be gone. */
const KILL_WAIT_MS = 5_000

/**
 * Sends a process `signal` and waits for it to exit, killing it when it has not within `graceMs`;
 * at once when it has already exited or never started. Answers its exit code and how long it took.
 * A process that outlives its SIGKILL by `KILL_WAIT_MS` (stuck in the kernel) is an error rather
 * than a wait without end.
 */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000): Promise<{ code: number | null; ms: number }> {
  const started = Date.now()
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return { code: child.exitCode, ms: 0 }
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  child.kill(signal)
  let killed: NodeJS.Timeout | undefined
  let stuck: NodeJS.Timeout | undefined
  const outlived = new Promise<never>((_, reject) => {
    killed = setTimeout(() => {
      child.kill('SIGKILL')
      stuck = setTimeout(() => reject(new Error(`process ${child.pid} still runs ${KILL_WAIT_MS} ms after SIGKILL`)), KILL_WAIT_MS)
    }, graceMs)
  })
  try {
    const [code] = await Promise.race([exited, outlived])
    return { code, ms: Date.now() - started }
  } finally {
    clearTimeout(killed)
    clearTimeout(stuck)
  }
}

/** Stops a site: 30 s to finish its requests and exit, then killed. Answers its exit code. */
export async function stop(child: ChildProcess): Promise<number | null> {
  return (await stopChild(child, 'SIGTERM', 30_000)).code
}

/** Resident memory of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1])
  return Math.round(kb / 1024)
}
