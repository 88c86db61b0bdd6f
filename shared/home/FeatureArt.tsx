/**
 * The home page's art: real templates from the galleries (their card images), and a sketch of
 * the product's own screen where no template shows it (contacts).
 */
import { TemplateImage, type ImageLoading } from '../gallery/TemplateImage.js'
import type { TemplateCard } from '../gallery/gallery.route.js'
import type { GalleryKind } from '../gallery/paths.js'

/** A browser window around a widget template's card image, which shows the widget on a shop page. */
export function ShopWindow({ card, sizes, loading }: { card: TemplateCard; sizes: string; loading: ImageLoading }) {
  return (
    <div className="shop-window">
      <div className="shop-window-bar">
        <span />
        <span />
        <span />
      </div>
      <TemplateImage kind="widgets" card={card} sizes={sizes} loading={loading} />
    </div>
  )
}

function ContactsArt() {
  return (
    <div className="art-list">
      {['a', 'b', 'c', 'd'].map((row) => (
        <div key={row} className={`art-row art-row-${row}`}>
          <span className="art-avatar" />
          <span className="art-row-text">
            <span className="art-line" />
            <span className="art-line short" />
          </span>
          <span className="art-tag" />
        </div>
      ))}
    </div>
  )
}

/** Sketches of the product's screens, for the sections that name no templates. */
const SKETCHES: Record<string, () => React.JSX.Element> = {
  contacts: ContactsArt,
}

/**
 * How a section's templates are laid out: widgets in a cascade, emails fanned out, and the
 * automations' emails side by side, a series in the order it is sent. `sizes` is how wide one
 * card is drawn in each (see `.feature-templates-*` in the styles), in a box half the page wide.
 */
const LAYOUTS = {
  cascade: '(max-width: 768px) 58vw, 344px',
  fan: '(max-width: 768px) 32vw, 192px',
  series: '(max-width: 768px) 27vw, 150px',
} as const
const SECTION_LAYOUTS: Record<string, keyof typeof LAYOUTS> = { automations: 'series' }

export function FeatureArt({ section, templates }: { section: string; templates?: { kind: GalleryKind; cards: TemplateCard[] } }) {
  if (templates?.cards.length) {
    const layout = SECTION_LAYOUTS[section] ?? (templates.kind === 'widgets' ? 'cascade' : 'fan')
    return (
      <div className={`feature-art feature-art-${section} feature-templates feature-templates-${layout}`}>
        {templates.cards.map((card) => (
          <TemplateImage key={card.hid} kind={templates.kind} card={card} sizes={LAYOUTS[layout]} loading="lazy" />
        ))}
      </div>
    )
  }
  const Sketch = SKETCHES[section]
  return (
    <div className={`feature-art feature-art-${section}`} aria-hidden="true">
      {Sketch && <Sketch />}
    </div>
  )
}

/** One glyph per widget kind offered by the service, drawn on a 24-unit grid. */
const KIND_GLYPHS: Record<string, string> = {
  subscribe: 'M4 7h16v10H4z M4 7l8 6 8-6',
  promo: 'M5 12l7-7h7v7l-7 7z M15.5 8.5h.01',
  survey: 'M6 19V11 M12 19V6 M18 19v-5',
  contact: 'M5 6h14v9H9l-4 4z',
  messages: 'M4 6h16 M4 12h10 M4 18h7',
  cookies: 'M12 4a8 8 0 1 0 8 8 3 3 0 0 1-4-4 3 3 0 0 1-4-4z M9 13h.01 M14 15h.01',
  'age-gates': 'M12 4l7 3v5c0 4-3 7-7 8-4-1-7-4-7-8V7z M9 12l2 2 4-4',
  whatsapp: 'M5 19l1.5-4A7 7 0 1 1 9 17.5z M9.5 10.5c.5 2 2 3.5 4 4',
  'inspired-by-brands': 'M12 4l2.5 5 5.5.8-4 3.9.9 5.5-4.9-2.6-4.9 2.6.9-5.5-4-3.9 5.5-.8z',
  launchers: 'M12 19v-4 M8 15c-2-3-1-8 4-11 5 3 6 8 4 11z M12 10h.01',
}

export function KindIcon({ kind }: { kind: string }) {
  return (
    <span className="kind-icon" aria-hidden="true">
      <svg width="22" height="22" viewBox="0 0 24 24">
        <path d={KIND_GLYPHS[kind] ?? KIND_GLYPHS.messages} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  )
}
