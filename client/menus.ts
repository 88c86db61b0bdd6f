import { handleEarlyMenus } from '../shared/layout/early-menus.js'

/**
 * A classic script, inlined in the head, that runs before the body is parsed, so the header's
 * menus answer a tap from the first paint on. The boot module cannot do it: it stands at the end
 * of the page and runs once the page is parsed, on a slow phone well after the first paint, and
 * a module script cannot hold the parser back to run sooner. Inline, it costs no request before
 * the first paint.
 */
handleEarlyMenus()
