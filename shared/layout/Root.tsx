import { useEffect, useLayoutEffect, useRef } from 'react'
import { Outlet, useLocation, useMatches, useNavigationType } from 'react-router'
import { usePageData } from '../page-data.js'
import { ASSETS_ELEMENT_ID, CONTENT_END_ID, HYDRATION_ELEMENT_ID } from '../site.js'
import { reportVisit, VISIT_PIXEL_PATH } from '../tracking/tracking.js'
import { useShell } from './shell.js'
import { SiteFooter } from './SiteFooter.js'
import { endHydration } from '../components/StaticHtml.js'
import { SiteHeader } from './SiteHeader.js'

function Document({ children, holdsPaint = false }: { children: React.ReactNode; holdsPaint?: boolean }) {
  const { assets, css, pageState } = useShell()
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#4f46e5" />
        {/* A raster icon: the browser fetches and decodes a page's icon in the page's own process,
            and an SVG one is a whole SVG document built on the main thread (10–26 ms on a phone's
            CPU) just as the page starts up. favicon.png is favicon.svg drawn at 48 px. */}
        <link rel="icon" href="/favicon.png" type="image/png" sizes="48x48" />
        {/* On a page with the site's footer, the first paint waits until the page has been
            parsed through it: painted as it is parsed, a page is laid out and painted again with
            every piece that follows, on a slow phone several frames of 100-300 ms just after the
            first paint, when a visitor first scrolls or taps. Laid out once, it paints a little
            later and is not busy drawing itself when the visitor begins. The head's script lets
            go of the hold if the footer is slow to come (client/menus.ts). */}
        {holdsPaint && <link rel="expect" href={`#${CONTENT_END_ID}`} blocking="render" />}
        {/* The parts of the stylesheet this page draws with, in the cascade's order (shared/site.ts). */}
        {css.map(({ name, text }) => (
          <style key={name} data-sheet={name} dangerouslySetInnerHTML={{ __html: text }} />
        ))}
        {/* Runs before the body is parsed, so the header's menus answer a tap from the first paint on.
            The browser renders no copy: hydration passes over what the server added to the head. */}
        {assets.menusScript && <script dangerouslySetInnerHTML={{ __html: assets.menusScript }} />}
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {children}
        {/* Without scripts, this image reports the page view; it names the page in its Referer. */}
        <noscript>
          <img src={VISIT_PIXEL_PATH} alt="" width={1} height={1} hidden referrerPolicy="same-origin" />
        </noscript>
        <script type="application/json" id={ASSETS_ELEMENT_ID} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: JSON.stringify(assets.modules) }} />
        <script
          type="application/json"
          id={HYDRATION_ELEMENT_ID}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: pageState }}
        />
      </body>
    </html>
  )
}

/** Runs in the browser only; on the server it would warn, and there is nothing to scroll. */
const useBrowserLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect

/**
 * Client navigations start at the top of the new page or at its #fragment; back and forward
 * return to where the visitor was. The first render keeps the browser's own position.
 */
function useScrollOnNavigation() {
  const location = useLocation()
  const navigationType = useNavigationType()
  const positions = useRef(new Map<string, number>())
  const previousKey = useRef<string | null>(null)
  useBrowserLayoutEffect(() => {
    const isFirstRender = previousKey.current === null
    if (previousKey.current !== null) positions.current.set(previousKey.current, window.scrollY)
    previousKey.current = location.key
    if (isFirstRender) return
    const saved = navigationType === 'POP' ? positions.current.get(location.key) : undefined
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null
    // A filter change keeps the visitor near the list, scrolling up only as far as its top.
    const cap = (location.state as { scrollCap?: unknown } | null)?.scrollCap
    if (saved !== undefined) window.scrollTo(0, saved)
    else if (typeof cap === 'number') window.scrollTo(0, Math.min(window.scrollY, cap))
    else if (target) target.scrollIntoView()
    else window.scrollTo(0, 0)
  }, [location.key])
}

/**
 * Reports each client navigation as a page view, as a full page load would be counted; the
 * first view is reported by the boot script, before the app has loaded.
 */
function useVisitReports() {
  const location = useLocation()
  const previous = useRef<string | null>(null)
  useEffect(() => {
    const url = location.pathname + location.search
    if (previous.current !== null && previous.current !== url) reportVisit({ url, referrer: window.location.origin + previous.current })
    previous.current = url
  }, [location.pathname, location.search])
}

export function RootLayout() {
  const root = usePageData('root')
  // The hydrated page's effects run: parts of pages reached from now on are React's to draw.
  useEffect(endHydration, [])
  useScrollOnNavigation()
  useVisitReports()
  // Pages made to be framed by other pages (the standalone previews) come without the site's chrome.
  const bare = useMatches().some((match) => (match.handle as { bare?: boolean } | undefined)?.bare)
  if (bare) {
    return (
      <Document>
        <main id="main" className="bare">
          <Outlet />
        </main>
      </Document>
    )
  }
  return (
    <Document holdsPaint>
      <SiteHeader nav={root.nav} />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter nav={root.nav} cta={root.cta} />
    </Document>
  )
}

/** Only reached when the root's own data fails: a bare page that still says what happened. */
export function RootErrorBoundary() {
  return (
    <Document>
      <main id="main" className="page error-page">
        <h1>Something went wrong</h1>
        <p>We could not load this page. Please try again in a moment.</p>
        <p>
          <a href="/">Go to the home page</a>
        </p>
      </main>
    </Document>
  )
}
