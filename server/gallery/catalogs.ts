/** Both galleries' listings, built once at start-up from the catalogs in data/. */
import type { ThumbnailSource } from './thumbnails.js'
import { emailCatalog } from './email-catalog.js'
import { emailListings, type EmailListings } from './email-listings.js'
import { widgetCatalog } from './widget-catalog.js'
import { widgetListings, type WidgetListings } from './widget-listings.js'

export interface Galleries {
  widgets: WidgetListings
  emails: EmailListings
  thumbnails: ThumbnailSource
}

export function loadGalleries(dataDir: string): Galleries {
  const widgets = widgetListings(widgetCatalog(dataDir))
  const emails = emailListings(emailCatalog(dataDir))
  return {
    widgets,
    emails,
    thumbnails: { revisionOf: (kind, hid) => (kind === 'widgets' ? widgets : emails).revisionOf(hid) },
  }
}
