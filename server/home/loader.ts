import type { GalleryKind } from '../../shared/gallery/paths.js'
import type { PageIdOf } from '../../shared/page-route.js'
import type { HomeTemplateCards, homePages } from '../../shared/home/home.route.js'
import type { HomeContent } from '../../shared/content/schema.js'
import type { Galleries } from '../gallery/catalogs.js'
import type { LoaderDependencies, RouteLoaders } from '../ssr/loader.js'

/** Every template id home.json names, by gallery: the hero's showcase, the rows and the sections' art. */
function templateIdsOf(home: HomeContent): Record<GalleryKind, string[]> {
  const ids: Record<GalleryKind, string[]> = { widgets: [home.hero.showcase.widget], emails: [home.hero.showcase.email] }
  for (const pick of [...home.templates.rows, ...home.sections.flatMap((section) => (section.templates ? [section.templates] : []))]) {
    ids[pick.kind].push(...pick.ids)
  }
  return ids
}

/**
 * The cards of the templates the home page shows, looked up once with the rest of the site's data
 * (at start-up): an id the catalog does not have stops the site from starting, naming it, rather
 * than leaving a hole in the page.
 */
export function homeTemplateCards(home: HomeContent, gallery: Pick<Galleries, GalleryKind>): HomeTemplateCards {
  const wanted = templateIdsOf(home)
  const cards: HomeTemplateCards = { widgets: {}, emails: {} }
  for (const kind of ['widgets', 'emails'] as const) {
    const catalog = new Map(gallery[kind].cards().map((card) => [card.hid, card]))
    const unknown = wanted[kind].filter((hid) => !catalog.has(hid))
    if (unknown.length) throw new Error(`data/home.json: no ${kind === 'widgets' ? 'widget' : 'email'} template with the id ${unknown.join(', ')}`)
    for (const hid of wanted[kind]) cards[kind][hid] = catalog.get(hid)!
  }
  return cards
}

export const homeLoaders = ({ content, homeCards }: LoaderDependencies): RouteLoaders<PageIdOf<typeof homePages>> => ({
  home: () => ({ home: content.home, cards: homeCards }),
})
