/**
 * The log-in and sign-up forms as an overlay over the current page, opened from the navigation.
 * A modal <dialog>: the page behind is inert, Escape or the close button closes it, Tab stays
 * inside, and focus goes back to what opened it. Loaded only when first opened.
 */
import { useEffect, useId, useRef, useState } from 'react'
import { trapTab } from '../components/focus-trap.js'
import { AuthForm } from './AuthForm.js'
import { storedNext } from './client.js'
import { safeNext } from './next.js'
import type { AuthFormKind } from './paths.js'
import { SocialSignIn } from './SocialSignIn.js'

const HEADINGS: Partial<Record<AuthFormKind, string>> = { login: 'Log in to Poplift', signup: 'Create your free account', reset: 'Reset your password' }

export interface AuthDialogProps {
  kind: 'login' | 'signup'
  siteOrigin: string
  /** The logged-in app's origin (APP_URL's, or the site's own): a `next` there is kept too. */
  appOrigin: string
  onClose: () => void
}

export default function AuthDialog({ kind: startKind, siteOrigin, appOrigin, onClose }: AuthDialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const headingId = useId()
  const [kind, setKind] = useState<AuthFormKind>(startKind)
  const next = safeNext(storedNext(), siteOrigin, appOrigin)

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    const opener = document.activeElement as HTMLElement | null
    dialog.showModal()
    const overflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    return () => {
      document.body.style.overflow = overflow
      if (dialog.open) dialog.close()
      opener?.focus()
    }
  }, [])

  const switchTo = (current: AuthFormKind) => {
    const to = (target: AuthFormKind, label: string) => (
      <button type="button" className="link-button" onClick={() => setKind(target)}>
        {label}
      </button>
    )
    if (current === 'login') return <p>New to Poplift? {to('signup', 'Create a free account')}</p>
    if (current === 'signup') return <p>Already have an account? {to('login', 'Log in')}</p>
    return <p>Remembered it? {to('login', 'Back to log in')}</p>
  }

  return (
    <dialog
      ref={ref}
      className="auth-dialog"
      aria-labelledby={headingId}
      // Tab and Shift+Tab go round the dialog's own controls.
      onKeyDown={(event) => ref.current && trapTab(event, ref.current)}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its card) closes it.
        if (event.target === ref.current) onClose()
      }}
    >
      <div className="auth-card">
        <button type="button" className="dialog-close" aria-label="Close" onClick={onClose}>
          <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
            <path d="M5 5l10 10M15 5 5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
        <h2 id={headingId}>{HEADINGS[kind]}</h2>
        {(kind === 'login' || kind === 'signup') && (
          <>
            <SocialSignIn mode={kind === 'signup' ? 'signup-popup' : 'signin-popup'} next={next} siteOrigin={siteOrigin} />
            <p className="auth-divider">
              <span>or with your email</span>
            </p>
          </>
        )}
        <AuthForm key={kind} kind={kind} next={next} siteOrigin={siteOrigin} switchTo={switchTo} />
      </div>
    </dialog>
  )
}
