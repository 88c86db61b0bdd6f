/**
 * Card images of the gallery templates: `/thumbnails/{kind}/{hid}-{width}.webp?v={revision}`.
 * The revision is a short hash of the template's own data, so a template that changes gets new
 * image URLs and the old ones can be cached for good.
 */
import { thumbnailUrl } from '../../shared/gallery/paths.js'
import type { ThumbnailKind } from '../../shared/gallery/thumbnail-sizes.js'

/** The width of the `img` the API gives for a card. */
export const DEFAULT_CARD_WIDTH = 376

/** JSON with object keys sorted, so equal data always gives equal text. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${stableJson(entry)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** A 53-bit string hash (cyrb53): no crypto needed, so both sides can compute it. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    h1 = Math.imul(h1 ^ code, 2654435761)
    h2 = Math.imul(h2 ^ code, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

/** The revision of a template: 8 base-36 characters that change whenever its data does. */
export function templateRevision(data: unknown): string {
  return hash53(stableJson(data)).toString(36).padStart(8, '0').slice(-8)
}

/** The card image of a template at one of the offered widths. */
export function templateImageUrl(kind: ThumbnailKind, hid: string, revision: string, width: number = DEFAULT_CARD_WIDTH): string {
  return thumbnailUrl(kind, hid, width, 'webp', revision)
}
