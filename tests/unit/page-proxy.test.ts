/**
 * The measuring proxy in front of the site (scripts/lib/page-proxy.ts): what it answers from
 * memory, compressed as the site's own pages are when asked to, and what it passes on.
 */
import fs from 'node:fs'
import http from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { PageProxy, withoutScripts, type ServedDocument } from '../../scripts/lib/page-proxy.js'

const closing: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()))
})

const page: ServedDocument = {
  path: '/pricing/',
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8', vary: 'Cookie' },
  body: `<!doctype html><title>Pricing</title><script>menus()</script><script type="application/json" id="state">{"a":1}</script><p>${'Plans and prices. '.repeat(200)}</p><script id="_R_">boot()</script>`,
}

async function proxy(compress?: boolean): Promise<PageProxy> {
  const started = await PageProxy.start(compress === undefined ? {} : { compress })
  closing.push(() => started.close())
  return started
}

/** A request through http (which, unlike fetch, leaves the body as sent), with the accepted encodings given. */
function get(url: string, acceptEncoding?: string, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }))
      })
      .on('error', reject)
      .end()
  })
}

describe('the measuring proxy', () => {
  it('answers a page from memory uncompressed unless asked to compress', async () => {
    const p = await proxy()
    p.serve(page)
    const answer = await get(p.origin + page.path, 'br, gzip')
    expect(answer.headers['content-encoding']).toBeUndefined()
    expect(answer.body.toString()).toBe(page.body)
  })

  it('compresses a page with brotli, else gzip, as the browser accepts, adding Accept-Encoding to what the answer varies on', async () => {
    const p = await proxy(true)
    p.serve(page)
    const brotli = await get(p.origin + page.path, 'gzip, deflate, br')
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(brotli.headers.vary).toBe('Cookie, Accept-Encoding')
    expect(brotli.body.length).toBeLessThan(page.body.length / 5)
    expect(zlib.brotliDecompressSync(brotli.body).toString()).toBe(page.body)

    const gzip = await get(p.origin + page.path, 'gzip')
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(page.body)

    const plain = await get(p.origin + page.path)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.toString()).toBe(page.body)
  })

  it('sends the length of what it sends, whatever length or encoding the stored page names, and no body to a HEAD', async () => {
    const p = await proxy(true)
    p.serve({ ...page, headers: { ...page.headers, 'Content-Length': String(page.body.length), 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding, Cookie' } })
    const answer = await get(p.origin + page.path, 'br')
    expect(answer.headers['content-encoding']).toBe('br')
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length)
    expect(answer.headers.vary).toBe('Cookie, Accept-Encoding')
    expect(zlib.brotliDecompressSync(answer.body).toString()).toBe(page.body)
    const head = await get(p.origin + page.path, 'br', 'HEAD')
    expect(head.status).toBe(200)
    expect(head.body.length).toBe(0)
  })

  it('compresses a file it serves too, and answers 500 for one that is gone, going on serving', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'page-proxy-test-'))
    closing.push(async () => fs.rmSync(folder, { recursive: true, force: true }))
    const script = path.join(folder, 'bare.js')
    fs.writeFileSync(script, `console.log(${JSON.stringify('a line of the bare page. '.repeat(100))})`)
    const p = await proxy(true)
    p.serveFile('/bare/bare.js', script)
    p.serveFile('/bare/gone.js', path.join(folder, 'gone.js'))
    const answer = await get(`${p.origin}/bare/bare.js`, 'gzip')
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(answer.headers['content-encoding']).toBe('gzip')
    expect(zlib.gunzipSync(answer.body).toString()).toBe(fs.readFileSync(script, 'utf8'))
    const gone = await get(`${p.origin}/bare/gone.js`, 'gzip')
    expect(gone.status).toBe(500)
    expect(gone.body.toString()).toMatch(/^page proxy: ENOENT/)
    expect((await get(`${p.origin}/bare/bare.js`)).body.toString()).toBe(fs.readFileSync(script, 'utf8'))
  })

  it('sends a page served again at the same address as it now is, not as it was compressed before', async () => {
    const p = await proxy(true)
    p.serve(page)
    expect(zlib.brotliDecompressSync((await get(p.origin + page.path, 'br')).body).toString()).toBe(page.body)
    const altered = withoutScripts(page)
    p.serve(altered)
    expect(zlib.brotliDecompressSync((await get(p.origin + page.path, 'br')).body).toString()).toBe(altered.body)
    expect(zlib.gunzipSync((await get(p.origin + page.path, 'gzip')).body).toString()).toBe(altered.body)
  })

  it('passes what it does not hold to the site untouched', async () => {
    const site = http.createServer((request, response) => response.writeHead(201, { 'x-from': 'site' }).end(`site ${request.url}`))
    site.listen(0, '127.0.0.1')
    await once(site, 'listening')
    closing.push(() => new Promise((resolve) => site.close(resolve)))
    const p = await proxy(true)
    p.forward(`http://127.0.0.1:${(site.address() as AddressInfo).port}`)
    const answer = await get(`${p.origin}/assets/app.js`, 'br')
    expect(answer.status).toBe(201)
    expect(answer.headers['x-from']).toBe('site')
    expect(answer.headers['content-encoding']).toBeUndefined()
    expect(answer.body.toString()).toBe('site /assets/app.js')
  })

  it('takes out every script that runs, keeping page state', () => {
    const body = withoutScripts(page).body
    expect(body).not.toMatch(/menus\(\)|boot\(\)/)
    expect(body).toContain('<script type="application/json" id="state">{"a":1}</script>')
  })
})
