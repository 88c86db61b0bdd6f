import type { AnchorHTMLAttributes, MouseEvent } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
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

/**
 * Marks HTML written from the site's Markdown, whose links to the site's own pages are plain
 * paths: a page left as the server drew it (StaticHtml) follows those in the page too.
 */
export const SITE_PATHS_ATTRIBUTE = 'data-site-paths'

/** A link written as a path of this site (`/pricing/`, not `//elsewhere` or `https://…`). */
export const isSitePathLink = (anchor: HTMLAnchorElement) => {
  const href = anchor.getAttribute('href') ?? ''
  return href.startsWith('/') && !href.startsWith('//')
}

/**
 * The link of this site that a plain click inside the element went to, when the browser would
 * follow it in this tab (no target elsewhere, no download): null for anything else.
 */
export function plainLinkClicked(event: MouseEvent<HTMLElement>): HTMLAnchorElement | null {
  if (!isPlainClick(event) || !(event.target instanceof Element)) return null
  // An SVG <a> (whose href is no string) and an <a> without href are left to the browser.
  const anchor = event.target.closest('a')
  if (!(anchor instanceof HTMLAnchorElement) || !anchor.hasAttribute('href') || !event.currentTarget.contains(anchor)) return null
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return null
  // So is an address the browser cannot read: it has no origin (the link's own, which every
  // supported browser has, unlike URL.canParse).
  return anchor.origin === window.location.origin ? anchor : null
}

/**
 * A click handler for an element holding HTML that React did not draw as links (Markdown, or
 * parts left as the server drew them): a plain click on a link inside it that `accepts` and that
 * leads to a page of this router navigates in the browser, as <Link> would (the address on
 * screen replacing its history entry rather than adding one). Other links (new tabs, downloads,
 * other origins, pages served elsewhere) keep the browser's own behaviour.
 */
export function useRouterLinkClicks(accepts: (anchor: HTMLAnchorElement) => boolean) {
  const navigate = useNavigate()
  const location = useLocation()
  return (event: MouseEvent<HTMLElement>) => {
    const anchor = plainLinkClicked(event)
    if (!anchor || !accepts(anchor)) return
    const url = new URL(anchor.href)
    if (!isRouterPath(url.pathname)) return
    event.preventDefault()
    const to = url.pathname + url.search + url.hash
    void navigate(to, { replace: to === location.pathname + location.search + location.hash })
  }
}
