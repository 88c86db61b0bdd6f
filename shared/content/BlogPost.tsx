import { Breadcrumbs } from '../components/Breadcrumbs.js'
import { StaticHtml } from '../components/StaticHtml.js'
import { Prose } from '../components/Prose.js'
import { Seo } from '../components/Seo.js'
import { formatCalendarDate } from '../dates.js'
import { usePageData } from '../page-data.js'
import { PostCard } from './BlogIndex.js'

export default function BlogPost() {
  const { post, theme, related } = usePageData('blog-post')
  return (
    <>
      <Seo title={post.title} description={post.description} type="article" />
      <StaticHtml className="page narrow">
        <Breadcrumbs
          trail={[
            { text: 'Blog', href: '/blog/' },
            { text: theme.name, href: `/blog/${theme.slug}/` },
            { text: post.title, href: `/blog/${theme.slug}/${post.slug}/` },
          ]}
        />
        <article>
          <header className="page-head">
            <h1>{post.title}</h1>
            <p className="lead">{post.description}</p>
            <p className="meta">
              {post.author} · <time dateTime={post.date}>{formatCalendarDate(post.date)}</time> · {post.readingMinutes} min read
            </p>
          </header>
          <Prose html={post.html} />
          {post.tags.length > 0 && (
            <ul className="tag-list" aria-label="Tags">
              {post.tags.map((tag) => (
                <li key={tag}>{tag}</li>
              ))}
            </ul>
          )}
        </article>
        {related.length > 0 && (
          <section className="related" aria-labelledby="related-title">
            <h2 id="related-title">More in {theme.name}</h2>
            <ul className="post-grid">
              {related.map((summary) => (
                <PostCard key={summary.slug} post={summary} />
              ))}
            </ul>
          </section>
        )}
      </StaticHtml>
    </>
  )
}
