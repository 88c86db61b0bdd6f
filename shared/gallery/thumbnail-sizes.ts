/** The widths a gallery card image is offered in, for `srcset`; the largest is the master's. */
export const THUMBNAIL_WIDTHS = {
  widgets: [268, 360, 376, 716],
  emails: [270, 360, 376, 716],
} as const

export type ThumbnailKind = keyof typeof THUMBNAIL_WIDTHS

/** Card boxes keep the images' aspect (width / height), so nothing moves as they load. */
export const THUMBNAIL_ASPECT: Record<ThumbnailKind, number> = { widgets: 4 / 3, emails: 3 / 4 }

/** Images start loading this far before they scroll into view. */
export const LAZY_IMAGE_MARGIN_PX = 200
