/** Both galleries, built once at start-up from the content folder: their catalogs and listings. */
import type { ThumbnailSource } from './thumbnails.js'
import { loadEmailCatalog, type EmailCatalog } from './email-catalog.js'
import { emailListings, type EmailListings } from './email-listings.js'
import { loadWidgetCatalog, type WidgetCatalog } from './widget-catalog.js'
import { widgetListings, type WidgetListings } from './widget-listings.js'

export interface Galleries {
  /** The templates as the API, the dashboard's previews and email views, and the clone links read them. */
  catalogs: { widgets: WidgetCatalog; emails: EmailCatalog }
  /** The listing pages' view of the same templates. */
  widgets: WidgetListings
  emails: EmailListings
  thumbnails: ThumbnailSource
}

export function loadGalleries(contentDir: string): Galleries {
  const catalogs = { widgets: loadWidgetCatalog(contentDir), emails: loadEmailCatalog(contentDir) }
  const widgets = widgetListings(catalogs.widgets)
  const emails = emailListings(catalogs.emails)
  return {
    catalogs,
    widgets,
    emails,
    thumbnails: { revisionOf: (kind, hid) => catalogs[kind].byId(hid)?.revision },
  }
}
