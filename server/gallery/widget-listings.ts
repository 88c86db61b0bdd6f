/**
 * The widget gallery's pages as data: the root rows, a group's listing with its filters and
 * counts, and the template a `/p/{hid}` page opens. Plain functions over the catalog; the page
 * loaders (server/gallery/loader.ts) call them.
 */
import { redirect } from 'react-router'
import { MAX_QUERY_LENGTH, queryTemplates } from './query.js'
import { resolveWidgetPath, widgetListingPath } from './widget-path.js'
import type { FacetLink, GalleryListingData, GalleryRootData, GallerySection, SidebarGroup, TemplateCard } from '../../shared/gallery/gallery.route.js'
import type { WidgetGroupDefinition } from '../../shared/gallery/widget-schema.js'
import type { CatalogTemplate, WidgetCatalog } from './widget-catalog.js'

/** Cards in a row of the gallery root; the rest are one click away. */
export const ROW_CARDS = 12

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

export interface ListingQuery {
  position?: string
  q?: string
}

export function widgetListings(catalog: WidgetCatalog) {
  const positionNames = new Map(catalog.positions.map((position) => [position.slug, position.name]))
  const visibleSlugs = catalog.visibleGroups
  const visibleGroups = catalog.groups.filter((group) => visibleSlugs.has(group.slug))
  const cards = new Map<string, TemplateCard>(
    catalog.templates.map((template) => [
      template.id,
      {
        hid: template.id,
        name: template.name,
        label: positionNames.get(template.position) ?? template.position,
        revision: template.revision,
        ...(template.themed ? { themed: true } : {}),
      },
    ]),
  )
  const entries = catalog.templates.map((template) => ({ ...template, card: cards.get(template.id)! }))
  const byId = new Map(entries.map((entry) => [entry.id, entry]))
  const pathIndex = catalog.pathIndex
  const all = queryTemplates(entries, { offset: 0, limit: 0 }, { visibleGroups: visibleSlugs })

  function groupCount(group: WidgetGroupDefinition) {
    return all.facets.group[group.slug] ?? queryTemplates(entries, { group: group.slug, offset: 0, limit: 0 }, { visibleGroups: visibleSlugs }).total
  }

  function root(): GalleryRootData {
    const rows = visibleGroups.map((group) => {
      const cards = entries.filter((entry) => entry.group === group.slug).map((entry) => entry.card)
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
    return { kind: 'root', gallery: 'widgets', rows: rows.filter((row) => row.count > 0), total: all.total }
  }

  function sidebar(current: { group: string | null; sub: string | null }): SidebarGroup[] {
    const shown = visibleGroups.some((group) => group.slug === current.group) ? visibleGroups : [...visibleGroups, ...catalog.groups.filter((group) => group.slug === current.group)]
    return shown.map((group) => {
      const subCounts = queryTemplates(entries, { group: group.slug, offset: 0, limit: 0 }, { visibleGroups: visibleSlugs }).facets.sub
      return {
        name: group.name,
        value: group.slug,
        path: widgetListingPath(group.slug, group.subs[0]?.slug ?? null),
        count: groupCount(group),
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

  /** A listing (`group` null: a search over every visible template). */
  function listing(group: WidgetGroupDefinition | null, subSlug: string | null, query: ListingQuery, open: string | null): GalleryListingData {
    const sub = group?.subs.find((candidate) => candidate.slug === subSlug) ?? null
    const listingPath = widgetListingPath(group?.slug, sub?.slug)
    const result = queryTemplates(
      entries,
      { group: group?.slug, sub: sub?.slug, position: query.position, q: query.q, offset: 0, limit: entries.length },
      { visibleGroups: visibleSlugs },
    )
    const withQuery = (position: string | undefined) => {
      const params = new URLSearchParams()
      if (position) params.set('position', position)
      if (query.q) params.set('q', query.q)
      return params.size ? `${listingPath}?${params}` : listingPath
    }
    const subCounts = group ? queryTemplates(entries, { group: group.slug, offset: 0, limit: 0 }, { visibleGroups: visibleSlugs }).facets.sub : {}
    const unfiltered = queryTemplates(entries, { group: group?.slug, sub: sub?.slug, q: query.q, offset: 0, limit: 0 }, { visibleGroups: visibleSlugs })
    const positions: FacetLink[] = [
      { name: 'All types', value: '', path: withQuery(undefined), count: unfiltered.total, current: !query.position },
      ...catalog.positions
        .filter((position) => (result.facets.position[position.slug] ?? 0) > 0 || position.slug === query.position)
        .map((position) => ({
          name: position.name,
          value: position.slug,
          path: withQuery(position.slug),
          count: result.facets.position[position.slug] ?? 0,
          current: position.slug === query.position,
        })),
    ]
    const sections = (Object.keys(SECTION_TITLES) as GallerySection['key'][]).map((key) => ({
      key,
      title: SECTION_TITLES[key],
      cards: result.items.filter((entry) => sectionOf(entry) === key).map((entry) => entry.card),
    }))
    const name = group ? (sub ? `${sub.name} · ${group.name}` : group.name) : query.q ? `“${query.q}”` : 'All widgets'
    const crumbs = [{ text: 'Widgets', href: '/p/' }]
    if (group) crumbs.push({ text: group.name, href: widgetListingPath(group.slug, group.subs[0]?.slug ?? null) })
    if (group && sub) crumbs.push({ text: sub.name, href: listingPath })
    if (!group) crumbs.push({ text: 'Search', href: listingPath })
    return {
      kind: 'listing',
      gallery: 'widgets',
      title: group ? `${name} widget templates` : `Widget templates: ${name}`,
      description: group
        ? `${result.total} ${group.name.toLowerCase()} templates${sub ? ` for ${sub.name.toLowerCase()}` : ''}: preview each on desktop and mobile and make it yours for free.`
        : `${result.total} widget templates${query.q ? ` matching ${query.q}` : ''}.`,
      breadcrumbs: crumbs,
      sidebar: sidebar({ group: group?.slug ?? null, sub: sub?.slug ?? null }),
      subs: (group?.subs ?? []).map((candidate) => ({
        name: candidate.name,
        value: candidate.slug,
        path: widgetListingPath(group!.slug, candidate.slug),
        count: subCounts[candidate.slug] ?? 0,
        current: candidate.slug === sub?.slug,
      })),
      positions,
      listingPath,
      position: query.position ?? null,
      q: query.q ?? '',
      sections,
      total: result.total,
      extensions: (group?.special?.extensions ?? []).map((extension) => ({ kind: extension.type, url: extension.data.url, text: extension.data.text })),
      open,
    }
  }

  /** The page at `/p/{segments}` with the query, or a thrown redirect / not-found. */
  function page(segments: string[], search: URLSearchParams, notFound: () => unknown): GalleryRootData | GalleryListingData {
    const resolution = resolveWidgetPath(segments, pathIndex)
    const positionParam = search.get('position') ?? undefined
    const q = (search.get('q') ?? '').trim().slice(0, MAX_QUERY_LENGTH) || undefined
    const position = positionParam && positionNames.has(positionParam) ? positionParam : undefined
    switch (resolution.kind) {
      case 'root':
        if (q || position) return listing(null, null, { q, position }, null)
        return root()
      case 'redirect':
        throw redirect(resolution.location, 302)
      case 'not-found':
        throw notFound()
      case 'template': {
        const group = catalog.groups.find((candidate) => candidate.slug === resolution.group)!
        return listing(group, resolution.sub, {}, resolution.hid)
      }
      case 'listing': {
        const group = catalog.groups.find((candidate) => candidate.slug === resolution.group)!
        // The filter form without JavaScript names its category as `sub`: that category's own
        // address. An unknown category or type in the query is dropped: the nearest listing that exists.
        const subParam = search.get('sub')
        if (subParam !== null || (positionParam !== undefined && !position)) {
          const params = new URLSearchParams(search)
          params.delete('sub')
          if (!position) params.delete('position')
          if (!q) params.delete('q')
          const sub = group.subs.some((candidate) => candidate.slug === subParam) ? subParam : resolution.sub
          const path = widgetListingPath(group.slug, sub)
          throw redirect(params.size ? `${path}?${params}` : path, 302)
        }
        return listing(group, resolution.sub, { q, position }, null)
      }
    }
  }

  /** A template and the set previous/next move through (its listing, or the ids given). */
  function standalone(hid: string, collection: string[]) {
    const entry = byId.get(hid)
    if (!entry) return undefined
    const given = collection.map((id) => byId.get(id)?.card).filter((card): card is TemplateCard => card !== undefined)
    const cards = given.length
      ? given
      : entries.filter((other) => other.group === entry.group && other.sub === entry.sub).map((other) => other.card)
    return { card: entry.card, collection: cards.some((card) => card.hid === hid) ? cards : [entry.card, ...cards] }
  }

  return {
    page,
    root,
    standalone,
    paths: sitemapPaths,
    cards: () => entries.map((entry) => entry.card),
    revisionOf: (hid: string) => byId.get(hid)?.card.revision,
  }

  function sitemapPaths(): string[] {
    const listings = visibleGroups.flatMap((group) => (group.subs.length ? group.subs.map((sub) => widgetListingPath(group.slug, sub.slug)) : [widgetListingPath(group.slug)]))
    return ['/p/', ...listings, ...entries.map((entry) => `/p/${entry.id}`)]
  }
}

export type WidgetListings = ReturnType<typeof widgetListings>
