/**
 * Filtering, search, facet counts and paging of a gallery's templates, for any gallery: a
 * template belongs to one or more groups, may have a sub (within its group) and a position, and
 * has a text to search. The widget API, the email API and the listing pages all ask this module.
 *
 *   const result = queryTemplates(templates, { group: 'forms', q: 'coupon', offset: 0, limit: 24 }, { visibleGroups })
 */

export interface QueryableTemplate {
  /** The groups the template is listed in (slugs). */
  groups: readonly string[]
  /** Its sub within its group (slug), if the group has subs. */
  sub?: string | null
  /** Its position (slug), for galleries that have positions. */
  position?: string | null
  /** What `q` searches: names, families, tags. Any case and accents. */
  searchText: string
}

export interface TemplateQuery {
  group?: string
  sub?: string
  position?: string
  q?: string
  offset: number
  limit: number
}

export interface QueryOptions {
  /**
   * Groups listed when no group is asked for; a template shows there when one of its groups is
   * visible. Asking for a hidden group by its slug still lists it.
   */
  visibleGroups: ReadonlySet<string>
}

export interface Facets {
  /** Templates per group under the other filters (position, q): what picking that group would show. */
  group: Record<string, number>
  /** Templates per sub under the group, position and q filters. */
  sub: Record<string, number>
  /** Templates per position under the group, sub and q filters. */
  position: Record<string, number>
}

export interface QueryResult<T> {
  items: T[]
  total: number
  facets: Facets
}

/** Longest search text considered, and most words in it. */
export const MAX_QUERY_LENGTH = 100
export const MAX_QUERY_WORDS = 8

/** Lowercase words without accents: "Café Olé!" → ["cafe", "ole"]. */
export function searchWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
}

/**
 * A matcher for `q`: every word of the query must begin a word of the template's text
 * ("disc" finds "discount"); an empty query matches everything.
 */
export function searchMatcher(q: string | undefined): (searchText: string) => boolean {
  const wanted = searchWords((q ?? '').slice(0, MAX_QUERY_LENGTH)).slice(0, MAX_QUERY_WORDS)
  if (!wanted.length) return () => true
  const cache = new Map<string, string[]>()
  return (searchText) => {
    let words = cache.get(searchText)
    if (!words) {
      words = searchWords(searchText)
      cache.set(searchText, words)
    }
    return wanted.every((word) => words!.some((candidate) => candidate.startsWith(word)))
  }
}

function count(into: Record<string, number>, key: string | null | undefined) {
  if (key) into[key] = (into[key] ?? 0) + 1
}

/**
 * Filters `templates` (kept in their given order), counts every facet under the other filters,
 * and cuts the page `offset`…`offset + limit`.
 */
export function queryTemplates<T extends QueryableTemplate>(templates: readonly T[], query: TemplateQuery, options: QueryOptions): QueryResult<T> {
  const matchesText = searchMatcher(query.q)
  const inScope = (template: T) =>
    query.group ? template.groups.includes(query.group) : template.groups.some((group) => options.visibleGroups.has(group))
  const facets: Facets = { group: {}, sub: {}, position: {} }
  const matched: T[] = []

  for (const template of templates) {
    if (!matchesText(template.searchText)) continue
    const positionOk = !query.position || template.position === query.position
    const subOk = !query.sub || template.sub === query.sub
    // Group counts ignore the group filter (and the sub, which lives inside a group).
    if (positionOk) for (const group of template.groups) if (options.visibleGroups.has(group) || group === query.group) count(facets.group, group)
    if (!inScope(template)) continue
    if (positionOk) count(facets.sub, template.sub)
    if (subOk) count(facets.position, template.position)
    if (positionOk && subOk) matched.push(template)
  }
  const offset = Math.max(0, Math.trunc(query.offset))
  const limit = Math.max(0, Math.trunc(query.limit))
  return { items: matched.slice(offset, offset + limit), total: matched.length, facets }
}
