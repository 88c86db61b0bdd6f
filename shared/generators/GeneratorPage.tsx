/**
 * The frame of every generator page: heading, the tool (form and result area), examples drawn by
 * the image service, an explanation, a how-to, an FAQ and cards of the other generators.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react'
import { useLocation } from 'react-router'
import { Seo } from '../components/Seo.js'
import { SiteLink } from '../components/SiteLink.js'
import { StaticHtml } from '../components/StaticHtml.js'
import { fieldMessage, GENERIC_FAILURE, type GeneratorError } from './giffer-client.js'
import { useMacMarker } from './page-hooks.js'
import type { GeneratorCard, GeneratorPageBase } from './types.js'
import { VideoButton } from './VideoButton.js'

/** Cards shown before "Show more". */
const CARDS_SHOWN = 3

export function GeneratorPage({ data, children }: { data: GeneratorPageBase; children: ReactNode }) {
  useMacMarker()
  const { content, others, labels } = data
  return (
    <div className="generator-page">
      <Seo title={content.title} description={content.description} />
      <header className="page-head centered">
        <h1>{content.heading}</h1>
        <p className="lead">{content.intro}</p>
        {content.video && <VideoButton video={content.video} />}
      </header>
      <div className="generator-tool">{children}</div>
      {/* Below the tool, examples and explanations are text, images and links: left as the server drew them when the page hydrates. */}
      {content.examples.items.length > 0 && (
        <StaticHtml as="section" className="band generator-examples" aria-labelledby="examples-title">
          <h2 id="examples-title">{content.examples.title}</h2>
          <ul>
            {content.examples.items.map((example) => (
              <li key={example.src}>
                <figure>
                  <img src={example.src} alt={example.alt} width={example.width} height={example.height} loading="lazy" decoding="async" />
                  <figcaption>{example.caption}</figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </StaticHtml>
      )}
      <StaticHtml className="band generator-copy">
        <section aria-labelledby="explanation-title">
          <h2 id="explanation-title">{content.explanation.title}</h2>
          {content.explanation.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
        <section aria-labelledby="how-to-title">
          <h2 id="how-to-title">{content.howTo.title}</h2>
          <ol className="how-to">
            {content.howTo.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </section>
      </StaticHtml>
      <FaqSection faq={content.faq} />
      <section className="band" aria-labelledby="others-title">
        <h2 id="others-title">{labels.others}</h2>
        <ShowMoreCards cards={others} label={labels.showMore} />
      </section>
    </div>
  )
}

/** Questions that open and close by themselves (<details>): left as the server drew them when the page hydrates. */
export function FaqSection({ faq }: { faq: { title: string; items: { q: string; a: string }[] } }) {
  return (
    <StaticHtml as="section" className="band generator-faq" aria-labelledby="faq-title">
      <h2 id="faq-title">{faq.title}</h2>
      {faq.items.map((item) => (
        <details key={item.q} className="faq-item">
          <summary>{item.q}</summary>
          <p>{item.a}</p>
        </details>
      ))}
    </StaticHtml>
  )
}

/** Generator cards, the first few shown and the rest behind "Show more" (hidden, then shown). */
export function ShowMoreCards({ cards, label }: { cards: GeneratorCard[]; label: string }) {
  const [expanded, setExpanded] = useState(false)
  const list = useRef<HTMLUListElement>(null)
  const showMore = () => {
    setExpanded(true)
    // Keyboard users land on the first card that appeared.
    requestAnimationFrame(() => list.current?.querySelectorAll<HTMLAnchorElement>('a')[CARDS_SHOWN]?.focus())
  }
  return (
    <>
      <ul ref={list} className="card-grid generator-cards" id="generator-cards">
        {cards.map((card, index) => (
          <li key={card.name} className={`generator-card generator-${card.name}`} hidden={!expanded && index >= CARDS_SHOWN}>
            <h3>{card.title}</h3>
            <p>{card.description}</p>
            <SiteLink className="button button-secondary" href={card.link}>
              {card.button}
            </SiteLink>
          </li>
        ))}
      </ul>
      {!expanded && cards.length > CARDS_SHOWN && (
        <p className="show-more">
          <button type="button" className="button button-ghost" aria-expanded="false" aria-controls="generator-cards" onClick={showMore}>
            {label}
          </button>
        </p>
      )}
    </>
  )
}

interface GeneratorFormProps {
  label: string
  loading: boolean
  submit: { idle: string; loading: string }
  onSubmit: () => void
  children: ReactNode
}

/** The form and its submit button, which reads "loading" while a request runs. */
export function GeneratorForm({ label, loading, submit, onSubmit, children }: GeneratorFormProps) {
  // Without a script the form reloads the page with its settings in the query.
  const action = useLocation().pathname
  const handle = (event: FormEvent) => {
    event.preventDefault()
    onSubmit()
  }
  return (
    <form className="generator-form" method="get" action={action} aria-label={label} aria-busy={loading} onSubmit={handle} noValidate>
      {children}
      <button type="submit" className="button button-primary button-large button-block" aria-disabled={loading || undefined}>
        {loading ? submit.loading : submit.idle}
      </button>
    </form>
  )
}

/**
 * The result area: the error block after a failure, else the result, else a placeholder. The
 * block names what went wrong unless `errorDetail` is false (the slideshow, whose failures are
 * about uploads the visitor cannot act on).
 */
export function ResultArea({ title, loading, error, empty, errorDetail = true, children }: { title: string; loading: boolean; error: GeneratorError | null; empty: string; errorDetail?: boolean; children: ReactNode }) {
  return (
    <section className="generator-result" aria-labelledby="result-title" aria-busy={loading}>
      <h2 id="result-title" className="visually-hidden">
        {title}
      </h2>
      <div aria-live="polite">
        {error ? (
          <div className="generator-error" role="alert">
            <p>{GENERIC_FAILURE}</p>
            {errorDetail && <p>{error.message}</p>}
          </div>
        ) : (
          (children || <p className="result-empty">{empty}</p>)
        )}
      </div>
    </section>
  )
}

/** The message beside a control when the service's error names one of its request fields. */
export function messageFor(error: GeneratorError | null, ...fields: string[]): string | null {
  return error?.field && fields.includes(error.field) ? fieldMessage(error) : null
}
