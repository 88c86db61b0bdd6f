import { definePage } from '../page-route.js'
import type { Article, UseCaseSummary } from './schema.js'

export interface UseCasesData {
  useCases: UseCaseSummary[]
  /** The use case being shown, or null on the /usecase/ index. */
  current: (Article & { name: string }) | null
}

export const useCasePages = [
  definePage<UseCasesData>()({ id: 'usecase', path: 'usecase/', module: 'UseCases', load: () => import('./UseCases.js') }),
  definePage<UseCasesData>()({ id: 'usecase-section', path: 'usecase/:section/', module: 'UseCases', load: () => import('./UseCases.js') }),
] as const
