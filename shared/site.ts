export const SITE_NAME = 'Poplift'

/** Id of the non-executable script tag that carries router state from the server to the browser. */
export const HYDRATION_ELEMENT_ID = '__router_state'

/** Id of the inline <style> that holds the site's stylesheet. */
export const STYLESHEET_ELEMENT_ID = 'site-css'

/**
 * Id of the page's footer, the last thing a visitor sees. The head asks the browser not to paint
 * until it has been parsed (see Root.tsx).
 */
export const CONTENT_END_ID = 'site-footer'

/** Id of the JSON script tag listing the modules a page needs, for the boot script. */
export const ASSETS_ELEMENT_ID = '__assets'

/** Code a page needs, from the build manifest: the app and the page's own chunks. */
export interface DocumentAssets {
  /** The script the head runs inline for the header's menus; given on the server only (the browser has run it already). */
  menusScript?: string
  modules: string[]
}
