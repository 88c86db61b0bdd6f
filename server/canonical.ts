import { TEMPLATE_ID_SOURCE } from '../shared/gallery/paths.js'

/** Canonical URLs end in a slash; these pages are the exceptions. */
export const PAGES_WITHOUT_TRAILING_SLASH = ['/aurora', '/shopify-apps']

/** Paths served as they are: services, files, and template ids (`/p/{hid}`) that have no slash. */
const SERVED_AS_IS = [/^\/(api|app|giffer|assets)(\/|$)/, /^\/healthz$/, /\/[^/]*\.[a-z0-9]+$/i, new RegExp(`^/(p|e|t|te)/${TEMPLATE_ID_SOURCE}$`)]

/**
 * Where a path's canonical form lives, or null when the path already is canonical or is not a
 * page. Backslashes count as slashes (URL parsers read `/\host` as `//host`) and runs of slashes
 * collapse to one, so a redirect can never point at another host.
 */
export function canonicalPath(pathname: string): string | null {
  const collapsed = pathname.replace(/[\\/]{2,}|\\/g, '/')
  const withoutSlash = collapsed.length > 1 ? collapsed.replace(/\/$/, '') : collapsed
  let target: string
  if (PAGES_WITHOUT_TRAILING_SLASH.includes(withoutSlash)) target = withoutSlash
  else if (collapsed.endsWith('/') || SERVED_AS_IS.some((pattern) => pattern.test(collapsed))) target = collapsed
  else target = `${collapsed}/`
  return target === pathname ? null : target
}
