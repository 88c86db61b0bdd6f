/**
 * A template's preview over its listing or gallery row: the live template in a frame (desktop,
 * mobile, or both side by side on wide screens; light or dark), previous/next that wrap round,
 * and the "Make it yours" panel. A modal <dialog>: the page behind is inert, focus stays inside
 * and goes back to the card. Escape closes the sign-up panel first, then the preview; the arrow
 * keys move through the set. The device and colour view are kept in the URL, so a link opens the
 * same view.
 */
import { lazy, Suspense, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { useLocation } from 'react-router'
import { checkLogin, isLoggedIn } from '../accounts/session.js'
import { usePageData } from '../page-data.js'
import type { TemplateCard } from './gallery.route.js'
import { appClonePath, clonePath, previewFramePath, type GalleryKind } from './paths.js'

const AuthForm = lazy(() => import('../accounts/AuthForm.js').then((module) => ({ default: module.AuthForm })))

/** Gmail cuts messages longer than about 102 KB behind a "View entire message" link. */
export const GMAIL_CLIP_BYTES = 102 * 1024
/** The size badge warns from here on. */
export const CLIP_WARNING_BYTES = 90 * 1024

export type Device = 'desktop' | 'mobile' | 'both'
/** Emails: light; dark as the email declares it (Apple Mail, Outlook for Mac); dark by inversion (Gmail app, Outlook.com); plain text. */
export type ColourView = 'light' | 'dark' | 'inverted' | 'text'

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

/** What every widget template is checked for (tests/e2e/widget-templates-accessibility.spec.ts). */
const WIDGET_CHECKS = 'WCAG 2.1 AA checked — contrast, keyboard, focus, labels'

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select, textarea, iframe, [tabindex]:not([tabindex="-1"])'

export function readView(search: string): { device: Device; colour: ColourView } {
  const params = new URLSearchParams(search)
  const device = params.get('device')
  const colour = params.get('view')
  return {
    device: device === 'mobile' || device === 'both' ? device : 'desktop',
    colour: colour === 'dark' || colour === 'inverted' || colour === 'text' ? colour : 'light',
  }
}

function writeView(device: Device, colour: ColourView) {
  const params = new URLSearchParams(window.location.search)
  if (device === 'desktop') params.delete('device')
  else params.set('device', device)
  if (colour === 'light') params.delete('view')
  else params.set('view', colour)
  const query = params.toString()
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${query ? `?${query}` : ''}`)
}

function formatKb(bytes: number) {
  return `${(bytes / 1024).toFixed(1)} KB`
}

export interface PreviewDialogProps {
  kind: GalleryKind
  /** The set previous and next move through: the listing, or the gallery row the preview was opened from. */
  cards: TemplateCard[]
  hid: string
  /** Where "Show all templates" leads: the listing of that set. */
  listingPath: string
  onNavigate: (hid: string) => void
  onClose: () => void
}

export default function PreviewDialog({ kind, cards, hid, listingPath, onNavigate, onClose }: PreviewDialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const headingId = useId()
  const { origin } = usePageData('root')
  const { search } = useLocation()
  const [view, setView] = useState(() => readView(search))
  const [signUp, setSignUp] = useState(false)
  const [loggedIn, setLoggedIn] = useState(false)
  const index = Math.max(0, cards.findIndex((card) => card.hid === hid))
  const card = cards[index]!

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    const opener = document.activeElement as HTMLElement | null
    // Drawn by the server already on screen (a template's own page); made modal once the script runs.
    if (dialog.open) dialog.close()
    dialog.showModal()
    const overflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    void checkLogin().then((check) => setLoggedIn(isLoggedIn(check)))
    return () => {
      document.body.style.overflow = overflow
      if (dialog.open) dialog.close()
      opener?.focus()
    }
  }, [])

  useEffect(() => setSignUp(false), [hid])

  const step = (direction: 1 | -1) => onNavigate(cards[(index + direction + cards.length) % cards.length]!.hid)

  const choose = (device: Device, colour: ColourView) => {
    setView({ device, colour })
    writeView(device, colour)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    const target = event.target as HTMLElement
    const typing = target.matches('input, textarea, select')
    if (!typing && event.key === 'ArrowLeft') {
      event.preventDefault()
      step(-1)
    } else if (!typing && event.key === 'ArrowRight') {
      event.preventDefault()
      step(1)
    } else if (event.key === 'Tab') {
      const items = Array.from(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])
      const first = items[0]
      const last = items.at(-1)
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault()
        last?.focus()
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault()
        first?.focus()
      }
    }
  }

  const colour = kind === 'emails' || card.themed ? view.colour : 'light'
  const frameSrc = previewFramePath(kind, card.hid, { dark: kind === 'widgets' && colour === 'dark', inverted: colour === 'inverted', text: colour === 'text' })
  const frames: Exclude<Device, 'both'>[] = view.device === 'both' ? ['desktop', 'mobile'] : [view.device]
  const take = () => {
    if (loggedIn) window.location.assign(appClonePath(kind, card.hid))
    else setSignUp(true)
  }

  return (
    <dialog
      ref={ref}
      className={`preview-dialog preview-${kind}`}
      aria-labelledby={headingId}
      aria-modal="true"
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault()
        if (signUp) setSignUp(false)
        else onClose()
      }}
    >
      <header className="preview-bar">
        <h2 id={headingId}>{card.name}</h2>
        <div className="preview-pager">
          <button type="button" aria-label="Previous template" onClick={() => step(-1)}>
            ‹
          </button>
          <span aria-live="polite">
            {index + 1} / {cards.length}
          </span>
          <button type="button" aria-label="Next template" onClick={() => step(1)}>
            ›
          </button>
        </div>
        <div className="preview-toggles" role="group" aria-label="Device">
          {DEVICES.map((device) => (
            <button
              key={device.value}
              type="button"
              className={device.value === 'both' ? 'wide-only' : undefined}
              aria-pressed={view.device === device.value}
              onClick={() => choose(device.value, view.colour)}
            >
              {device.label}
            </button>
          ))}
        </div>
        {kind === 'emails' ? (
          <div className="preview-toggles" role="group" aria-label="Colour">
            {EMAIL_VIEWS.map((option) => (
              <button key={option.value} type="button" title={option.title} aria-pressed={colour === option.value} onClick={() => choose(view.device, option.value)}>
                {option.label}
              </button>
            ))}
          </div>
        ) : (
          card.themed && (
            <div className="preview-toggles" role="group" aria-label="Colour">
              <button type="button" aria-pressed={colour !== 'dark'} onClick={() => choose(view.device, 'light')}>
                Light
              </button>
              <button type="button" aria-pressed={colour === 'dark'} onClick={() => choose(view.device, 'dark')}>
                Dark
              </button>
            </div>
          )
        )}
        <a className="preview-all" href={listingPath}>
          Show all templates
        </a>
        <button type="button" className="dialog-close" aria-label="Close preview" onClick={onClose}>
          <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
            <path d="M5 5l10 10M15 5 5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </header>
      <div className="preview-body">
        <div className={`preview-frames preview-${view.device}`}>
          {frames.map((device) => (
            <iframe
              key={`${card.hid}-${device}-${colour}`}
              className={`preview-frame frame-${device}${colour === 'dark' && kind === 'emails' ? ' frame-dark' : ''}`}
              title={`${card.name}, ${device} preview`}
              src={frameSrc}
            />
          ))}
        </div>
        <aside className="preview-panel" aria-label="Make it yours">
          {signUp ? (
            <div className="preview-signup">
              <h3>Create your free account</h3>
              <Suspense fallback={<p>Loading…</p>}>
                <AuthForm kind="signup" next={appClonePath(kind, card.hid)} siteOrigin={origin} />
              </Suspense>
              <button type="button" className="link-button" onClick={() => setSignUp(false)}>
                Back to the template
              </button>
            </div>
          ) : (
            <>
              <h3>Make it yours</h3>
              {kind === 'widgets' && (
                <p className="preview-checked">
                  <strong>Accessible:</strong> {WIDGET_CHECKS}
                </p>
              )}
              {kind === 'emails' && (
                <ul className="preview-bullets">
                  <li>Full-featured email editor</li>
                  <li>Mobile-friendly design</li>
                  <li>AI text generator</li>
                </ul>
              )}
              {kind === 'emails' && card.bytes !== undefined && (
                <p className={`size-badge${card.bytes >= CLIP_WARNING_BYTES ? ' size-warning' : ''}`}>
                  {formatKb(card.bytes)}
                  {card.bytes >= CLIP_WARNING_BYTES ? ' — close to Gmail’s 102 KB clipping' : ' — well under Gmail’s 102 KB clipping'}
                </p>
              )}
              <button type="button" className="button button-primary" onClick={take}>
                {kind === 'widgets' ? 'Take this template' : 'Customize this email'}
              </button>
              <a className="get-it" href={clonePath(kind, card.hid)}>
                Get it
              </a>
            </>
          )}
        </aside>
      </div>
    </dialog>
  )
}
