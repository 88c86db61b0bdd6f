/**
 * `npm run bench`: requests per second of `/` from the built site, against the same bytes served
 * by a bare node:http server (the ceiling), one after the other, 50 connections for 10 s each.
 * Then what a page-cache miss costs: every request a new URL (`/?v=N`, as filter links are),
 * asked for with a browser's Accept-Encoding, with the cache on (each request a miss that is
 * stored) and off (a plain render). The servers run as their own processes on loopback; the
 * ratios are what to compare.
 *
 * Last, log-ins at full speed (scrypt N=2^17, as in production: each from another address, so
 * the per-address limit stays out of the way) alone, and what they do to `/` meanwhile.
 */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import os from 'node:os'
import autocannon from 'autocannon'
import { AUTH_API } from '../shared/accounts/client.js'
import { root, startProcess, startSite, stop } from './lib/server-process.js'

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10)
const PATH = process.env.BENCH_PATH ?? '/'
const TARGET_RATIO = 0.15

function fetchBody(port: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: PATH }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`GET ${PATH} → ${res.statusCode}`))))
      })
      .on('error', reject)
  })
}

const BROWSER_ENCODINGS = 'gzip, deflate, br'
const MISS_TARGET_RATIO = 1.3

async function load(port: number, title: string, duration = DURATION_S) {
  const result = await autocannon({ url: `http://127.0.0.1:${port}${PATH}`, connections: CONNECTIONS, duration, title })
  if (result.non2xx > 0) throw new Error(`${title}: ${result.non2xx} non-2xx responses`)
  return result
}

/** Every request a URL not seen before, as a browser asks for it. */
async function loadUniqueUrls(port: number, title: string, duration = DURATION_S) {
  let n = 0
  // A BENCH_PATH with a query (an API URL) gets the extra parameter after its own.
  const separator = PATH.includes('?') ? '&' : '?'
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
    title,
    headers: { 'accept-encoding': BROWSER_ENCODINGS },
    requests: [{ setupRequest: (request) => ({ ...request, path: `${PATH}${separator}v=${title.length}-${n++}` }) }],
  })
  if (result.non2xx > 0) throw new Error(`${title}: ${result.non2xx} non-2xx responses`)
  return result
}

if (!fs.existsSync(path.join(root, 'dist/server/main.js'))) {
  console.error('Build first: npm run build')
  process.exit(1)
}

const WARM_UP_S = 2
const siteEnv = { NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }

// 1. The site, as `npm start` runs it (logs on, page cache on).
const site = await startProcess(['dist/server/main.js'], siteEnv)
const body = await fetchBody(site.port)
await new Promise((resolve) => setTimeout(resolve, 500))
await load(site.port, 'warm-up', WARM_UP_S)
const siteResult = await load(site.port, 'site')
const missResult = await loadUniqueUrls(site.port, 'site, cache misses')
await stop(site.child)

// 2. For comparison: the site rendering every request (page cache off).
const uncached = await startProcess(['dist/server/main.js'], { ...siteEnv, PAGE_CACHE_ENTRIES: '0' })
await load(uncached.port, 'warm-up', WARM_UP_S)
const uncachedResult = await load(uncached.port, 'site, no cache')
const plainResult = await loadUniqueUrls(uncached.port, 'site, no cache, new URLs')
await stop(uncached.child)

// 3. The ceiling: the same bytes from a bare node:http server.
const bodyFile = path.join(root, 'dist', 'bench-body.html')
fs.writeFileSync(bodyFile, body)
const bareSource = `
const http = require('node:http'); const body = require('node:fs').readFileSync(${JSON.stringify(bodyFile)});
const server = http.createServer((req, res) => { res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length }); res.end(body) });
server.listen(0, '127.0.0.1', () => console.log('port=' + server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));`
const bare = await startProcess(['-e', bareSource], {})
await load(bare.port, 'warm-up', WARM_UP_S)
const bareResult = await load(bare.port, 'bare')
await stop(bare.child)
fs.rmSync(bodyFile)

const ratio = siteResult.requests.average / bareResult.requests.average
const row = (name: string, result: autocannon.Result) =>
  `${name.padEnd(18)} ${result.requests.average.toFixed(0).padStart(8)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(5)} ms` +
  (result.errors ? `   ${result.errors} errors (${result.timeouts} timeouts)` : '')
