/** Every template whose card image `npm run thumbnails` draws: its id, revision and the page that shows it. */
import { previewFramePath } from '../../shared/gallery/paths.js'
import type { ThumbnailKind } from '../../shared/gallery/thumbnail-sizes.js'
import { loadGalleries } from '../../server/gallery/catalogs.js'

export interface ThumbnailSourceEntry {
  hid: string
  revision: string
  framePath: string
}

export function galleryThumbnailSources(contentDir: string): Record<ThumbnailKind, ThumbnailSourceEntry[]> {
  const galleries = loadGalleries(contentDir)
  const list = (kind: ThumbnailKind) =>
    galleries[kind].cards().map((card) => ({ hid: card.hid, revision: card.revision, framePath: previewFramePath(kind, card.hid) }))
  return { widgets: list('widgets'), emails: list('emails') }
}
