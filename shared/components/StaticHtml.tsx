import { useId, useState, type ElementType, type HTMLAttributes, type MouseEvent, type ReactNode, type Ref } from 'react'
import { useLocation } from 'react-router'
import { isPlainClick, isSitePathLink, SITE_PATHS_ATTRIBUTE, useRouterLinkClicks } from './SiteLink.js'

/** Marks the element of each StaticHtml, so that the browser finds the server's drawing of it. */
const STATIC_ATTRIBUTE = 'data-static'

/** The browser is hydrating the server's HTML (from the app's start until the first commit's effects). */
let hydrating = false

/** Called by the browser's entry just before it hydrates the document. */
export function beginHydration(): void {
  hydrating = true
}

/** Called once the hydrated page's effects run: from then on every StaticHtml draws its children. */
export function endHydration(): void {
  hydrating = false
}

/**
 * What the server drew inside the element of the StaticHtml with this id, while the page is
 * hydrating; undefined otherwise (then the children are drawn as usual).
 */
function serverHtml(id: string): string | undefined {
  if (!hydrating) return undefined
  return document.querySelector(`[${STATIC_ATTRIBUTE}="${CSS.escape(id)}"]`)?.innerHTML
}

/**
 * The links that navigate in the browser: those React Router's <Link> drew (it marks them), and
 * those of the site's Markdown inside (as Prose follows them).
 */
const isRouterLink = (anchor: HTMLAnchorElement) =>
  anchor.hasAttribute('data-discover') || (anchor.closest(`[${SITE_PATHS_ATTRIBUTE}]`) !== null && isSitePathLink(anchor))

type StaticTag = 'div' | 'section' | 'footer' | 'ul' | 'article'

interface StaticHtmlProps extends HTMLAttributes<HTMLElement> {
  as?: StaticTag
  ref?: Ref<HTMLElement>
  /**
   * A plain click on a link inside, before the router's links are followed: true when the page
   * has handled it (the browser then does not follow the link).
   */
  onLinkClick?: (anchor: HTMLAnchorElement) => boolean
  children: ReactNode
}

/**
 * A part of a page with nothing to do in the browser but follow its links: the server draws it,
 * and when the page hydrates React leaves that HTML as it is (it neither walks it nor runs the
 * components inside), which on a slow phone is most of the cost of hydrating a page of text and
 * links. Its links that lead to pages of the router still navigate in the browser.
 *
 * Drawn in the browser later (a page reached by a link), it draws its children as any element,
 * and so it does once the address changes (the same page with other parameters has other data).
 * Until then what the server drew stays, so its children must depend on nothing but the address
 * and the data loaded for it: no state, nothing the visitor does on the page.
 */
export function StaticHtml({ as = 'div', onLinkClick, children, ...props }: StaticHtmlProps) {
  // Any of the tags, each with a ref to its own kind of element.
  const Tag = as as ElementType
  const id = useId()
  const { pathname, search } = useLocation()
  const address = pathname + search
  const [server] = useState(() => {
    const html = serverHtml(id)
    return html === undefined ? undefined : { html, address }
  })
  const followRouterLink = useRouterLinkClicks(isRouterLink)
  const onClick = (event: MouseEvent<HTMLElement>) => {
    const anchor = isPlainClick(event) && event.target instanceof Element ? event.target.closest('a') : null
    if (anchor && onLinkClick && event.currentTarget.contains(anchor) && onLinkClick(anchor)) event.preventDefault()
    else followRouterLink(event)
  }
  const marks = { [STATIC_ATTRIBUTE]: id, onClick }
  if (server?.address !== address) {
    return (
      <Tag {...props} {...marks}>
        {children}
      </Tag>
    )
  }
  return <Tag {...props} {...marks} dangerouslySetInnerHTML={{ __html: server.html }} />
}
