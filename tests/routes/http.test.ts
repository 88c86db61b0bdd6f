import sharp from 'sharp'
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import request from 'supertest'
import { pino } from 'pino'
import { afterAll, describe, expect, it } from 'vitest'
import { loadClientAssets } from '../../server/ssr/manifest.js'
import { SHEETS } from '../../shared/site.js'
import { FAKE_SHEETS, rootWithFakeBuild, testApp } from './app.js'

const app = testApp()

/** A GET whose body arrives exactly as sent, still compressed. */
async function rawGet(handler: ReturnType<typeof testApp>, path: string, acceptEncoding: string) {
  const server = handler.listen(0)
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  try {
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get({ port, path, headers: { 'Accept-Encoding': acceptEncoding } }, resolve).on('error', reject)
    })
    const chunks: Buffer[] = []
    for await (const chunk of response) chunks.push(chunk as Buffer)
    return { status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }
  } finally {
    server.close()
  }
}

describe('canonical URLs', () => {
  it('redirects a page without its trailing slash with 301, keeping the query', async () => {
    const response = await request(app).get('/pricing?currency=USD&billing=yearly').expect(301)
    expect(response.headers.location).toBe('/pricing/?currency=USD&billing=yearly')
    expect((await request(app).get('/blog/lead-generation').expect(301)).headers.location).toBe('/blog/lead-generation/')
  })

  it('keeps /aurora and /shopify-apps without a slash', async () => {
    await request(app).get('/aurora').expect(200)
    await request(app).get('/shopify-apps').expect(200)
    expect((await request(app).get('/aurora/?a=1').expect(301)).headers.location).toBe('/aurora?a=1')
    expect((await request(app).get('/shopify-apps/').expect(301)).headers.location).toBe('/shopify-apps')
  })

  it('never redirects to another host, whatever mix of slashes and backslashes the raw path has', async () => {
    for (const path of ['//evil.example/', '//evil.example', '///evil.example/x', '/\\evil.example', '/\\evil.example/pricing', '/\\/evil.example/', '/pricing\\']) {
      // Sent exactly as written: a client library would turn the backslashes into slashes first.
      const { status, headers } = await rawGet(app, path, 'identity')
      const location = headers.location
      if (location) expect(location, path).toMatch(/^\/(?![/\\])[^\\]*$/)
      expect(status, path).toBeLessThan(500)
    }
    expect((await rawGet(app, '/\\evil.example/pricing', 'identity')).headers.location).toBe('/evil.example/pricing/')
  })
})

describe('security headers', () => {
  it('sends a CSP without inline scripts, and the usual hardening headers', async () => {
    const response = await request(app).get('/').expect(200)
    const csp = response.headers['content-security-policy'] as string
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("frame-ancestors 'self'")
    expect(csp).toContain('upgrade-insecure-requests')
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['strict-transport-security']).toMatch(/max-age=31536000/)
    expect(response.headers['referrer-policy']).toBe('no-referrer')
    expect(response.headers['x-powered-by']).toBeUndefined()
    // Pages keep the social sign-in popup they open as their own, through the provider's pages.
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups')
  })

  it('skips HSTS and insecure-request upgrades on a plain-HTTP origin', async () => {
    const response = await request(testApp({ PUBLIC_URL: 'http://localhost:3000' })).get('/').expect(200)
    expect(response.headers['strict-transport-security']).toBeUndefined()
    expect(response.headers['content-security-policy']).not.toContain('upgrade-insecure-requests')
  })

  it('gives every response a request id, reusing a well-formed incoming one', async () => {
    const fresh = await request(app).get('/healthz').expect(200)
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    const reused = await request(app).get('/healthz').set('X-Request-Id', 'abc-123').expect(200)
    expect(reused.headers['x-request-id']).toBe('abc-123')
    const rejected = await request(app).get('/healthz').set('X-Request-Id', 'bad id <script>').expect(200)
    expect(rejected.headers['x-request-id']).not.toContain('<')
  })
})

describe('methods', () => {
  it('answers other methods on pages with 405 and the allowed ones', async () => {
    const response = await request(app).post('/pricing/').send({ a: 1 }).expect(405)
    expect(response.headers.allow).toBe('GET, HEAD')
    expect(response.text).toBe('Method not allowed')
    await request(app).delete('/').expect(405)
  })
})

