/** How the server's responses are cached and compressed. */
import zlib from 'node:zlib'
import compression from 'compression'
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

interface Accepted {
  encoding: string
  q: number
  /** Position in the header. */
  order: number
}

/** The `q` of one Accept-Encoding entry's parameters; NaN when malformed, which makes it unacceptable. */
function qualityOf(parameters: string | undefined): number {
  for (const parameter of parameters?.split(';') ?? []) {
    const [name, value] = parameter.trim().split('=')
    if (name === 'q') return parseFloat(String(value))
  }
  return 1
}

function parseAcceptEncoding(header: string): Accepted[] {
  const parts = header.split(',')
  const accepted: Accepted[] = []
  let lowest = 1
  parts.forEach((part, order) => {
    const match = /^\s*([^\s;]+)\s*(?:;(.*))?$/.exec(part.trim())
    if (!match) return
    const q = qualityOf(match[2])
    accepted.push({ encoding: match[1]!, q, order })
    lowest = Math.min(lowest, q || 1)
  })
  // Identity, unless named (or covered by *), is acceptable at the lowest quality the header gives.
  if (!accepted.some(({ encoding }) => encoding === '*' || encoding.toLowerCase() === 'identity')) {
    accepted.push({ encoding: 'identity', q: lowest, order: parts.length })
  }
  return accepted
}

/** How acceptable one offered encoding is: its most specific entry (a name beats *), then the highest q, then the last. */
function priorityOf(encoding: string, index: number, accepted: Accepted[]) {
  let best = { encoding, index, q: 0, specificity: 0, order: -1 }
  for (const entry of accepted) {
    const specificity = entry.encoding.toLowerCase() === encoding ? 1 : entry.encoding === '*' ? 0 : -1
    if (specificity < 0) continue
    if ((best.specificity - specificity || best.q - entry.q || best.order - entry.order) < 0) best = { encoding, index, q: entry.q, specificity, order: entry.order }
  }
  return best
}

type Priority = ReturnType<typeof priorityOf>

function byPreference(a: Priority, b: Priority): number {
  if (a.q !== b.q) return b.q - a.q
  const [aPreferred, bPreferred] = [PREFERRED.indexOf(a.encoding), PREFERRED.indexOf(b.encoding)]
  if (aPreferred === -1 && bPreferred === -1) return b.specificity - a.specificity || a.order - b.order || a.index - b.index
  if (aPreferred !== -1 && bPreferred !== -1) return aPreferred - bPreferred
  return aPreferred === -1 ? 1 : -1
}

/**
 * The encoding compressResponses() gives a compressible body of at least COMPRESSION_THRESHOLD
 * bytes on a GET with this Accept-Encoding: the rules of compression 1.8 and its negotiator 0.6,
 * quirks included, so that answers sent from memory (server/answer-memory.ts) are encoded as the
 * Express path would encode them. tests/routes/answer-memory.test.ts holds the two together.
 */
export function negotiatedEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity'
  const accepted = parseAcceptEncoding(acceptEncoding)
  const ranked = OFFERED.map((encoding, index) => priorityOf(encoding, index, accepted))
    .filter((priority) => priority.q > 0)
    .sort(byPreference)
  return (ranked[0]?.encoding as Encoding | undefined) ?? 'identity'
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
