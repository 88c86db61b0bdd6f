import { safeNext } from '../../shared/accounts/next.js'
import type { PageIdOf } from '../../shared/page-route.js'
import type { authPages, AuthPageData } from '../../shared/accounts/accounts.route.js'
import type { LoaderDependencies, RouteLoaders } from '../ssr/loader.js'

export const authLoaders = ({ origin, appOrigin, accounts }: LoaderDependencies): RouteLoaders<PageIdOf<typeof authPages>> => {
  const formPage = ({ request }: { request: Request }): AuthPageData => ({
    next: safeNext(new URL(request.url).searchParams.get('next'), origin, appOrigin),
    appOrigin,
  })
  return {
    login: formPage,
    signup: formPage,
    reset: formPage,
    'reset-new': async (args) => {
      const token = new URL(args.request.url).searchParams.get('token')
      const usable = token !== null && /^[A-Za-z0-9_-]{20,100}$/.test(token) && (await accounts.resetTokenUsable(token))
      return { ...formPage(args), token: usable ? token : null, usable }
    },
  }
}
