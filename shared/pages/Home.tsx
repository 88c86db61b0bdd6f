import { FeatureArt, KindIcon } from '../components/FeatureArt.js'
import { Seo } from '../components/Seo.js'
import { SiteLink } from '../components/SiteLink.js'
import { StoreCarousel } from '../components/StoreCarousel.js'
import { usePageData } from '../page-data.js'

export default function Home() {
  const { home } = usePageData('home')
  const { hero, widgetKinds, sections, storeExamples, generators } = home
  return (
    <>
      <Seo title={home.title} description={home.description} />
      <section className="hero">
        <div className="hero-copy">
          <p className="eyebrow">{hero.eyebrow}</p>
          <h1>{hero.title}</h1>
          <p className="lead">{hero.subtitle}</p>
          <div className="hero-actions">
            <SiteLink className="button button-primary button-large" href={hero.primaryCta.href}>
              {hero.primaryCta.text}
            </SiteLink>
            <SiteLink className="button button-secondary button-large" href={hero.secondaryCta.href}>
              {hero.secondaryCta.text}
            </SiteLink>
          </div>
          <p className="hero-note">{hero.note}</p>
        </div>
        <div className="hero-art" aria-hidden="true">
          <div className="mock-window">
            <div className="mock-bar">
              <span />
              <span />
              <span />
            </div>
            <div className="mock-page">
              <div className="mock-line wide" />
              <div className="mock-line" />
              <div className="mock-tiles">
                <span />
                <span />
                <span />
              </div>
            </div>
            <div className="mock-popup">
              <strong className="mock-title" />
              <span className="mock-input" />
              <span className="mock-button" />
            </div>
          </div>
        </div>
      </section>

      <section className="band" aria-labelledby="kinds-title">
        <div className="section-head">
          <h2 id="kinds-title">{widgetKinds.title}</h2>
          <p>{widgetKinds.subtitle}</p>
        </div>
        <ul className="kind-grid">
          {widgetKinds.items.map((kind) => (
            <li key={kind.slug} className="kind-card">
              <SiteLink href={kind.href}>
                <KindIcon kind={kind.slug} />
                <span className="kind-name">{kind.name}</span>
                <span className="kind-description">{kind.description}</span>
              </SiteLink>
            </li>
          ))}
        </ul>
      </section>

      {sections.map((section, index) => (
        <section key={section.id} id={section.id} className={index % 2 ? 'feature feature-reverse' : 'feature'} aria-labelledby={`${section.id}-title`}>
          <div className="feature-copy">
            <p className="eyebrow">{section.eyebrow}</p>
            <h2 id={`${section.id}-title`}>{section.title}</h2>
            <p>{section.text}</p>
            <ul className="check-list">
              {section.bullets.map((bullet) => (
                <li key={bullet}>{bullet}</li>
              ))}
            </ul>
            <SiteLink className="text-link" href={section.link.href}>
              {section.link.text}
            </SiteLink>
          </div>
          <FeatureArt section={section.id} />
        </section>
      ))}

      <section className="band band-tinted" aria-labelledby="stores-title">
        <div className="section-head">
          <h2 id="stores-title">{storeExamples.title}</h2>
          <p>{storeExamples.subtitle}</p>
        </div>
        <StoreCarousel examples={storeExamples} />
      </section>

      <section className="band" aria-labelledby="generators-title">
        <div className="section-head">
          <h2 id="generators-title">{generators.title}</h2>
          <p>{generators.subtitle}</p>
        </div>
        <ul className="card-grid">
          {generators.items.map((generator) => (
            <li key={generator.name} className={`generator-card generator-${generator.name}`}>
              <h3>{generator.title}</h3>
              <p>{generator.description}</p>
              <SiteLink className="button button-secondary" href={generator.link}>
                {generator.button}
              </SiteLink>
            </li>
          ))}
        </ul>
      </section>
    </>
  )
}
