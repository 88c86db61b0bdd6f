import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { ServerResponse } from 'node:http'
import type { RequestHandler } from 'express'
import { LRUCache } from 'lru-cache'

const gzip = promisify(zlib.gzip)
const brotli = promisify(zlib.brotliCompress)

/** A rendered page kept with its compressed forms, so a repeat visit costs a memory read. */
export interface CachedPage {
  status: number
  etag: string
  identity: Buffer
  gzip: Buffer
  br: Buffer
}

/** The most memory the page cache may hold, all encodings counted. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024

/**
 * Pages that are the same for every visitor, keyed by path and query. Only bodies are kept:
 * nothing per visitor (cookies, request ids) is, because those travel in headers set per response.
 */
export class PageCache {
  private readonly pages: LRUCache<string, CachedPage>

  constructor(maxEntries: number) {
    this.pages = new LRUCache<string, CachedPage>({
      max: Math.max(1, maxEntries),
      maxSize: MAX_CACHE_BYTES,
      sizeCalculation: (page) => page.identity.length + page.gzip.length + page.br.length,
    })
    this.enabled = maxEntries > 0
  }

  readonly enabled: boolean

  get(key: string): CachedPage | undefined {
    return this.enabled ? this.pages.get(key) : undefined
  }

  /** Compresses once, off the request's path, then keeps the page. */
  async store(key: string, status: number, body: Buffer): Promise<void> {
    if (!this.enabled || this.pages.has(key)) return
    const [gzipped, brotlied] = await Promise.all([
      gzip(body, { level: 9 }),
      brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    ])
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`
    this.pages.set(key, { status, etag, identity: body, gzip: gzipped, br: brotlied })
  }

  clear() {
    this.pages.clear()
  }
}

/**
 * Headers of every page response, rendered or cached: HTML, revalidated on each visit (pages
 * carry per-visitor cookies in their headers, so shared caches must not keep them).
 */
export function setPageHeaders(res: ServerResponse) {
  res.setHeader('Content-Type', 'text/html; charset=utf-8')
  res.setHeader('Cache-Control', 'no-cache')
}

/**
 * Answers from the cache before anything else runs: a 304 when the browser has the page, else
 * the stored bytes in the best encoding the browser accepts.
 */
export function serveCachedPages(cache: PageCache): RequestHandler {
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !cache.enabled) return next()
    const page = cache.get(req.originalUrl)
    if (!page) return next()
    res.statusCode = page.status
    setPageHeaders(res)
    res.setHeader('Vary', 'Accept-Encoding')
    res.setHeader('ETag', page.etag)
    if (req.headers['if-none-match'] === page.etag) {
      res.statusCode = 304
      res.end()
      return
    }
    const encoding = req.headers['accept-encoding'] ? req.acceptsEncodings('br', 'gzip', 'identity') : 'identity'
    const body = encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.identity
    if (encoding === 'br' || encoding === 'gzip') res.setHeader('Content-Encoding', encoding)
    res.setHeader('Content-Length', body.length)
    res.end(req.method === 'HEAD' ? undefined : body)
  }
}
