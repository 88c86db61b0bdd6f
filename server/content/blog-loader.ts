import type { PageIdOf } from '../../shared/page-route.js'
import type { blogPages } from '../../shared/content/blog.route.js'
import { notFound, type LoaderDependencies, type RouteLoaders } from '../ssr/loader.js'

/** How many other posts of the same theme a post suggests. */
const RELATED_POSTS = 3

export const blogLoaders = ({ content }: LoaderDependencies): RouteLoaders<PageIdOf<typeof blogPages>> => ({
  blog: () => ({ themes: content.blogThemes, theme: null, posts: content.blogPosts() }),
  'blog-theme': ({ params }) => {
    const theme = content.blogThemes.find((candidate) => candidate.slug === params.theme)
    if (!theme) throw notFound()
    return { themes: content.blogThemes, theme, posts: content.blogPosts(theme.slug) }
  },
  'blog-post': ({ params }) => {
    const theme = content.blogThemes.find((candidate) => candidate.slug === params.theme)
    const post = theme && content.blogPost(theme.slug, params.post ?? '')
    if (!theme || !post) throw notFound()
    const related = content.blogPosts(theme.slug).filter((other) => other.slug !== post.slug).slice(0, RELATED_POSTS)
    return { post, theme, related }
  },
})
