/**
 * The log-in, sign-up, reset and new-password forms, on their pages and in the overlays. Each
 * posts to its own page without JavaScript (the server answers with the page in the right
 * state); with it, it calls the dashboard API and shows the states itself: idle, missing field
 * (nothing sent), loading (button disabled, further submits ignored), error, done.
 */
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
import type { AuthActionData } from './accounts.route.js'
import {
  AUTH_API,
  AUTH_PATHS,
  AUTH_TEXT,
  checkLogin,
  forgetLoginCheck,
  missingFields,
  postJson,
  rememberUser,
  trackAuthEvent,
  trackingPayload,
  type AuthFormKind,
  type SignedInBody,
} from './client.js'
import { destinationAfterAuth } from './next.js'

const SUBMIT: Record<AuthFormKind, [idle: string, loading: string]> = {
  login: ['Log in', 'Logging in…'],
  signup: ['Create account', 'Creating account…'],
  reset: ['Send reset link', 'Sending…'],
  'new-password': ['Set new password', 'Saving…'],
}

interface FieldsOf {
  email: boolean
  password: boolean
}

const FIELDS: Record<AuthFormKind, FieldsOf> = {
  login: { email: true, password: true },
  signup: { email: true, password: true },
  reset: { email: true, password: false },
  'new-password': { email: false, password: true },
}

interface State {
  status: 'idle' | 'loading' | 'error' | 'done'
  error: string | null
  /** Fields to mark invalid. */
  invalid: string[]
  done: string | null
}

function initialState(initial: AuthActionData | undefined): State {
  if (!initial) return { status: 'idle', error: null, invalid: [], done: null }
  if (initial.done) return { status: 'done', error: null, invalid: [], done: initial.done }
  return { status: 'error', error: initial.error, invalid: [...initial.missing, ...(initial.field ? [initial.field] : [])], done: null }
}

export interface AuthFormProps {
  kind: AuthFormKind
  /** The checked target after success. */
  next: string | null
  siteOrigin: string
  /** The reset link's token (new-password form). */
  token?: string | null
  /** The server's answer to a post made without JavaScript. */
  initial?: AuthActionData
  /** Links to the other forms: on pages, links; in the overlay, switches. */
  switchTo?: (kind: AuthFormKind) => ReactNode
  /** The email to start with (kept when switching forms in the overlay). */
  email?: string
}

/** What a signed-in visitor does next: analytics event, user kept for the tab, then the app. */
export async function finishSignIn(body: SignedInBody, next: string | null, siteOrigin: string, provider = 'direct'): Promise<void> {
  rememberUser(body.user)
  await trackAuthEvent(body.is_new ? 'signUp' : 'signIn', body.user.id, provider)
  window.location.assign(destinationAfterAuth(body.login_url, next, siteOrigin))
}

