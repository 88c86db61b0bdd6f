/** How the server's responses are cached and compressed. */
import zlib from 'node:zlib'
import compression from 'compression'
import type { RequestHandler } from 'express'

/** A file whose name changes with its content (a hash, a revision) never changes under that name: a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable'

/**
 * gzip or brotli as the browser asks. Brotli's window is kept at 256 KB: pages are far smaller,
 * and the default 4 MB window costs memory per response in flight.
 */
export function compressResponses(): RequestHandler {
  return compression({ brotli: { params: { [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } } })
}
