import type { AnchorHTMLAttributes } from 'react'
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
