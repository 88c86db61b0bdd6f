/**
 * What both topologies of `npm run scale` (scripts/scale.ts, scripts/scale-machines.ts) are made
 * of: plain HTTP requests, the built services started as child processes and stopped again,
 * nginx from docs/nginx.conf with this run's addresses, the processes' own /metrics, the list of
 * checks with their summary, and the frame of a run (a folder for logs and state, stopping
 * everything at the end, on Ctrl-C and on a failure).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { ensureDebianTools, type DebianTool } from './debian-tools.js'
import { root, stopChild } from './server-process.js'

export { stopChild }

const NGINX_TEMPLATE = path.join(root, 'docs/nginx.conf')
const START_TIMEOUT_MS = 40_000

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
export const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`
export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`

// ---------------------------------------------------------------------------------------------
// HTTP

export interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

export interface SendOptions {
  method?: string
  path: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** Connections kept open between requests; unset: one connection per request. */
  pool?: http.Agent
  /** The address to connect from (any 127.x.x.x is this machine). */
  localAddress?: string
  timeoutMs?: number
}

/** An answer whose status and headers came, and whose body broke off. */
export class CutShort extends Error {
  constructor() {
    super('answer cut short')
  }
}

/** One request to 127.0.0.1:port; rejects on a connection error, a time-out or an answer cut short. */
export function send(port: number, { method = 'GET', path: target, headers = {}, body, pool, localAddress, timeoutMs = 30_000 }: SendOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const allHeaders = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }
    const req = http.request({ host: '127.0.0.1', port, method, path: target, headers: allHeaders, agent: pool ?? false, localAddress, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('close', () => {
        if (!res.complete) reject(new CutShort())
      })
    })
    req.on('timeout', () => req.destroy(new Error('timed out')))
    req.on('error', reject)
    req.end(body)
  })
}

/** Whether the process takes traffic: its readiness answer, 200 (503 while it drains). */
export const answersReady = (port: number) => send(port, { path: '/readyz', timeoutMs: 1_000 }).then((answer) => answer.status === 200, () => false)

/** What the process's readiness answer says right now: its status, or 0 when nothing answers. */
export const readinessOf = (port: number) => send(port, { path: '/readyz', timeoutMs: 1_000 }).then((answer) => answer.status, () => 0)

/** A multipart/form-data body: the fields in order, then the one file (as a browser's FormData sends it). */
export function multipartForm(fields: [string, string][], file: { field: string; name: string; type: string; bytes: Buffer }): { contentType: string; body: Buffer } {
  const boundary = `----scale${Math.random().toString(16).slice(2)}`
  const parts: Buffer[] = fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`))
  parts.push(file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`))
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) }
}

/**
 * The fields and the file of a multipart/form-data body, as a browser posted it (a request caught
 * on its way); null when the body is not one.
 */
export function readMultipartForm(contentType: string, body: Buffer): { fields: Record<string, string>; file: Buffer | null } | null {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType)
  if (!boundary) return null
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`)
  const fields: Record<string, string> = {}
  let file: Buffer | null = null
  for (let at = body.indexOf(delimiter); at >= 0; ) {
    const next = body.indexOf(delimiter, at + delimiter.length)
    if (next < 0) break
    const part = body.subarray(at + delimiter.length + 2, next - 2)
    const split = part.indexOf('\r\n\r\n')
    const headers = part.subarray(0, split).toString()
    const name = /name="([^"]*)"/.exec(headers)?.[1] ?? ''
    const value = part.subarray(split + 4)
    if (/filename="/.test(headers)) file = value
    else fields[name] = value.toString()
    at = next
  }
  return { fields, file }
}

/**
 * A photo-sized PNG that compresses as little as a photo does: two gradients under heavy grain.
 * Its size is about three bytes a pixel (1000 × 1000: 3 MB), so a run can ask for the size it needs.
 */
export async function grainyPhoto(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3)
  const grain = randomBytes(pixels.length)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3
      pixels[at] = Math.round((x / width) * 127 + grain[at]! / 2)
      pixels[at + 1] = Math.round((y / height) * 127 + grain[at + 1]! / 2)
      pixels[at + 2] = grain[at + 2]!
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer()
}

// ---------------------------------------------------------------------------------------------
// The processes

/** Everything started, so that any way out stops it. */
const children = new Set<ChildProcess>()
/** What else must stop at the end (Redis, the S3-compatible server), in the order given. */
const stops: (() => Promise<void>)[] = []

export function track(child: ChildProcess): ChildProcess {
  children.add(child)
  child.once('exit', () => children.delete(child))
  return child
}

/** Runs `stop` when the run ends, after the child processes have stopped. */
export function onStop(stop: () => Promise<void>): void {
  stops.push(stop)
}

/** One process of the run: a web process, an image service, the dashboard. */
export interface Service {
  name: string
  port: number
  logFile: string
  child?: ChildProcess
}

export interface StartOptions {
  /** Node's arguments: the built script and its flags. */
  args: string[]
  /** The whole environment of the process. */
  env: NodeJS.ProcessEnv
  /** Answers once the process takes traffic; /readyz on its port unless told otherwise. */
  ready?: (port: number) => Promise<boolean>
}

/** Starts (or starts again, on its own port) a built service; resolves with how long it took to be ready. */
export async function startService(service: Service, { args, env, ready = answersReady }: StartOptions): Promise<number> {
  const log = openSync(service.logFile, 'a')
  const child = track(spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', log, log] }))
  closeSync(log)
  service.child = child
  const started = Date.now()
  while (Date.now() - started < START_TIMEOUT_MS) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${service.name} exited (${child.exitCode ?? child.signalCode}) while starting; see ${service.logFile}`)
    if (await ready(service.port)) return Date.now() - started
    await sleep(100)
  }
  throw new Error(`${service.name} did not answer within ${seconds(START_TIMEOUT_MS)}; see ${service.logFile}`)
}

/**
 * docs/nginx.conf with this run's addresses in place of its {{…}} placeholders. A line holding
 * `{{SITE}}` is written once per web process, with that process's address.
 */
export function nginxConfig(values: Record<string, string>, sites: string[]): string {
  const template = readFileSync(NGINX_TEMPLATE, 'utf8')
  if (!template.includes('{{SITE}}')) throw new Error('docs/nginx.conf has no place for the web processes ({{SITE}})')
  const lines = template.split('\n').flatMap((line) => (line.includes('{{SITE}}') ? sites.map((site) => line.replaceAll('{{SITE}}', site)) : [line]))
  const config = lines.join('\n').replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => {
    const value = values[name]
    if (value === undefined) throw new Error(`docs/nginx.conf: no value for ${placeholder}`)
    return value
  })
  const unused = Object.keys(values).filter((name) => !template.includes(`{{${name}}}`))
  if (unused.length > 0) throw new Error(`docs/nginx.conf has no place for ${unused.join(', ')}`)
  return config
}

/** nginx in the foreground with docs/nginx.conf, listening on `port` in front of `sites`; its files in `dir`. */
export async function startEdge(nginx: string, dir: string, port: number, sites: Service[]): Promise<void> {
  const configFile = path.join(dir, 'nginx.conf')
  writeFileSync(configFile, nginxConfig({ LISTEN: `127.0.0.1:${port}` }, sites.map((site) => `127.0.0.1:${site.port}`)))
  const child = track(spawn(nginx, ['-p', `${dir}/`, '-c', configFile, '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] }))
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}; see ${path.join(dir, 'error.log')}`)
    if (await answersReady(port)) return
    await sleep(100)
  }
  throw new Error('nginx did not answer within 10 s')
}

export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now()
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${seconds(timeoutMs)}`)
    await sleep(200)
  }
  return Date.now() - started
}

// ---------------------------------------------------------------------------------------------
// What the processes report

export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/** A process's /metrics, read directly (as an operator's scraper does, not through the edge). */
export async function scrape(service: Service): Promise<Sample[]> {
  const answer = await send(service.port, { path: '/metrics', timeoutMs: 5_000 })
  const samples: Sample[] = []
  for (const line of answer.body.toString('utf8').split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match) continue
    const labels: Record<string, string> = {}
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!
    samples.push({ name: match[1]!, labels, value: Number(match[3]) })
  }
  return samples
}

export const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value)).reduce((total, sample) => total + sample.value, 0)

