import type { LoaderFunctionArgs } from 'react-router'
import type { PageIdOf } from '../../shared/page-route.js'
import type { helpPages, HelpListingData } from '../../shared/content/help.route.js'
import type { Breadcrumbs } from '../../shared/content/schema.js'
import { notFound, type LoaderDependencies, type RouteLoaders } from '../ssr/loader.js'

export const helpLoaders = ({ content }: LoaderDependencies): RouteLoaders<PageIdOf<typeof helpPages>> => {
  const helpTrail = (...crumbs: Breadcrumbs): Breadcrumbs => [{ text: 'Help center', href: '/help/' }, ...crumbs]

  const helpPage = ({ params }: LoaderFunctionArgs): HelpListingData => {
    const section = content.helpSections.find((candidate) => candidate.slug === params.section)
    if (!section) throw notFound()
    const sectionCrumb = { text: section.name, href: section.path }
    if (params.slug === undefined && params.article === undefined) {
      return { kind: 'listing', section, sub: null, articles: content.helpArticles(section.slug), breadcrumbs: helpTrail(sectionCrumb) }
    }
    const subSlug = params.sub ?? params.slug
    const sub = section.subs.find((candidate) => candidate.slug === subSlug) ?? null
    if (sub && params.article === undefined) {
      return {
        kind: 'listing',
        section,
        sub,
        articles: content.helpArticles(section.slug, sub.slug),
        breadcrumbs: helpTrail(sectionCrumb, { text: sub.name, href: sub.path }),
      }
    }
    // An article sits under a subsection when the section has subsections, directly under the section otherwise.
    if (section.subs.length > 0 && !sub) throw notFound()
    const articleSlug = params.article ?? params.slug ?? ''
    const article = content.helpArticle(section.slug, sub?.slug, articleSlug)
    if (!article) throw notFound()
    const siblings = content.helpArticles(section.slug, sub?.slug)
    const listingCrumbs = sub ? [sectionCrumb, { text: sub.name, href: sub.path }] : [sectionCrumb]
    const path = siblings.find((sibling) => sibling.slug === article.slug)?.path ?? section.path
    return { kind: 'article', section, sub, article, siblings, breadcrumbs: helpTrail(...listingCrumbs, { text: article.title, href: path }) }
  }

  return {
    help: () => ({ sections: content.helpSections }),
    'help-section': helpPage,
    'help-page': helpPage,
    'help-article': helpPage,
  }
}
