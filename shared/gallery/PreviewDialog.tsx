/**
 * A template's preview over its listing or gallery row: the live template in a frame (desktop,
 * mobile, or both side by side on wide screens; light or dark), previous/next that wrap round,
 * and the "Make it yours" panel. A modal <dialog>: the page behind is inert, focus stays inside
 * and goes back to the card. Escape closes the sign-up panel first, then the preview; the arrow
 * keys move through the set. The device and colour view are kept in the URL, so a link opens the
 * same view.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react'
import { checkLogin, isLoggedIn } from '../accounts/session.js'
import { FOCUSABLE, trapTab } from '../components/focus-trap.js'
import { usePageData } from '../page-data.js'
import type { TemplateCard } from './gallery.route.js'
import { previewFramePath, WIDGET_PREVIEW_ALLOW, WIDGET_PREVIEW_SANDBOX, type GalleryKind } from './paths.js'
import { PreviewBar } from './PreviewBar.js'
import { PreviewPanel } from './PreviewPanel.js'
import { usePreviewView, type ColourView, type Device } from './preview-view.js'

/** Tab goes round the dialog's controls and its preview frames. */
const DIALOG_FOCUSABLE = `${FOCUSABLE}, iframe`

/**
 * Shows the dialog as a modal while it is mounted, the page behind it still, and hands the focus
 * back to what had it on closing. Learns meanwhile whether the visitor is logged in.
 */
function useModalDialog(ref: RefObject<HTMLDialogElement | null>) {
  const [loggedIn, setLoggedIn] = useState(false)
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
  }, [ref])
  return loggedIn
}

/** The arrow keys move through the set (not while typing in a field); Tab stays inside the dialog. */
function previewKeys(dialog: RefObject<HTMLDialogElement | null>, step: (direction: 1 | -1) => void) {
  return (event: KeyboardEvent<HTMLDialogElement>) => {
    const target = event.target as HTMLElement
    const typing = target.matches('input, textarea, select')
    if (!typing && event.key === 'ArrowLeft') {
      event.preventDefault()
      step(-1)
    } else if (!typing && event.key === 'ArrowRight') {
      event.preventDefault()
      step(1)
    } else if (dialog.current) trapTab(event, dialog.current, DIALOG_FOCUSABLE)
  }
}

/** The live template: one frame, or desktop and mobile side by side. */
function PreviewFrames({ kind, card, device, colour }: { kind: GalleryKind; card: TemplateCard; device: Device; colour: ColourView }) {
  const src = previewFramePath(kind, card.hid, { dark: kind === 'widgets' && colour === 'dark', inverted: colour === 'inverted', text: colour === 'text' })
  const frames: Exclude<Device, 'both'>[] = device === 'both' ? ['desktop', 'mobile'] : [device]
  return (
    <div className={`preview-frames preview-${device}`}>
      {frames.map((frame) => (
        <iframe
          key={`${card.hid}-${frame}-${colour}`}
          className={`preview-frame frame-${frame}${colour === 'dark' && kind === 'emails' ? ' frame-dark' : ''}`}
          title={`${card.name}, ${frame} preview`}
          src={src}
          sandbox={kind === 'widgets' ? WIDGET_PREVIEW_SANDBOX : undefined}
          allow={kind === 'widgets' ? WIDGET_PREVIEW_ALLOW : undefined}
        />
      ))}
    </div>
  )
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
  const [view, choose] = usePreviewView()
  const [signUp, setSignUp] = useState(false)
  const loggedIn = useModalDialog(ref)
  const index = Math.max(0, cards.findIndex((card) => card.hid === hid))
  const card = cards[index]!

  useEffect(() => setSignUp(false), [hid])

  const step = (direction: 1 | -1) => onNavigate(cards[(index + direction + cards.length) % cards.length]!.hid)
  const colour = kind === 'emails' || card.themed ? view.colour : 'light'

  return (
    <dialog
      ref={ref}
      className={`preview-dialog preview-${kind}`}
      aria-labelledby={headingId}
      aria-modal="true"
      onKeyDown={previewKeys(ref, step)}
      onCancel={(event) => {
        event.preventDefault()
        if (signUp) setSignUp(false)
        else onClose()
      }}
    >
      <PreviewBar
        kind={kind}
        card={card}
        view={view}
        colour={colour}
        onChoose={choose}
        headingId={headingId}
        index={index}
        total={cards.length}
        onStep={step}
        listingPath={listingPath}
        onClose={onClose}
      />
      <div className="preview-body">
        <PreviewFrames kind={kind} card={card} device={view.device} colour={colour} />
        <PreviewPanel kind={kind} card={card} signUp={signUp} onSignUp={setSignUp} loggedIn={loggedIn} origin={origin} />
      </div>
    </dialog>
  )
}
