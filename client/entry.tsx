import { startTransition, StrictMode, useEffect } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { createBrowserRouter, type RouteObject } from 'react-router'
import { RouterProvider } from 'react-router/dom'
import { beginHydration } from '../shared/components/StaticHtml.js'
import { loadPageSheets } from '../shared/layout/page-sheets.js'
import { PageErrorBoundary } from '../shared/layout/PageError.js'
import { ShellContext } from '../shared/layout/shell.js'
import { pageIdAt } from '../shared/pages.js'
import { createRoutes } from '../shared/routes.js'
import { readPageState } from '../shared/router-state.js'
import { ASSETS_ELEMENT_ID, HYDRATION_ELEMENT_ID, type InlineSheet, type SheetName } from '../shared/site.js'
import { clientLoaderFor } from './loaders.js'
import { routesOnDemand } from './route-discovery.js'

interface Scheduler {
  yield?: () => Promise<void>
}

/**
 * Ends the current task and goes on in a new one, so that a tap or a frame waiting meanwhile is
 * handled first (scheduler.yield puts the rest ahead of other waiting tasks; a timer elsewhere).
 */
function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0))
}

/** Where the address last loaded in full is noted, with when: the same address failing again soon after is not loaded again. */
const FULL_LOAD_KEY = 'poplift:loaded-in-full'
const FULL_LOAD_AGAIN_MS = 60_000

/**
 * Whether this page was loaded in full a moment ago (and so failing again is no passing fault).
 * Noted by path alone: a query may hold what is the visitor's own (a reset link's token).
 */
function loadedInFullJustNow(): boolean {
  try {
    const [path, at] = JSON.parse(sessionStorage.getItem(FULL_LOAD_KEY) ?? '[]') as [string?, number?]
    const since = typeof at === 'number' ? Date.now() - at : NaN
    // A clock set back since then reads as long ago.
    return path === window.location.pathname && since >= 0 && since < FULL_LOAD_AGAIN_MS
  } catch {
    return false
  }
}

/**
 * Takes the place of a page whose code or styles could not be fetched: loads its address in
 * full. Offline, or if that was just done and it failed again, it says the page could not be
 * loaded instead, and the visitor stays on the site (a reload offline would leave it for the
 * browser's own error page).
 */
function LoadInFull() {
  const stay = !navigator.onLine || loadedInFullJustNow()
  useEffect(() => {
    if (stay) return
    try {
      sessionStorage.setItem(FULL_LOAD_KEY, JSON.stringify([window.location.pathname, Date.now()]))
    } catch {
      // Storage refused (private mode, full): the full load still happens, once per navigation.
    }
    window.location.reload()
  }, [stay])
  return stay ? <PageErrorBoundary /> : null
}

/**
 * A page whose code or styles cannot be fetched on the way there (a deploy replaced them, the
 * network dropped) is loaded in full instead, once the router is at its address: the server draws
 * it whole, styles and all. (The router keeps what a page's `lazy` gave for the rest of the
 * visit; the full load starts a new one.) A page the router fetches as it starts, before any
 * navigation, fails as before: the server's HTML stays, unhydrated (so a full load that fails
 * again ends there). A page whose data cannot be loaded shows its error, as before.
 */
function loadInFullOnFailure([root]: RouteObject[], routerStarted: () => boolean) {
  for (const route of root?.children ?? []) {
    const lazy = route.lazy
    if (typeof lazy !== 'function') continue
    route.lazy = async () => {
      // Asked for by a navigation, or by the page's own start-up (whose failure must not reload it).
      const navigating = routerStarted()
      try {
        return await lazy()
      } catch (error) {
        if (!navigating) throw error
        console.error(error)
        return { Component: LoadInFull }
      }
    }
  }
}

/** Loads the code of the page on screen before hydrating, so the first render matches the server's. */
async function loadPageRoute(routes: RouteObject[]) {
  const id = pageIdAt(window.location.pathname)
  const route = routes[0]?.children?.find((child) => child.id === id)
  if (typeof route?.lazy !== 'function') return
  Object.assign(route, await route.lazy(), { lazy: undefined })
}

async function hydrate() {
  // The app's own code has just run.
  await yieldToBrowser()
  const element = document.getElementById(HYDRATION_ELEMENT_ID)
  if (!element?.textContent) throw new Error('Page state is missing from the page')
  const pageState = element.textContent
  const hydrationData = readPageState(pageState)
  // The document's inline stylesheet parts and module list render again as they are.
  const css = [...document.head.querySelectorAll<HTMLStyleElement>('style[data-sheet]')].map((style): InlineSheet => ({ name: style.dataset.sheet as SheetName, text: style.textContent ?? '' }))
  const assets = { modules: JSON.parse(document.getElementById(ASSETS_ELEMENT_ID)?.textContent ?? '[]') as string[] }

  // Starting up is four tasks rather than one, so that a tap on a slow phone waits for a part of
  // it at most: the app's own code; the page state, routes and the page's code; the router;
  // then hydration (which itself yields, below).
  let routerStarted = false
  const every = createRoutes(clientLoaderFor, undefined, loadPageSheets)
  loadInFullOnFailure(every, () => routerStarted)
  const { initial: routes, patchRoutesOnNavigation } = routesOnDemand(every, window.location.pathname)
  await loadPageRoute(routes)
  await yieldToBrowser()
  const router = createBrowserRouter(routes, { hydrationData, patchRoutesOnNavigation })
  routerStarted = true
  await yieldToBrowser()
  // As a transition, hydration yields to the browser every few milliseconds instead of
  // blocking input for the whole page.
  beginHydration()
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <ShellContext value={{ assets, css, pageState }}>
          <RouterProvider router={router} />
        </ShellContext>
      </StrictMode>,
    )
  })
}

void hydrate()
