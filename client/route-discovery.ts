import type { PatchRoutesOnNavigationFunction, RouteObject } from 'react-router'
import { pageIdAt } from '../shared/pages.js'

/**
 * The browser's router starts with the page on screen (and the home page) under the layout, and
 * learns each other page as a visitor first goes there. Given every page at once, it would rank
 * and match all of them as the page starts (on a slow phone a good part of the router's start-up,
 * for pages most visits never reach); the site already knows which page a path draws (`pageIdAt`,
 * which ranks paths as the router does), so learning one takes a look-up.
 *
 * Given the layout with every page under it (createRoutes).
 */
export function routesOnDemand([root]: [RouteObject], pathname: string) {
  const pages = root.children!
  const notFound = pages.find((page) => page.id === 'not-found')!
  // A path that names no page (or does not decode) draws the not-found page.
  const pageAt = (path: string) => pages.find((page) => page.id === pageIdAt(path)) ?? notFound
  // The home page (the layout's index) always: at `/` the layout itself would match, and the
  // router would not ask for the page under it. The not-found page always too: a path the look-up
  // and the router read apart (`/blog//tips/`) falls to its catch-all, as with every page known.
  const home = pages.find((page) => page.index)!
  const initial = [{ ...root, children: [...new Set([pageAt(pathname), home, notFound])] }] as RouteObject[]
  /**
   * Called by the router before a navigation to a path it has no page for, or one that it
   * matched only by a parameter or the not-found page's catch-all (a page it has not learnt yet
   * may rank above those). A page it already has is not added twice.
   */
  const patchRoutesOnNavigation: PatchRoutesOnNavigationFunction = ({ path, patch }) => patch(root.id!, [pageAt(path)])
  return { initial, patchRoutesOnNavigation }
}
