import type { PageIdOf } from '../../shared/page-route.js'
import type { pricingPages, PricingData } from '../../shared/pricing/pricing.route.js'
import type { LoaderDependencies, RouteLoaders } from '../ssr/loader.js'

export const pricingLoaders = ({ prices }: LoaderDependencies): RouteLoaders<PageIdOf<typeof pricingPages>> => ({
  pricing: () => {
    // Without prices the page still draws, with the feature list and no plans.
    let current: PricingData['prices'] = null
    try {
      current = prices.forCurrency() ?? null
    } catch {
      current = null
    }
    return { prices: current, features: prices.features }
  },
})
