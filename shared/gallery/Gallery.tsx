import { useEffect, useRef, useState } from 'react'
import { Breadcrumbs } from '../components/Breadcrumbs.js'
import { Seo } from '../components/Seo.js'
import { isPlainClick, SiteLink } from '../components/SiteLink.js'
import { StaticHtml } from '../components/StaticHtml.js'
import { GALLERY_ROOT, openTemplateOf, templatePath, thumbnailUrl, type GalleryKind } from './paths.js'
import { GalleryFilter, useFilterChange } from './GalleryFilter.js'
import { GallerySidebar } from './GallerySidebar.js'
import { usePreviewHistory } from './use-preview-history.js'
import PreviewDialog from './PreviewDialog.js'
import { THUMBNAIL_WIDTHS } from './thumbnail-sizes.js'
import { TemplateImage, type ImageLoading } from './TemplateImage.js'
import { usePageData } from '../page-data.js'
import type { GalleryListingData, GalleryRootData, GalleryRow, TemplateCard } from './gallery.route.js'
import { GALLERY_ROUTE_IDS } from './gallery.route.js'

/** How wide a card is drawn (see `.gallery-grid` and `.gallery-track` in the styles). */
const GRID_CARD_SIZES = '(max-width: 600px) 92vw, (max-width: 1230px) 45vw, 376px'
const TRACK_CARD_SIZES = 'min(80vw, 300px)'
/** Cards on the first screen of a gallery, at most: four abreast on a wide screen. */
const FIRST_SCREEN_CARDS = 4
/**
 * The words the search box suggests, each of which finds templates of its gallery among those
 * listed all year (not a hidden seasonal group such as Black Friday).
 */
const SEARCH_SUGGESTIONS: Record<GalleryKind, string> = {
  widgets: 'discount, survey, WhatsApp…',
  emails: 'welcome, abandoned cart, coupon…',
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

/**
 * How a card image is fetched by its place: the page's first card is likely its largest paint,
 * the rest of the first row or grid fill the first screen, and everything below waits until it
 * scrolls near. Only the first row counts: eager images in every row of a gallery would all
 * download, and share the connection, before the one the visitor is looking at. A listing
 * covered by a preview has no first row in this sense: its cards are not what the visitor sees,
 * and the app would wait for the first card to be drawn (see `ImageLoading`).
 */
function cardLoading(firstRow: boolean, index: number): ImageLoading {
  if (!firstRow || index >= FIRST_SCREEN_CARDS) return 'lazy'
  return index === 0 ? 'lcp' : 'eager'
}

function TemplateCardView({
  kind,
  card,
  sizes,
  loading,
  onOpen,
}: {
  kind: GalleryKind
  card: TemplateCard
  sizes: string
  loading: ImageLoading
  onOpen: (hid: string) => void
}) {
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
        {/* The name below says what the image shows. */}
        <TemplateImage kind={kind} card={card} sizes={sizes} loading={loading} alt="" />
        <span className="template-name">{card.name}</span>
        {card.label && <span className="template-label">{card.label}</span>}
      </a>
    </li>
  )
}

/**
 * The cards of a row or grid are left as the server drew them when the page hydrates (a gallery
 * has hundreds of elements in them, and nothing to do but open a preview): a plain click on a
 * card's link opens its preview over the page, as the card's own handler does once React draws it.
 */
const openCardLink = (kind: GalleryKind, onOpen: (hid: string) => void) => (anchor: HTMLAnchorElement) => {
  const hid = openTemplateOf(anchor.pathname)
  if (hid === null || anchor.pathname !== templatePath(kind, hid)) return false
  onOpen(hid)
  return true
}

function GalleryRowView({ kind, row, first, onOpen }: { kind: GalleryKind; row: GalleryRow; first: boolean; onOpen: (hid: string) => void }) {
  const trackRef = useRef<HTMLUListElement>(null)
  const scroll = (direction: 1 | -1) => {
    const track = trackRef.current
    if (track) track.scrollBy({ left: direction * track.clientWidth * 0.9, behavior: 'smooth' })
  }
  const headingId = `row-${row.path.replace(/\W+/g, '-')}`
  return (
    <section className={`gallery-row gallery-row-${kind}`} aria-labelledby={headingId}>
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
      <StaticHtml as="ul" className="gallery-track" ref={trackRef} onLinkClick={openCardLink(kind, onOpen)}>
        {row.cards.map((card, index) => (
          <TemplateCardView key={card.hid} kind={kind} card={card} sizes={TRACK_CARD_SIZES} loading={cardLoading(first, index)} onOpen={onOpen} />
        ))}
      </StaticHtml>
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
          <input id="gallery-q" name="q" type="search" maxLength={80} placeholder={SEARCH_SUGGESTIONS[kind]} />
          <button type="submit">Search</button>
        </form>
      </header>
      {data.rows.map((row, rowIndex) => (
        <GalleryRowView
          key={row.path}
          kind={kind}
          row={row}
          first={rowIndex === 0}
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

/** What a listing found: its count, its cards by section, or a way out when nothing matched. */
function ListingResults({ data, onOpen }: { data: GalleryListingData; onOpen: (hid: string) => void }) {
  if (data.total === 0) {
    return (
      <p className="gallery-empty">
        No matches found, try resetting filter. <SiteLink href={data.listingPath}>Reset filter</SiteLink> or{' '}
        <a href="mailto:templates@poplift.io?subject=Template%20request">request a template</a>.
      </p>
    )
  }
  const shownSections = data.sections.filter((section) => section.cards.length)
  return shownSections.map((section, sectionIndex) => (
    <section key={section.key} className="gallery-section" aria-label={section.title}>
      {shownSections.length > 1 && <h2>{section.title}</h2>}
      {section.key === 'inline' && (
        <p>
          Inline widgets sit inside your page’s content. <SiteLink href="/help/widgets/installation/">How to embed inline widgets</SiteLink>
        </p>
      )}
      <StaticHtml as="ul" className="gallery-grid" onLinkClick={openCardLink(data.gallery, onOpen)}>
        {section.cards.map((card, index) => (
          <TemplateCardView
            key={card.hid}
            kind={data.gallery}
            card={card}
            sizes={GRID_CARD_SIZES}
            // A template's own page draws its preview over the listing, which is then out of sight.
            loading={cardLoading(sectionIndex === 0 && !data.open, index)}
            onOpen={onOpen}
          />
        ))}
      </StaticHtml>
    </section>
  ))
}

function GalleryListing({ data }: { data: GalleryListingData }) {
  const kind = data.gallery
  const cards = data.sections.flatMap((section) => section.cards)
  const preview = usePreviewHistory(kind, data.open, data.listingPath)
  const { changeFilter, followFilterLink } = useFilterChange(kind)
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
        <GalleryFilter data={data} onChange={changeFilter} />
        <p className="gallery-total" aria-live="polite">
          {data.total === 1 ? '1 template' : `${data.total} templates`}
        </p>
        <ListingResults data={data} onOpen={preview.openTemplate} />
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
      <GallerySidebar kind={kind} groups={data.sidebar} onFollow={followFilterLink} />
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
