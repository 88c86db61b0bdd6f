import { ASSETS_ELEMENT_ID } from '../shared/site.js'
import { reportVisit } from '../shared/tracking/tracking.js'
import { prepareReactDomErrors } from './react-dom-errors.js'

/**
 * A classic script the server inlines at the end of every page (React's bootstrap script), so
 * that starting the app costs the page no request of its own. It waits until the server's HTML
 * has painted, then fetches the app and the page's own code in parallel and runs the app, which
 * hydrates. Until then the page's bytes have the connection to themselves.
 */
prepareReactDomErrors()

function loadApp() {
  // The app first, then the chunks it imports and the page's own code (see the build manifest).
  const modules = JSON.parse(document.getElementById(ASSETS_ELEMENT_ID)?.textContent ?? '[]') as string[]
  // Starts every download almost at once; the app's own imports then find them in flight. Each
  // import from a task of its own: on a slow phone starting one takes a few milliseconds (more
  // under DevTools, which records each request's stack), and a tap waiting meanwhile is answered in between.
  const [app, ...rest] = modules
  if (app) void import(app)
  for (const url of rest) setTimeout(() => void import(url).catch(() => undefined), 0)
}

let started = false
const start = () => {
  if (started) return
  started = true
  loadApp()
  // The page view sets the traffic cookies: pages themselves carry none, so caches can keep them.
  // Sent from a task of its own: the request takes a while to set up on a slow phone, and a tap
  // waiting meanwhile is answered first.
  const visit = { url: window.location.pathname + window.location.search, referrer: document.referrer }
  setTimeout(() => reportVisit(visit), 0)
}
// After the next frame has been drawn; a hidden tab draws no frames, so a timer backs it up.
requestAnimationFrame(() => setTimeout(start, 0))
setTimeout(start, 1000)
