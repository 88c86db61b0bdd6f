/** `POST slideshow/create-row | create-trio | create-overlay`: a GIF of uploaded photos. */
import type { Router } from 'express'
import { badRequest } from '../../process/errors.js'
import { parseRequest } from '../../process/validation.js'
import { renderImage, type GifferContext } from '../context.js'
import type { SlideshowMode } from '../jobs.js'
import { slideshowSchema } from '../schemas.js'
import { uploadKeyFromUrl } from '../uploads.js'
import { postJson, sendImage, type Handler } from './http.js'
import { IMMUTABLE } from '../../process/http-cache.js'

/** The uploads behind the URLs: only this service's own upload URLs, of images that exist. */
async function readUploads(context: GifferContext, urls: string[]): Promise<{ keys: string[]; images: Uint8Array[] }> {
  const keys = urls.map((url, i) => {
    const key = uploadKeyFromUrl(url, context.publicPath, context.ownOrigins)
    if (!key) throw badRequest(`images.${i}`, 'must be a URL returned by uploads/resolve')
    return key
  })
  const images = await Promise.all(
    keys.map(async (key, i) => {
      const bytes = await context.store.read(key)
      if (!bytes) throw badRequest(`images.${i}`, 'is not an uploaded image')
      return bytes
    }),
  )
  return { keys, images }
}

function slideshow(context: GifferContext, mode: SlideshowMode): Handler {
  return async (req, res) => {
    const request = parseRequest(slideshowSchema, req.body)
    const { keys, images } = await readUploads(context, request.urls)
    const job = request.job(mode, images)
    // The cache key names the uploads, not their bytes.
    const { images: _bytes, ...descriptor } = job
    sendImage(req, res, await renderImage(context, 'slideshow', { ...descriptor, keys }, job), IMMUTABLE)
  }
}

export function slideshowRoutes(router: Router, context: GifferContext): void {
  postJson(router, '/slideshow/create-row', slideshow(context, 'row'))
  postJson(router, '/slideshow/create-trio', slideshow(context, 'trio'))
  postJson(router, '/slideshow/create-overlay', slideshow(context, 'overlay'))
}
