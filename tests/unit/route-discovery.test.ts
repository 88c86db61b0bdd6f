import { createMemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import { routesOnDemand } from '../../client/route-discovery.js'
import { createRoutes } from '../../shared/routes.js'

type Router = ReturnType<typeof createMemoryRouter>

/** Every route's data is its own id, so a test can see which loaders ran. */
const routes = () => createRoutes((routeId) => () => ({ routeId }))
const pageIds = (router: Router) => (router.routes[0]?.children ?? []).map((route) => route.id)
const shownPage = (router: Router) => router.state.matches.at(-1)?.route.id

async function settled(router: Router) {
  await new Promise<void>((resolve, reject) => {
    const isSettled = () => router.state.initialized && router.state.navigation.state === 'idle'
    if (isSettled()) return resolve()
    const timer = setTimeout(() => reject(new Error('the router did not settle')), 5000)
    const unsubscribe = router.subscribe(() => {
      if (!isSettled()) return
      clearTimeout(timer)
      queueMicrotask(() => unsubscribe())
      resolve()
    })
  })
}

/**
 * A router as the browser makes it: on `pathname`, its page's code loaded, hydrated with the
 * server's data for the layout and the page there (so no loader runs as it starts), earlier
 * entries in its history before it.
 */
async function startAt(pathname: string, history: string[] = []) {
  const { initial, patchRoutesOnNavigation } = routesOnDemand(routes(), pathname)
  const page = initial[0]!.children![0]!
  const id = page.id!
  // The page's code is loaded before the router is made, as the browser does (client/entry.tsx).
  if (typeof page.lazy === 'function') Object.assign(page, await page.lazy(), { lazy: undefined })
  const router = createMemoryRouter(initial, {
    initialEntries: [...history, pathname],
    hydrationData: { loaderData: { root: { routeId: 'root' }, [id]: { routeId: id, fromServer: true } } },
    patchRoutesOnNavigation,
  })
  await settled(router)
  return router
}

/** Follows a link to `to`, or goes that many steps back (negative) or forward in history. */
async function go(router: Router, to: string | number) {
  await (typeof to === 'number' ? router.navigate(to) : router.navigate(to))
  await settled(router)
  return shownPage(router)
}

describe('the browser router learns pages as they are visited', () => {
  it.each([
    ['/', 'home'],
    ['/pricing/', 'pricing'],
    ['/p/forms/', 'widget-group'],
    ['/blog/tips/a-post/', 'blog-post'],
    ['/email-countdown-timer-generator/timers/abc/', 'saved-timer'],
    ['/no-such-page/', 'not-found'],
    ['/p/%ff/', 'not-found'],
    ['/%70ricing/', 'pricing'],
  ])('starts at %s with the layout, that page (%s), the home page and the not-found page', (pathname, id) => {
    const { initial } = routesOnDemand(routes(), pathname)
    expect(initial).toHaveLength(1)
    expect(initial[0]?.id).toBe('root')
    expect(initial[0]?.children?.map((route) => route.id)).toEqual([...new Set([id, 'home', 'not-found'])])
  })

  it('draws each page a visitor goes to, with its own data, and learns each page once', async () => {
    const router = await startAt('/pricing/')
    expect(shownPage(router)).toBe('pricing')
    expect(pageIds(router)).toEqual(['pricing', 'home', 'not-found'])

    expect(await go(router, '/faq/')).toBe('faq')
    expect(router.state.loaderData.faq).toEqual({ routeId: 'faq' })
    expect(await go(router, '/pricing/')).toBe('pricing')
    // A path no page has draws the not-found page...
    expect(await go(router, '/no-such-page/')).toBe('not-found')
    // ...whose catch-all then matches every path: a page not yet learnt still wins over it.
    expect(await go(router, '/about/')).toBe('page-about')
    expect(await go(router, '/blog/tips/')).toBe('blog-theme')
    expect(await go(router, '/blog/news/')).toBe('blog-theme')
    expect(router.state.matches.at(-1)?.params).toEqual({ theme: 'news' })
    // A deeper page under a learnt parameter is learnt too, and ranks above it.
    expect(await go(router, '/blog/news/a-post/')).toBe('blog-post')
    // At `/` the layout alone matches: the home page is there from the start.
    expect(await go(router, '/')).toBe('home')
    expect(router.state.loaderData.home).toEqual({ routeId: 'home' })
    expect(await go(router, '/another-missing/page/')).toBe('not-found')

    expect(pageIds(router)).toEqual(['pricing', 'home', 'not-found', 'faq', 'page-about', 'blog-theme', 'blog-post'])

    // Empty segments: whatever the router makes of them, the same as with every page known.
    for (const odd of ['/blog//tips/', '/p//forms/', '/email-countdown-timer-generator//']) {
      const everyPage = createMemoryRouter(routes(), { initialEntries: ['/pricing/'] })
      await settled(everyPage)
      expect(await go(router, odd), odd).toBe(await go(everyPage, odd))
    }
  })

  it('starts with the data the server sent, on a page with parameters too, and no loader runs', async () => {
    for (const [pathname, id] of [['/blog/tips/a-post/', 'blog-post'], ['/p/forms/', 'widget-group'], ['/no-such-page/', 'not-found']] as const) {
      const router = await startAt(pathname)
      expect(shownPage(router), pathname).toBe(id)
      expect(router.state.loaderData[id], pathname).toEqual({ routeId: id, fromServer: true })
    }
  })

  it('goes back and forward to pages it has not drawn before', async () => {
    const router = await startAt('/pricing/', ['/faq/', '/blog/tips/'])
    expect(await go(router, -1)).toBe('blog-theme')
    expect(router.state.matches.at(-1)?.params).toEqual({ theme: 'tips' })
    expect(await go(router, -1)).toBe('faq')
    expect(await go(router, 2)).toBe('pricing')
  })

  it('goes back and forward between learnt pages', async () => {
    const router = await startAt('/p/')
    expect(await go(router, '/e/')).toBe('email-gallery')
    expect(await go(router, -1)).toBe('widget-gallery')
    expect(await go(router, 1)).toBe('email-gallery')
  })
})
