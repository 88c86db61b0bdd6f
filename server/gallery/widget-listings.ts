/**
 * The widget gallery's pages as data: the root rows, a group's listing with its filters and
 * counts, and the template a `/p/{hid}` page opens. The catalog is indexed once
 * (`indexWidgets`); the rest are plain functions over that index, which `widgetListings` hands
 * to the page loaders (server/gallery/loader.ts).
 */
import { redirect } from 'react-router'
import { notFound } from '../ssr/loader.js'
import { queryTemplates, type QueryResult, type TemplateQuery } from './query.js'
import { ROW_CARDS, searchQueryOf, standaloneTemplate, type GalleryListings } from './listings.js'
import { resolveWidgetPath, widgetListingPath } from './widget-path.js'
import type { FacetLink, GalleryListingData, GalleryRootData, GallerySection, SidebarGroup, TemplateCard } from '../../shared/gallery/gallery.route.js'
import type { WidgetGroupDefinition } from '../../shared/gallery/widget-schema.js'
import type { CatalogTemplate, WidgetCatalog } from './widget-catalog.js'

function sectionOf(template: CatalogTemplate): GallerySection['key'] {
  if (template.isCustom) return 'custom'
  if (template.family === 'inspired') return 'inspired'
  if (template.position === 'inline') return 'inline'
  return 'normal'
}

const SECTION_TITLES: Record<GallerySection['key'], string> = {
  normal: 'Popups, bars and slide-ins',
  inline: 'Inline widgets',
  custom: 'Custom widgets',
  inspired: 'Inspired by brands',
}

interface ListingQuery {
  position?: string
  q?: string
}

interface WidgetEntry extends CatalogTemplate {
  card: TemplateCard
}

/** The catalog as the listings read it, built once at start-up. */
interface WidgetIndex {
  catalog: WidgetCatalog
  positionNames: ReadonlyMap<string, string>
  visibleGroups: readonly WidgetGroupDefinition[]
  entries: readonly WidgetEntry[]
  byId: ReadonlyMap<string, WidgetEntry>
  /** Every visible template counted, by group. */
  all: QueryResult<WidgetEntry>
  /** Each group's templates counted (hidden groups too), and by sub. */
  groupCounts: ReadonlyMap<string, { total: number; subs: Record<string, number> }>
}

type WidgetFilter = Omit<TemplateQuery, 'offset' | 'limit'>

function indexWidgets(catalog: WidgetCatalog): WidgetIndex {
  const positionNames = new Map(catalog.positions.map((position) => [position.slug, position.name]))
  const entries = catalog.templates.map((template) => ({
    ...template,
    card: {
      hid: template.id,
      name: template.name,
      label: positionNames.get(template.position) ?? template.position,
      revision: template.revision,
      ...(template.themed ? { themed: true } : {}),
    },
  }))
  const countOf = (group: string) => queryTemplates(entries, { group, offset: 0, limit: 0 }, { visibleGroups: catalog.visibleGroups })
  return {
    catalog,
    positionNames,
    visibleGroups: catalog.groups.filter((group) => catalog.visibleGroups.has(group.slug)),
    entries,
    byId: new Map(entries.map((entry) => [entry.id, entry])),
    all: queryTemplates(entries, { offset: 0, limit: 0 }, { visibleGroups: catalog.visibleGroups }),
    groupCounts: new Map(
      catalog.groups.map((group) => {
        const counts = countOf(group.slug)
        return [group.slug, { total: counts.total, subs: counts.facets.sub }]
      }),
    ),
  }
}

/** Every visible template the filter matches, with the counts of each facet. */
const matching = (index: WidgetIndex, filter: WidgetFilter) =>
  queryTemplates(index.entries, { ...filter, offset: 0, limit: index.entries.length }, { visibleGroups: index.catalog.visibleGroups })

/** Only the counts of what the filter matches. */
const counted = (index: WidgetIndex, filter: WidgetFilter) => queryTemplates(index.entries, { ...filter, offset: 0, limit: 0 }, { visibleGroups: index.catalog.visibleGroups })

const subCountsOf = (index: WidgetIndex, group: string) => index.groupCounts.get(group)!.subs

