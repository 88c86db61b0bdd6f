import { lazy, Suspense } from 'react'
import type { TemplateCard } from './gallery.route.js'
import { appClonePath, clonePath, type GalleryKind } from './paths.js'

const AuthForm = lazy(() => import('../accounts/AuthForm.js').then((module) => ({ default: module.AuthForm })))

/** The size badge warns from here on, short of the about 102 KB past which Gmail clips a message. */
const CLIP_WARNING_BYTES = 90 * 1024

/** What every widget template is checked for (tests/e2e/widget-templates-accessibility.spec.ts). */
const WIDGET_CHECKS = 'WCAG 2.1 AA checked — contrast, keyboard, focus, labels'

function formatKb(bytes: number) {
  return `${(bytes / 1024).toFixed(1)} KB`
}

interface PreviewPanelProps {
  kind: GalleryKind
  card: TemplateCard
  /** The sign-up form shows in place of the panel's offer. */
  signUp: boolean
  onSignUp: (open: boolean) => void
  loggedIn: boolean
  origin: string
}

/** "Make it yours": a logged-in visitor goes to the app with the template, another signs up first. */
export function PreviewPanel({ kind, card, signUp, onSignUp, loggedIn, origin }: PreviewPanelProps) {
  const take = () => {
    if (loggedIn) window.location.assign(appClonePath(kind, card.hid))
    else onSignUp(true)
  }

  return (
    <aside className="preview-panel" aria-label="Make it yours">
      {signUp ? (
        <div className="preview-signup">
          <h3>Create your free account</h3>
          <Suspense fallback={<p>Loading…</p>}>
            <AuthForm kind="signup" next={appClonePath(kind, card.hid)} siteOrigin={origin} />
          </Suspense>
          <button type="button" className="link-button" onClick={() => onSignUp(false)}>
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
  )
}
