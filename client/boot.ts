import { ASSETS_ELEMENT_ID, LARGEST_IMAGE_MARK } from '../shared/site.js'
import { reportVisit } from '../shared/tracking/tracking.js'
import { prepareReactDomErrors } from './react-dom-errors.js'

/**
 * A classic script the server inlines at the end of every page (React's bootstrap script), so
 * that starting the app costs the page no request of its own. It waits until the server's HTML
 * (and the page's largest image) is on the screen, then fetches the app and the page's own code
 * in parallel and runs the app, which hydrates. Until then the page's bytes have the connection
 * to themselves, but for the small page-view report after the first frame.
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

/**
 * The page view sets the traffic cookies: pages themselves carry none, so caches can keep them.
 * It goes once the next frame has been drawn (from a task of its own: the request takes a while
 * to set up on a slow phone, and a tap waiting meanwhile is answered first), not when the app
 * starts, which may be up to 2 s later: a visitor who follows a link before then still counts,
 * with where they came from. A hidden tab draws no frames, so a timer backs it up, and leaving
 * the page sends it at the latest.
 */
function reportVisitSoon() {
  const visit = { url: location.pathname + location.search, referrer: document.referrer }
  let sent = false
  const send = () => {
    if (sent) return
    sent = true
    removeEventListener('pagehide', send)
    reportVisit(visit)
  }
  requestAnimationFrame(() => setTimeout(send, 0))
  setTimeout(send, 1000)
  addEventListener('pagehide', send)
}

/**
 * The longest the app waits for the page to be drawn: a hidden tab draws nothing, and an image
 * may stall. Past it the app starts all the same, for the page's controls.
 */
const SHOWN_WAIT_MS = 2000

/**
 * The page's marked largest image, when it is where it will be drawn at once: inside the first
 * screen. One scrolled past (a link to a part of the page, a scroll already restored) may not be
 * drawn at all, its row skipped as out of sight. Where the browser restores a reload's scroll
 * only after the page has been parsed, this still sees the top of the page, and the app then
 * waits out its limit.
 */
function largestImageInView(): HTMLImageElement | null {
  const image = document.querySelector<HTMLImageElement>(`img[elementtiming="${LARGEST_IMAGE_MARK}"]`)
  if (!image) return null
  // Lays the page out; the first paint then uses this layout.
  const { top, bottom } = image.getBoundingClientRect()
  return bottom > 0 && top < document.documentElement.clientHeight ? image : null
}

/**
 * Calls `then` once the page has been drawn on the screen, not only laid out: the page's largest
 * image, where it marks one in view, else its first contentful paint, as the browser reports
 * them. Until then the page's own bytes have the connection and the main thread to themselves:
 * on a slow phone the app's download and start would hold that paint back by a second or more.
 * Links, forms and the header's menus work without the app; the rest of the page's controls
 * wait for it. A browser that reports no such paint (Element Timing is Chromium's) waits for the
 * image to be decoded, or to fail, and then for one frame; without an image, for one frame.
 */
function afterShown(then: () => void) {
  const image = largestImageInView()
  const type = image ? 'element' : 'paint'
  const drawn = image
    ? (entry: PerformanceEntry) => (entry as PerformanceEntry & { identifier?: string }).identifier === LARGEST_IMAGE_MARK
    : (entry: PerformanceEntry) => entry.name === 'first-contentful-paint'
  let waiting = true
  let observer: PerformanceObserver | undefined
  const done = () => {
    if (!waiting) return
    waiting = false
    clearTimeout(timer)
    observer?.disconnect()
    image?.removeEventListener('error', afterNextFrame)
    then()
  }
  const timer = setTimeout(done, SHOWN_WAIT_MS)
  const afterNextFrame = () => requestAnimationFrame(() => setTimeout(done, 0))
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes(type)) {
    if (image) image.decode().then(afterNextFrame, afterNextFrame)
    else afterNextFrame()
    return
  }
  // A broken image is never drawn.
  if (image?.complete && !image.naturalWidth) return afterNextFrame()
  image?.addEventListener('error', afterNextFrame)
  observer = new PerformanceObserver((list) => {
    if (list.getEntries().some(drawn)) done()
  })
  observer.observe({ type, buffered: true })
}

// A page the browser renders ahead of a click (prerendering) counts as viewed once it is shown;
// its app starts meanwhile, as the 2 s limit lets it.
if ((document as Document & { prerendering?: boolean }).prerendering) document.addEventListener('prerenderingchange', reportVisitSoon, { once: true })
else reportVisitSoon()
afterShown(loadApp)
