import { Breadcrumbs } from '../components/Breadcrumbs.js'
import { StaticHtml } from '../components/StaticHtml.js'
import { Seo } from '../components/Seo.js'
import { SiteLink } from '../components/SiteLink.js'
import { formatCalendarDate } from '../dates.js'
import { usePageData } from '../page-data.js'
import type { BlogPostSummary } from './schema.js'

export function PostCard({ post, themeName }: { post: BlogPostSummary; themeName?: string }) {
  return (
    <li className="post-card">
      {themeName && <p className="eyebrow">{themeName}</p>}
      <h3>
        <SiteLink href={`/blog/${post.theme}/${post.slug}/`}>{post.title}</SiteLink>
      </h3>
      <p>{post.description}</p>
      <p className="meta">
        <time dateTime={post.date}>{formatCalendarDate(post.date)}</time> · {post.readingMinutes} min read
      </p>
    </li>
  )
}

/** /blog/ lists the latest posts of every theme; /blog/{theme}/ the posts of one. */
export default function BlogIndex() {
  const { themes, theme, posts } = usePageData('blog', 'blog-theme')
  const themeName = (slug: string) => themes.find((candidate) => candidate.slug === slug)?.name
  return (
    <>
      <Seo
        title={theme ? `${theme.name} articles` : 'Blog: widgets, email marketing and growth'}
        description={
          theme
            ? theme.description
            : 'Practical guides on popups, lead generation, ecommerce and email marketing, plus Aurora and product updates from the Poplift team.'
        }
      />
      <StaticHtml className="page">
        {theme && (
          <Breadcrumbs
            trail={[
              { text: 'Blog', href: '/blog/' },
              { text: theme.name, href: `/blog/${theme.slug}/` },
            ]}
          />
        )}
        <header className="page-head">
          <p className="eyebrow">Blog</p>
          <h1>{theme ? theme.name : 'Ideas that grow lists and sales'}</h1>
          <p className="lead">
            {theme ? theme.description : 'Tactics, teardown and release notes for shop owners who want more subscribers and more orders.'}
          </p>
        </header>
        <nav className="chip-nav" aria-label="Blog themes">
          <ul>
            <li>
              <SiteLink href="/blog/" aria-current={theme ? undefined : 'page'}>
                All posts
              </SiteLink>
            </li>
            {themes.map((candidate) => (
              <li key={candidate.slug}>
                <SiteLink href={`/blog/${candidate.slug}/`} aria-current={candidate.slug === theme?.slug ? 'page' : undefined}>
                  {candidate.name}
                </SiteLink>
              </li>
            ))}
          </ul>
        </nav>
        <h2 className="visually-hidden">Posts</h2>
        <ul className="post-grid">
          {posts.map((post) => (
            <PostCard key={`${post.theme}/${post.slug}`} post={post} themeName={theme ? undefined : themeName(post.theme)} />
          ))}
        </ul>
      </StaticHtml>
    </>
  )
}
