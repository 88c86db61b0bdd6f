/**
 * `POST api/v1/users/register | login | password_reset | password_reset/check |
 * password_reset/confirm | logout`, `GET api/v2/users/login_check`.
 */
import type { Request, Response, Router } from 'express'
import type { DashboardContext } from '../dashboard/context.js'
import type { SignedIn } from './accounts.js'

/** What the forms need after a log-in or sign-up: who, and where the app is. */
function signedInBody(context: DashboardContext, signedIn: SignedIn) {
  return { user: signedIn.user, login_url: context.loginUrl, is_new: signedIn.isNew }
}

const body = (req: Request): Record<string, unknown> => (req.body && typeof req.body === 'object' ? req.body : {})

export function userRoutes(router: Router, context: DashboardContext): void {
  const { accounts, sessions, limiters } = context
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store')

  router.post('/api/v1/users/register', limiters.register, async (req, res) => {
    const { email, password, tracking } = body(req)
    const signedIn = await accounts.register({ email, password, tracking })
    noStore(res).append('Set-Cookie', signedIn.cookie).status(signedIn.isNew ? 201 : 200).json(signedInBody(context, signedIn))
  })

  router.post('/api/v1/users/login', limiters.login, async (req, res) => {
    const { email, password } = body(req)
    const signedIn = await accounts.login({ email, password })
    noStore(res).append('Set-Cookie', signedIn.cookie).json(signedInBody(context, signedIn))
  })

  router.post('/api/v1/users/password_reset', limiters.reset, (req, res) => {
    noStore(res).json(accounts.requestReset({ email: body(req).email }))
  })

  router.post('/api/v1/users/password_reset/check', limiters.resetCheck, (req, res) => {
    noStore(res).json({ usable: accounts.resetTokenUsable(body(req).token) })
  })

  router.post('/api/v1/users/password_reset/confirm', limiters.resetConfirm, async (req, res) => {
    const { token, password } = body(req)
    noStore(res).json(await accounts.confirmReset({ token, password }))
  })

  router.post('/api/v1/users/logout', (req, res) => {
    noStore(res).append('Set-Cookie', sessions.end(context.sessionToken(req))).status(204).end()
  })

  router.get('/api/v2/users/login_check', (req, res) => {
    const user = context.currentUser(req, res)
    noStore(res).json(user ? { status: 'ok', user } : { status: 'anonymous' })
  })
}
