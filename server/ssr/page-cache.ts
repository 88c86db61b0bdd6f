import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import type { RequestHandler } from 'express'
import { LRUCache } from 'lru-cache'
import { hasBody, keptHeaders } from '../process/answer-memory.js'
import { negotiatedEncoding } from '../process/http-cache.js'

const gzip = promisify(zlib.gzip)
const brotli = promisify(zlib.brotliCompress)

export type StoredEncoding = 'br' | 'gzip'

/**
 * Compression of stored pages. Brotli 6 comes within about 1% of brotli 9 at a ninth of the
 * time (1 ms against 10 ms for a 75 KB page here); gzip 9 costs about the same as gzip 6.
 */
const compressors: Record<StoredEncoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => gzip(body, { level: 9 }),
}

/** A rendered page, and its compressed forms once a browser has asked for them. */
export interface CachedPage {
  status: number
  etag: string
  identity: Buffer
  encoded: Partial<Record<StoredEncoding, Buffer>>
  /**
   * The headers its answer from the cache goes out with (helmet's, the page's), as Express sent
   * them the first time, without those of one response: the same for every later hit, which the
   * server's listener then sends before Express runs (`cachedPageReplay`).
   */
  headers?: OutgoingHttpHeaders
}

/** The most memory the page cache may hold, all encodings counted, unless told less (the box's share). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024

const sizeOf = (page: CachedPage) => page.identity.length + (page.encoded.br?.length ?? 0) + (page.encoded.gzip?.length ?? 0)

/**
 * Pages that are the same for every visitor, keyed by path and query. Only bodies are kept:
 * nothing per visitor (cookies, request ids) is, because those travel in headers set per response.
 *
 * Storing costs a hash and a copy, so a first visit costs what a page without the cache costs.
 * A compressed form is made the first time a repeat visit asks for it, in libuv's thread pool,
 * and kept: pages seen once (filter URLs, crawlers) are never compressed for the cache at all.
 */
/** How long shared caches (a CDN, nginx) may keep a page, in seconds. */
export interface SharedCaching {
  /** `s-maxage`: fresh for this long; 0 keeps pages out of shared caches. */
  maxAge: number
  /** `stale-while-revalidate`: after that, served once more while the cache fetches a new copy. */
  staleWhileRevalidate: number
}

export const DEFAULT_SHARED_CACHING: SharedCaching = { maxAge: 300, staleWhileRevalidate: 86_400 }

/**
 * The Cache-Control of a page that is the same for every visitor. Browsers revalidate on every
 * visit (max-age=0, a 304 when unchanged), so a deploy shows at once; shared caches keep it.
 */
export function pageCacheControl({ maxAge, staleWhileRevalidate }: SharedCaching): string {
  if (maxAge <= 0) return 'public, max-age=0, must-revalidate'
  return `public, max-age=0, s-maxage=${maxAge}${staleWhileRevalidate > 0 ? `, stale-while-revalidate=${staleWhileRevalidate}` : ''}`
}

/** Pages with something of the visitor's own (a reset link's token, a posted form): kept by nobody. */
export const PERSONAL = 'private, no-store'

export class PageCache {
  private readonly pages: LRUCache<string, CachedPage>
  private readonly compressing = new Map<string, Promise<Buffer>>()
  readonly enabled: boolean
  /** Answers from the cache, and cacheable pages rendered because it lacked them (read by /metrics). */
  hits = 0
  misses = 0
  /** What every page response that is the same for all visitors tells caches. */
  readonly cacheControl: string

  constructor(maxEntries: number, sharedCaching: SharedCaching = DEFAULT_SHARED_CACHING, maxBytes = MAX_CACHE_BYTES) {
    this.cacheControl = pageCacheControl(sharedCaching)
    this.pages = new LRUCache<string, CachedPage>({
      max: Math.max(1, maxEntries),
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: sizeOf,
    })
    this.enabled = maxEntries > 0
  }

  get(key: string): CachedPage | undefined {
    return this.enabled ? this.pages.get(key) : undefined
  }

