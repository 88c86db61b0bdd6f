import { Prose } from '../components/Prose.js'
import { StaticHtml } from '../components/StaticHtml.js'
import { Seo } from '../components/Seo.js'
import { formatCalendarDate } from '../dates.js'
import { usePageData } from '../page-data.js'
import { contentPageIds } from './content.route.js'

/** A page written in Markdown: company, legal and product pages. */
export default function ContentPage() {
  const { page } = usePageData(...contentPageIds)
  return (
    <>
      <Seo title={page.title} description={page.description} />
      <StaticHtml as="article" className="page narrow">
        <header className="page-head">
          <h1>{page.title}</h1>
          <p className="lead">{page.description}</p>
          {page.updated && <p className="meta">Last updated {formatCalendarDate(page.updated)}</p>}
        </header>
        {page.headings.length > 3 && (
          <nav className="toc" aria-label="On this page">
            <h2>On this page</h2>
            <ol>
              {page.headings.map((heading) => (
                <li key={heading.id}>
                  <a href={`#${heading.id}`}>{heading.text}</a>
                </li>
              ))}
            </ol>
          </nav>
        )}
        <Prose html={page.html} />
      </StaticHtml>
    </>
  )
}
