import { Breadcrumbs } from '../components/Breadcrumbs.js'
import { StaticHtml } from '../components/StaticHtml.js'
import { Prose } from '../components/Prose.js'
import { Seo } from '../components/Seo.js'
import { SiteLink } from '../components/SiteLink.js'
import { usePageData } from '../page-data.js'

/** /usecase/ lists the use cases; /usecase/{section}/ tells one. */
export default function UseCases() {
  const { useCases, current } = usePageData('usecase', 'usecase-section')
  if (current) {
    return (
      <>
        <Seo title={current.title} description={current.description} />
        <StaticHtml className="page narrow">
          <Breadcrumbs
            trail={[
              { text: 'Use cases', href: '/usecase/' },
              { text: current.name, href: `/usecase/${current.slug}/` },
            ]}
          />
          <article>
            <header className="page-head">
              <p className="eyebrow">Use case</p>
              <h1>{current.title}</h1>
              <p className="lead">{current.description}</p>
            </header>
            <Prose html={current.html} />
          </article>
          <nav className="chip-nav" aria-label="Other use cases">
            <ul>
              {useCases
                .filter((useCase) => useCase.slug !== current.slug)
                .map((useCase) => (
                  <li key={useCase.slug}>
                    <SiteLink href={`/usecase/${useCase.slug}/`}>{useCase.name}</SiteLink>
                  </li>
                ))}
            </ul>
          </nav>
        </StaticHtml>
      </>
    )
  }
  return (
    <>
      <Seo title="Use cases" description="See how shops use Poplift to build an email list, collect feedback, take requests, announce news and sell more on Shopify." />
      <StaticHtml className="page">
        <header className="page-head centered">
          <p className="eyebrow">Use cases</p>
          <h1>What you can do with Poplift</h1>
          <p className="lead">Five common goals, each with the widgets, targeting and emails that get you there.</p>
        </header>
        <ul className="card-grid">
          {useCases.map((useCase) => (
            <li key={useCase.slug} className="usecase-card">
              <h2>
                <SiteLink href={`/usecase/${useCase.slug}/`}>{useCase.name}</SiteLink>
              </h2>
              <p>{useCase.summary}</p>
            </li>
          ))}
        </ul>
      </StaticHtml>
    </>
  )
}
