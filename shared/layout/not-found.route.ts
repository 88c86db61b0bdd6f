import { definePage } from '../page-route.js'

/** Every other path: the loader always answers 404, so the page never receives data. */
export const notFoundPages = [
  definePage<never>()({ id: 'not-found', path: '*', module: 'NotFound', load: () => import('./NotFound.js') }),
] as const
