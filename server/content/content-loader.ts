import type { PageIdOf } from '../../shared/page-route.js'
import { CONTENT_PAGE_PREFIX, contentPages, type ContentPageData } from '../../shared/content/content.route.js'
import { notFound, type Loader, type LoaderDependencies, type RouteLoaders } from '../ssr/loader.js'

type ContentPageId = PageIdOf<typeof contentPages>

/** Every content page reads data/content/pages/{slug}.md, the slug being its id without the prefix. */
export const contentLoaders = ({ content }: LoaderDependencies): RouteLoaders<ContentPageId> => {
  const loaderFor = (id: ContentPageId): Loader<ContentPageData> => {
    const slug = id.slice(CONTENT_PAGE_PREFIX.length)
    return () => {
      const page = content.page(slug)
      if (!page) throw notFound()
      return { page }
    }
  }
  // Built from the page list itself, so a content page added there has its loader here.
  return Object.fromEntries(contentPages.map(({ id }) => [id, loaderFor(id)])) as RouteLoaders<ContentPageId>
}