/** Page views that reached the process (its page cache's hits and misses). */
export const pageViews = (samples: Sample[]) => sum(samples, 'page_cache_hits_total') + sum(samples, 'page_cache_misses_total')
/** POSTs the process answered under /app (log-ins and sign-ups). */
export const accountPosts = (samples: Sample[]) => sum(samples, 'http_request_duration_seconds_count', { route: 'app', method: 'POST' })

// ---------------------------------------------------------------------------------------------
// The checks

export interface Check {
  name: string
  goal: string
  measured: string
  /** 'note': off the goal, for a reason the run cannot help (printed, but not a failure). */
  ok: boolean | 'note'
}

const checks: Check[] = []
export const check = (name: string, goal: string, measured: string, ok: boolean | 'note') => checks.push({ name, goal, measured, ok })

function printSummary(elapsedMs: number) {
  const width = (key: keyof Check, title: string) => Math.max(title.length, ...checks.map((row) => String(row[key]).length))
  const columns = [
    ['name', 'check'],
    ['goal', 'goal'],
    ['measured', 'measured'],
  ] as const
  const widths = columns.map(([key, title]) => width(key, title))
  const row = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index]!)).join('  ')
  console.log(`\nSummary (${seconds(elapsedMs)})`)
  console.log(`${row(columns.map(([, title]) => title))}  result`)
  for (const line of checks) console.log(`${row([line.name, line.goal, line.measured])}  ${line.ok === 'note' ? 'note' : line.ok ? 'ok' : 'FAIL'}`)
}

// ---------------------------------------------------------------------------------------------
// A run

/** Stops what runs; the folder goes too, unless the logs in it may tell what went wrong. */
async function stopEverything(dir: string, keepLogs: string | null) {
  // Each is stopped whatever became of the others (one that outlives its SIGKILL is reported).
  const ended = await Promise.allSettled([...children].map((child) => stopChild(child, 'SIGTERM', 5_000)))
  for (const end of ended) if (end.status === 'rejected') console.error(`stopping: ${(end.reason as Error).message}`)
  for (const stop of stops.splice(0)) await stop().catch((error: Error) => console.error(`while stopping: ${error.message}`))
  if (keepLogs) console.error(`The processes' logs are kept in ${dir} (${keepLogs}).`)
  else rmSync(dir, { recursive: true, force: true })
}

export interface Run {
  /** Debian's programs the run needs (installed when missing, as root on Debian). */
  tools: DebianTool[]
  /** Names the run's folder. */
  name: string
  /** The logs the folder holds, for the line that says where they are kept. */
  logs: string
  /** Starts the processes and runs the checks, all of it under `dir`. */
  body(dir: string): Promise<void>
}

let interruptedBy: NodeJS.Signals | null = null

/** Whether Ctrl-C (or SIGTERM) has stopped the run: a check that fails from then on is no finding. */
export const interrupted = () => interruptedBy !== null

/**
 * Runs the checks, prints the summary and resolves with the exit code: 1 when a goal was missed.
 * Everything started is stopped at the end, on Ctrl-C and on a failure (which keeps the folder).
 */
export async function runChecks({ tools, name, logs, body }: Run): Promise<number> {
  const started = Date.now()
  const missing = ensureDebianTools(tools)
  if (missing.length > 0) {
    console.error(`npm run scale needs ${missing.map((tool) => `${tool.binary} (Debian package ${tool.package})`).join(' and ')}`)
    return 1
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), `${name}-`))
  // Whichever way the run ends, everything is stopped once.
  let stopped: Promise<void> | null = null
  const stop = (keepLogs: string | null) => (stopped ??= stopEverything(dir, keepLogs))
  const interrupt = (signal: NodeJS.Signals) => {
    if (stopped) return
    interruptedBy = signal
    console.log(`\n${signal}: stopping everything`)
    void stop(null).finally(() => process.exit(130))
  }
  process.on('SIGINT', interrupt)
  process.on('SIGTERM', interrupt)
  // The last resort, should this process end some other way.
  process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')))
  let finished = false
  try {
    await body(dir)
    finished = true
  } finally {
    await stop(!finished || checks.some((line) => line.ok === false) ? logs : null)
  }
  printSummary(Date.now() - started)
  return checks.every((line) => line.ok !== false) ? 0 : 1
}
