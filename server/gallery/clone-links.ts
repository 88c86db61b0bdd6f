/**
 * The site's short clone links: `/t/{hid}` → 302 to the app's `/app/clone/{hid}`, which copies
 * the template into the account (or asks the visitor to sign up first). A link to a template
 * that does not exist falls through to the site's own 404 page.
 */
import express from 'express'
import { appClonePath, TEMPLATE_ID, type GalleryKind } from '../../shared/gallery/paths.js'

export interface CloneLinkSource {
  kind: GalleryKind
  /** The short path's first segment: `t` for widgets. */
  prefix: string
  exists(hid: string): boolean
}

/** Clone links live as long as their template; a day's caching spares the server repeats. */
const CACHE = 'public, max-age=86400'

export function cloneLinks(sources: CloneLinkSource[]): express.Router {
  const router = express.Router()
  for (const source of sources) {
    router.get(`/${source.prefix}/:hid`, (req, res, next) => {
      const hid = String(req.params.hid)
      if (!TEMPLATE_ID.test(hid) || !source.exists(hid)) return next()
      res.set('Cache-Control', CACHE).redirect(302, appClonePath(source.kind, hid))
    })
  }
  return router
}
