/** `GET text/preview?…`: a text image (PNG). */
import type { Router } from 'express'
import { parseRequest } from '../../process/validation.js'
import { renderImage, type GifferContext } from '../context.js'
import { textPreviewSchema } from '../schemas.js'
import { clientGone, sendImage } from './http.js'
import { IMMUTABLE } from '../../process/http-cache.js'

export function textPreviewRoutes(router: Router, context: GifferContext): void {
  router.get('/text/preview', async (req, res) => {
    const job = parseRequest(textPreviewSchema, req.query)
    sendImage(req, res, await renderImage(context, 'text-preview', job, job, { signal: clientGone(res) }), IMMUTABLE)
  })
}
