import { definePage } from '../page-route.js'
import type { PlanFeatureRow, PricesResponse } from './schema.js'

export interface PricingData {
  /** Null when prices could not be loaded: the page then shows no plans. */
  prices: PricesResponse | null
  /** Feature descriptions with their in-page anchors; shown even when prices are not. */
  features: PlanFeatureRow[]
}

export const pricingPages = [
  definePage<PricingData>()({ id: 'pricing', path: 'pricing/', module: 'Pricing', load: () => import('./Pricing.js') }),
] as const
