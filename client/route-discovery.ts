import type { PatchRoutesOnNavigationFunction, RouteObject } from 'react-router'
import { pageIdAt } from '../shared/pages.js'

/** The page drawn where no other is: every path that names no page. */
const NOT_FOUND_ID = 'not-found'

/**
 * The browser's router starts with the page on screen (and the home page) under the layout, and learns each
 * other page as a visitor first goes there. Given every page at once, it would rank and match all
 * of them as the page starts (tens of milliseconds on a slow phone, for pages most visits never
 * reach); the site already knows which page a path draws (`pageIdAt`, which ranks paths as the
 * router does), so learning one takes a look-up.
 */
export function routesOnDemand(routes: RouteObject[], pathname: string) {
  const [root, ...others] = routes
  if (!root?.id || root.index || others.length) throw new Error('the routes should be the layout alone, with every page under it')
  const pages = root.children ?? []
  const pageAt = (path: string) => {
    const id = pageIdAt(path) ?? NOT_FOUND_ID
    return pages.find((page) => page.id === id)
  }
  // The home page (the layout's index) always: at `/` the layout itself would match, and the
  // router would not ask for the page under it.
  const home = pages.find((page) => page.index)
  const first = pageAt(pathname)
  const initial: RouteObject[] = [{ ...root, children: [...new Set([first, home])].filter((page) => page !== undefined) }]
  const rootId = root.id
  /**
   * Called by the router before a navigation to a path it has no page for, or one that it
   * matched only by a parameter or the not-found page's catch-all (a page it has not learnt yet
   * may rank above those). A page it already has is not added twice.
   */
  const patchRoutesOnNavigation: PatchRoutesOnNavigationFunction = ({ path, patch }) => {
    const page = pageAt(new URL(path, 'http://localhost').pathname)
    if (page) patch(rootId, [page])
  }
  return { initial, patchRoutesOnNavigation }
}
