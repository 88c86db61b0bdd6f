/**
 * "Continue with Google": the provider's page opens in a popup, which tells this page
 * `signupComplete` by postMessage. The message counts only when it comes from this site's own
 * origin and from the popup this page opened; the session is then checked with the server
 * before the visitor is sent on, so a forged message can never log anyone in.
 */
import { useEffect, useRef, useState } from 'react'
import { AUTH_API, checkLogin, isLoggedIn, SERVER_ERROR, trackingPayload, type SignedInBody } from './client.js'
import { finishSignIn } from './AuthForm.js'
import { forgetLoginCheck } from './session.js'

interface SignupComplete extends SignedInBody {
  type: 'signupComplete'
  backend?: string
}

function isSignupComplete(data: unknown): data is SignupComplete {
  if (!data || typeof data !== 'object') return false
  const message = data as Partial<SignupComplete>
  return message.type === 'signupComplete' && typeof message.login_url === 'string' && typeof message.user === 'object' && message.user !== null
}

const POPUP_FEATURES = 'popup,width=520,height=680'

export function SocialSignIn({ mode, next, siteOrigin }: { mode: 'signup-popup' | 'signin-popup'; next: string | null; siteOrigin: string }) {
  const popup = useRef<Window | null>(null)
  const [error, setError] = useState<string | null>(null)
  const url = AUTH_API.social(mode)

  useEffect(() => {
    const onMessage = async (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !popup.current || event.source !== popup.current) return
      if (!isSignupComplete(event.data)) return
      popup.current = null
      forgetLoginCheck()
      const check = await checkLogin()
      if (!isLoggedIn(check)) {
        setError(SERVER_ERROR)
        return
      }
      await finishSignIn(event.data, next, siteOrigin, event.data.backend ?? 'google-oauth2')
    }
    window.addEventListener('message', onMessage)
    return () => window.removeEventListener('message', onMessage)
  }, [next, siteOrigin])

  return (
    <div className="social-sign-in">
      <a
        className="button button-secondary button-block"
        href={url}
        target="_blank"
        rel="opener"
        onClick={(event) => {
          event.preventDefault()
          setError(null)
          // The account the provider makes carries the same tracking as a sign-up by form.
          const withTracking = AUTH_API.social(mode, trackingPayload(next))
          popup.current = window.open(withTracking, 'social-sign-in', POPUP_FEATURES)
          // Popups blocked: the provider's page opens in this tab instead.
          if (!popup.current) window.location.assign(withTracking)
        }}
      >
        <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true">
          <path fill="#EA4335" d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.1C12.5 13.6 17.8 9.5 24 9.5z" />
          <path fill="#4285F4" d="M46.5 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.7c-.6 3-2.3 5.5-4.8 7.2l7.7 6c4.5-4.2 6.9-10.3 6.9-17.7z" />
          <path fill="#FBBC05" d="M10.6 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.1C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.9-6.1z" />
          <path fill="#34A853" d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.7-6c-2.2 1.5-5 2.3-8.2 2.3-6.2 0-11.5-4.2-13.4-9.9l-7.9 6.1C6.6 42.6 14.6 48 24 48z" />
        </svg>
        Continue with Google
      </a>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
