/** `POST slideshow/create-row | create-trio | create-overlay`: a GIF of uploaded photos. */
import type { Router } from 'express'
import { HttpError, badRequest } from '../../process/errors.js'
import { parseRequest } from '../../process/validation.js'
import { renderImage, renderPool, type GifferContext } from '../context.js'
import { imageChanged, type SlideshowMode } from '../jobs.js'
import { slideshowSchema } from '../schemas.js'
import { UploadChanged, uploadKeyFromUrl, type PhotoToDraw } from '../uploads/store.js'
import { clientGone, postJson, sendImage, type Handler } from './http.js'
import { IMMUTABLE } from '../../process/http-cache.js'

/**
 * The store's refusals of a photo as refusals naming it: replaced since its header was read, or
 * refused by the upload rules (which name the file, as the upload target does).
 */
function namingThePhoto(index: number): (error: unknown) => never {
  return (error) => {
    if (error instanceof UploadChanged) {
      const { status, code, message, field } = imageChanged(index)
      throw new HttpError(status, code, message, field)
    }
    if (error instanceof HttpError && error.field === 'file') throw new HttpError(error.status, error.code, error.message, `images.${index}`)
    throw error
  }
}

/**
 * The uploads behind the URLs (only this service's own upload URLs, of images that exist) and
 * what their headers say: type, size and dimensions, which the memory estimate needs before any
 * photo is decoded. On S3 this may be a photo's first use, when one the rules reduce is reduced and
 * drawn from its copy. `signal` ends the reads when the client goes away.
 */
async function uploadedPhotos(context: GifferContext, urls: string[], signal: AbortSignal): Promise<{ keys: string[]; photos: PhotoToDraw[] }> {
  const keys = urls.map((url, i) => {
    const key = uploadKeyFromUrl(url, context.publicPath, context.ownOrigins)
    if (!key) throw badRequest(`images.${i}`, 'must be a URL returned by uploads/resolve')
    return key
  })
  const photos = await Promise.all(
    keys.map(async (key, i) => {
      const photo = await context.store.header(key, signal).catch(namingThePhoto(i))
      if (!photo) throw badRequest(`images.${i}`, 'is not an uploaded image')
      return photo
    }),
  )
  return { keys, photos }
}

/**
 * Whether the next frame's photo is decoded while a frame is drawn: where the box has a CPU the
 * render threads leave free (sharp decodes on a thread of its own; on one shared CPU it would only
 * take turns with the drawing, holding one photo more for nothing). The job must also fit the
 * memory budget with it: a tall shape on a small box is drawn without it rather than refused.
 */
function decodesAhead({ config: { sizing } }: GifferContext): boolean {
  return sizing.box.cpus > sizing.renderThreads
}

function slideshow(context: GifferContext, mode: SlideshowMode): Handler {
  return async (req, res) => {
    const request = parseRequest(slideshowSchema, req.body)
    // A box too small to draw refuses before reading any photo's header from the store.
    const pool = renderPool(context)
    const signal = clientGone(res)
    const { keys, photos } = await uploadedPhotos(context, request.urls, signal).catch((error: unknown) => {
      throw signal.aborted ? signal.reason : error
    })
    const planned = request.job(mode, photos.map((photo) => photo.header))
    const job = { ...planned, decodeAhead: decodesAhead(context) && pool.canEverDraw(planned) }
    // The photos' bytes are read only once the job has a thread and its memory, one at a time,
    // each as the object its header was read from (on S3, the one of that ETag).
    const read = async (index: number) => {
      const bytes = await photos[index]!.read().catch(namingThePhoto(index))
      if (!bytes) throw badRequest(`images.${index}`, 'is not an uploaded image')
      return bytes
    }
    // The cache key names the uploads, not their bytes, and on S3 their ETags too: a photo replaced
    // in the bucket is drawn anew, never answered with the render of the one before.
    // Decoding ahead or not draws the same image: not part of its key.
    const { photos: headers, decodeAhead: _ahead, ...descriptor } = job
    const etags = headers.map((photo) => photo.etag ?? null)
    sendImage(req, res, await renderImage(context, 'slideshow', { ...descriptor, keys, etags }, job, { photos: read, signal }), IMMUTABLE)
  }
}

export function slideshowRoutes(router: Router, context: GifferContext): void {
  postJson(router, '/slideshow/create-row', slideshow(context, 'row'))
  postJson(router, '/slideshow/create-trio', slideshow(context, 'trio'))
  postJson(router, '/slideshow/create-overlay', slideshow(context, 'overlay'))
}
