import { definePage } from '../page-route.js'
import type { FaqContent } from './schema.js'

export interface FaqData {
  faq: FaqContent
}

export const faqPages = [definePage<FaqData>()({ id: 'faq', path: 'faq/', module: 'Faq', load: () => import('./Faq.js') })] as const
