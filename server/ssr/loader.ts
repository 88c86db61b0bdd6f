import type { HolidayDefinition } from '../../shared/holidays/schema.js'
import { data, type LoaderFunctionArgs } from 'react-router'
import type { RouteData, RouteId } from '../../shared/page-data.js'
import type { PriceList } from '../pricing/api.js'
import type { ContentStore } from '../content/store.js'
import type { AccountsGateway } from '../accounts/gateway.js'
import type { EmailListings } from '../gallery/email-listings.js'
import type { WidgetListings } from '../gallery/widget-listings.js'

/** What the server's loaders read: the content and prices loaded at start-up, never the disk. */
export interface LoaderDependencies {
  content: ContentStore
  prices: PriceList
  origin: string
  /** The logged-in app's origin (APP_URL), an allowed `next`. */
  appOrigin: string | null
  /** Where the logged-in app is: APP_URL, or the local dashboard's `/app/`. */
  appBase: string
  /** The dashboard's account calls: the new-password page asks whether its link still works. */
  accounts: AccountsGateway
  /** The widget and email galleries' listings. */
  gallery: { widgets: WidgetListings; emails: EmailListings }
  /** The site's data folder, holidays read from it once, and the clock (tests set both). */
  dataDir: string
  holidays: readonly HolidayDefinition[]
  now: () => Date
}

/** A route's loader on the server: returns the route's data, or throws `notFound()`. */
export type Loader<Data> = (args: LoaderFunctionArgs) => Data | Promise<Data>

/** A loader for each of the given routes, returning that route's data (see shared/pages.ts). */
export type RouteLoaders<Id extends RouteId = RouteId> = { [K in Id]: Loader<RouteData[K]> }

/** Thrown by a loader when the URL names nothing: the page answers 404. */
export const notFound = () => data(null, { status: 404 })
