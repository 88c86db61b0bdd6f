import { useMatches } from 'react-router'
import type { PageData, PageId } from './pages.js'
import type { HomeContent, SiteNav } from './content/schema.js'

/** Data of the root route: what every page's chrome needs. */
export interface RootData {
  nav: SiteNav
  /** The call to action at the foot of every page. */
  cta: HomeContent['cta']
  /** Public origin of the site, for canonical and Open Graph URLs. */
  origin: string
  /** The logged-in app's home: where the log-in link leads a visitor who is logged in. */
  appBase: string
}

/** Every route with data: the root (the site's chrome) and each page. */
export type RouteId = 'root' | PageId
/** Route id → what that route's loader returns. */
export type RouteData = PageData & { root: RootData }

/**
 * The data of the route being drawn, typed by its id: `usePageData('pricing')`, or every id a
 * component serves, `usePageData('blog', 'blog-theme')`. Throws when none of them is on screen,
 * which is a component drawn by a route it was not written for.
 */
export function usePageData<Id extends RouteId>(...ids: Id[]): RouteData[Id] {
  const match = useMatches().find((candidate) => (ids as string[]).includes(candidate.id))
  if (match?.loaderData === undefined) throw new Error(`No data for route ${ids.join(' or ')}: it is not on screen`)
  return match.loaderData as RouteData[Id]
}
