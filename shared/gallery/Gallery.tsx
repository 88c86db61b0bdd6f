import { useCallback, useEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react'
import { useNavigate } from 'react-router'
import { Breadcrumbs } from '../components/Breadcrumbs.js'
import { Seo } from '../components/Seo.js'
import { isPlainClick, SiteLink } from '../components/SiteLink.js'
import { GALLERY_ROOT, openTemplateOf, templatePath, thumbnailSrcSet, thumbnailUrl, type GalleryKind } from './paths.js'
import PreviewDialog from './PreviewDialog.js'
import { THUMBNAIL_ASPECT, THUMBNAIL_WIDTHS } from './thumbnail-sizes.js'
import { usePageData } from '../page-data.js'
import type { GalleryListingData, GalleryRootData, GalleryRow, TemplateCard } from './gallery.route.js'
import { GALLERY_ROUTE_IDS } from './gallery.route.js'


/** After a filter change the page scrolls back up to here, where the listing starts. */
export const FILTER_SCROLL_TOP = 258
const CARD_SIZES = '(max-width: 600px) 92vw, (max-width: 1230px) 45vw, 376px'
const EAGER_CARDS = 4

const NAMES: Record<GalleryKind, string> = { widgets: 'Widgets', emails: 'Emails' }

/**
 * A template's preview over the page the visitor is on, kept in the browser's history: opening
 * pushes the template's address, previous/next replace it, and closing goes back, so the page
 * behind is left as it was and the browser's Back closes the preview too. A preview the visit
 * began on (a template's own address) has nothing here to go back to: closing leads to `leavePath`.
 */
function usePreviewHistory(kind: GalleryKind, initial: string | null, leavePath: string) {
  const navigate = useNavigate()
  const [open, setOpen] = useState<string | null>(initial)
  /** Whether the preview was opened on this page (so closing goes back) or the visit began on it. */
  const openedHere = useRef(false)

  useEffect(() => setOpen(initial), [initial])

  // Back and forward between the page and a preview opened from it.
  useEffect(() => {
    const onPop = () => setOpen(openTemplateOf(window.location.pathname))
    window.addEventListener('popstate', onPop)
    return () => window.removeEventListener('popstate', onPop)
  }, [])

  const openTemplate = useCallback(
    (hid: string) => {
      openedHere.current = true
      window.history.pushState({ ...window.history.state, gallery: hid }, '', templatePath(kind, hid))
      setOpen(hid)
    },
    [kind],
  )

  const step = useCallback(
    (hid: string) => {
      window.history.replaceState(window.history.state, '', templatePath(kind, hid) + window.location.search)
      setOpen(hid)
    },
    [kind],
  )

  const close = useCallback(() => {
    if (openedHere.current && window.history.state?.gallery) {
      openedHere.current = false
      window.history.back()
    } else {
      setOpen(null)
      void navigate(leavePath)
    }
  }, [leavePath, navigate])

  return { open, openTemplate, step, close }
}

/** The page's title, description and image while a template's preview is open over it. */
function TemplateSeo({ kind, card }: { kind: GalleryKind; card: TemplateCard }) {
  return (
    <Seo
      title={`${card.name} — ${kind === 'widgets' ? 'widget' : 'email'} template`}
      description={
        kind === 'widgets'
          ? `Preview the ${card.name} widget template on desktop and mobile, then make it yours for free.`
          : `Preview the ${card.name} email template in light and dark mode, on desktop and mobile, then customize it for free.`
      }
      image={thumbnailUrl(kind, card.hid, THUMBNAIL_WIDTHS[kind][3], 'webp', card.revision)}
    />
  )
}

export function TemplateCardView({ kind, card, index, onOpen }: { kind: GalleryKind; card: TemplateCard; index: number; onOpen: (hid: string) => void }) {
  const [width, height] = kind === 'widgets' ? [376, Math.round(376 / THUMBNAIL_ASPECT.widgets)] : [376, Math.round(376 / THUMBNAIL_ASPECT.emails)]
  const eager = index < EAGER_CARDS
  return (
    <li className={`template-card template-card-${kind}`}>
      <a
        href={templatePath(kind, card.hid)}
        onClick={(event) => {
          if (!isPlainClick(event)) return
          event.preventDefault()
          onOpen(card.hid)
        }}
      >
        <picture>
          <source type="image/webp" srcSet={thumbnailSrcSet(kind, card.hid, 'webp', card.revision)} sizes={CARD_SIZES} />
          <img
            src={thumbnailUrl(kind, card.hid, THUMBNAIL_WIDTHS[kind][2], 'webp', card.revision)}
            width={width}
            height={height}
            alt=""
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
          />
        </picture>
        <span className="template-name">{card.name}</span>
        {card.label && <span className="template-label">{card.label}</span>}
      </a>
    </li>
  )
}

function GalleryRowView({ kind, row, onOpen }: { kind: GalleryKind; row: GalleryRow; onOpen: (hid: string) => void }) {
  const trackRef = useRef<HTMLUListElement>(null)
  const scroll = (direction: 1 | -1) => {
    const track = trackRef.current
    if (track) track.scrollBy({ left: direction * track.clientWidth * 0.9, behavior: 'smooth' })
  }
  const headingId = `row-${row.path.replace(/\W+/g, '-')}`
  return (
    <section className="gallery-row" aria-labelledby={headingId}>
      <header>
        <h2 id={headingId}>
          {row.icon && <span className="group-icon" aria-hidden="true" dangerouslySetInnerHTML={{ __html: row.icon }} />}
          <SiteLink href={row.path}>{row.name}</SiteLink> <span className="count">{row.count}</span>
        </h2>
        <div className="row-controls">
          <button type="button" className="carousel-arrow" aria-label={`Scroll ${row.name} back`} onClick={() => scroll(-1)}>
            ‹
          </button>
          <button type="button" className="carousel-arrow" aria-label={`Scroll ${row.name} forward`} onClick={() => scroll(1)}>
            ›
          </button>
          <SiteLink className="see-all" href={row.path}>
            See all {row.count}
          </SiteLink>
        </div>
      </header>
      <ul className="gallery-track" ref={trackRef}>
        {row.cards.map((card, index) => (
          <TemplateCardView key={card.hid} kind={kind} card={card} index={index} onOpen={onOpen} />
        ))}
      </ul>
    </section>
  )
}

function GalleryRoot({ data }: { data: GalleryRootData }) {
  const kind = data.gallery
  const preview = usePreviewHistory(kind, null, GALLERY_ROOT[kind])
  /** The row the preview was opened from: previous and next move through its cards. */
  const [rowPath, setRowPath] = useState<string | null>(null)
  // Forgotten once the preview closes: going forward to it again loads the template's own page.
  useEffect(() => {
    if (!preview.open) setRowPath(null)
  }, [preview.open])
  const openRow = preview.open ? data.rows.find((row) => row.path === rowPath) : undefined
  const openCard = openRow?.cards.find((card) => card.hid === preview.open)
  const title = kind === 'widgets' ? 'Widget templates' : 'Email templates'
  const description =
    kind === 'widgets'
      ? `${data.total} ready-made popups, bars, slide-ins and inline forms: discounts, subscriptions, feedback, age gates and more.`
      : `${data.total} ready-made email templates: welcome series, products, coupons, news, review requests and abandoned carts.`
  return (
    <div className="page gallery">
      {openCard ? <TemplateSeo kind={kind} card={openCard} /> : <Seo title={title} description={description} />}
      <header className="page-head">
        <h1>{title}</h1>
        <p className="lead">{description}</p>
        <form className="gallery-search" role="search" action={GALLERY_ROOT[kind]} method="get">
          <label htmlFor="gallery-q">Search templates</label>
          <input id="gallery-q" name="q" type="search" maxLength={80} placeholder="Black Friday, survey, WhatsApp…" />
          <button type="submit">Search</button>
        </form>
      </header>
      {data.rows.map((row) => (
        <GalleryRowView
          key={row.path}
          kind={kind}
          row={row}
          onOpen={(hid) => {
            setRowPath(row.path)
            preview.openTemplate(hid)
          }}
        />
      ))}
      {openRow && openCard && (
        <PreviewDialog key={openRow.path} kind={kind} cards={openRow.cards} hid={openCard.hid} listingPath={openRow.path} onNavigate={preview.step} onClose={preview.close} />
      )}
    </div>
  )
}

/** Sends filter changes to the analytics layer, as the other tracked actions of the site. */
function trackFilter(kind: GalleryKind, url: string) {
  const win = window as Window & { dataLayer?: object[] }
  win.dataLayer ??= []
  win.dataLayer.push({ event: 'galleryFilter', gallery: kind, url })
}

function GalleryListing({ data }: { data: GalleryListingData }) {
  const kind = data.gallery
  const navigate = useNavigate()
  const cards = data.sections.flatMap((section) => section.cards)
  const preview = usePreviewHistory(kind, data.open, data.listingPath)

  const changeFilter = (url: string) => {
    trackFilter(kind, url)
    void navigate(url, { state: { scrollCap: FILTER_SCROLL_TOP } })
  }

  /** The sidebar's groups and categories are filter changes too: tracked, and the listing kept in view. */
  const followFilterLink = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event)) return
    event.preventDefault()
    changeFilter(event.currentTarget.getAttribute('href')!)
  }

  const submitFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const sub = String(form.get('sub') ?? '')
    const params = new URLSearchParams()
    for (const name of ['position', 'q']) {
      const value = String(form.get(name) ?? '').trim()
      if (value) params.set(name, value)
    }
    const path = data.subs.find((candidate) => candidate.value === sub)?.path ?? data.listingPath
    changeFilter(params.size ? `${path}?${params}` : path)
  }

  const openCard = preview.open ? cards.find((card) => card.hid === preview.open) : undefined

  return (
    <div className="page gallery with-sidebar">
      {openCard ? <TemplateSeo kind={kind} card={openCard} /> : <Seo title={data.title} description={data.description} />}
      <Breadcrumbs trail={data.breadcrumbs} />
      <div className="gallery-main">
        <header className="page-head">
          <h1>{data.title}</h1>
          <p className="lead">{data.description}</p>
        </header>
        <form className="gallery-filter" action={data.listingPath} method="get" onSubmit={submitFilter}>
          {data.subs.length > 0 && (
            <label>
              <span>Category</span>
              <select name="sub" defaultValue={data.subs.find((sub) => sub.current)?.value ?? ''} onChange={(event) => event.currentTarget.form?.requestSubmit()}>
                {data.subs.map((sub) => (
                  <option key={sub.path} value={sub.value}>
                    {sub.name} ({sub.count})
                  </option>
                ))}
              </select>
            </label>
          )}
          {data.positions.length > 0 && (
            <label>
              <span>Type</span>
              <select name="position" defaultValue={data.position ?? ''} onChange={(event) => event.currentTarget.form?.requestSubmit()}>
                {data.positions.map((position) => (
                  <option key={position.path} value={position.value}>
                    {position.name} ({position.count})
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="gallery-filter-q">
            <span>Search</span>
            <input name="q" type="search" maxLength={80} defaultValue={data.q} />
          </label>
          <button type="submit">Apply</button>
        </form>
        <p className="gallery-total" aria-live="polite">
          {data.total === 1 ? '1 template' : `${data.total} templates`}
        </p>
        {data.total === 0 ? (
          <p className="gallery-empty">
            No matches found, try resetting filter. <SiteLink href={data.listingPath}>Reset filter</SiteLink> or{' '}
            <a href="mailto:templates@poplift.io?subject=Template%20request">request a template</a>.
          </p>
        ) : (
          data.sections.map((section) =>
            section.cards.length ? (
              <section key={section.key} className="gallery-section" aria-label={section.title}>
                {data.sections.filter((other) => other.cards.length).length > 1 && <h2>{section.title}</h2>}
                {section.key === 'inline' && (
                  <p>
                    Inline widgets sit inside your page’s content. <SiteLink href="/help/widgets/installation/">How to embed inline widgets</SiteLink>
                  </p>
                )}
                <ul className="gallery-grid">
                  {section.cards.map((card, index) => (
                    <TemplateCardView key={card.hid} kind={kind} card={card} index={index} onOpen={preview.openTemplate} />
                  ))}
                </ul>
              </section>
            ) : null,
          )
        )}
        {data.extensions.length > 0 && (
          <ul className="gallery-extensions">
            {data.extensions.map((extension) => (
              <li key={extension.url}>
                <a href={extension.url}>{extension.text}</a>
              </li>
            ))}
          </ul>
        )}
      </div>
      {/* After the listing in the document, so that on phones (where it sits below) the page
          never moves down while it loads; the grid places it beside the listing on wide screens. */}
      <aside className="sidebar gallery-sidebar" aria-label={`${NAMES[kind]} groups`}>
        <ul>
          {data.sidebar.map((group) => (
            <li key={group.path} className={group.subs.length ? 'has-subs' : undefined}>
              <SiteLink onClick={followFilterLink} href={group.path} aria-current={group.current && !group.subs.some((sub) => sub.current) ? 'page' : undefined}>
                {group.name}
              </SiteLink>{' '}
              <span className="count">{group.count}</span>
              {/* The group's link and the control that shows its categories are two elements (a
                  link inside a <summary> would be a control inside a control); a native disclosure,
                  so the categories open without the script too. */}
              {group.subs.length > 0 && (
                <details open={group.current}>
                  <summary>
                    <span className="visually-hidden">{group.name} categories</span>
                    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
                      <path d="M6 3.5 10.5 8 6 12.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
                    </svg>
                  </summary>
                  <ul>
                    {group.subs.map((sub) => (
                      <li key={sub.path}>
                        <SiteLink onClick={followFilterLink} href={sub.path} aria-current={sub.current ? 'page' : undefined}>
                          {sub.name}
                        </SiteLink>{' '}
                        <span className="count">{sub.count}</span>
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </li>
          ))}
        </ul>
      </aside>
      {openCard && (
        <PreviewDialog
          key={kind}
          kind={kind}
          cards={cards}
          hid={openCard.hid}
          listingPath={data.listingPath}
          onNavigate={preview.step}
          onClose={preview.close}
        />
      )}
    </div>
  )
}

/** The widget and email galleries: the root rows, a group's listing, and a template's preview over it. */
export default function Gallery() {
  const data = usePageData(...GALLERY_ROUTE_IDS)
  return data.kind === 'root' ? <GalleryRoot data={data} /> : <GalleryListing data={data} />
}
