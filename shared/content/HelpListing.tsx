import { Breadcrumbs } from '../components/Breadcrumbs.js'
import { StaticHtml } from '../components/StaticHtml.js'
import { Prose } from '../components/Prose.js'
import { Seo } from '../components/Seo.js'
import { SiteLink } from '../components/SiteLink.js'
import { formatCalendarDate } from '../dates.js'
import { usePageData } from '../page-data.js'
import { countLabel } from '../plural.js'
import type { HelpArticleSummary } from './schema.js'
import { HelpCountsLine } from './HelpIndex.js'

function ArticleList({ articles }: { articles: HelpArticleSummary[] }) {
  return (
    <ul className="article-list">
      {articles.map((article) => (
        <li key={article.path}>
          <SiteLink href={article.path}>{article.title}</SiteLink>
          <p>{article.description}</p>
        </li>
      ))}
    </ul>
  )
}

/** Help section, widget subsection and article pages. */
export default function HelpListing() {
  const data = usePageData('help-section', 'help-page', 'help-article')
  const { section, sub, breadcrumbs } = data

  if (data.kind === 'article') {
    const { article, siblings } = data
    return (
      <>
        <Seo title={article.title} description={article.description} type="article" />
        <StaticHtml className="page with-sidebar">
          <Breadcrumbs trail={breadcrumbs} />
          <article className="help-article">
            <header className="page-head">
              <h1>{article.title}</h1>
              <p className="lead">{article.description}</p>
              {article.updated && <p className="meta">Updated {formatCalendarDate(article.updated)}</p>}
            </header>
            <Prose html={article.html} />
          </article>
          <aside className="sidebar" aria-labelledby="siblings-title">
            <h2 id="siblings-title">In {sub?.name ?? section.name}</h2>
            <ul>
              {siblings.map((sibling) => (
                <li key={sibling.path}>
                  <SiteLink href={sibling.path} aria-current={sibling.slug === article.slug ? 'page' : undefined}>
                    {sibling.title}
                  </SiteLink>
                </li>
              ))}
            </ul>
          </aside>
        </StaticHtml>
      </>
    )
  }

  const listing = sub ?? section
  return (
    <>
      <Seo title={sub ? `${sub.name}: ${section.name} help` : `${section.name} help`} description={listing.description} />
      <StaticHtml className="page">
        <Breadcrumbs trail={breadcrumbs} />
        <header className="page-head">
          <h1>{sub ? sub.name : section.name}</h1>
          <p className="lead">{listing.description}</p>
          <HelpCountsLine counts={listing} />
        </header>
        {!sub && section.subs.length > 0 && (
          <ul className="card-grid help-grid">
            {section.subs.map((candidate) => (
              <li key={candidate.slug} className="help-card">
                <h2>
                  <SiteLink href={candidate.path}>{candidate.name}</SiteLink>
                </h2>
                <p>{candidate.description}</p>
                <p className="meta">{countLabel(candidate.articles, 'article')}</p>
              </li>
            ))}
          </ul>
        )}
        {data.articles.length > 0 && <ArticleList articles={data.articles} />}
      </StaticHtml>
    </>
  )
}
