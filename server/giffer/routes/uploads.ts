/**
 * Uploads for the slideshow: `POST uploads/sign`, `POST uploads` (the local upload target),
 * `GET uploads/resolve?key=` and `GET uploads/{date}/{folder}/{name}` (the uploaded file).
 */
import type { Router } from 'express'
import { HttpError, badRequest } from '../../process/errors.js'
import type { GifferContext } from '../context.js'
import { SLIDESHOW_MAX_IMAGES } from '../../../shared/generators/slideshow/slideshow.js'
import { FILENAME_PLACEHOLDER, UPLOAD_KEY } from '../uploads/store.js'
import { clientGone, postJson } from './http.js'
import { IMMUTABLE } from '../../process/http-cache.js'
import { perAddressLimit } from '../../process/rate-limit.js'

/** The window of the per-address upload limits. */
const UPLOAD_LIMIT_WINDOW_MS = 10 * 60_000

export function uploadRoutes(router: Router, context: GifferContext): void {
  const { store, local, base, corsOrigin } = context
  // Whatever a visitor can make the server keep has a limit per address: photos, and signatures
  // (each lets its holder post to the bucket directly when uploads go to S3).
  const perAddress = context.config.uploadsPerAddress
  const { rateLimitStore } = context.config
  const limitSigns = perAddressLimit({ limit: Math.max(1, Math.ceil(perAddress / 3)), windowMs: UPLOAD_LIMIT_WINDOW_MS }, rateLimitStore?.('uploadSign'))
  const limitUploads = perAddressLimit({ limit: perAddress, windowMs: UPLOAD_LIMIT_WINDOW_MS }, rateLimitStore?.('upload'))

  router.post('/uploads/sign', limitSigns)
  postJson(router, '/uploads/sign', async (_req, res) => {
    res.set('Cache-Control', 'no-store')
    res.json(await store.sign())
  })

  router.post('/uploads', (_req, res, next) => {
    // On an origin of its own, the upload target lets the site's pages read its answer, as a
    // bucket's CORS rule does; its refusals too.
    if (corsOrigin) res.set({ 'Access-Control-Allow-Origin': corsOrigin, Vary: 'Origin' })
    next()
  })
  // The page follows an upload's progress, which makes its POST one a browser asks about first
  // (a preflight) when the target is on another origin: allowed for the site's origin alone.
  router.options('/uploads', (_req, res) => {
    if (corsOrigin) res.set({ 'Access-Control-Allow-Origin': corsOrigin, 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Max-Age': '3000', Vary: 'Origin' })
    res.status(204).end()
  })
  router.post('/uploads', limitUploads, async (req, res) => {
    if (!local) throw new HttpError(404, 'not_found', 'Uploads go to S3: post them to the url from uploads/sign.')
    // A client that leaves while its photo waits to be reduced takes it out of the line.
    const key = await local.receive(req, clientGone(res))
    // As S3 does: 204, and where the file now is.
    res.status(204).set('Location', `${base}/${key}`).end()
  })

  router.get('/uploads/resolve', async (req, res) => {
    const key = req.query.key
    if (typeof key !== 'string' || !UPLOAD_KEY.test(key)) {
      throw badRequest('key', `must be the key posted with the file: the signed key with ${FILENAME_PLACEHOLDER} replaced by its name, photo-1 to photo-${SLIDESHOW_MAX_IMAGES} with the extension of its type`)
    }
    // On S3 this may be the upload's first use, when a photo the rules reduce is reduced: a
    // client that leaves meanwhile takes it out of the render line.
    if (!(await store.describe(key, clientGone(res)))) throw new HttpError(404, 'not_found', 'No image was uploaded under this key.', 'key')
    res.set('Cache-Control', 'no-store')
    res.json({ url: `${base}/${key}` })
  })

  router.get('/uploads/:date/:folder/:name', async (req, res) => {
    const key = `uploads/${req.params.date}/${req.params.folder}/${req.params.name}`
    if (!UPLOAD_KEY.test(key)) throw new HttpError(404, 'not_found', 'No such upload.')
    // A client that goes away ends the read from the store too: the request for it, and the
    // body once it flows.
    const gone = clientGone(res)
    const file = await store.open(key, gone)
    if (!file) throw new HttpError(404, 'not_found', 'No such upload.')
    gone.addEventListener('abort', () => file.body.destroy(), { once: true })
    res.set({
      'Content-Type': file.upload.type,
      'Content-Length': String(file.upload.size),
      'Cache-Control': IMMUTABLE,
      'Content-Disposition': 'inline',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'",
      'Cross-Origin-Resource-Policy': 'cross-origin',
    })
    // `pipe` rather than `pipeline`: the latter adds half a dozen listeners to a response that
    // already has several, and Node warns of a leak past ten.
    file.body.once('error', () => res.destroy())
    file.body.pipe(res)
  })
}
