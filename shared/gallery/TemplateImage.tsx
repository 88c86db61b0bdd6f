/**
 * A template's card image, as the galleries and the home page draw it: one `<img>` whose srcset
 * offers every cut, sized for the layout it sits in and fetched as its place on the page asks.
 */
import { thumbnailSrcSet, thumbnailUrl, type GalleryKind } from './paths.js'
import { THUMBNAIL_ASPECT, THUMBNAIL_WIDTHS } from './thumbnail-sizes.js'
import type { TemplateCard } from './gallery.route.js'
import { LARGEST_IMAGE_MARK } from '../site.js'

/**
 * How an image is fetched: `lcp` for the one image that is likely the largest paint (at once,
 * ahead of the others), `eager` for the rest of the first screen, `lazy` below it. Where the `lcp`
 * image is in the first screen as the page loads, the app starts only once it has been drawn (or
 * 2 s have passed), so it must be one the visitor sees: never one under a dialog.
 */
export type ImageLoading = 'lcp' | 'eager' | 'lazy'

const LOADING_ATTRIBUTES = {
  lcp: { loading: 'eager', fetchPriority: 'high', elementtiming: LARGEST_IMAGE_MARK },
  eager: { loading: 'eager' },
  lazy: { loading: 'lazy', decoding: 'async' },
} as const

/** What a template's card image shows, for people who cannot see it. */
function templateAlt(kind: GalleryKind, card: TemplateCard): string {
  if (kind === 'emails') return `“${card.name}” email template`
  const type = card.label ? `${card.label.toLowerCase()} widget` : 'widget'
  return `“${card.name}”, ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} template on a shop page`
}

/**
 * A template's card image. Its width and height are the master's (the largest cut), so its box
 * is reserved before the image arrives; `sizes` says how wide the layout draws it, so that the
 * browser picks the smallest cut of the srcset that is sharp on the screen at hand.
 */
export function TemplateImage({
  kind,
  card,
  sizes,
  loading,
  className,
  alt = templateAlt(kind, card),
}: {
  kind: GalleryKind
  card: TemplateCard
  sizes: string
  loading: ImageLoading
  className?: string
  /** Empty where text beside the image names the template already. */
  alt?: string
}) {
  const widths = THUMBNAIL_WIDTHS[kind]
  const width = widths[3]
  return (
    <img
      className={className}
      src={thumbnailUrl(kind, card.hid, widths[2], 'webp', card.revision)}
      srcSet={thumbnailSrcSet(kind, card.hid, 'webp', card.revision)}
      sizes={sizes}
      width={width}
      height={Math.round(width / THUMBNAIL_ASPECT[kind])}
      alt={alt}
      {...LOADING_ATTRIBUTES[loading]}
    />
  )
}
