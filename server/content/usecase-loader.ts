import type { PageIdOf } from '../../shared/page-route.js'
import type { useCasePages } from '../../shared/content/usecase.route.js'
import { notFound, type LoaderDependencies, type RouteLoaders } from '../ssr/loader.js'

export const useCaseLoaders = ({ content }: LoaderDependencies): RouteLoaders<PageIdOf<typeof useCasePages>> => ({
  usecase: () => ({ useCases: content.useCases, current: null }),
  'usecase-section': ({ params }) => {
    const summary = content.useCases.find((candidate) => candidate.slug === params.section)
    const article = summary && content.useCase(summary.slug)
    if (!summary || !article) throw notFound()
    return { useCases: content.useCases, current: { ...article, name: summary.name } }
  },
})
