import { data, type LoaderFunction, type LoaderFunctionArgs } from 'react-router'
import type { Breadcrumbs } from '../../shared/content.js'
import type {
  BlogIndexData,
  BlogPostData,
  ContentPageData,
  FaqData,
  HelpIndexData,
  HelpListingData,
  HomeData,
  PricingData,
  UseCasesData,
} from '../../shared/page-data.js'
import type { LoaderFor } from '../../shared/routes.js'
import type { RootData } from '../../shared/site.js'
import type { PriceList } from '../api/prices.js'
import type { ContentStore } from '../content/store.js'

export interface LoaderDependencies {
  content: ContentStore
  prices: PriceList
  origin: string
}

const notFound = () => data(null, { status: 404 })

/** How many other posts of the same theme a post suggests. */
const RELATED_POSTS = 3

/** The server side of every route's data: read from the content loaded at start-up, never from disk. */
export function createServerLoaders({ content, prices, origin }: LoaderDependencies): LoaderFor {
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

  const contentPage = (slug: string): LoaderFunction => () => {
    const page = content.page(slug)
    if (!page) throw notFound()
    return { page } satisfies ContentPageData
  }

  const loaders: Record<string, LoaderFunction> = {
    root: () => ({ nav: content.nav, cta: content.home.cta, origin }) satisfies RootData,
    home: () => ({ home: content.home }) satisfies HomeData,
    pricing: () => {
      let current: PricingData['prices'] = null
      try {
        current = prices.forCurrency() ?? null
      } catch {
        current = null
      }
      return { prices: current, features: prices.features } satisfies PricingData
    },
    faq: () => ({ faq: content.faq }) satisfies FaqData,
    blog: () => ({ themes: content.blogThemes, theme: null, posts: content.blogPosts() }) satisfies BlogIndexData,
    'blog-theme': ({ params }) => {
      const theme = content.blogThemes.find((candidate) => candidate.slug === params.theme)
      if (!theme) throw notFound()
      return { themes: content.blogThemes, theme, posts: content.blogPosts(theme.slug) } satisfies BlogIndexData
    },
    'blog-post': ({ params }) => {
      const theme = content.blogThemes.find((candidate) => candidate.slug === params.theme)
      const post = theme && content.blogPost(theme.slug, params.post ?? '')
      if (!theme || !post) throw notFound()
      const related = content.blogPosts(theme.slug).filter((other) => other.slug !== post.slug).slice(0, RELATED_POSTS)
      return { post, theme, related } satisfies BlogPostData
    },
    help: () => ({ sections: content.helpSections }) satisfies HelpIndexData,
    'help-section': helpPage,
    'help-page': helpPage,
    'help-article': helpPage,
    usecase: () => ({ useCases: content.useCases, current: null }) satisfies UseCasesData,
    'usecase-section': ({ params }) => {
      const summary = content.useCases.find((candidate) => candidate.slug === params.section)
      const article = summary && content.useCase(summary.slug)
      if (!summary || !article) throw notFound()
      return { useCases: content.useCases, current: { ...article, name: summary.name } } satisfies UseCasesData
    },
    'not-found': () => {
      throw notFound()
    },
  }

  return (routeId) => {
    if (routeId.startsWith('page-')) return contentPage(routeId.slice('page-'.length))
    return loaders[routeId]
  }
}
