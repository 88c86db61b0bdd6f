import { handleEarlyMenus } from '../shared/layout/early-menus.js'

/**
 * A classic script, inlined in the head, that runs before the body is parsed, so the header's
 * menus answer a tap from the first paint on. The boot script cannot do it: it stands at the end
 * of the page, and the app it starts runs on a slow phone well after the first paint. Inline,
 * it costs no request before the first paint.
 */
handleEarlyMenus()

/**
 * The head holds the first paint until the footer has been parsed (shared/layout/Root.tsx). The
 * page's HTML normally arrives in a few hundred milliseconds even on a slow connection, and a
 * slow phone has parsed and laid it out within about two seconds; when the connection stalls
 * half-way, the visitor should see what has come rather than a blank screen, so after this long
 * the hold is let go and the page paints as far as it has come. Sooner, it would cut the hold
 * short on a slow phone whose connection is fine.
 */
const PAINT_HOLD_MAX_MS = 3000

// Only while the page is still coming: once it is parsed the hold has ended by itself, and the
// link is React's to keep (taking it away would leave React removing a node that is gone).
setTimeout(() => {
  if (document.readyState === 'loading') document.querySelector('link[rel="expect"][blocking="render"]')?.remove()
}, PAINT_HOLD_MAX_MS)
