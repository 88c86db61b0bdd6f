import type { LoaderFor } from '../../shared/routes.js'
import { authLoaders } from './loaders/auth.js'
import { blogLoaders } from './loaders/blog.js'
import { contentLoaders } from './loaders/content.js'
import { faqLoaders } from './loaders/faq.js'
import { galleryLoaders } from './loaders/gallery.js'
import { generatorLoaders } from './loaders/generators.js'
import { helpLoaders } from './loaders/help.js'
import { homeLoaders } from './loaders/home.js'
import type { LoaderDependencies, RouteLoaders } from './loaders/loader.js'
import { notFoundLoaders } from './loaders/not-found.js'
import { pricingLoaders } from './loaders/pricing.js'
import { rootLoaders } from './loaders/root.js'
import { useCaseLoaders } from './loaders/usecase.js'

export type { LoaderDependencies } from './loaders/loader.js'

/**
 * The server side of every route's data, one module per page family under loaders/. The map is
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
