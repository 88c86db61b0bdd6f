import { Prose } from '../components/Prose.js'
import { StaticHtml } from '../components/StaticHtml.js'
import { Seo } from '../components/Seo.js'
import { slugify } from '../slug.js'
import { usePageData } from '../page-data.js'

export default function Faq() {
  const { faq } = usePageData('faq')
  return (
    <>
      <Seo title={faq.title} description={faq.description} />
      <StaticHtml className="page narrow">
        <header className="page-head">
          <h1>{faq.title}</h1>
          <p className="lead">{faq.description}</p>
        </header>
        {faq.groups.map((group) => (
          <section key={group.name} className="faq-group" aria-labelledby={`faq-${slugify(group.name)}`}>
            <h2 id={`faq-${slugify(group.name)}`}>{group.name}</h2>
            {group.items.map((item) => (
              <details key={item.q} className="faq-item">
                <summary>{item.q}</summary>
                <Prose html={item.html} />
              </details>
            ))}
          </section>
        ))}
      </StaticHtml>
    </>
  )
}
