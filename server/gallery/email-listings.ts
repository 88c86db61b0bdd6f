/**
 * The email gallery's pages as data: the root rows, a group's listing, and the template a
 * `/e/{hid}` page opens. A template may be in several groups; `/e/{hid}` opens it over the first
 * visible one. Plain functions over the catalog; the page loaders call them.
 */
import { redirect } from 'react-router'
import { MAX_QUERY_LENGTH, queryTemplates, type QueryableTemplate } from './query.js'
import { GALLERY_ROOT, TEMPLATE_ID } from '../../shared/gallery/paths.js'
import type { GalleryListingData, GalleryRootData, SidebarGroup, TemplateCard } from '../../shared/gallery/gallery.route.js'

export const EMAIL_ROW_CARDS = 12

/** What the listings need of the email catalog. */
export interface EmailCatalogData {
  groups: readonly { name: string; slug: string; hidden: boolean }[]
  templates: readonly { id: string; name: string; groups: readonly string[]; searchText: string; revision: string; bytes?: number }[]
}

interface Entry extends QueryableTemplate {
  id: string
  card: TemplateCard
}

export const emailListingPath = (group?: string | null) => (group ? `${GALLERY_ROOT.emails}${group}/` : GALLERY_ROOT.emails)

export function emailListings(catalog: EmailCatalogData) {
  const visibleGroups = catalog.groups.filter((group) => !group.hidden)
  const visibleSlugs = new Set(visibleGroups.map((group) => group.slug))
  const entries: Entry[] = catalog.templates.map((template) => ({
    id: template.id,
    groups: template.groups,
    searchText: template.searchText,
    card: { hid: template.id, name: template.name, revision: template.revision, ...(template.bytes !== undefined ? { bytes: template.bytes } : {}) },
  }))
  const byId = new Map(entries.map((entry) => [entry.id, entry]))
  const counts = queryTemplates(entries, { offset: 0, limit: 0 }, { visibleGroups: visibleSlugs })
  const countOf = (slug: string) => counts.facets.group[slug] ?? queryTemplates(entries, { group: slug, offset: 0, limit: 0 }, { visibleGroups: visibleSlugs }).total

  function root(): GalleryRootData {
    const rows = visibleGroups.map((group) => {
      const cards = entries.filter((entry) => entry.groups.includes(group.slug)).map((entry) => entry.card)
      return { name: group.name, path: emailListingPath(group.slug), count: cards.length, cards: cards.slice(0, EMAIL_ROW_CARDS) }
    })
    return { kind: 'root', gallery: 'emails', rows: rows.filter((row) => row.count > 0), total: counts.total }
  }

  function sidebar(current: string | null): SidebarGroup[] {
    const shown = visibleSlugs.has(current ?? '') ? visibleGroups : [...visibleGroups, ...catalog.groups.filter((group) => group.slug === current)]
    return shown.map((group) => ({
      name: group.name,
      value: group.slug,
      path: emailListingPath(group.slug),
      count: countOf(group.slug),
      current: group.slug === current,
      subs: [],
    }))
  }

  function listing(group: EmailCatalogData['groups'][number] | null, q: string | undefined, open: string | null): GalleryListingData {
    const listingPath = emailListingPath(group?.slug)
    const result = queryTemplates(entries, { group: group?.slug, q, offset: 0, limit: entries.length }, { visibleGroups: visibleSlugs })
    const crumbs = [{ text: 'Emails', href: GALLERY_ROOT.emails }, { text: group ? group.name : 'Search', href: listingPath }]
    return {
      kind: 'listing',
      gallery: 'emails',
      title: group ? group.name : `Email templates: “${q ?? ''}”`,
      description: `${result.total} ready-made ${group ? `${group.name.toLowerCase()} email templates` : `email templates matching ${q ?? ''}`}: preview each in light and dark, on desktop and mobile, and customize it for free.`,
      breadcrumbs: crumbs,
      sidebar: sidebar(group?.slug ?? null),
      subs: [],
      positions: [],
      listingPath,
      position: null,
      q: q ?? '',
      sections: [{ key: 'normal', title: 'Emails', cards: result.items.map((entry) => entry.card) }],
      total: result.total,
      extensions: [],
      open,
    }
  }

  function page(segments: string[], search: URLSearchParams, notFound: () => unknown): GalleryRootData | GalleryListingData {
    const q = (search.get('q') ?? '').trim().slice(0, MAX_QUERY_LENGTH) || undefined
    // Emails have no subcategories: the routes give at most one segment.
    const [first] = segments
    if (first === undefined) return q ? listing(null, q, null) : root()
    const group = catalog.groups.find((candidate) => candidate.slug === first)
    // A known group slug wins over a template id.
    if (group) return listing(group, q, null)
    if (TEMPLATE_ID.test(first)) {
      const entry = byId.get(first)
      if (!entry) throw notFound()
      const home = catalog.groups.find((candidate) => entry.groups.includes(candidate.slug) && !candidate.hidden) ?? catalog.groups.find((candidate) => entry.groups.includes(candidate.slug))
      return listing(home ?? null, undefined, first)
    }
    const lowered = catalog.groups.find((candidate) => candidate.slug === first.toLowerCase())
    throw redirect(emailListingPath(lowered?.slug), 302)
  }

  function standalone(hid: string, collection: string[]) {
    const entry = byId.get(hid)
    if (!entry) return undefined
    const given = collection.map((id) => byId.get(id)?.card).filter((card): card is TemplateCard => card !== undefined)
    const home = entry.groups[0]
    const cards = given.length ? given : entries.filter((other) => home !== undefined && other.groups.includes(home)).map((other) => other.card)
    return { card: entry.card, collection: cards.some((card) => card.hid === hid) ? cards : [entry.card, ...cards] }
  }

  function paths(): string[] {
    return [GALLERY_ROOT.emails, ...visibleGroups.map((group) => emailListingPath(group.slug)), ...entries.map((entry) => `${GALLERY_ROOT.emails}${entry.id}`)]
  }

  return {
    page,
    root,
    standalone,
    paths,
    cards: () => entries.map((entry) => entry.card),
    revisionOf: (hid: string) => byId.get(hid)?.card.revision,
  }
}

export type EmailListings = ReturnType<typeof emailListings>
