export const SITE_NAME = 'Poplift'

/** Id of the non-executable script tag that carries router state from the server to the browser. */
export const HYDRATION_ELEMENT_ID = '__router_state'

/**
 * The site's stylesheet comes in parts (each beside the feature it styles, see
 * scripts/lib/page-sheets.ts), listed here in the order the
 * cascade reads them. A page carries, inline, only the parts its code draws with; the browser
 * fetches a part the next page needs before drawing that page (shared/layout/page-sheets.ts). Each part
 * is an inline <style data-sheet="{name}"> (or, once fetched, a <link data-sheet="{name}">).
 */
export const SHEETS = ['site', 'home', 'cards', 'long-form', 'pricing', 'footer', 'auth', 'galleries', 'generators', 'countdown', 'saved-timers', 'slideshow', 'subject-lines'] as const

export type SheetName = (typeof SHEETS)[number]

/** The parts every page has: type, colours, buttons, header and layout; error pages and the footer. */
export const FRAME_SHEETS: readonly SheetName[] = ['site', 'footer']

/** One part of the stylesheet, as the page carries it inline. */
export interface InlineSheet {
  name: SheetName
  text: string
}

/** Where the browser finds each part, and which parts each page module needs (indexes into SHEETS). */
export interface SheetMap {
  hrefs: string[]
  pages: Record<string, number[]>
}

/**
 * Id of the page's footer, the last thing a visitor sees. The head asks the browser not to paint
 * until it has been parsed (see Root.tsx).
 */
export const CONTENT_END_ID = 'site-footer'

/** Id of the JSON script tag listing the modules a page needs, for the boot script. */
export const ASSETS_ELEMENT_ID = '__assets'

/**
 * The `elementtiming` name of the image a page expects to be its largest paint: the app starts
 * once the browser reports it drawn.
 */
export const LARGEST_IMAGE_MARK = 'largest-image'

/** Code a page needs, from the build manifest: the app and the page's own chunks. */
export interface DocumentAssets {
  /** The script the head runs inline for the header's menus; given on the server only (the browser has run it already). */
  menusScript?: string
  modules: string[]
}
