import { SHEETS, type SheetMap, type SheetName } from '../site.js'

/**
 * Where each part of the stylesheet is and which parts each page needs, written into the app by
 * the build (JSON text); absent where the app runs from sources.
 */
declare const __PAGE_SHEETS__: string | undefined

/**
 * How long a page waits for a part. Past it the part counts as failed (the page is then loaded
 * in full, styles inline): a page drawn without it would jump when it came, if ever.
 */
const SHEET_WAIT_MS = 10_000

let map: SheetMap | null | undefined
const sheetMap = (): SheetMap | null => (map ??= typeof __PAGE_SHEETS__ === 'string' ? (JSON.parse(__PAGE_SHEETS__) as SheetMap) : null)

const loading = new Map<SheetName, Promise<void>>()

const orderOf = (element: Element) => SHEETS.indexOf((element as HTMLElement).dataset.sheet as SheetName)

/** Adds a part to the head, where the cascade's order puts it, and resolves once it applies. */
function loadSheet(name: SheetName, href: string): Promise<void> {
  const link = document.createElement('link')
  link.rel = 'stylesheet'
  link.href = href
  link.dataset.sheet = name
  // After the last part that comes before it (the head may hold a part twice, if React drew the
  // document again after a failed hydration), else before the first part.
  const parts = [...document.head.querySelectorAll('[data-sheet]')]
  const previous = parts.findLast((part) => orderOf(part) < SHEETS.indexOf(name))
  if (previous) previous.after(link)
  else if (parts[0]) parts[0].before(link)
  else document.head.append(link)
  return new Promise<void>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer)
      link.onload = link.onerror = null
      // Gone, so that the next page needing it asks again.
      link.remove()
      loading.delete(name)
      reject(new Error(`The page's styles (${href}) ${why}`))
    }
    const timer = setTimeout(() => fail(`did not come within ${SHEET_WAIT_MS / 1000} s`), SHEET_WAIT_MS)
    link.onload = () => {
      clearTimeout(timer)
      resolve()
    }
    link.onerror = () => fail('could not be loaded')
  })
}

/**
 * Resolves once the page or part fetched on demand (`module`, its file's name: `Pricing`,
 * `AuthDialog`) has every part of the stylesheet it draws with: parts already in the page (inline
 * from the server, or fetched earlier) at once, others once fetched. Rejects if one cannot be
 * fetched, as a page whose code cannot be does. Does nothing where the app runs from sources.
 * Parts are never taken out: a later page may need them, and none styles what it does not name.
 */
export function loadPageSheets(module: string): Promise<void> {
  const known = sheetMap()
  if (!known || typeof document === 'undefined') return Promise.resolve()
  // A module the build does not know gets every part.
  const wanted = known.pages[module] ?? SHEETS.map((_, index) => index)
  return Promise.all(
    wanted.map((index) => {
      const name = SHEETS[index]!
      let ready = loading.get(name)
      if (!ready) {
        ready = document.head.querySelector(`[data-sheet="${name}"]`) ? Promise.resolve() : loadSheet(name, known.hrefs[index]!)
        loading.set(name, ready)
      }
      return ready
    }),
  ).then(() => undefined)
}
