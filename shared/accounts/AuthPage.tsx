import { useEffect, useState, type ReactNode } from 'react'
import { useActionData } from 'react-router'
import { Seo } from '../components/Seo.js'
import { usePageData } from '../page-data.js'
import type { AuthActionData } from './accounts.route.js'
import { AuthForm } from './AuthForm.js'
import { AUTH_PATHS, rememberNext, storedNext, type AuthFormKind } from './client.js'
import { safeNext } from './next.js'
import { SocialSignIn } from './SocialSignIn.js'

const COPY: Record<AuthFormKind, { title: string; heading: string; description: string }> = {
  login: { title: 'Log in', heading: 'Log in to Poplift', description: 'Log in to your Poplift account to manage your widgets, emails and contacts.' },
  signup: {
    title: 'Sign up free',
    heading: 'Create your free account',
    description: 'Sign up for Poplift free: website widgets, email campaigns and automations in one place. No card needed.',
  },
  reset: { title: 'Reset your password', heading: 'Reset your password', description: 'Forgot your Poplift password? Get a link to choose a new one.' },
  'new-password': { title: 'Choose a new password', heading: 'Choose a new password', description: 'Set a new password for your Poplift account.' },
}

/**
 * The `next` to go to after success: the page's checked one, else one kept earlier in the visit
 * (read after hydration, as session storage exists only in the browser).
 */
export function useNext(fromPage: string | null, siteOrigin: string, appOrigin: string | null): string | null {
  const [next, setNext] = useState(fromPage)
  useEffect(() => {
    if (fromPage) rememberNext(fromPage)
    else setNext(safeNext(storedNext(), siteOrigin, appOrigin))
  }, [fromPage, siteOrigin, appOrigin])
  return next
}

/** Links between the forms, keeping `next`. */
export function authLink(kind: AuthFormKind, next: string | null): string {
  return next ? `${AUTH_PATHS[kind]}?next=${encodeURIComponent(next)}` : AUTH_PATHS[kind]
}

export function AuthPage({ kind, token, noindex = false, children }: { kind: AuthFormKind; token?: string | null; noindex?: boolean; children?: ReactNode }) {
  const { origin } = usePageData('root')
  const data = usePageData('login', 'signup', 'reset', 'reset-new')
  const initial = useActionData() as AuthActionData | undefined
  const next = useNext(data.next, origin, data.appOrigin)
  const copy = COPY[kind]

  const switchTo = (current: AuthFormKind) =>
    current === 'login' ? (
      <p>
        New to Poplift? <a href={authLink('signup', next)}>Create a free account</a>
      </p>
    ) : current === 'signup' ? (
      <p>
        Already have an account? <a href={authLink('login', next)}>Log in</a>
      </p>
    ) : (
      <p>
        Remembered it? <a href={authLink('login', next)}>Back to log in</a>
      </p>
    )

  return (
    <div className="page auth-page">
      <Seo title={copy.title} description={copy.description} noindex={noindex || kind === 'new-password'} />
      <div className="auth-card">
        <h1>{copy.heading}</h1>
        {children}
        {(kind === 'login' || kind === 'signup') && (
          <>
            <SocialSignIn mode={kind === 'signup' ? 'signup-popup' : 'signin-popup'} next={next} siteOrigin={origin} />
            <p className="auth-divider">
              <span>or with your email</span>
            </p>
          </>
        )}
        {kind === 'reset' && <p className="lead">Enter the email of your account and we will send you a link to choose a new password.</p>}
        <AuthForm kind={kind} next={next} siteOrigin={origin} token={token} initial={initial} switchTo={switchTo} />
      </div>
    </div>
  )
}
