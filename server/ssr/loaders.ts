import type { LoaderFor } from '../../shared/routes.js'
import { authLoaders } from '../accounts/loader.js'
import { blogLoaders } from '../content/blog-loader.js'
import { contentLoaders } from '../content/content-loader.js'
import { faqLoaders } from '../content/faq-loader.js'
import { galleryLoaders } from '../gallery/loader.js'
import { generatorLoaders } from '../generators/loader.js'
import { helpLoaders } from '../content/help-loader.js'
import { homeLoaders } from '../home/loader.js'
import type { LoaderDependencies, RouteLoaders } from './loader.js'
import { notFoundLoaders } from './not-found-loader.js'
import { pricingLoaders } from '../pricing/loader.js'
import { rootLoaders } from './root-loader.js'
import { useCaseLoaders } from '../content/usecase-loader.js'

export type { LoaderDependencies } from './loader.js'

/**
 * The server side of every route's data, one module per page family in its feature's folder. The map is
 * typed by the page table (shared/pages.ts): a page without a loader here, or with one returning
 * another shape than its route module declares, fails the type check naming the page id.
 */
export function createServerLoaders(dependencies: LoaderDependencies): LoaderFor {
  const loaders: RouteLoaders = {
    ...rootLoaders(dependencies),
    ...homeLoaders(dependencies),
    ...pricingLoaders(dependencies),
    ...faqLoaders(dependencies),
    ...contentLoaders(dependencies),
    ...blogLoaders(dependencies),
    ...helpLoaders(dependencies),
    ...useCaseLoaders(dependencies),
    ...authLoaders(dependencies),
    ...galleryLoaders(dependencies),
    ...generatorLoaders(dependencies),
    ...notFoundLoaders(),
  }
  return (routeId) => loaders[routeId]
}
