import type { ActionFunction, LoaderFunction, RouteObject, ShouldRevalidateFunction } from 'react-router'
import { PageErrorBoundary } from './layout/PageError.js'
import { RootErrorBoundary, RootLayout } from './layout/Root.js'
import type { RouteId } from './page-data.js'
import { pages } from './pages.js'

/**
 * Gives each side its own data loading: the server reads data/ (server/ssr/loaders.ts, typed so
 * that every route has a loader returning its data), the browser asks the server (client/loaders.ts).
 */
export type LoaderFor = (routeId: RouteId) => LoaderFunction

/**
 * The server's handlers of forms posted without JavaScript (server/accounts/form-actions.ts); the browser
 * has none, its scripts call the APIs themselves.
 */
export type ActionFor = (routeId: RouteId) => ActionFunction | undefined

/**
 * Coming back to the address on screen (back from a gallery preview, which changes the address
 * without a navigation) keeps the page's data; forms and other addresses load as usual.
 */
const sameAddressKeepsData: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) =>
  !formMethod && currentUrl.pathname === nextUrl.pathname && currentUrl.search === nextUrl.search ? false : defaultShouldRevalidate

/**
 * What the browser does, besides fetching a page's code, before it first draws that page: fetch
 * the parts of the stylesheet it draws with (shared/layout/page-sheets.ts). Given the page's module name.
 */
export type BeforePage = (module: string) => Promise<void>

/** The layout, every page under it: one route at the top (the browser's router relies on it, client/route-discovery.ts). */
export function createRoutes(loaderFor: LoaderFor, actionFor: ActionFor = () => undefined, beforePage?: BeforePage): [RouteObject] {
  return [
    {
      id: 'root',
      path: '/',
      Component: RootLayout,
      ErrorBoundary: RootErrorBoundary,
      loader: loaderFor('root'),
      // The navigation and footer never change between pages.
      shouldRevalidate: () => false,
      children: pages.map((page) => {
        const lazy = async () => {
          const [module] = await Promise.all([page.load(), beforePage?.(page.module)])
          return { Component: module.default }
        }
        const shared = { id: page.id, loader: loaderFor(page.id), action: actionFor(page.id), ErrorBoundary: PageErrorBoundary, handle: { module: page.module, private: 'private' in page && page.private, bare: 'bare' in page && page.bare }, lazy, shouldRevalidate: sameAddressKeepsData }
        return page.path === undefined ? { ...shared, index: true as const } : { ...shared, path: page.path }
      }),
    },
  ]
}
