import { matchRoutes, type RouteObject } from 'react-router'
import { isDecodablePath, pages, type PageId } from '../../shared/pages.js'

/** Every page as a route of React Router's own, never rendered: what the site's matching must agree with. */
const wholeTable: RouteObject[] = [{ path: '/', children: pages.map(({ id, path }) => (path === undefined ? { id, index: true as const } : { id, path })) }]

/** The page id React Router matches at a path, ranking every route (undefined for a path that does not decode). */
export function routerPageId(pathname: string): PageId | undefined {
  if (!isDecodablePath(pathname)) return undefined
  return matchRoutes(wholeTable, pathname)?.at(-1)?.route.id as PageId | undefined
}
