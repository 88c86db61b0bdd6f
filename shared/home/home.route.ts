import type { GalleryKind } from '../gallery/paths.js'
import { definePage } from '../page-route.js'
import type { HomeContent } from '../content/schema.js'
import type { TemplateCard } from '../gallery/gallery.route.js'

/** The cards of the templates home.json names, by gallery and id: only those, to keep the page's data small. */
export type HomeTemplateCards = Record<GalleryKind, Record<string, TemplateCard>>

export interface HomeData {
  home: HomeContent
  cards: HomeTemplateCards
}

export const homePages = [definePage<HomeData>()({ id: 'home', module: 'Home', load: () => import('./Home.js') })] as const
