/** URLs of the galleries, the same on both sides. */
import { THUMBNAIL_WIDTHS, type ThumbnailKind } from './thumbnail-sizes.js'

export type GalleryKind = 'widgets' | 'emails'

export const GALLERY_ROOT: Record<GalleryKind, string> = { widgets: '/p/', emails: '/e/' }

/**
 * A template id: eight lowercase letters or digits. The one place it is spelled:
 * `TEMPLATE_ID_SOURCE` is the bare pattern to compose into longer ones (`new RegExp(...)`),
 * `TEMPLATE_ID_PATTERN` the anchored string an OpenAPI `pattern` wants.
 */
export const TEMPLATE_ID_SOURCE = '[a-z0-9]{8}'
export const TEMPLATE_ID = new RegExp(`^${TEMPLATE_ID_SOURCE}$`)
export const TEMPLATE_ID_PATTERN = TEMPLATE_ID.source

export const templatePath = (kind: GalleryKind, hid: string) => `${GALLERY_ROOT[kind]}${hid}`

/** The clone address behind "Get it": the site's short link, which leads to the app's clone. */
export const clonePath = (kind: GalleryKind, hid: string) => (kind === 'widgets' ? `/t/${hid}` : `/te/${hid}`)

/** Where the app copies a template into the account (behind the log-in). */
export const appClonePath = (kind: GalleryKind, hid: string) => (kind === 'widgets' ? `/app/clone/${hid}` : `/app/clone-email/${hid}`)

/**
 * What a widget's live preview may do: run its script and take its form; nothing else. Its own
 * response sets this sandbox (a CSP directive), whoever frames it, and the site's frames say it
 * too (the browser then knows before the response, and lets the frame have the `allow` below: a
 * frame sandboxed by its response alone is refused the clipboard). Without `allow-same-origin`
 * it has an origin of its own, so the site's cookies and storage are out of its reach, and
 * Chromium, where it isolates sites (desktop; Android with enough memory), runs it in a process
 * of its own, off the embedding page's main thread.
 */
export const WIDGET_PREVIEW_SANDBOX = 'allow-scripts allow-forms'

/** What a widget's preview frame is let use of the browser: the clipboard, for its discount code's Copy. */
export const WIDGET_PREVIEW_ALLOW = 'clipboard-write'

/**
 * The live preview frame of a template: a widget light or dark; an email as sent, darkened by
 * forced inversion (`inverted`), or its plain-text part.
 */
export function previewFramePath(kind: GalleryKind, hid: string, options: { dark?: boolean; inverted?: boolean; text?: boolean } = {}): string {
  if (kind === 'widgets') return `/app/preview/${hid}${options.dark ? '?theme=dark' : ''}`
  return `/app/api/v2/emailmessages/${hid}/view${options.text ? '?format=text' : options.inverted ? '?view=inverted' : ''}`
}

export function thumbnailUrl(kind: ThumbnailKind, hid: string, width: number, format: 'webp' | 'avif', revision: string): string {
  return `/thumbnails/${kind}/${hid}-${width}.${format}?v=${revision}`
}

export function thumbnailSrcSet(kind: ThumbnailKind, hid: string, format: 'webp' | 'avif', revision: string): string {
  return THUMBNAIL_WIDTHS[kind].map((width) => `${thumbnailUrl(kind, hid, width, format, revision)} ${width}w`).join(', ')
}

const OPEN_TEMPLATE_PATH = new RegExp(`^/[pe]/(${TEMPLATE_ID_SOURCE})$`)

/** The id in a template's path (`/p/{hid}`), or null for a listing. */
export function openTemplateOf(pathname: string): string | null {
  const match = OPEN_TEMPLATE_PATH.exec(pathname)
  return match ? match[1]! : null
}
