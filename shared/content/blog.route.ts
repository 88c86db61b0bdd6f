import { definePage } from '../page-route.js'
import type { BlogPost, BlogPostSummary, BlogTheme } from './schema.js'

export interface BlogIndexData {
  themes: BlogTheme[]
  /** The theme being listed, or null on /blog/ itself. */
  theme: BlogTheme | null
  posts: BlogPostSummary[]
}

export interface BlogPostData {
  post: BlogPost
  theme: BlogTheme
  /** Other posts of the same theme, newest first. */
  related: BlogPostSummary[]
}

export const blogPages = [
  definePage<BlogIndexData>()({ id: 'blog', path: 'blog/', module: 'BlogIndex', load: () => import('./BlogIndex.js') }),
  definePage<BlogIndexData>()({ id: 'blog-theme', path: 'blog/:theme/', module: 'BlogIndex', load: () => import('./BlogIndex.js') }),
  definePage<BlogPostData>()({ id: 'blog-post', path: 'blog/:theme/:post/', module: 'BlogPost', load: () => import('./BlogPost.js') }),
] as const
