import type { LoaderFunctionArgs } from 'react-router'
import type { PageIdOf } from '../../shared/page-route.js'
import type { galleryPages, StandalonePreviewData, standalonePreviewPages } from '../../shared/gallery/gallery.route.js'
import { notFound, type LoaderDependencies, type RouteLoaders } from '../ssr/loader.js'

/** Most ids a `collection` query may name. */
const MAX_COLLECTION = 400

function segmentsOf(params: LoaderFunctionArgs['params']): string[] {
  return [params.segment ?? params.group, params.sub].filter((segment): segment is string => Boolean(segment))
}

export const galleryLoaders = ({ galleries: gallery, origin, appOrigin }: LoaderDependencies): RouteLoaders<PageIdOf<typeof galleryPages | typeof standalonePreviewPages>> => {
  const listing =
    (kind: 'widgets' | 'emails') =>
    ({ params, request }: LoaderFunctionArgs) =>
      gallery[kind].page(segmentsOf(params), new URL(request.url).searchParams)
  const widgetPage = listing('widgets')
  const emailPage = listing('emails')

  const standalone =
    (kind: 'widgets' | 'emails') =>
    ({ request }: LoaderFunctionArgs): StandalonePreviewData => {
      const search = new URL(request.url).searchParams
      const id = search.get('id') ?? ''
      const collection = (search.get('collection') ?? '').split(',', MAX_COLLECTION).filter(Boolean)
      const found = gallery[kind].standalone(id, collection)
      if (!found) throw notFound()
      return { gallery: kind, ...found, parentOrigins: [origin, ...(appOrigin ? [appOrigin] : [])] }
    }

  return {
    'widget-gallery': widgetPage,
    'widget-group': widgetPage,
    'widget-sub': widgetPage,
    'email-gallery': emailPage,
    'email-group': emailPage,
    'widget-preview': standalone('widgets'),
    'email-preview': standalone('emails'),
  }
}
