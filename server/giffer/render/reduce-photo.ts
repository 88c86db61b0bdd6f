/**
 * An uploaded photo made render-sized once, as the local folder stores it or at its first use in a
 * bucket, for clients that send the camera's
 * original rather than the page's reduced copy: turned upright by its EXIF orientation, its long
 * side at most the largest card's, and encoded again in its own type at eight bits a sample (all
 * a GIF's colours can show), which drops every piece of metadata (camera, GPS, time).
 * The photo is read in order, a few rows at a time, and never held whole where its decoder allows:
 * libvips shrinks a JPEG or a lossy WebP as it decodes it (by 2, 4 or 8), streams a PNG row by row,
 * and turns the photo upright only once it is reduced. A progressive JPEG still keeps all its
 * coefficients, and a lossless WebP its whole frame: the memory estimate counts them.
 */
import sharp from 'sharp'
import { PHOTO_JPEG_QUALITY, PHOTO_MAX_PIXELS } from '../../../shared/generators/slideshow/slideshow.js'
import { RenderRefused, type ReducePhotoJob, type RenderedImage } from '../jobs.js'
import type { PhotoReader } from '../photo-source.js'

export async function reducePhoto(job: ReducePhotoJob, readPhoto: PhotoReader): Promise<RenderedImage> {
  // The bytes its header was read from, just received: the estimate was made from them.
  const bytes = await readPhoto(0)
  const quality = Math.round(PHOTO_JPEG_QUALITY * 100)
  let image = sharp(bytes, { limitInputPixels: PHOTO_MAX_PIXELS, failOn: 'error', sequentialRead: true })
    .autoOrient()
    .resize(job.longSide, job.longSide, { fit: 'inside', withoutEnlargement: true, fastShrinkOnLoad: true })
  // A 16-bit PNG is written at 8 bits, in its own colours (grey stays grey).
  if (job.photo.bitDepth === 16) image = image.toColourspace(job.photo.channels <= 2 ? 'b-w' : 'srgb')
  image = job.photo.type === 'image/jpeg' ? image.jpeg({ quality }) : job.photo.type === 'image/webp' ? image.webp({ quality }) : image.png()
  let output: { data: Buffer; info: { width: number; height: number } }
  try {
    output = await image.toBuffer({ resolveWithObject: true })
  } catch {
    throw new RenderRefused({ status: 422, code: 'image_unreadable', message: 'The image could not be read as a picture.', field: 'file' })
  }
  const { data, info } = output
  // A copy in memory of its own: libvips owns the buffer it returned, and Node (from 22) will not
  // move such a buffer to the main thread.
  return { ok: true, body: new Uint8Array(data), contentType: job.photo.type, width: info.width, height: info.height, frames: 1 }
}