export function AuthForm({ kind, next, siteOrigin, token = null, initial, switchTo, email: startEmail }: AuthFormProps) {
  const id = useId()
  const fields = FIELDS[kind]
  const [state, setState] = useState<State>(() => initialState(initial))
  const [email, setEmail] = useState(initial?.email ?? startEmail ?? '')
  const [password, setPassword] = useState('')
  const busy = useRef(false)

  const edit = (setter: (value: string) => void) => (value: string) => {
    setter(value)
    if (state.status === 'error') setState({ status: 'idle', error: null, invalid: [], done: null })
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy.current) return
    const empty = missingFields({ email: fields.email ? email : undefined, password: fields.password ? password : undefined })
    if (empty) {
      setState({ status: 'error', error: empty.error, invalid: empty.missing, done: null })
      return
    }
    busy.current = true
    setState({ status: 'loading', error: null, invalid: [], done: null })
    try {
      if (kind === 'login' || kind === 'signup') {
        const answer =
          kind === 'login'
            ? await postJson<SignedInBody>(AUTH_API.login, { email: email.trim(), password })
            : await postJson<SignedInBody>(AUTH_API.register, { email: email.trim(), password, tracking: trackingPayload(next) })
        if (answer.ok) {
          // A check made before the log-in (the header's, as the page started) says nobody.
          forgetLoginCheck()
          await checkLogin()
          await finishSignIn(answer.body, next, siteOrigin)
          return
        }
        setState({ status: 'error', error: answer.message, invalid: answer.field ? [answer.field] : [], done: null })
      } else {
        const answer =
          kind === 'reset'
            ? await postJson<{ message: string }>(AUTH_API.reset, { email: email.trim() })
            : await postJson<{ message: string }>(AUTH_API.resetConfirm, { token, password })
        if (answer.ok) setState({ status: 'done', error: null, invalid: [], done: answer.body.message })
        else setState({ status: 'error', error: answer.message, invalid: answer.field ? [answer.field] : [], done: null })
      }
    } finally {
      busy.current = false
    }
  }

  if (state.status === 'done') {
    return (
      <div className="auth-done" role="status">
        <h2>{kind === 'reset' ? AUTH_TEXT.checkEmail : 'Password changed'}</h2>
        <p>{state.done}</p>
        {kind === 'new-password' && (
          <p>
            <a className="button button-primary" href="/login/">
              Log in
            </a>
          </p>
        )}
      </div>
    )
  }

  const errorId = `${id}-error`
  const invalid = (name: string) => state.invalid.includes(name)
  const describedBy = (name: string) => (invalid(name) && state.error ? errorId : undefined)
  const [idleLabel, loadingLabel] = SUBMIT[kind]
  const action = next && kind !== 'new-password' ? `${AUTH_PATHS[kind]}?next=${encodeURIComponent(next)}` : AUTH_PATHS[kind]

  return (
    <form className="auth-form" method="post" action={action} noValidate onSubmit={submit} aria-busy={state.status === 'loading'}>
      {kind === 'new-password' && <input type="hidden" name="token" value={token ?? ''} />}
      {fields.email && (
        <div className="field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input
            id={`${id}-email`}
            name="email"
            type="email"
            inputMode="email"
            autoComplete={kind === 'signup' ? 'email' : 'username'}
            autoCapitalize="none"
            spellCheck={false}
            maxLength={254}
            value={email}
            onChange={(event) => edit(setEmail)(event.target.value)}
            aria-invalid={invalid('email') || undefined}
            aria-describedby={describedBy('email')}
          />
        </div>
      )}
      {fields.password && (
        <div className="field">
          <div className="field-label-row">
            <label htmlFor={`${id}-password`}>{kind === 'new-password' ? 'New password' : 'Password'}</label>
            {kind === 'login' && <a href="/reset/">Forgot password?</a>}
          </div>
          <input
            id={`${id}-password`}
            name="password"
            type="password"
            autoComplete={kind === 'login' ? 'current-password' : 'new-password'}
            maxLength={1024}
            value={password}
            onChange={(event) => edit(setPassword)(event.target.value)}
            aria-invalid={invalid('password') || undefined}
            aria-describedby={[describedBy('password'), kind !== 'login' ? `${id}-password-hint` : undefined].filter(Boolean).join(' ') || undefined}
          />
          {kind !== 'login' && (
            <p id={`${id}-password-hint`} className="field-hint">
              At least 8 characters. A few unrelated words make a strong password.
            </p>
          )}
        </div>
      )}
      {state.error && (
        <p id={errorId} className="form-error" role="alert">
          {state.error}
        </p>
      )}
      <button type="submit" className="button button-primary button-block" disabled={state.status === 'loading'}>
        {state.status === 'loading' ? loadingLabel : idleLabel}
      </button>
      {kind === 'signup' && (
        <p className="legal">
          By creating an account you agree to the <a href="/terms/">Terms of Service</a> and the <a href="/privacy/">Privacy Policy</a>.
        </p>
      )}
      {switchTo && <div className="auth-switch">{switchTo(kind)}</div>}
    </form>
  )
}
