/** The site's page of each auth form: one list for the forms, the header and the server. Plain data, so any page may import it. */
export type AuthFormKind = 'login' | 'signup' | 'reset' | 'new-password'

export const AUTH_PATHS: Record<AuthFormKind, string> = { login: '/login/', signup: '/start/', reset: '/reset/', 'new-password': '/reset/new/' }
