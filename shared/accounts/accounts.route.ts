import { definePage } from '../page-route.js'

/** What the log-in, sign-up and reset pages need to draw their form before any script runs. */
export interface AuthPageData {
  /** The checked `next` of the URL (null when absent or refused). */
  next: string | null
  /** The logged-in app's origin, an allowed `next` besides the site's own pages. */
  appOrigin: string | null
}

export interface NewPasswordData extends AuthPageData {
  /** The reset link's token; null when the URL has none. */
  token: string | null
  /** Whether the link can still be used (not expired, not used, not replaced by a newer one). */
  usable: boolean
}

/**
 * What a form posted without JavaScript gets back: the page again, in the state the answer
 * calls for (the same states the script shows).
 */
export interface AuthActionData {
  /** The message to show: the first field error, the server's message, or 'Server error'. */
  error: string | null
  /** The field the error belongs to, marked invalid. */
  field: string | null
  /** Fields left empty, marked invalid. */
  missing: string[]
  /** The email as typed, to fill the form again (never the password). */
  email: string
  /** Set when the request succeeded: reset mail sent, or new password saved. */
  done: string | null
}

export const authPages = [
  definePage<AuthPageData>()({ id: 'login', path: 'login/', module: 'Login', load: () => import('./Login.js') }),
  definePage<AuthPageData>()({ id: 'signup', path: 'start/', module: 'Signup', load: () => import('./Signup.js') }),
  definePage<AuthPageData>()({ id: 'reset', path: 'reset/', module: 'Reset', load: () => import('./Reset.js') }),
  definePage<NewPasswordData>()({ id: 'reset-new', path: 'reset/new/', module: 'NewPassword', private: true, load: () => import('./NewPassword.js') }),
] as const
