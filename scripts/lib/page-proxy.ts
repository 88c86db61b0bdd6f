/**
 * A small HTTP server in front of the site that answers chosen addresses from memory (a page's
 * HTML, as served or altered) or from files, and passes every other request to the site
 * untouched. Pages loaded through it fetch their images, styles and scripts from the same
 * origin as the document, exactly as they would from the site.
 */
import fs from 'node:fs'
import http from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'

/** An HTML document as the site answered it, to be served again (or altered) from memory. */
export interface ServedDocument {
  /** Address path and query. */
  path: string
  status: number
  headers: Record<string, string>
  body: string
}

const CONTENT_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.map': 'application/json' }

export interface PageProxyOptions {
  /**
   * Whether what is answered from memory or files goes compressed (brotli, else gzip) to a
   * browser that accepts it, as the site sends its pages and scripts: for measures that count
   * bytes on a slowed network (Lighthouse's simulated one), where a page sent whole would seem slower.
   */
  compress?: boolean
}

/** Brotli or gzip, as the request accepts: the encodings and levels the site stores its pages in. */
function encodingFor(request: http.IncomingMessage): 'br' | 'gzip' | null {
  const accepted = String(request.headers['accept-encoding'] ?? '')
  return /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null
}

function compress(body: Buffer, encoding: 'br' | 'gzip'): Buffer {
  return encoding === 'br' ? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6 } }) : zlib.gzipSync(body, { level: 9 })
}

/**
 * Headers that describe the bytes sent, set again for the body actually sent; the site's ETag
 * named its own body, which a page altered or compressed here no longer is.
 */
const BODY_HEADERS = ['content-length', 'content-encoding', 'transfer-encoding', 'etag']

/**
 * How long fetching a page may take from the site, which runs on this machine; for a forwarded
 * request, how long it may sit with nothing coming (a socket's idle limit, not a bound on the whole).
 */
const SITE_TIMEOUT_MS = 30_000

export class PageProxy {
  private readonly documents = new Map<string, ServedDocument>()
  private readonly files = new Map<string, string>()
  /**
   * Compressed bodies, made once per document served (a replaced document is a new object, and
   * the old one's entry goes with it) or per file, and per encoding: the site, too, compresses a
   * page once and keeps it.
   */
  private readonly packed = new WeakMap<ServedDocument | { file: string }, Partial<Record<'br' | 'gzip', Buffer>>>()
  /** One key object per file, so that its compressed bodies can be found again. */
  private readonly fileKeys = new Map<string, { file: string }>()
  private site: URL | undefined

  private constructor(
    private readonly server: http.Server,
    private readonly options: PageProxyOptions,
  ) {
    server.on('request', (request, response) => this.answer(request, response))
  }

  /** Listens on a free loopback port; the site behind it is given later (`forward`), once started with this origin as its own. */
  static async start(options: PageProxyOptions = {}): Promise<PageProxy> {
    const server = http.createServer({ keepAliveTimeout: 65_000 })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    return new PageProxy(server, options)
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  /** Where requests not answered here go. */
  forward(siteOrigin: string): void {
    this.site = new URL(siteOrigin)
  }

  /** Answers the document's path with it from now on (replacing what was there). */
  serve(document: ServedDocument): void {
    this.documents.set(document.path, document)
  }

  /** Answers `path` with a file's bytes from now on. */
  serveFile(path: string, file: string): void {
    this.files.set(path, file)
  }

  private answer(request: http.IncomingMessage, response: http.ServerResponse) {
    try {
      this.answerOrThrow(request, response)
    } catch (error) {
      // A file gone or no site to forward to: this request fails, the measurement goes on.
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
      response.end(`page proxy: ${(error as Error).message}`)
    }
  }

  private answerOrThrow(request: http.IncomingMessage, response: http.ServerResponse) {
    const document = request.method === 'GET' || request.method === 'HEAD' ? this.documents.get(request.url ?? '') : undefined
    if (document) {
      this.send(request, response, document.status, document.headers, document, () => Buffer.from(document.body))
      return
    }
    const file = this.files.get(request.url ?? '')
    if (file) {
      const key = this.fileKeys.get(file) ?? { file }
      this.fileKeys.set(file, key)
      this.send(request, response, 200, { 'content-type': CONTENT_TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream' }, key, () => fs.readFileSync(file))
      return
    }
    if (!this.site) throw new Error('PageProxy.forward was not called')
    const upstream = http.request({ host: this.site.hostname, port: this.site.port, method: request.method, path: request.url, headers: request.headers, timeout: SITE_TIMEOUT_MS }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.rawHeaders)
      answer.pipe(response)
    })
    upstream.on('timeout', () => upstream.destroy(new Error(`the site took over ${SITE_TIMEOUT_MS} ms`)))
    upstream.on('error', () => (response.headersSent ? response.destroy() : response.writeHead(502).end()))
    // A request the browser gave up on is given up on at the site too.
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy()
    })
    request.pipe(upstream)
  }

  private send(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    status: number,
    stored: Record<string, string>,
    key: ServedDocument | { file: string },
    read: () => Buffer,
  ) {
    const headers = Object.fromEntries(Object.entries(stored).filter(([name]) => !BODY_HEADERS.includes(name.toLowerCase())))
    const encoding = this.options.compress ? encodingFor(request) : null
    if (this.options.compress) {
      // Every Vary the stored page has, whatever its case, as one list that names Accept-Encoding once.
      const names = Object.keys(headers).filter((name) => name.toLowerCase() === 'vary')
      const varies = names.flatMap((name) => headers[name]!.split(',')).map((value) => value.trim()).filter(Boolean)
      for (const name of names) delete headers[name]
      headers.vary = [...new Set([...varies, 'Accept-Encoding'].map((value) => (/^accept-encoding$/i.test(value) ? 'Accept-Encoding' : value)))].join(', ')
    }
    const sent = encoding ? this.compressed(key, read, encoding) : read()
    if (encoding) headers['content-encoding'] = encoding
    headers['content-length'] = String(sent.length)
    response.writeHead(status, headers).end(request.method === 'HEAD' ? undefined : sent)
  }

  private compressed(key: ServedDocument | { file: string }, read: () => Buffer, encoding: 'br' | 'gzip'): Buffer {
    const made = this.packed.get(key) ?? {}
    this.packed.set(key, made)
    return (made[encoding] ??= compress(read(), encoding))
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise((resolve) => this.server.close(resolve))
  }
}

/** A page as the site answers it, decoded, to be served again from memory. */
export async function fetchDocument(url: string): Promise<ServedDocument> {
  const response = await fetch(url, { signal: AbortSignal.timeout(SITE_TIMEOUT_MS) })
  if (!response.ok) throw new Error(`${url} answered ${response.status}`)
  // The body is answered decoded, so the encoding and length headers no longer apply.
  const dropped = ['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !dropped.includes(name)))
  const { pathname, search } = new URL(url)
  return { path: pathname + search, status: response.status, headers, body: await response.text() }
}

/** The same page without what runs: the scripts (the head's inline one, the inline boot script) and their preloads go; page state (JSON) and styles stay. */
export function withoutScripts(document: ServedDocument): ServedDocument {
  const body = document.body
    .replace(/<script\b(?![^>]*\btype="application\/json")[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/<link\b(?=[^>]*\brel="modulepreload")[^>]*>/g, '')
  const left = [...body.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag).filter((tag) => !tag.includes('type="application/json"'))
  if (left.length) throw new Error(`${document.path} has scripts this measurement does not remove: ${left.join(' ')}`)
  return { ...document, body }
}