function widgetRoot(index: WidgetIndex): GalleryRootData {
  const rows = index.visibleGroups.map((group) => {
    const cards = index.entries.filter((entry) => entry.group === group.slug).map((entry) => entry.card)
    // A special's row starts at its start index, the earlier cards following at the end.
    const start = Math.min(group.special?.start ?? 0, Math.max(0, cards.length - 1))
    return {
      name: group.name,
      path: widgetListingPath(group.slug),
      count: cards.length,
      ...(group.special ? { icon: group.special.icon } : {}),
      cards: [...cards.slice(start), ...cards.slice(0, start)].slice(0, ROW_CARDS),
    }
  })
  return { kind: 'root', gallery: 'widgets', rows: rows.filter((row) => row.count > 0), total: index.all.total }
}

function widgetSidebar(index: WidgetIndex, current: { group: string | null; sub: string | null }): SidebarGroup[] {
  const { visibleGroups, catalog } = index
  const shown = visibleGroups.some((group) => group.slug === current.group) ? visibleGroups : [...visibleGroups, ...catalog.groups.filter((group) => group.slug === current.group)]
  return shown.map((group) => {
    const subCounts = subCountsOf(index, group.slug)
    return {
      name: group.name,
      value: group.slug,
      path: widgetListingPath(group.slug, group.subs[0]?.slug ?? null),
      count: index.groupCounts.get(group.slug)!.total,
      current: group.slug === current.group,
      subs: group.subs.map((sub) => ({
        name: sub.name,
        value: widgetListingPath(group.slug, sub.slug),
        path: widgetListingPath(group.slug, sub.slug),
        count: subCounts[sub.slug] ?? 0,
        current: group.slug === current.group && sub.slug === current.sub,
      })),
    }
  })
}

/** The type filter: "All types", then each position the listing has (or the one asked for). */
function positionLinks(index: WidgetIndex, listingPath: string, filter: WidgetFilter, query: ListingQuery, result: QueryResult<WidgetEntry>): FacetLink[] {
  const withQuery = (position: string | undefined) => {
    const params = new URLSearchParams()
    if (position) params.set('position', position)
    if (query.q) params.set('q', query.q)
    return params.size ? `${listingPath}?${params}` : listingPath
  }
  const unfiltered = counted(index, { group: filter.group, sub: filter.sub, q: query.q })
  return [
    { name: 'All types', value: '', path: withQuery(undefined), count: unfiltered.total, current: !query.position },
    ...index.catalog.positions
      .filter((position) => (result.facets.position[position.slug] ?? 0) > 0 || position.slug === query.position)
      .map((position) => ({
        name: position.name,
        value: position.slug,
        path: withQuery(position.slug),
        count: result.facets.position[position.slug] ?? 0,
        current: position.slug === query.position,
      })),
  ]
}

function breadcrumbs(group: WidgetGroupDefinition | null, sub: WidgetGroupDefinition['subs'][number] | null, listingPath: string) {
  const crumbs = [{ text: 'Widgets', href: '/p/' }]
  if (group) crumbs.push({ text: group.name, href: widgetListingPath(group.slug, group.subs[0]?.slug ?? null) })
  if (group && sub) crumbs.push({ text: sub.name, href: listingPath })
  if (!group) crumbs.push({ text: 'Search', href: listingPath })
  return crumbs
}

/** A listing (`group` null: a search over every visible template). */
function widgetListing(index: WidgetIndex, group: WidgetGroupDefinition | null, subSlug: string | null, query: ListingQuery, open: string | null): GalleryListingData {
  const sub = group?.subs.find((candidate) => candidate.slug === subSlug) ?? null
  const listingPath = widgetListingPath(group?.slug, sub?.slug)
  const filter = { group: group?.slug, sub: sub?.slug }
  const result = matching(index, { ...filter, position: query.position, q: query.q })
  const subCounts = group ? subCountsOf(index, group.slug) : {}
  const name = group ? (sub ? `${sub.name} · ${group.name}` : group.name) : query.q ? `“${query.q}”` : 'All widgets'
  return {
    kind: 'listing',
    gallery: 'widgets',
    title: group ? `${name} widget templates` : `Widget templates: ${name}`,
    description: group
      ? `${result.total} ${group.name.toLowerCase()} templates${sub ? ` for ${sub.name.toLowerCase()}` : ''}: preview each on desktop and mobile and make it yours for free.`
      : `${result.total} widget templates${query.q ? ` matching ${query.q}` : ''}.`,
    breadcrumbs: breadcrumbs(group, sub, listingPath),
    sidebar: widgetSidebar(index, { group: group?.slug ?? null, sub: sub?.slug ?? null }),
    subs: (group?.subs ?? []).map((candidate) => ({
      name: candidate.name,
      value: candidate.slug,
      path: widgetListingPath(group!.slug, candidate.slug),
      count: subCounts[candidate.slug] ?? 0,
      current: candidate.slug === sub?.slug,
    })),
    positions: positionLinks(index, listingPath, filter, query, result),
    listingPath,
    position: query.position ?? null,
    q: query.q ?? '',
    sections: (Object.keys(SECTION_TITLES) as GallerySection['key'][]).map((key) => ({
      key,
      title: SECTION_TITLES[key],
      cards: result.items.filter((entry) => sectionOf(entry) === key).map((entry) => entry.card),
    })),
    total: result.total,
    extensions: (group?.special?.extensions ?? []).map((extension) => ({ kind: extension.type, url: extension.data.url, text: extension.data.text })),
    open,
  }
}

