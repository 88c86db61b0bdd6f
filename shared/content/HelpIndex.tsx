import { Seo } from '../components/Seo.js'
import { StaticHtml } from '../components/StaticHtml.js'
import { SiteLink } from '../components/SiteLink.js'
import { usePageData } from '../page-data.js'
import { countLabel } from '../plural.js'
import type { HelpCounts } from './schema.js'

export function HelpCountsLine({ counts }: { counts: HelpCounts }) {
  return (
    <p className="meta help-counts">
      {countLabel(counts.articles, 'article')} · {countLabel(counts.videos, 'video')}
    </p>
  )
}

export default function HelpIndex() {
  const { sections } = usePageData('help')
  return (
    <>
      <Seo title="Help center" description="Step-by-step guides for installing widgets, designing and targeting them, managing contacts, broadcasts, automations and your account." />
      <StaticHtml className="page">
        <header className="page-head centered">
          <p className="eyebrow">Help center</p>
          <h1>How can we help?</h1>
          <p className="lead">Guides for every part of Poplift, from the first widget to automated email flows.</p>
        </header>
        <ul className="card-grid help-grid">
          {sections.map((section) => (
            <li key={section.slug} className="help-card">
              <h2>
                <SiteLink href={section.path}>{section.name}</SiteLink>
              </h2>
              <p>{section.description}</p>
              <HelpCountsLine counts={section} />
              {section.subs.length > 0 && (
                <ul className="help-subs">
                  {section.subs.map((sub) => (
                    <li key={sub.slug}>
                      <SiteLink href={sub.path}>{sub.name}</SiteLink> <span className="meta">({countLabel(sub.articles, 'article')})</span>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </StaticHtml>
    </>
  )
}
