import type { AnchorHTMLAttributes, MouseEvent } from 'react'
import { Link } from 'react-router'
import { isRouterPath } from '../pages.js'

type SiteLinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }

/**
 * A link to anywhere on the site: pages this router draws navigate in the browser, everything
 * else (dashboard, generators served elsewhere, other origins) loads as a document.
 */
export function SiteLink({ href, ...props }: SiteLinkProps) {
  const isLocal = href.startsWith('/') && !href.startsWith('//')
  if (isLocal && isRouterPath(href.split(/[?#]/)[0] ?? href)) return <Link to={href} {...props} />
  return <a href={href} {...props} />
}

/**
 * A plain left click, which the page may take over (navigate in the browser, open an overlay);
 * others (new tab, new window, download) keep the link's own behaviour.
 */
export const isPlainClick = (event: MouseEvent | globalThis.MouseEvent) =>
  !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey
