/** How the server's responses are cached and compressed. */
import type { IncomingMessage } from 'node:http'
import zlib from 'node:zlib'
import compression from 'compression'
import Negotiator from 'negotiator'
import type { RequestHandler } from 'express'

/** A file whose name changes with its content (a hash, a revision) never changes under that name: a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable'

/** Bodies smaller than this are sent as they are: compressing them saves too little. */
export const COMPRESSION_THRESHOLD = 1024

/**
 * gzip or brotli as the browser asks. Brotli's window is kept at 256 KB: pages are far smaller,
 * and the default 4 MB window costs memory per response in flight.
 */
export function compressResponses(): RequestHandler {
  return compression({ threshold: COMPRESSION_THRESHOLD, brotli: { params: { [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } } })
}

/** The encodings compressResponses() offers, and the ones it puts first among equally acceptable ones. */
const OFFERED = ['br', 'gzip', 'deflate', 'identity']
const PREFERRED = ['br', 'gzip']

export type Encoding = 'br' | 'gzip' | 'deflate' | 'identity'

/** negotiator 0.6 takes the preferred order as a second argument, as compression calls it; its types predate that. */
type EncodingNegotiator = { encoding(available: readonly string[], preferred: readonly string[]): string | undefined }

/**
 * The encoding compressResponses() gives a compressible body of at least COMPRESSION_THRESHOLD
 * bytes on a GET with this request's Accept-Encoding: the same negotiator, asked the same way, so that
 * answers sent from memory (server/process/answer-memory.ts) are encoded as the Express path would encode
 * them. tests/routes/answer-memory.test.ts holds the two together.
 */
export function negotiatedEncoding(req: Pick<IncomingMessage, 'headers'>): Encoding {
  if (!req.headers['accept-encoding']) return 'identity'
  const negotiator = new Negotiator(req) as unknown as EncodingNegotiator
  return (negotiator.encoding(OFFERED, PREFERRED) ?? 'identity') as Encoding
}

/**
 * A body kept in memory, compressed once for all the requests that will ask for it: brotli 6
 * comes within about 1% of brotli 11 at a fraction of the time, gzip 9 costs about what gzip 6
 * does. Synchronous: a kept answer is a few tens of KB at most, a millisecond or two of work.
 */
export function compressKept(body: Buffer, encoding: 'br' | 'gzip'): Buffer {
  if (encoding === 'gzip') return zlib.gzipSync(body, { level: 9 })
  return zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
}
