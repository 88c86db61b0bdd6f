import type { LoaderDependencies, RouteLoaders } from './loader.js'

/** The site's chrome: navigation, footer call to action, the origin for canonical URLs, where the app is. */
export const rootLoaders = ({ content, origin, appBase }: LoaderDependencies): RouteLoaders<'root'> => ({
  root: () => ({ nav: content.nav, cta: content.home.cta, origin, appBase }),
})
