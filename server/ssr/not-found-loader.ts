import type { PageIdOf } from '../../shared/page-route.js'
import type { notFoundPages } from '../../shared/layout/not-found.route.js'
import { notFound, type RouteLoaders } from './loader.js'

export const notFoundLoaders = (): RouteLoaders<PageIdOf<typeof notFoundPages>> => ({
  'not-found': () => {
    throw notFound()
  },
})