/**
 * Where a listing's query sends the visitor instead, or null to show it. The filter form without
 * JavaScript names its category as `sub`: that category's own address. An unknown category or
 * type in the query is dropped: the nearest listing that exists.
 */
function listingRedirect(group: WidgetGroupDefinition, currentSub: string | null, search: URLSearchParams, query: ListingQuery): string | null {
  const subParam = search.get('sub')
  const positionParam = search.get('position')
  if (subParam === null && (positionParam === null || query.position)) return null
  const params = new URLSearchParams(search)
  params.delete('sub')
  if (!query.position) params.delete('position')
  if (!query.q) params.delete('q')
  const sub = group.subs.some((candidate) => candidate.slug === subParam) ? subParam : currentSub
  const path = widgetListingPath(group.slug, sub)
  return params.size ? `${path}?${params}` : path
}

/** The page at `/p/{segments}` with the query, or a thrown redirect / not-found. */
function widgetPage(index: WidgetIndex, segments: string[], search: URLSearchParams): GalleryRootData | GalleryListingData {
  const resolution = resolveWidgetPath(segments, index.catalog.pathIndex)
  const positionParam = search.get('position') ?? undefined
  const query: ListingQuery = {
    q: searchQueryOf(search),
    position: positionParam && index.positionNames.has(positionParam) ? positionParam : undefined,
  }
  const groupOf = (slug: string) => index.catalog.groups.find((candidate) => candidate.slug === slug)!
  switch (resolution.kind) {
    case 'root':
      return query.q || query.position ? widgetListing(index, null, null, query, null) : widgetRoot(index)
    case 'redirect':
      throw redirect(resolution.location, 302)
    case 'not-found':
      throw notFound()
    case 'template':
      return widgetListing(index, groupOf(resolution.group), resolution.sub, {}, resolution.hid)
    case 'listing': {
      const group = groupOf(resolution.group)
      const location = listingRedirect(group, resolution.sub, search, query)
      if (location !== null) throw redirect(location, 302)
      return widgetListing(index, group, resolution.sub, query, null)
    }
  }
}

/** A template and the set previous/next move through (the ids given, else its listing). */
const widgetStandalone = (index: WidgetIndex, hid: string, collection: string[]) =>
  standaloneTemplate(index.byId, hid, collection, (entry) => index.entries.filter((other) => other.group === entry.group && other.sub === entry.sub).map((other) => other.card))

function widgetSitemapPaths(index: WidgetIndex): string[] {
  const listings = index.visibleGroups.flatMap((group) => (group.subs.length ? group.subs.map((sub) => widgetListingPath(group.slug, sub.slug)) : [widgetListingPath(group.slug)]))
  return ['/p/', ...listings, ...index.entries.map((entry) => `/p/${entry.id}`)]
}

export function widgetListings(catalog: WidgetCatalog): GalleryListings {
  const index = indexWidgets(catalog)
  return {
    page: (segments, search) => widgetPage(index, segments, search),
    standalone: (hid, collection) => widgetStandalone(index, hid, collection),
    paths: () => widgetSitemapPaths(index),
    cards: () => index.entries.map((entry) => entry.card),
  }
}

export type WidgetListings = ReturnType<typeof widgetListings>
