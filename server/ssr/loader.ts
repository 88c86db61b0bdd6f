import { data, type LoaderFunctionArgs } from 'react-router'
import type { RouteData, RouteId } from '../../shared/page-data.js'
import type { AccountsGateway } from '../accounts/gateway.js'
import type { SiteData } from '../site-data.js'

/**
 * What the server's loaders read: the site's data loaded at start-up (server/site-data.ts), never
 * the disk, and what the process knows of where it runs.
 */
export interface LoaderDependencies extends Pick<SiteData, 'content' | 'prices' | 'holidays' | 'galleries' | 'generators' | 'homeCards'> {
  origin: string
  /** The logged-in app's origin (APP_URL), an allowed `next`. */
  appOrigin: string | null
  /** Where the logged-in app is: APP_URL, or the local dashboard's `/app/`. */
  appBase: string
  /** The dashboard's account calls: the new-password page asks whether its link still works. */
  accounts: AccountsGateway
  /** The clock (tests set it). */
  now: () => Date
}

/** A route's loader on the server: returns the route's data, or throws `notFound()`. */
export type Loader<Data> = (args: LoaderFunctionArgs) => Data | Promise<Data>

/** A loader for each of the given routes, returning that route's data (see shared/pages.ts). */
export type RouteLoaders<Id extends RouteId = RouteId> = { [K in Id]: Loader<RouteData[K]> }

/** Thrown by a loader when the URL names nothing: the page answers 404. */
export const notFound = () => data(null, { status: 404 })