describe('health', () => {
  it('answers /healthz', async () => {
    const response = await request(app).get('/healthz').expect(200)
    expect(response.body).toEqual({ status: 'ok' })
    expect(response.headers['cache-control']).toBe('no-store')
  })
})

describe('page cache', () => {
  it('serves a repeat visit from memory: same bytes, ETag, 304 when unchanged', async () => {
    const cachedApp = testApp()
    const first = await request(cachedApp).get('/faq/').expect(200)
    expect(first.headers.etag).toBeUndefined()
    const second = await request(cachedApp).get('/faq/').expect(200)
    expect(second.text).toBe(first.text)
    expect(second.headers.etag).toMatch(/^"[\w-]+"$/)
    expect(second.headers['cache-control']).toBe('public, max-age=0, s-maxage=300, stale-while-revalidate=86400')
    expect(second.headers['content-security-policy']).toBeTruthy()
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id'])
    await request(cachedApp).get('/faq/').set('If-None-Match', String(second.headers.etag)).expect(304)
  })

  it('sends the stored page compressed with brotli or gzip as the browser accepts', async () => {
    const cachedApp = testApp()
    const plain = await request(cachedApp).get('/about/').expect(200)
    const br = await rawGet(cachedApp, '/about/', 'br, gzip')
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toContain('Accept-Encoding')
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(plain.text)
    const gz = await rawGet(cachedApp, '/about/', 'gzip')
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(zlib.gunzipSync(gz.body).toString()).toBe(plain.text)
    const identity = await rawGet(cachedApp, '/about/', 'identity')
    expect(identity.headers['content-encoding']).toBeUndefined()
    expect(identity.body.toString()).toBe(plain.text)
  })

  it('does not keep pages that are not found', async () => {
    const cachedApp = testApp()
    await request(cachedApp).get('/missing-page/').expect(404)
    const again = await request(cachedApp).get('/missing-page/').expect(404)
    expect(again.headers.etag).toBeUndefined()
  })

  it('can be switched off', async () => {
    const uncached = testApp({ PAGE_CACHE_ENTRIES: '0' })
    await request(uncached).get('/faq/').expect(200)
    expect((await request(uncached).get('/faq/').expect(200)).headers.etag).toBeUndefined()
  })

  it('answers HEAD without a body', async () => {
    const response = await request(app).head('/faq/').expect(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.text ?? '').toBe('')
  })
})

describe('page rendering', () => {
  it('answers HEAD with the status and headers after the loaders, without rendering the page', async () => {
    const uncached = testApp({ PAGE_CACHE_ENTRIES: '0' })
    const head = await request(uncached).head('/pricing/').expect(200)
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(head.headers['server-timing']).toMatch(/^loader;dur=\d+\.\d$/)
    await request(uncached).head('/blog/no-such-theme/').expect(404)
  })

  it('says how long the loaders and the render took in Server-Timing, and marks cache hits', async () => {
    const cachedApp = testApp()
    const rendered = await request(cachedApp).get('/pricing/').expect(200)
    expect(rendered.headers['server-timing']).toMatch(/^loader;dur=\d+\.\d, render;dur=\d+\.\d$/)
    const hit = await request(cachedApp).get('/pricing/').expect(200)
    expect(hit.headers['server-timing']).toBe('cache;desc="hit"')
  })
})

