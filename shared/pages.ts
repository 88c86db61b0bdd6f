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

/**
 * How React Router ranks a route, most specific first: one point per segment of its whole path,
 * 10 more for a word, 3 for a parameter, 1 for an empty segment, 2 for an index route, 2 less
 * for a splat. The highest-ranked route that matches is the one drawn; equal ranks go by order.
 */
function routeRank(path: string | undefined): number {
  const segments = `/${path ?? ''}`.split('/')
  const base = segments.length + (path === undefined ? 2 : 0) + (segments.includes('*') ? -2 : 0)
  return segments.reduce((rank, segment) => rank + (segment === '*' ? 0 : segment.startsWith(':') ? 3 : segment === '' ? 1 : 10), base)
}

/** The pages in React Router's order, each path as its segments (words lower-cased, as routes match ignoring case). */
const rankedRoutes = pages
  .map((page) => ({ id: page.id, rank: routeRank(page.path), segments: (page.path ?? '').split('/').filter(Boolean).map((segment) => (segment.startsWith(':') ? ':' : segment.toLowerCase())) }))
  .sort((a, b) => b.rank - a.rank)

/**
 * The page drawn at a shape (below): the first ranked route whose segments it matches, a word
 * matching the same word, a parameter any one segment, a splat the rest. The same answer as
 * React Router's matching, without compiling every route on each call.
 */
function pageIdOfShape(shape: string): PageId | undefined {
  const parts = shape.split('/').filter(Boolean)
  const matches = (segments: string[]) => {
    const splat = segments.at(-1) === '*'
    const fixed = splat ? segments.slice(0, -1) : segments
    if (splat ? parts.length < fixed.length : parts.length !== fixed.length) return false
    return fixed.every((segment, at) => segment === ':' || segment === parts[at])
  }
  return rankedRoutes.find((route) => matches(route.segments))?.id
}

/**
 * A path reduced to its shape: each segment kept (decoded and lower-cased, as routes match ignoring case)
 * where some page has that word at that place, any other segment replaced by one placeholder,
 * which matches the same parameters it does. Past the deepest page a path is not found whatever
 * its segments, so one more segment is all a shape keeps. There are a few hundred shapes at most.
 */
const shapeOf = (() => {
  const wordsAt: Set<string>[] = []
  let depth = 0
  for (const { segments } of rankedRoutes) {
    depth = Math.max(depth, segments.length)
    segments.forEach((segment, at) => {
      if (segment !== ':' && segment !== '*') (wordsAt[at] ??= new Set()).add(segment)
    })
  }
  return (pathname: string) =>
    '/' +
    pathname
      .split('/')
      .filter(Boolean)
      .slice(0, depth + 1)
      .map((segment, at) => {
        // Percent-escapes decoded, as the router reads a path (the caller has checked they
        // decode); ASCII letters alone lower-cased, as its case-insensitive match pairs them (the
        // Kelvin sign is no k there).
        const word = (segment.includes('%') ? decodeURIComponent(segment) : segment).replace(/[A-Z]/g, (letter) => letter.toLowerCase())
        return wordsAt[at]?.has(word) ? word : '_'
      })
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
  if (!idsByShape.has(shape)) idsByShape.set(shape, pageIdOfShape(shape))
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
