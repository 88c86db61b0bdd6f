/**
 * What both galleries' listings share: the face the page loaders, the home page and the
 * thumbnails see (server/gallery/widget-listings.ts and email-listings.ts each build one over
 * their own index), and the steps that are the same for widgets and emails.
 */
import { MAX_QUERY_LENGTH } from './query.js'
import type { GalleryListingData, GalleryRootData, TemplateCard } from '../../shared/gallery/gallery.route.js'

/** Cards in a row of a gallery's root; the rest are one click away. */
export const ROW_CARDS = 12

/** A gallery's pages over its catalog, indexed once at start-up. */
export interface GalleryListings {
  /** The page at the gallery's path segments with the query, or a thrown redirect / not-found. */
  page(segments: string[], search: URLSearchParams): GalleryRootData | GalleryListingData
  /** A template and the set previous/next move through, undefined for an unknown id. */
  standalone(hid: string, collection: string[]): StandaloneTemplate | undefined
  /** Every path of the gallery for the sitemap. */
  paths(): string[]
  /** Every template's card, in listing order. */
  cards(): TemplateCard[]
}

export interface StandaloneTemplate {
  card: TemplateCard
  collection: TemplateCard[]
}

export interface ListedTemplate {
  id: string
  card: TemplateCard
}

/** The search words of a listing's query: trimmed, cut to the longest query, undefined when empty. */
export const searchQueryOf = (search: URLSearchParams) => (search.get('q') ?? '').trim().slice(0, MAX_QUERY_LENGTH) || undefined

/**
 * A template opened on its own, with the ids given as the set to move through (unknown ones
 * dropped), else its siblings; the template itself is always part of the set.
 */
export function standaloneTemplate<T extends ListedTemplate>(
  byId: ReadonlyMap<string, T>,
  hid: string,
  collection: string[],
  siblingsOf: (entry: T) => TemplateCard[],
): StandaloneTemplate | undefined {
  const entry = byId.get(hid)
  if (!entry) return undefined
  const given = collection.map((id) => byId.get(id)?.card).filter((card): card is TemplateCard => card !== undefined)
  const cards = given.length ? given : siblingsOf(entry)
  return { card: entry.card, collection: cards.some((card) => card.hid === hid) ? cards : [entry.card, ...cards] }
}
