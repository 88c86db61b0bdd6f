import type { TemplateCard } from './gallery.route.js'
import type { GalleryKind } from './paths.js'
import type { ColourView, Device, PreviewView } from './preview-view.js'

const DEVICES: { value: Device; label: string }[] = [
  { value: 'desktop', label: 'Desktop' },
  { value: 'mobile', label: 'Mobile' },
  { value: 'both', label: 'Both' },
]

const EMAIL_VIEWS: { value: ColourView; label: string; title: string }[] = [
  { value: 'light', label: 'Light', title: 'As most mail apps show it' },
  { value: 'dark', label: 'Dark', title: 'Dark as the email declares it: Apple Mail, Outlook for Mac' },
  { value: 'inverted', label: 'Inverted', title: 'Dark by forced inversion: Gmail app, Outlook.com' },
  { value: 'text', label: 'Plain text', title: 'The plain-text part' },
]

interface ViewTogglesProps {
  kind: GalleryKind
  card: TemplateCard
  view: PreviewView
  /** The colours shown: light for a widget without a dark version, whatever the address says. */
  colour: ColourView
  onChoose: (view: PreviewView) => void
}

/** The device, and the colours: four views of an email, light and dark of a themed widget, none of another. */
function ViewToggles({ kind, card, view, colour, onChoose }: ViewTogglesProps) {
  return (
    <>
      <div className="preview-toggles" role="group" aria-label="Device">
        {DEVICES.map((device) => (
          <button
            key={device.value}
            type="button"
            className={device.value === 'both' ? 'wide-only' : undefined}
            aria-pressed={view.device === device.value}
            onClick={() => onChoose({ device: device.value, colour: view.colour })}
          >
            {device.label}
          </button>
        ))}
      </div>
      {kind === 'emails' ? (
        <div className="preview-toggles" role="group" aria-label="Colour">
          {EMAIL_VIEWS.map((option) => (
            <button key={option.value} type="button" title={option.title} aria-pressed={colour === option.value} onClick={() => onChoose({ device: view.device, colour: option.value })}>
              {option.label}
            </button>
          ))}
        </div>
      ) : (
        card.themed && (
          <div className="preview-toggles" role="group" aria-label="Colour">
            <button type="button" aria-pressed={colour !== 'dark'} onClick={() => onChoose({ device: view.device, colour: 'light' })}>
              Light
            </button>
            <button type="button" aria-pressed={colour === 'dark'} onClick={() => onChoose({ device: view.device, colour: 'dark' })}>
              Dark
            </button>
          </div>
        )
      )}
    </>
  )
}

interface PreviewBarProps extends ViewTogglesProps {
  headingId: string
  /** The card's place in the set (from 0) and the set's size. */
  index: number
  total: number
  onStep: (direction: 1 | -1) => void
  listingPath: string
  onClose: () => void
}

/** The preview's top bar: the template's name, previous/next, the view, the whole listing and closing. */
export function PreviewBar({ headingId, index, total, onStep, listingPath, onClose, ...toggles }: PreviewBarProps) {
  return (
    <header className="preview-bar">
      <h2 id={headingId}>{toggles.card.name}</h2>
      <div className="preview-pager">
        <button type="button" aria-label="Previous template" onClick={() => onStep(-1)}>
          ‹
        </button>
        <span aria-live="polite">
          {index + 1} / {total}
        </span>
        <button type="button" aria-label="Next template" onClick={() => onStep(1)}>
          ›
        </button>
      </div>
      <ViewToggles {...toggles} />
      <a className="preview-all" href={listingPath}>
        Show all templates
      </a>
      <button type="button" className="dialog-close" aria-label="Close preview" onClick={onClose}>
        <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
          <path d="M5 5l10 10M15 5 5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </header>
  )
}
