import type { ComponentType } from 'react'
import { matchRoutes, type RouteObject } from 'react-router'

/** One page of the site: its route id, URL pattern and the module (one code-split chunk) that draws it. */
export interface PageDefinition {
  id: string
  /** Path below the root as visitors see it (trailing slash included); absent for the home page. */
  path?: string
  /** File under shared/pages/ without extension; the build maps it to its chunk for preloading. */
  module: string
  load: () => Promise<{ default: ComponentType }>
}

const contentPage = (slug: string, path = `${slug}/`): PageDefinition => ({
  id: `page-${slug}`,
  path,
  module: 'ContentPage',
  load: () => import('./pages/ContentPage.js'),
})

export const pages: PageDefinition[] = [
  { id: 'home', module: 'Home', load: () => import('./pages/Home.js') },
  { id: 'pricing', path: 'pricing/', module: 'Pricing', load: () => import('./pages/Pricing.js') },
  { id: 'faq', path: 'faq/', module: 'Faq', load: () => import('./pages/Faq.js') },
  contentPage('about'),
  contentPage('privacy'),
  contentPage('terms'),
  contentPage('anti-spam-policy'),
  contentPage('email-templates'),
  contentPage('aurora', 'aurora'),
  contentPage('shopify-apps', 'shopify-apps'),
  { id: 'blog', path: 'blog/', module: 'BlogIndex', load: () => import('./pages/BlogIndex.js') },
  { id: 'blog-theme', path: 'blog/:theme/', module: 'BlogIndex', load: () => import('./pages/BlogIndex.js') },
  { id: 'blog-post', path: 'blog/:theme/:post/', module: 'BlogPost', load: () => import('./pages/BlogPost.js') },
  { id: 'help', path: 'help/', module: 'HelpIndex', load: () => import('./pages/HelpIndex.js') },
  { id: 'help-section', path: 'help/:section/', module: 'HelpListing', load: () => import('./pages/HelpListing.js') },
  { id: 'help-page', path: 'help/:section/:slug/', module: 'HelpListing', load: () => import('./pages/HelpListing.js') },
  { id: 'help-article', path: 'help/:section/:sub/:article/', module: 'HelpListing', load: () => import('./pages/HelpListing.js') },
  { id: 'usecase', path: 'usecase/', module: 'UseCases', load: () => import('./pages/UseCases.js') },
  { id: 'usecase-section', path: 'usecase/:section/', module: 'UseCases', load: () => import('./pages/UseCases.js') },
  { id: 'not-found', path: '*', module: 'NotFound', load: () => import('./pages/NotFound.js') },
]

/** Route table used only for matching, never rendered. */
const matchingRoutes: RouteObject[] = [{ path: '/', children: pages.map(({ id, path }) => (path === undefined ? { id, index: true as const } : { id, path })) }]

/** Answers already worked out: matching ranks every route on each call, and links ask often. */
const knownPaths = new Map<string, boolean>()
const KNOWN_PATHS_MAX = 2000

/** Whether a path is drawn by this router (and so can be reached without a full page load). */
export function isRouterPath(pathname: string): boolean {
  const known = knownPaths.get(pathname)
  if (known !== undefined) return known
  const matches = matchRoutes(matchingRoutes, pathname)
  const answer = matches !== null && matches[matches.length - 1]?.route.id !== 'not-found'
  if (knownPaths.size >= KNOWN_PATHS_MAX) knownPaths.clear()
  knownPaths.set(pathname, answer)
  return answer
}
