/** What the giffer's route modules share: JSON POSTs and image answers. */
import express, { type NextFunction, type Request, type Response, type Router } from 'express'
import { HttpError } from '../../process/errors.js'
import { ClientGone } from '../errors.js'
import type { CachedRender } from '../cache.js'
import { JSON_BODY_LIMIT } from '../limits.js'

/** Express 5 hands async errors to the error handler; this only narrows the type. */
export type Handler = (req: Request, res: Response) => Promise<void>

/** POST bodies are JSON (or empty); anything else would only fail later with a confusing field. */
function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0
  if (hasBody && !req.is('application/json')) {
    next(new HttpError(415, 'unsupported_media_type', 'Send the parameters as application/json.', 'body'))
    return
  }
  next()
}

const json = express.json({ limit: JSON_BODY_LIMIT })

/** A POST route whose body is JSON (at most 32 KB). */
export function postJson(router: Router, route: string, handler: Handler): void {
  router.post(route, requireJsonBody, json, handler)
}

/** A PATCH route whose body is JSON (at most 32 KB). */
export function patchJson(router: Router, route: string, handler: Handler): void {
  router.patch(route, requireJsonBody, json, handler)
}

/**
 * Aborts, with `ClientGone`, when the client goes away before its answer was sent: waits on its
 * behalf (for a place in the render line, for the memory budget, for the store) then end.
 */
export function clientGone(res: Response): AbortSignal {
  const gone = new AbortController()
  res.once('close', () => {
    if (!res.writableFinished) gone.abort(new ClientGone())
  })
  return gone.signal
}

/** An image answer: cacheable by ETag (its content address), embeddable from any origin. */
export function sendImage(req: Request, res: Response, rendered: CachedRender & { key: string }, cacheControl: string, headers: Record<string, string> = {}): void {
  const { image, source, key } = rendered
  const extension = image.contentType === 'image/gif' ? 'gif' : 'png'
  res.set({
    'Content-Type': image.contentType,
    'Cache-Control': cacheControl,
    ETag: `"${key.slice(0, 32)}"`,
    'Content-Disposition': `inline; filename="image.${extension}"`,
    'X-Giffer-Cache': source,
    // Mail clients and other sites embed these images.
    'Cross-Origin-Resource-Policy': 'cross-origin',
    ...headers,
  })
  if (image.notice) res.set('X-Giffer-Notice', image.notice)
  if (req.method === 'GET' && req.fresh) {
    res.status(304).end()
    return
  }
  res.send(Buffer.from(image.body.buffer, image.body.byteOffset, image.body.byteLength))
}
