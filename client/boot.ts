import { ASSETS_ELEMENT_ID, LARGEST_IMAGE_MARK } from '../shared/site.js'
import { reportVisit } from '../shared/tracking/tracking.js'
import { prepareReactDomErrors } from './react-dom-errors.js'

/**
 * A classic script the server inlines at the end of every page (React's bootstrap script), so
 * that starting the app costs the page no request of its own. It waits until the server's HTML
 * (and the page's largest image) is on the screen, then fetches the app and the page's own code
 * in parallel and runs the app, which hydrates. Until then the page's bytes have the connection
 * to themselves.
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
/**
 * How long the app waits for the page to be shown at most: a hidden tab draws nothing, and a
 * slow or stalled image no longer holds the page's controls back past it.
 */
const SHOWN_WAIT_MS = 2000

/**
 * Calls `then` once the page has been drawn on the screen, not only laid out: its first paint,
 * and on a page that marks its largest image (the one fetched first), that image drawn too.
 * Until then the page's own bytes have the connection and the main thread to themselves: on a
 * slow phone the app's download and start would hold that paint back by a second or more, while
 * the page's links and menus work without the app. Where the browser reports neither paint, the
 * image decoded (or failed) and one frame after it stand in.
 */
function afterShown(then: () => void) {
  const image = document.querySelector<HTMLImageElement>(`img[elementtiming="${LARGEST_IMAGE_MARK}"]`)
  const type = image ? 'element' : 'paint'
  let waiting = true
  let observer: PerformanceObserver | undefined
  const done = () => {
    if (!waiting) return
    waiting = false
    clearTimeout(timer)
    observer?.disconnect()
    then()
  }
  const timer = setTimeout(done, SHOWN_WAIT_MS)
  const afterNextFrame = () => requestAnimationFrame(() => setTimeout(done, 0))
  // A broken image is never drawn; it fails its decode instead.
  const drawable = image ? image.decode() : Promise.resolve()
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes(type)) {
    drawable.then(afterNextFrame, afterNextFrame)
    return
  }
  drawable.catch(afterNextFrame)
  observer = new PerformanceObserver((list) => {
    const drawn = list.getEntries().some((entry) =>
      image ? (entry as PerformanceEntry & { identifier?: string }).identifier === LARGEST_IMAGE_MARK : entry.name === 'first-contentful-paint',
    )
    if (drawn) done()
  })
  observer.observe({ type, buffered: true })
}

afterShown(start)