console.log(`\nGET ${PATH} (${(body.length / 1024).toFixed(1)} KB), ${CONNECTIONS} connections, ${DURATION_S} s each`)
console.log(row('site', siteResult))
console.log(row('site, no cache', uncachedResult))
console.log(row('new URLs, cache', missResult))
console.log(row('new URLs, no cache', plainResult))
console.log(row('bare node:http', bareResult))
console.log(`ratio site / bare ${ratio.toFixed(3)} (target ≥ ${TARGET_RATIO}); without the page cache ${(uncachedResult.requests.average / bareResult.requests.average).toFixed(3)}`)
const missCost = plainResult.requests.average / missResult.requests.average
console.log(`a cache miss costs ${missCost.toFixed(2)}× a plain render (target ≤ ${MISS_TARGET_RATIO})`)

// 4. Log-ins: what scrypt at production cost allows, and whether pages stay fast meanwhile.
const LOGIN_CONNECTIONS = 4
const PAGE_CONNECTIONS = 10
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-site-'))
const accounts = await startSite({ DATA_DIR: stateDir, LOG_LEVEL: 'warn' })
const siteOrigin = `http://127.0.0.1:${accounts.port}`
const account = { email: 'bench@example.com', password: 'violet kettle zebra 42' }
const registered = await fetch(`${siteOrigin}${AUTH_API.register}`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: siteOrigin },
  body: JSON.stringify(account),
})
if (registered.status !== 201) throw new Error(`sign-up for the bench answered ${registered.status}`)
let address = 0
const logins = (duration: number) =>
  autocannon({
    url: `${siteOrigin}${AUTH_API.login}`,
    connections: LOGIN_CONNECTIONS,
    duration,
    title: 'log-ins',
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: siteOrigin },
    body: JSON.stringify(account),
    requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'x-forwarded-for': `10.9.${(address >> 8) & 255}.${address++ & 255}` } }) }],
  })
const pages = (duration: number) => autocannon({ url: `http://127.0.0.1:${accounts.port}/`, connections: PAGE_CONNECTIONS, duration, title: 'pages' })
await pages(WARM_UP_S)
const pagesAlone = await pages(DURATION_S)
const loginsAlone = await logins(DURATION_S)
const [pagesDuringLogins, loginsWithPages] = await Promise.all([pages(DURATION_S), logins(DURATION_S)])
await stop(accounts.child)
fs.rmSync(stateDir, { recursive: true, force: true })
for (const result of [loginsAlone, loginsWithPages]) {
  if (result.non2xx > 0) throw new Error(`log-ins: ${result.non2xx} answers were not 2xx`)
}
console.log(`\nlog-ins (scrypt N=2^17, r=8, p=1), ${LOGIN_CONNECTIONS} connections; GET / with ${PAGE_CONNECTIONS} connections; ${DURATION_S} s each`)
console.log(row('log-ins alone', loginsAlone))
console.log(row('GET / alone', pagesAlone))
console.log(row('GET / + log-ins', pagesDuringLogins))
console.log(row('log-ins + GET /', loginsWithPages))

// 5. The galleries: a group's JSON and a listing page, each against the same bytes from a bare server.
const GALLERY_PATHS = (process.env.BENCH_GALLERY_PATHS ?? '/api/widgets?group=forms,/p/forms/discounts/').split(',')
const gallerySite = await startProcess(['dist/server/main.js'], siteEnv)
console.log(`\ngalleries, ${CONNECTIONS} connections, ${DURATION_S} s each`)
for (const galleryPath of GALLERY_PATHS) {
  const url = `http://127.0.0.1:${gallerySite.port}${galleryPath}`
  const galleryBody = Buffer.from(await (await fetch(url)).arrayBuffer())
  const run = (port: number, title: string) => autocannon({ url: `http://127.0.0.1:${port}${galleryPath}`, connections: CONNECTIONS, duration: DURATION_S, title })
  await run(gallerySite.port, 'warm-up')
  const siteRun = await run(gallerySite.port, galleryPath)
  const file = path.join(root, 'dist', 'bench-body.bin')
  fs.writeFileSync(file, galleryBody)
  const floor = await startProcess(
    ['-e', bareSource.replace(JSON.stringify(bodyFile), JSON.stringify(file)).replace('text/html; charset=utf-8', galleryPath.startsWith('/api/') ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8')],
    {},
  )
  const floorRun = await run(floor.port, 'bare')
  await stop(floor.child)
  fs.rmSync(file)
  console.log(row(galleryPath.slice(0, 18), siteRun))
  console.log(row('bare node:http', floorRun))
  console.log(`ratio ${(siteRun.requests.average / floorRun.requests.average).toFixed(3)} (${(galleryBody.length / 1024).toFixed(1)} KB)`)
}
await stop(gallerySite.child)
