import type { PageIdOf } from '../../shared/page-route.js'
import type { faqPages } from '../../shared/content/faq.route.js'
import type { LoaderDependencies, RouteLoaders } from '../ssr/loader.js'

export const faqLoaders = ({ content }: LoaderDependencies): RouteLoaders<PageIdOf<typeof faqPages>> => ({
  faq: () => ({ faq: content.faq }),
})
