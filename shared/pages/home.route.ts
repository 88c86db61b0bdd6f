import { definePage } from '../page-route.js'
import type { HomeContent } from '../schemas/content.js'

export interface HomeData {
  home: HomeContent
}

export const homePages = [definePage<HomeData>()({ id: 'home', module: 'Home', load: () => import('./Home.js') })] as const