describe('built assets', () => {
  const builtRoot = rootWithFakeBuild()
  const built = testApp({}, {}, builtRoot)
  afterAll(() => fs.rmSync(builtRoot, { recursive: true, force: true }))

  it('inlines the parts of the stylesheet the page draws with, the menus script and the boot script, lists the app and the page chunk for the boot script, and loads no script file', async () => {
    const html = (await request(built).get('/pricing/').expect(200)).text
    // The frame's parts and the page's own, in the cascade's order; no other part, and no stylesheet file.
    const sheets = [...html.matchAll(/<style data-sheet="([\w-]+)">([^<]*)<\/style>/g)].map(([, name, text]) => `${name}: ${text}`)
    expect(sheets).toEqual(['site: body{color:#111}', 'home: .home-part{color:#222}', 'pricing: .pricing-part{color:#222}', 'footer: .site-footer{color:#eee}'])
    expect(html.match(/<style/g)).toHaveLength(4)
    expect(html).not.toMatch(/<link[^>]+stylesheet/)
    expect(html).toContain('<script type="application/json" id="__assets">["/assets/entry-TEST1234.js","/assets/chunk-SHARED12.js","/assets/Pricing-PRICE123.js"]</script>')
    // The menus script runs before the body is parsed: inline, last in the head.
    expect(html).toContain('<script>(() => {})()</script></head>')
    // The boot script: inline, after the page's last element (the module list it reads among them).
    expect(html).toMatch(/<script id="[^"]+">import\("\/assets\/entry-TEST1234.js"\)<\/script><\/body><\/html>$/)
    expect(html).not.toContain('menus-TEST1234.js')
    expect(html).not.toContain('boot-TEST1234.js')
    expect(html).not.toMatch(/<script[^>]+src=/)
    const home = (await request(built).get('/').expect(200)).text
    expect(home).not.toContain('Pricing-PRICE123.js')
    // A page that draws with no part of its own has the frame's alone; one the build does not know (a build older than the sources), every part.
    expect([...home.matchAll(/<style data-sheet="([\w-]+)"/g)].map(([, name]) => name)).toEqual(['site', 'footer'])
    const blog = (await request(built).get('/blog/').expect(200)).text
    expect([...blog.matchAll(/<style data-sheet="([\w-]+)"/g)].map(([, name]) => name)).toEqual([...SHEETS])
  })

  it('allows exactly the parts of the stylesheet and those inline scripts in the CSP, by the hashes of the text the page holds', async () => {
    const response = await request(built).get('/faq/').expect(200)
    const hash = (text: string) => createHash('sha256').update(text).digest('base64')
    // Every part (the same header on every page); the page's own are among them. 'self': a part the next page needs is fetched as a file.
    const parts = SHEETS.map((name) => FAKE_SHEETS[name] ?? `.${name}-part{color:#222}`)
    expect(response.headers['content-security-policy']).toContain(`style-src 'self' ${parts.map((text) => `'sha256-${hash(text)}'`).join(' ')};`)
    const inlineSheets = [...response.text.matchAll(/<style data-sheet="[\w-]+">([^<]*)<\/style>/g)].map(([, text]) => text!)
    expect(inlineSheets).toEqual(['body{color:#111}', '.long-form-part{color:#222}', '.site-footer{color:#eee}'])
    // Each inline script that runs, as the browser reads it from the page (the boot file's line end left out).
    const inline = [...response.text.matchAll(/<script(?: id="[^"]+")?>([^<]*)<\/script>/g)].map(([, text]) => text!)
    expect(inline).toEqual(['(() => {})()', 'import("/assets/entry-TEST1234.js")'])
    expect(response.headers['content-security-policy']).toContain(`script-src 'self' ${inline.map((text) => `'sha256-${hash(text)}'`).join(' ')};`)
  })

  it('refuses to start on a manifest of another version, or a script that cannot be inlined as it is', () => {
    const manifestFile = (root: string) => path.join(root, 'dist', 'manifest.json')
    const root = rootWithFakeBuild()
    try {
      const manifest = JSON.parse(fs.readFileSync(manifestFile(root), 'utf8')) as Record<string, unknown>
      // Builds that loaded the boot script as a module listed it as `boot`.
      fs.writeFileSync(manifestFile(root), JSON.stringify({ ...manifest, bootScript: undefined, boot: manifest.bootScript }))
      expect(() => loadClientAssets(root)).toThrow(/not a build manifest of this version of the site \(run npm run build\)/)
      // A manifest of the single stylesheet, or with the parts out of the cascade's order.
      fs.writeFileSync(manifestFile(root), JSON.stringify({ ...manifest, sheets: undefined, stylesheets: ['/assets/site-TEST1234.css'] }))
      expect(() => loadClientAssets(root)).toThrow(/not a build manifest of this version of the site \(run npm run build\)/)
      fs.writeFileSync(manifestFile(root), JSON.stringify({ ...manifest, sheets: (manifest.sheets as unknown[]).toReversed() }))
      expect(() => loadClientAssets(root)).toThrow(/lists the stylesheet's parts as subject-lines, .* not site, home, .*\(run npm run build\)/)
      fs.writeFileSync(manifestFile(root), JSON.stringify(manifest))
      fs.writeFileSync(path.join(root, 'dist', 'public', 'assets', 'pricing-TEST1234.css'), '.a{content:"</style>"}')
      expect(() => loadClientAssets(root)).toThrow('The stylesheet /assets/pricing-TEST1234.css contains "</" and cannot be inlined')
      fs.writeFileSync(path.join(root, 'dist', 'public', 'assets', 'pricing-TEST1234.css'), '.pricing-part{color:#222}')
      for (const text of ['document.write("</script><script>alert(1)")', 'a\r\nb', 'a<!--b', 'a\0b']) {
        fs.writeFileSync(path.join(root, 'dist', 'public', 'assets', 'boot-TEST1234.js'), text)
        expect(() => loadClientAssets(root), JSON.stringify(text)).toThrow(/The boot script contains .* and cannot be inlined/)
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true })
    }
  })

  it('serves hashed files with immutable caching', async () => {
    const response = await request(built).get('/assets/entry-TEST1234.js').expect(200)
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(response.headers['content-type']).toMatch(/javascript/)
  })

  it('answers a missing asset with 404, not a page', async () => {
    const response = await request(built).get('/assets/nope-00000000.js').expect(404)
    expect(response.headers['content-type']).not.toMatch(/html/)
  })

  it('serves public files', async () => {
    const response = await request(built).get('/favicon.svg').expect(200)
    expect(response.headers['content-type']).toMatch(/svg/)
  })

  it('links pages to a PNG icon, the SVG one drawn at 48 px', async () => {
    const page = await request(built).get('/pricing/').expect(200)
    expect(page.text).toContain('<link rel="icon" href="/favicon.png" type="image/png" sizes="48x48"/>')
    expect(page.text).not.toContain('favicon.svg')
    const icon = await request(built).get('/favicon.png').buffer(true).expect(200)
    expect(icon.headers['content-type']).toBe('image/png')
    // The same drawing as favicon.svg (an edit to one without the other fails here).
    const drawn = await sharp('public/favicon.svg', { density: 144 }).resize(48, 48).ensureAlpha().raw().toBuffer()
    const served = await sharp(icon.body as Buffer).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    expect([served.info.width, served.info.height]).toEqual([48, 48])
    // On average over the channels, so that an edge drawn a little differently by another version of the SVG renderer still passes.
    let total = 0
    for (let at = 0; at < drawn.length; at++) total += Math.abs(drawn[at]! - served.data[at]!)
    expect(total / drawn.length, 'mean difference of a channel, of 255').toBeLessThanOrEqual(2)
  })
})

describe('robots.txt and sitemap.xml', () => {
  it('points crawlers at the sitemap and away from services', async () => {
    const response = await request(app).get('/robots.txt').expect(200)
    expect(response.headers['content-type']).toMatch(/^text\/plain/)
    expect(response.text).toContain('Sitemap: https://site.example/sitemap.xml')
    expect(response.text).toContain('Disallow: /api/')
    expect(response.text).toContain('Disallow: /track/')
  })

  it('lists absolute page URLs', async () => {
    const response = await request(app).get('/sitemap.xml').expect(200)
    expect(response.headers['content-type']).toMatch(/^application\/xml/)
    expect(response.text).toContain('<loc>https://site.example/</loc>')
    expect(response.text).toContain('<loc>https://site.example/aurora</loc>')
    expect(response.text).not.toContain('/*')
    expect(response.text).not.toContain('/:')
  })
})

describe('request log', () => {
  it('writes one line per request with id, method, URL, status and time, and no cookie or authorization', async () => {
    const lines: string[] = []
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) })
    const logged = testApp({}, { logger })
    await request(logged).get('/faq/?x=1').set('Cookie', 'pl_ref=secret-code').set('Authorization', 'Bearer secret-token').expect(200)
    const entries = lines.map((line) => JSON.parse(line) as Record<string, any>).filter((entry) => entry.msg === 'request completed')
    expect(entries).toHaveLength(1)
    const [entry] = entries
    expect(entry!.req).toMatchObject({ method: 'GET', url: '/faq/?x=1' })
    expect(entry!.req.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(entry!.res.statusCode).toBe(200)
    expect(typeof entry!.responseTime).toBe('number')
    expect(lines.join('\n')).not.toMatch(/secret-code|secret-token/)
  })
})
