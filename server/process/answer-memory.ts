/**
 * Complete answers to GET URLs that are the same for every visitor (the galleries' JSON), kept by
 * URL so that a repeat is sent before Express runs at all. Express with its per-request
 * middleware costs several times what writing stored bytes to a socket costs; for these answers
 * nothing it does depends on the visitor.
 *
 * The Express path records (`record()`, mounted where the answers are made): a 200 answer's body
 * and its final headers as helmet, CORS, the handler and compression left them, minus those of one
 * request or one encoding. The server's listener replays (`the listener of app.ts`): the same headers, a
 * fresh X-Request-Id, the request's log line and metrics as Express would write them, 304 on a
 * matching If-None-Match, no body for HEAD, and the encoding compression would choose. Pages
 * kept by the page cache are replayed the same way (server/ssr/page-cache.ts); app.ts puts both
 * in front of Express.
 *
 * A kept URL is one the /api router answered. Of what app.ts runs ahead of that router, only the
 * request log and the metrics are per request, and they are redone here; helmet's and the
 * router's headers are the same for every request; there is no host check, rate limit, load
 * shedding or redirect on the way. Requests the replay would not reproduce exactly go the full
 * way: other methods, a request body, an unkept URL, a client that takes only deflate.
 */
import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http'
import type { RequestHandler, Response } from 'express'
import fresh from 'fresh'
import { LRUCache } from 'lru-cache'
import { COMPRESSION_THRESHOLD, compressKept, negotiatedEncoding } from './http-cache.js'

interface KeptAnswer {
  /** The headers Express sent, its names as it spelled them, without those of PER_RESPONSE. */
  headers: OutgoingHttpHeaders
  etag: string | undefined
  identity: Buffer
  /** Whether compression negotiates an encoding for it: a compressible type and at least its threshold. */
  negotiated: boolean
  /** Compressed forms, made the first time a client asks for one. */
  encoded: { br?: Buffer; gzip?: Buffer }
}

/** A request the memory can answer, and how. */
export interface Replay {
  key: string
  answer: KeptAnswer
  encoding: 'br' | 'gzip' | 'identity'
}

const MAX_ANSWERS = 2000
const MAX_BYTES = 16 * 1024 * 1024
/** Longer URLs (search text, odd parameters) are answered, never kept. */
const MAX_KEY_LENGTH = 512

/** Headers of one request or of one encoding of the body: set afresh on each response. */
const PER_RESPONSE = new Set(['x-request-id', 'content-length', 'content-encoding', 'transfer-encoding', 'date', 'connection', 'keep-alive'])

/** compression adds `Vary: Accept-Encoding` exactly when it would compress the type (and no `no-transform` forbids it). */
const VARIES_BY_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i

/** Bodies, plus about what the header values take. */
const sizeOf = (answer: KeptAnswer) => answer.identity.length + (answer.encoded.br?.length ?? 0) + (answer.encoded.gzip?.length ?? 0) + 1024

/** Node has this on every outgoing message; its types declare it for client requests only. */
type WithRawNames = ServerResponse & { getRawHeaderNames(): string[] }

/** Copies the answer's headers, names spelled as sent, or null when it carries something of one visitor's. */
export function keptHeaders(res: ServerResponse): OutgoingHttpHeaders | null {
  if (res.hasHeader('set-cookie')) return null
  const headers: OutgoingHttpHeaders = {}
  for (const name of (res as WithRawNames).getRawHeaderNames()) {
    if (!PER_RESPONSE.has(name.toLowerCase())) headers[name] = res.getHeader(name)
  }
  return headers
}

/** A request that may carry a body; none of the kept URLs reads one, so Express gets to decide. */
export const hasBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0'

export class AnswerMemory {
  private readonly answers: LRUCache<string, KeptAnswer>

  /** `maxBytes`: the box's share for kept answers, never more than MAX_BYTES. */
  constructor(maxBytes = MAX_BYTES) {
    this.answers = new LRUCache<string, KeptAnswer>({ max: MAX_ANSWERS, maxSize: Math.max(1, Math.min(MAX_BYTES, maxBytes)), sizeCalculation: sizeOf })
  }

  /**
   * Middleware for the routers whose JSON depends on the URL alone: keeps each 200 answer sent
   * with `res.json` on a GET or HEAD, once its headers are final.
   */
  record(): RequestHandler {
    return (req, res, next) => {
      const key = req.originalUrl
      if ((req.method !== 'GET' && req.method !== 'HEAD') || key.length > MAX_KEY_LENGTH || this.answers.has(key)) return next()
      const json = res.json.bind(res)
      res.json = (body: unknown) => {
        if (res.statusCode !== 200) return json(body)
        const text = JSON.stringify(body)
        // Once send returns the headers have gone out: compression set Vary and the encoding on the way.
        res.type('json').send(text)
        // A 304 (the client had it) still tells the body, but its headers are not a 200's.
        if (res.statusCode === 200) this.keep(key, Buffer.from(text), res)
        return res
      }
      next()
    }
  }

  private keep(key: string, identity: Buffer, res: Response): void {
    const headers = keptHeaders(res)
    if (!headers) return
    const etag = res.getHeader('ETag')
    const negotiated = VARIES_BY_ENCODING.test(String(res.getHeader('Vary') ?? '')) && identity.length >= COMPRESSION_THRESHOLD
    this.answers.set(key, { headers, etag: typeof etag === 'string' ? etag : undefined, identity, negotiated, encoded: {} })
  }

  /** The kept answer to this request and its encoding, or undefined when Express must answer. */
  match(req: IncomingMessage): Replay | undefined {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || hasBody(req)) return undefined
    const key = req.url ?? ''
    if (key.length > MAX_KEY_LENGTH) return undefined
    const answer = this.answers.get(key)
    if (!answer) return undefined
    // compression leaves HEAD answers and small bodies as they are.
    const encoding = answer.negotiated && req.method === 'GET' ? negotiatedEncoding(req) : 'identity'
    // The one encoding compression offers that is not kept: rare enough to leave to Express.
    if (encoding === 'deflate') return undefined
    return { key, answer, encoding }
  }

  /**
   * Sends a matched answer with the request's id: 304 when the client has it, else its body in the
   * chosen encoding. All headers go in one writeHead: headers set one by one before it would each
   * be checked and stored twice, which costs more than the rest of the replay.
   */
  replay(req: IncomingMessage, res: ServerResponse, { key, answer, encoding }: Replay, id: string): void {
    // Express's own rules (req.fresh): If-None-Match naming the ETag, never under no-cache.
    if (fresh(req.headers, { etag: answer.etag })) {
      res.writeHead(304, { 'X-Request-Id': id, ...answer.headers }).end()
      return
    }
    const body = encoding === 'identity' ? answer.identity : this.encoded(key, answer, encoding)
    const headers: OutgoingHttpHeaders = { 'X-Request-Id': id, ...answer.headers, 'Content-Length': body.length }
    if (encoding !== 'identity') headers['Content-Encoding'] = encoding
    res.writeHead(200, headers)
    res.end(req.method === 'HEAD' ? undefined : body)
  }

  private encoded(key: string, answer: KeptAnswer, encoding: 'br' | 'gzip'): Buffer {
    let body = answer.encoded[encoding]
    if (!body) {
      body = answer.encoded[encoding] = compressKept(answer.identity, encoding)
      // Set again so that the cache counts its new size.
      this.answers.set(key, answer)
    }
    return body
  }
}
