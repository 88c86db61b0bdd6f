/**
 * The email gallery's pages as data: the root rows, a group's listing, and the template a
 * `/e/{hid}` page opens. A template may be in several groups; `/e/{hid}` opens it over the first
 * visible one. The catalog is indexed once (`indexEmails`); the rest are plain functions over
 * that index, which `emailListings` hands to the page loaders.
 */
import { redirect } from 'react-router'
import { notFound } from '../ssr/loader.js'
import { queryTemplates, type QueryableTemplate, type QueryResult, type TemplateQuery } from './query.js'
import { ROW_CARDS, searchQueryOf, standaloneTemplate, type GalleryListings } from './listings.js'
import type { EmailCatalog, EmailGroup } from './email-catalog.js'
import { GALLERY_ROOT, TEMPLATE_ID } from '../../shared/gallery/paths.js'
import type { GalleryListingData, GalleryRootData, SidebarGroup, TemplateCard } from '../../shared/gallery/gallery.route.js'

interface Entry extends QueryableTemplate {
  id: string
  card: TemplateCard
}

/** The catalog as the listings read it, built once at start-up. */
interface EmailIndex {
  groups: readonly EmailGroup[]
  visibleGroups: readonly EmailGroup[]
  visibleSlugs: ReadonlySet<string>
  entries: readonly Entry[]
  byId: ReadonlyMap<string, Entry>
  /** Every visible template counted, by group. */
  counts: QueryResult<Entry>
}

const emailListingPath = (group?: string | null) => (group ? `${GALLERY_ROOT.emails}${group}/` : GALLERY_ROOT.emails)

function indexEmails(catalog: EmailCatalog): EmailIndex {
  const visibleSlugs = catalog.visibleGroups
  const entries: Entry[] = catalog.templates.map((template) => ({
    id: template.id,
    groups: template.groups,
    searchText: template.searchText,
    card: { hid: template.id, name: template.name, revision: template.revision, bytes: template.bytes },
  }))
  return {
    groups: catalog.groups,
    visibleGroups: catalog.groups.filter((group) => visibleSlugs.has(group.slug)),
    visibleSlugs,
    entries,
    byId: new Map(entries.map((entry) => [entry.id, entry])),
    counts: queryTemplates(entries, { offset: 0, limit: 0 }, { visibleGroups: visibleSlugs }),
  }
}

const query = (index: EmailIndex, query: TemplateQuery) => queryTemplates(index.entries, query, { visibleGroups: index.visibleSlugs })

const countOf = (index: EmailIndex, slug: string) => index.counts.facets.group[slug] ?? query(index, { group: slug, offset: 0, limit: 0 }).total

function emailRoot(index: EmailIndex): GalleryRootData {
  const rows = index.visibleGroups.map((group) => {
    const cards = index.entries.filter((entry) => entry.groups.includes(group.slug)).map((entry) => entry.card)
    return { name: group.name, path: emailListingPath(group.slug), count: cards.length, cards: cards.slice(0, ROW_CARDS) }
  })
  return { kind: 'root', gallery: 'emails', rows: rows.filter((row) => row.count > 0), total: index.counts.total }
}

function emailSidebar(index: EmailIndex, current: string | null): SidebarGroup[] {
  const shown = index.visibleSlugs.has(current ?? '') ? index.visibleGroups : [...index.visibleGroups, ...index.groups.filter((group) => group.slug === current)]
  return shown.map((group) => ({
    name: group.name,
    value: group.slug,
    path: emailListingPath(group.slug),
    count: countOf(index, group.slug),
    current: group.slug === current,
    subs: [],
  }))
}

function emailListing(index: EmailIndex, group: EmailGroup | null, q: string | undefined, open: string | null): GalleryListingData {
  const listingPath = emailListingPath(group?.slug)
  const result = query(index, { group: group?.slug, q, offset: 0, limit: index.entries.length })
  const crumbs = [{ text: 'Emails', href: GALLERY_ROOT.emails }, { text: group ? group.name : 'Search', href: listingPath }]
  return {
    kind: 'listing',
    gallery: 'emails',
    title: group ? group.name : `Email templates: “${q ?? ''}”`,
    description: `${result.total} ready-made ${group ? `${group.name.toLowerCase()} email templates` : `email templates matching ${q ?? ''}`}: preview each in light and dark, on desktop and mobile, and customize it for free.`,
    breadcrumbs: crumbs,
    sidebar: emailSidebar(index, group?.slug ?? null),
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

/** The page at `/e/{segments}` with the query, or a thrown redirect / not-found. */
function emailPage(index: EmailIndex, segments: string[], search: URLSearchParams): GalleryRootData | GalleryListingData {
  const q = searchQueryOf(search)
  // Emails have no subcategories: the routes give at most one segment.
  const [first] = segments
  if (first === undefined) return q ? emailListing(index, null, q, null) : emailRoot(index)
  const group = index.groups.find((candidate) => candidate.slug === first)
  // A known group slug wins over a template id.
  if (group) return emailListing(index, group, q, null)
  if (TEMPLATE_ID.test(first)) {
    const entry = index.byId.get(first)
    if (!entry) throw notFound()
    const home = index.groups.find((candidate) => entry.groups.includes(candidate.slug) && !candidate.hidden) ?? index.groups.find((candidate) => entry.groups.includes(candidate.slug))
    return emailListing(index, home ?? null, undefined, first)
  }
  const lowered = index.groups.find((candidate) => candidate.slug === first.toLowerCase())
  throw redirect(emailListingPath(lowered?.slug), 302)
}

/** A template and the set previous/next move through (the ids given, else its first group). */
const emailStandalone = (index: EmailIndex, hid: string, collection: string[]) =>
  standaloneTemplate(index.byId, hid, collection, (entry) => {
    const home = entry.groups[0]
    return index.entries.filter((other) => home !== undefined && other.groups.includes(home)).map((other) => other.card)
  })

const emailSitemapPaths = (index: EmailIndex): string[] => [
  GALLERY_ROOT.emails,
  ...index.visibleGroups.map((group) => emailListingPath(group.slug)),
  ...index.entries.map((entry) => `${GALLERY_ROOT.emails}${entry.id}`),
]

export function emailListings(catalog: EmailCatalog): GalleryListings {
  const index = indexEmails(catalog)
  return {
    page: (segments, search) => emailPage(index, segments, search),
    standalone: (hid, collection) => emailStandalone(index, hid, collection),
    paths: () => emailSitemapPaths(index),
    cards: () => index.entries.map((entry) => entry.card),
  }
}

export type EmailListings = ReturnType<typeof emailListings>