  store(key: string, status: number, body: Buffer): void {
    if (this.enabled) this.misses++
    if (!this.enabled || this.pages.has(key)) return
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`
    this.pages.set(key, { status, etag, identity: body, encoded: {} })
  }

  /** The page in `encoding`: compressed once, however many requests ask at the same time. */
  encoded(key: string, page: CachedPage, encoding: StoredEncoding): Promise<Buffer> {
    const ready = page.encoded[encoding]
    if (ready) return Promise.resolve(ready)
    const job = `${encoding} ${page.etag} ${key}`
    let pending = this.compressing.get(job)
    if (!pending) {
      pending = compressors[encoding](page.identity).finally(() => this.compressing.delete(job))
      this.compressing.set(job, pending)
      pending.then(
        (body) => {
          // Kept only if the entry is still this page; set again so its size is counted anew.
          if (this.pages.peek(key) !== page) return
          page.encoded[encoding] = body
          this.pages.set(key, page)
        },
        () => {},
      )
    }
    return pending
  }

  /** Resolves once no compression is under way. */
  async idle(): Promise<void> {
    while (this.compressing.size > 0) await Promise.allSettled([...this.compressing.values()])
  }

  clear() {
    this.pages.clear()
  }
}

/**
 * Headers of every page response, rendered or cached: HTML that browsers revalidate on each visit
 * and shared caches may keep. Nothing of a visitor travels with a page (no Set-Cookie): the
 * traffic cookies come from the page's own report of its view (server/tracking/).
 */
export function setPageHeaders(res: ServerResponse, cacheControl: string) {
  res.setHeader('Content-Type', 'text/html; charset=utf-8')
  res.setHeader('Cache-Control', cacheControl)
}

/**
 * Answers from the cache before anything else runs: a 304 when the browser has the page, else
 * the stored bytes in the best encoding the browser accepts.
 */
export function serveCachedPages(cache: PageCache): RequestHandler {
  return async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !cache.enabled) return next()
    const page = cache.get(req.originalUrl)
    if (!page) return next()
    cache.hits++
    res.statusCode = page.status
    setPageHeaders(res, cache.cacheControl)
    res.setHeader('Vary', 'Accept-Encoding')
    res.setHeader('ETag', page.etag)
    res.setHeader('Server-Timing', 'cache;desc="hit"')
    page.headers ??= keptHeaders(res) ?? undefined
    if (req.headers['if-none-match'] === page.etag) {
      res.statusCode = 304
      res.end()
      return
    }
    const encoding = pageEncoding(req)
    const body = encoding === 'identity' ? page.identity : await cache.encoded(req.originalUrl, page, encoding)
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding)
    res.setHeader('Content-Length', body.length)
    res.end(req.method === 'HEAD' ? undefined : body)
  }
}

/** The form of a stored page a browser gets: brotli or gzip as compression would choose, else plain. */
function pageEncoding(req: IncomingMessage): StoredEncoding | 'identity' {
  const encoding = negotiatedEncoding(req)
  return encoding === 'br' || encoding === 'gzip' ? encoding : 'identity'
}

/**
 * A repeat of a page the cache holds, answered by the server's listener before Express: what
 * serveCachedPages would send (the same headers, 304 on a matching ETag, the same encoding), for
 * a page whose hit Express has sent once and whose encoded form is ready. Nothing of app.ts ahead
 * of the page cache depends on the visitor but the request log and the metrics, which the
 * listener writes (`send` takes the request's id from them). Undefined: Express answers.
 */
export function cachedPageReplay(cache: PageCache, req: IncomingMessage): ((res: ServerResponse, id: string) => void) | undefined {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || hasBody(req)) return undefined
  const page = cache.get(req.url ?? '')
  if (!page?.headers) return undefined
  const encoding = pageEncoding(req)
  const body = encoding === 'identity' ? page.identity : page.encoded[encoding]
  if (!body) return undefined
  const headers = page.headers
  return (res, id) => {
    cache.hits++
    if (req.headers['if-none-match'] === page.etag) {
      res.writeHead(304, { 'X-Request-Id': id, ...headers }).end()
      return
    }
    res.writeHead(page.status, { 'X-Request-Id': id, ...headers, 'Content-Length': body.length, ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }) })
    res.end(req.method === 'HEAD' ? undefined : body)
  }
}
