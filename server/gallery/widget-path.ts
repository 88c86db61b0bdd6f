/**
 * What a widget gallery path means: `/p/`, `/p/{group}/`, `/p/{group}/{sub}/`, `/p/{hid}`.
 *
 * A segment that is a known group slug is a group, even when it looks like a template id (some
 * slugs are eight lowercase letters); else eight `[a-z0-9]` characters are a template id, and an
 * unknown id is not found; anything else leads to the nearest listing that exists. A group with
 * subs is shown through its first sub.
 */
import { GALLERY_ROOT, TEMPLATE_ID } from '../../shared/gallery/paths.js'

/** What the resolver needs to know about the gallery. */
export interface WidgetPathIndex {
  /** Every group, hidden ones included (they keep their slugs), with their subs in order. */
  groups: readonly { slug: string; subs: readonly { slug: string }[] }[]
  /** The listing of a template id, or undefined when there is no such template. */
  listingOf(hid: string): { group: string; sub: string | null } | undefined
}

export type WidgetPathResolution =
  | { kind: 'root' }
  | { kind: 'listing'; group: string; sub: string | null }
  | { kind: 'template'; hid: string; group: string; sub: string | null }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found' }

/** The canonical path of a widget listing: `/p/`, `/p/forms/`, `/p/forms/discounts/`. */
export function widgetListingPath(group?: string | null, sub?: string | null): string {
  if (!group) return GALLERY_ROOT.widgets
  return `${GALLERY_ROOT.widgets}${group}/${sub ? `${sub}/` : ''}`
}

/** At most this many segments are looked at; deeper paths lead to the nearest listing. */
const MAX_SEGMENTS = 3

/**
 * Resolves the path segments after `/p/` (empty ones dropped), e.g. `['forms', 'discounts']`,
 * `['k3m9x2a7']`, `[]`.
 */
export function resolveWidgetPath(segments: readonly string[], index: WidgetPathIndex): WidgetPathResolution {
  const parts = segments.filter(Boolean).slice(0, MAX_SEGMENTS + 1)
  if (parts.length === 0) return { kind: 'root' }
  const [first, second] = parts as [string, string | undefined]
  const findGroup = (slug: string) => index.groups.find((group) => group.slug === slug)

  const group = findGroup(first)
  if (group) {
    const firstSub = group.subs[0]?.slug ?? null
    if (!group.subs.length) {
      return parts.length === 1 ? { kind: 'listing', group: group.slug, sub: null } : { kind: 'redirect', location: widgetListingPath(group.slug) }
    }
    const sub = second === undefined ? undefined : group.subs.find((candidate) => candidate.slug === second)
    if (sub && parts.length === 2) return { kind: 'listing', group: group.slug, sub: sub.slug }
    const caseFixed = second === undefined ? undefined : group.subs.find((candidate) => candidate.slug === second.toLowerCase())
    return { kind: 'redirect', location: widgetListingPath(group.slug, (sub ?? caseFixed)?.slug ?? firstSub) }
  }

  if (TEMPLATE_ID.test(first)) {
    const listing = index.listingOf(first)
    if (!listing) return { kind: 'not-found' }
    if (parts.length > 1) return { kind: 'redirect', location: `${GALLERY_ROOT.widgets}${first}` }
    return { kind: 'template', hid: first, ...listing }
  }

  // A slug in the wrong case is the listing it names; anything else goes to the gallery root.
  const lowered = findGroup(first.toLowerCase())
  if (lowered) {
    const resolved = resolveWidgetPath([lowered.slug, ...parts.slice(1).map((part) => part.toLowerCase())], index)
    if (resolved.kind === 'listing') return { kind: 'redirect', location: widgetListingPath(resolved.group, resolved.sub) }
    return resolved
  }
  return { kind: 'redirect', location: GALLERY_ROOT.widgets }
}
