import type { PageIdOf } from '../../../shared/page-route.js'
import type { homePages } from '../../../shared/pages/home.route.js'
import type { LoaderDependencies, RouteLoaders } from './loader.js'

export const homeLoaders = ({ content }: LoaderDependencies): RouteLoaders<PageIdOf<typeof homePages>> => ({
  home: () => ({ home: content.home }),
})
