/** `POST slideshow/create-row | create-trio | create-overlay`: a GIF of uploaded photos. */
import type { Router } from 'express'
import { badRequest } from '../../process/errors.js'
import { parseRequest } from '../../process/validation.js'
import { renderImage, type GifferContext } from '../context.js'
import type { PhotoHeader, SlideshowMode } from '../jobs.js'
import { slideshowSchema } from '../schemas.js'
import { uploadKeyFromUrl } from '../uploads.js'
import { postJson, sendImage, type Handler } from './http.js'
import { IMMUTABLE } from '../../process/http-cache.js'

/**
 * The uploads behind the URLs (only this service's own upload URLs, of images that exist) and
 * what their headers say: type, size and dimensions, which the memory estimate needs before any
 * photo is decoded.
 */
async function uploadedPhotos(context: GifferContext, urls: string[]): Promise<{ keys: string[]; photos: PhotoHeader[] }> {
  const keys = urls.map((url, i) => {
    const key = uploadKeyFromUrl(url, context.publicPath, context.ownOrigins)
    if (!key) throw badRequest(`images.${i}`, 'must be a URL returned by uploads/resolve')
    return key
  })
  const photos = await Promise.all(
    keys.map(async (key, i) => {
      const header = await context.store.header(key)
      if (!header) throw badRequest(`images.${i}`, 'is not an uploaded image')
      return header
    }),
  )
  return { keys, photos }
}

function slideshow(context: GifferContext, mode: SlideshowMode): Handler {
  return async (req, res) => {
    const request = parseRequest(slideshowSchema, req.body)
    const { keys, photos } = await uploadedPhotos(context, request.urls)
    const job = request.job(mode, photos)
    // The photos' bytes are read only once the job has a thread and its memory, one at a time.
    const read = async (index: number) => {
      const bytes = await context.store.read(keys[index]!)
      if (!bytes) throw badRequest(`images.${index}`, 'is not an uploaded image')
      return bytes
    }
    // The cache key names the uploads, not their bytes.
    const { photos: _headers, ...descriptor } = job
    sendImage(req, res, await renderImage(context, 'slideshow', { ...descriptor, keys }, job, { photos: read }), IMMUTABLE)
  }
}

export function slideshowRoutes(router: Router, context: GifferContext): void {
  postJson(router, '/slideshow/create-row', slideshow(context, 'row'))
  postJson(router, '/slideshow/create-trio', slideshow(context, 'trio'))
  postJson(router, '/slideshow/create-overlay', slideshow(context, 'overlay'))
}
