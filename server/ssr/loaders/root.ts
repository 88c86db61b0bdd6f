import type { LoaderDependencies, RouteLoaders } from './loader.js'

/** The site's chrome: navigation, footer call to action, and the origin for canonical URLs. */
export const rootLoaders = ({ content, origin }: LoaderDependencies): RouteLoaders<'root'> => ({
  root: () => ({ nav: content.nav, cta: content.home.cta, origin }),
})
