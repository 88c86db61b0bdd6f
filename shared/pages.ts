import { matchRoutes, type RouteObject } from 'react-router'
import { isDecodablePath } from './canonical.js'
import type { PageDataOf, PageIdOf, PageRoute } from './page-route.js'
import { authPages } from './pages/auth.route.js'
import { blogPages } from './pages/blog.route.js'
import { contentPages } from './pages/content.route.js'
import { faqPages } from './pages/faq.route.js'
import { galleryPages, standalonePreviewPages } from './pages/gallery.route.js'
import { generatorPages } from './pages/generators.route.js'
import { helpPages } from './pages/help.route.js'
import { homePages } from './pages/home.route.js'
import { notFoundPages } from './pages/not-found.route.js'
import { pricingPages } from './pages/pricing.route.js'
import { useCasePages } from './pages/usecase.route.js'

/**
 * Every page of the site. A page (or a family of pages) is one module, shared/pages/{name}.route.ts,
 * that declares its routes and the data type of each, and one line here. Its loader then goes in
 * server/ssr/loaders/{name}.ts: the server's loader map is typed by this table, so a page without
 * a loader, or with a loader returning the wrong shape, fails the type check.
 */
export const pages = [
  ...homePages,
  ...pricingPages,
  ...faqPages,
  ...contentPages,
  ...blogPages,
  ...helpPages,
  ...useCasePages,
  ...authPages,
  ...galleryPages,
  ...standalonePreviewPages,
  ...generatorPages,
  ...notFoundPages,
] as const satisfies readonly PageRoute[]

/** The route id of every page. */
export type PageId = PageIdOf<typeof pages>
/** Page id → what that page's loader returns, the same on the server and in the browser. */
export type PageData = PageDataOf<typeof pages>

/** Route table used only for matching, never rendered. */
const matchingRoutes: RouteObject[] = [{ path: '/', children: pages.map(({ id, path }) => (path === undefined ? { id, index: true as const } : { id, path })) }]

/** Answers already worked out: matching ranks every route on each call, and links ask often. */
const knownPaths = new Map<string, boolean>()
const KNOWN_PATHS_MAX = 2000

/** The id of the page drawn at a path (the not-found page for unknown paths). */
export function pageIdAt(pathname: string): PageId | undefined {
  if (!isDecodablePath(pathname)) return undefined
  return matchRoutes(matchingRoutes, pathname)?.at(-1)?.route.id as PageId | undefined
}

/** Whether a path is drawn by this router (and so can be reached without a full page load). */
export function isRouterPath(pathname: string): boolean {
  const known = knownPaths.get(pathname)
  if (known !== undefined) return known
  const id = pageIdAt(pathname)
  const answer = id !== undefined && id !== 'not-found'
  if (knownPaths.size >= KNOWN_PATHS_MAX) knownPaths.clear()
  knownPaths.set(pathname, answer)
  return answer
}
