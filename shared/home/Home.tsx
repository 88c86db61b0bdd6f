import { FeatureArt, KindIcon, ShopWindow } from './FeatureArt.js'
import { TemplateImage } from '../gallery/TemplateImage.js'
import { Seo } from '../components/Seo.js'
import { SiteLink } from '../components/SiteLink.js'
import { StaticHtml } from '../components/StaticHtml.js'
import { StoreCarousel } from './StoreCarousel.js'
import { templatePath, type GalleryKind } from '../gallery/paths.js'
import { usePageData } from '../page-data.js'
import type { TemplateCard } from '../gallery/gallery.route.js'
import type { HomeTemplateCards } from './home.route.js'

const cardsOf = (cards: HomeTemplateCards, kind: GalleryKind, ids: readonly string[]): TemplateCard[] =>
  ids.flatMap((hid) => (cards[kind][hid] ? [cards[kind][hid]] : []))

/** How wide a row's card is drawn (see `.template-row-cards` in the styles): four abreast, or a row to swipe on phones. */
const ROW_CARD_SIZES: Record<GalleryKind, string> = {
  widgets: '(max-width: 768px) calc(72vw - 29px), (max-width: 1200px) calc(25vw - 28px), 272px',
  emails: '(max-width: 768px) calc(46vw - 18px), (max-width: 1200px) calc(25vw - 28px), 272px',
}

/** How wide the hero's shop window and email are drawn (see `.hero-art` in the styles): beside the copy, or under it on phones. */
const HERO_SIZES = {
  window: '(max-width: 768px) calc(90vw - 36px), (max-width: 1240px) calc(43vw - 38px), 480px',
  email: '(max-width: 768px) calc(30vw - 12px), (max-width: 1240px) calc(14vw - 12px), 160px',
}

/**
 * A template's card as the galleries draw theirs (TemplateCardView in Gallery.tsx), for this
 * page: below the fold, so its image loads as it scrolls near, and cut for the rows' width.
 */
function TemplateRowCard({ kind, card }: { kind: GalleryKind; card: TemplateCard }) {
  return (
    <li className={`template-card template-card-${kind}`}>
      <SiteLink href={templatePath(kind, card.hid)}>
        {/* The name below says what the image shows. */}
        <TemplateImage kind={kind} card={card} sizes={ROW_CARD_SIZES[kind]} loading="lazy" alt="" />
        <span className="template-name">{card.name}</span>
        {card.label && <span className="template-label">{card.label}</span>}
      </SiteLink>
    </li>
  )
}

export default function Home() {
  const { home, cards } = usePageData('home')
  const { hero, templates, widgetKinds, sections, storeExamples, generators } = home
  const heroWidget = cards.widgets[hero.showcase.widget]
  const heroEmail = cards.emails[hero.showcase.email]
  return (
    <>
      <Seo title={home.title} description={home.description} />
      {/* Every section but the shops' carousel is text, images and links: left as the server drew it when the page hydrates. */}
      <StaticHtml as="section" className="hero">
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
        <div className="hero-art">
          {/* The shop window is the first screen's largest image: fetched at once, ahead of the rest. */}
          {heroWidget && <ShopWindow card={heroWidget} sizes={HERO_SIZES.window} loading="lcp" />}
          {heroEmail && <TemplateImage className="hero-email" kind="emails" card={heroEmail} sizes={HERO_SIZES.email} loading="eager" />}
        </div>
      </StaticHtml>

      <StaticHtml as="section" className="band" aria-labelledby="kinds-title">
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
      </StaticHtml>

      <StaticHtml as="section" className="band home-templates" aria-labelledby="templates-title">
        <div className="section-head">
          <h2 id="templates-title">{templates.title}</h2>
          <p>{templates.subtitle}</p>
        </div>
        {templates.rows.map((row) => (
          <div key={row.title} className="template-row">
            <div className="template-row-head">
              <h3>{row.title}</h3>
              <SiteLink className="text-link" href={row.link.href}>
                {row.link.text}
              </SiteLink>
            </div>
            <ul className={`template-row-cards template-row-${row.kind}`}>
              {cardsOf(cards, row.kind, row.ids).map((card) => (
                <TemplateRowCard key={card.hid} kind={row.kind} card={card} />
              ))}
            </ul>
          </div>
        ))}
      </StaticHtml>

      {sections.map((section, index) => (
        <StaticHtml as="section" key={section.id} id={section.id} className={index % 2 ? 'feature feature-reverse' : 'feature'} aria-labelledby={`${section.id}-title`}>
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
          <FeatureArt section={section.id} templates={section.templates && { kind: section.templates.kind, cards: cardsOf(cards, section.templates.kind, section.templates.ids) }} />
        </StaticHtml>
      ))}

      <section className="band band-tinted" aria-labelledby="stores-title">
        <div className="section-head">
          <h2 id="stores-title">{storeExamples.title}</h2>
          <p>{storeExamples.subtitle}</p>
        </div>
        <StoreCarousel examples={storeExamples} />
      </section>

      <StaticHtml as="section" className="band" aria-labelledby="generators-title">
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
      </StaticHtml>
    </>
  )
}
