import { useId, useLayoutEffect, useRef, useState, type ElementType, type HTMLAttributes, type MouseEvent, type ReactNode, type Ref } from 'react'
import { useLocation } from 'react-router'
import { isSitePathLink, plainLinkClicked, SITE_PATHS_ATTRIBUTE, useRouterLinkClicks } from './SiteLink.js'

/** Marks the element of each StaticHtml, so that the browser finds the server's drawing of it. */
const STATIC_ATTRIBUTE = 'data-static'

/** The browser is hydrating the server's HTML (from the app's start until the first commit's effects). */
let hydrating = false

/** Called by the browser's entry just before it hydrates the document. */
export function beginHydration(): void {
  hydrating = true
}

/**
 * Called once the hydrated page's effects run: a StaticHtml mounted after that (a page reached in
 * the browser) draws its children; those hydrated keep the server's HTML until they give it up.
 */
export function endHydration(): void {
  hydrating = false
}

/**
 * Whether the server drew the element of the StaticHtml with this id and the page is hydrating
 * it; otherwise the children are drawn as usual. That includes a render after hydration failed:
 * React's own ids differ from the server's, so no element is found.
 */
function drawnByServer(id: string): boolean {
  return hydrating && partElement(id) !== null
}

/** The element of the StaticHtml with this id. */
const partElement = (id: string) => document.querySelector<HTMLElement>(`[${STATIC_ATTRIBUTE}="${CSS.escape(id)}"]`)

/**
 * Stands for the server's HTML: React neither compares nor writes an element's inner HTML while
 * hydrating, nor later while this value stays the same, so what the server drew stays as it is.
 */
const SERVER_HTML = { __html: '' }

/**
 * The links that navigate in the browser: those React Router's <Link> drew (it marks them
 * `data-discover`; a route test checks it still does), and those of the site's Markdown inside
 * (as Prose follows them).
 */
const isRouterLink = (anchor: HTMLAnchorElement) =>
  anchor.hasAttribute('data-discover') || (anchor.closest(`[${SITE_PATHS_ATTRIBUTE}]`) !== null && isSitePathLink(anchor))

/** A link of the server's HTML that the router followed while the focus was on it or nowhere: its written address and where it led. */
interface FollowedLink {
  href: string
  to: string
}

/**
 * Once a link followed from the server's HTML has brought the page to its address and React has
 * drawn the part afresh, focuses the same link in React's drawing if the focus went with the old
 * one: a keyboard or screen-reader user following a help article's sidebar stays in the sidebar,
 * as when React had drawn it. Nothing when no such link is there: focus stays where it fell.
 */
function refocusFollowedLink(part: HTMLElement, followed: FollowedLink, address: string) {
  if (followed.to !== address || (document.activeElement && document.activeElement !== document.body)) return
  const link = Array.from(part.querySelectorAll('a[href]')).find((anchor) => anchor.getAttribute('href') === followed.href)
  if (link instanceof HTMLElement) link.focus({ preventScroll: true })
}

/** Runs in the browser only; on the server it would warn, and there is nothing to focus. */
const useBrowserLayoutEffect = typeof document === 'undefined' ? () => undefined : useLayoutEffect

type StaticTag = 'div' | 'section' | 'footer' | 'ul' | 'article'

interface StaticHtmlProps extends HTMLAttributes<HTMLElement> {
  as?: StaticTag
  ref?: Ref<HTMLElement>
  /**
   * What is inside never changes while the site is open (the footer, drawn from the site's own
   * navigation): the server's HTML stays through every navigation in the browser.
   */
  fixed?: boolean
  /**
   * A plain click on a link of this site inside, before the router's links are followed: true
   * when the page has handled it (the browser then does not follow the link).
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
 * Drawn in the browser later (a page reached by a link), it draws its children as any element.
 * One hydrated keeps the server's HTML until the address changes (the same page with other
 * parameters has other data), then draws its children for good; so its children must depend on
 * nothing but the address and the data loaded for it: no state, nothing the visitor does on the
 * page. A `fixed` one keeps the server's HTML for as long as it is on screen.
 */
export function StaticHtml({ as = 'div', fixed = false, onLinkClick, children, ...props }: StaticHtmlProps) {
  // Any of the tags, each with a ref to its own kind of element.
  const Tag = as as ElementType
  const id = useId()
  const { pathname, search } = useLocation()
  const address = pathname + search
  const [server, setServer] = useState(() => (drawnByServer(id) ? { address } : undefined))
  const followed = useRef<FollowedLink | null>(null)
  // Given up once the address changes (React draws the children at once, in this same render).
  if (server && !fixed && server.address !== address) setServer(undefined)
  useBrowserLayoutEffect(() => {
    const link = followed.current
    followed.current = null
    const part = link && !server ? partElement(id) : null
    if (link && part) refocusFollowedLink(part, link, address)
  }, [server])
  const followRouterLink = useRouterLinkClicks(isRouterLink)
  const onClick = (event: MouseEvent<HTMLElement>) => {
    const anchor = plainLinkClicked(event)
    if (anchor && onLinkClick?.(anchor)) {
      event.preventDefault()
      return
    }
    // Where the focus was as the link was followed: on it, in this part or on nothing (Safari's
    // taps and clicks do not focus links, nor does a screen reader's own cursor) goes with the
    // part when it is drawn afresh; anywhere else it stays, or goes with whatever held it.
    const active = document.activeElement
    const focusInPart = !active || active === document.body || event.currentTarget.contains(active)
    followRouterLink(event)
    // Followed by the router: if it leads elsewhere, this part is about to be drawn afresh.
    const to = anchor ? anchor.pathname + anchor.search : ''
    if (server && anchor && focusInPart && event.defaultPrevented && to !== address) followed.current = { href: anchor.getAttribute('href') ?? '', to }
  }
  const marks = { [STATIC_ATTRIBUTE]: id, onClick }
  if (!server || (!fixed && server.address !== address)) {
    return (
      <Tag {...props} {...marks}>
        {children}
      </Tag>
    )
  }
  return <Tag {...props} {...marks} dangerouslySetInnerHTML={SERVER_HTML} suppressHydrationWarning />
}
