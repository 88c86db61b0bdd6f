import { matchRoutes, type RouteObject } from 'react-router'
import type { PageDataOf, PageIdOf, PageRoute } from './page-route.js'
import { authPages } from './accounts/accounts.route.js'
import { blogPages } from './content/blog.route.js'
import { contentPages } from './content/content.route.js'
import { faqPages } from './content/faq.route.js'
import { galleryPages, standalonePreviewPages } from './gallery/gallery.route.js'
import { generatorPages } from './generators/generators.route.js'
import { helpPages } from './content/help.route.js'
import { homePages } from './home/home.route.js'
import { notFoundPages } from './layout/not-found.route.js'
import { pricingPages } from './pricing/pricing.route.js'
import { useCasePages } from './content/usecase.route.js'

/**
 * Every page of the site. A page (or a family of pages) is one module in its feature's folder,
 * shared/{feature}/{name}.route.ts, that declares its routes and the data type of each, and one
 * line here. Its loader then goes in server/{feature}/, listed in server/ssr/loaders.ts: the
 * server's loader map is typed by this table, so a page without a loader, or with a loader
 * returning the wrong shape, fails the type check.
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

/** The page id React Router matches at a path: exact, but it ranks every route on each call (about a millisecond). */
export function matchedPageId(pathname: string): PageId | undefined {
  if (!isDecodablePath(pathname)) return undefined
  return matchRoutes(matchingRoutes, pathname)?.at(-1)?.route.id as PageId | undefined
}

/**
 * A path reduced to its shape: each segment kept (lower-cased, as routes match ignoring case)
 * where some page has that word at that place, any other segment replaced by one placeholder,
 * which matches the same parameters it does. Past the deepest page a path is not found whatever
 * its segments, so one more segment is all a shape keeps. There are a few hundred shapes at most.
 */
const shapeOf = (() => {
  const wordsAt: Set<string>[] = []
  let depth = 0
  for (const page of pages) {
    const segments = (page.path ?? '').split('/').filter(Boolean)
    depth = Math.max(depth, segments.length)
    segments.forEach((segment, at) => {
      if (!segment.startsWith(':') && segment !== '*') (wordsAt[at] ??= new Set()).add(segment.toLowerCase())
    })
  }
  return (pathname: string) =>
    '/' +
    pathname
      .split('/')
      .filter(Boolean)
      .slice(0, depth + 1)
      .map((segment, at) => (wordsAt[at]?.has(segment.toLowerCase()) ? segment.toLowerCase() : '_'))
      .join('/')
})()

const idsByShape = new Map<string, PageId | undefined>()

/**
 * The id of the page drawn at a path (the not-found page for unknown paths; undefined for a path
 * that does not decode). Asked on every request and by every link, so each shape of path is
 * matched once and remembered.
 */
export function pageIdAt(pathname: string): PageId | undefined {
  if (pathname.includes('%') && !isDecodablePath(pathname)) return undefined
  const shape = shapeOf(pathname)
  if (!idsByShape.has(shape)) idsByShape.set(shape, matchedPageId(shape))
  return idsByShape.get(shape)
}

/** Whether a path is drawn by this router (and so can be reached without a full page load). */
export function isRouterPath(pathname: string): boolean {
  const id = pageIdAt(pathname)
  return id !== undefined && id !== 'not-found'
}

/** Whether every percent-escape of a path decodes (`/p/%ff/` does not): such a path names no page. */
export function isDecodablePath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname)
    return true
  } catch {
    return false
  }
}
