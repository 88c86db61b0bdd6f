/** `POST scrollingtext/create`: a scrolling-text GIF. */
import type { Router } from 'express'
import { parseRequest } from '../../process/validation.js'
import { renderImage, type GifferContext } from '../context.js'
import { scrollingTextSchema } from '../schemas.js'
import { clientGone, postJson, sendImage } from './http.js'
import { IMMUTABLE } from '../../process/http-cache.js'

export function scrollingTextRoutes(router: Router, context: GifferContext): void {
  postJson(router, '/scrollingtext/create', async (req, res) => {
    const job = parseRequest(scrollingTextSchema, req.body)
    sendImage(req, res, await renderImage(context, 'scrolling-text', job, job, { signal: clientGone(res) }), IMMUTABLE)
  })
}
