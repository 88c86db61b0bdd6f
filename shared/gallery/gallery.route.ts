import { definePage } from '../page-route.js'
import type { Breadcrumbs } from '../content/schema.js'

/** One template as a card: enough to draw the card and to open it in the preview. */
export interface TemplateCard {
  hid: string
  name: string
  /** The widget's position (Slide-in, Bar…); none for emails. */
  label?: string
  /** Changes with the template; part of its image URLs so they can be cached for good. */
  revision: string
  /** The widget has a light and a dark version to switch between. */
  themed?: boolean
  /** The email's weight in bytes (for the clipping badge); none for widgets. */
  bytes?: number
}

/** A filter choice: where it leads and how many templates it leaves. */
export interface FacetLink {
  name: string
  /** The value the filter form sends for it (a sub's or a position's slug, '' for all). */
  value: string
  path: string
  count: number
  current: boolean
}

export interface SidebarGroup extends FacetLink {
  subs: FacetLink[]
}

export interface GallerySection {
  key: 'normal' | 'inline' | 'custom' | 'inspired'
  title: string
  cards: TemplateCard[]
}

export interface GalleryExtension {
  kind: 'link' | 'video'
  url: string
  text: string
}

export interface GalleryRow {
  name: string
  path: string
  count: number
  /** Inline SVG markup of the group's icon (specials). */
  icon?: string
  cards: TemplateCard[]
}

/** `/p/` and `/e/`: every visible group as a row of cards (a search from there is a listing). */
export interface GalleryRootData {
  kind: 'root'
  gallery: 'widgets' | 'emails'
  rows: GalleryRow[]
  total: number
}

/** A group (or subgroup) with its filters; with `open`, the preview of one of its templates over it. */
export interface GalleryListingData {
  kind: 'listing'
  gallery: 'widgets' | 'emails'
  title: string
  description: string
  breadcrumbs: Breadcrumbs
  sidebar: SidebarGroup[]
  /** Subcategories of the group, for the dropdown (empty when it has none). */
  subs: FacetLink[]
  /** Widget positions with their counts under the other filters; the first is "All types". */
  positions: FacetLink[]
  /** Where the filter form posts to (the listing without its query). */
  listingPath: string
  position: string | null
  q: string
  sections: GallerySection[]
  total: number
  extensions: GalleryExtension[]
  /** The template shown in the preview, when the page is `/p/{hid}` or `/e/{hid}`. */
  open: string | null
}

export type GalleryPageData = GalleryRootData | GalleryListingData

export const galleryPages = [
  definePage<GalleryPageData>()({ id: 'widget-gallery', path: 'p/', module: 'Gallery', load: () => import('./Gallery.js') }),
  // A group, or a template id (`/p/{hid}` opens its preview over its group).
  definePage<GalleryPageData>()({ id: 'widget-group', path: 'p/:segment/', module: 'Gallery', load: () => import('./Gallery.js') }),
  definePage<GalleryPageData>()({ id: 'widget-sub', path: 'p/:group/:sub/', module: 'Gallery', load: () => import('./Gallery.js') }),
  definePage<GalleryPageData>()({ id: 'email-gallery', path: 'e/', module: 'Gallery', load: () => import('./Gallery.js') }),
  definePage<GalleryPageData>()({ id: 'email-group', path: 'e/:segment/', module: 'Gallery', load: () => import('./Gallery.js') }),
] as const

export const GALLERY_ROUTE_IDS = ['widget-gallery', 'widget-group', 'widget-sub', 'email-gallery', 'email-group'] as const

/** A template on its own, made to be framed: `/widget-preview/?id=…&collection=…`, `/email-preview/?id=…`. */
export interface StandalonePreviewData {
  gallery: 'widgets' | 'emails'
  card: TemplateCard
  /** The set previous/next move through (the `collection` query, else the template's group). */
  collection: TemplateCard[]
  /** Origins allowed to frame the preview and to receive the choice: the site and the app. */
  parentOrigins: string[]
}

export const standalonePreviewPages = [
  definePage<StandalonePreviewData>()({ id: 'widget-preview', path: 'widget-preview/', module: 'StandalonePreview', bare: true, load: () => import('./StandalonePreview.js') }),
  definePage<StandalonePreviewData>()({ id: 'email-preview', path: 'email-preview/', module: 'StandalonePreview', bare: true, load: () => import('./StandalonePreview.js') }),
] as const
