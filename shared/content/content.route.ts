import { definePage } from '../page-route.js'
import type { Article } from './schema.js'

/** Company, legal and product pages written in Markdown: data/content/pages/{slug}.md. */
export interface ContentPageData {
  page: Article
}

/** A content page's route id is this prefix and its file's slug. */
export const CONTENT_PAGE_PREFIX = 'page-'

const contentPage = <const Slug extends string>(slug: Slug, path = `${slug}/`) =>
  definePage<ContentPageData>()({
    id: `${CONTENT_PAGE_PREFIX}${slug}`,
    path,
    module: 'ContentPage',
    load: () => import('./ContentPage.js'),
  })

export const contentPages = [
  contentPage('about'),
  contentPage('privacy'),
  contentPage('terms'),
  contentPage('anti-spam-policy'),
  contentPage('email-templates'),
  // Canonical without a trailing slash (see server/canonical.ts).
  contentPage('aurora', 'aurora'),
  contentPage('shopify-apps', 'shopify-apps'),
] as const

export const contentPageIds = contentPages.map((page) => page.id)
