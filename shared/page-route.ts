/** Carries a page's data type in its route entry; it exists only for the type checker. */
declare const pageData: unique symbol

/**
 * One page of the site: its route id, URL pattern, the module (one code-split chunk) that draws
 * it, and the type of the data its loader returns.
 */
export interface PageRoute<Id extends string = string, Data = unknown, Module = unknown> {
  id: Id
  /** Path below the root as visitors see it (trailing slash included); absent for the home page. */
  path?: string
  /** File name of the page component (unique under shared/), without extension; the build maps it to its chunk for preloading. */
  module: string
  /**
   * Imports that file; its default export draws the page. That it is a component is checked where
   * the routes are built (shared/routes.tsx): checking it here would make the page table's type
   * depend on the components, whose types depend on the table through `usePageData`.
   */
  load: () => Promise<Module>
  /**
   * The page holds something of the visitor's own (a reset link's token): never stored in the
   * page cache, sent with `Cache-Control: no-store`.
   */
  private?: true
  /** Drawn without the site's header and footer: a page made to be shown in another page's frame. */
  bare?: true
  /** Never set: the type of what the page's loader returns, read by `PageData`. */
  readonly [pageData]?: Data
}

/**
 * Declares a page whose loader returns `Data`:
 * `definePage<PricingData>()({ id: 'pricing', path: 'pricing/', module: 'Pricing', load: () => import('./Pricing.js') })`.
 * (Two calls, so that the id is inferred as its literal while the data type is given.)
 */
export const definePage =
  <Data>() =>
  <const Id extends string, Module extends { default: unknown }>(route: PageRoute<Id, Data, Module>): PageRoute<Id, Data, Module> =>
    route

/** The ids of a list of page routes. */
export type PageIdOf<Routes extends readonly PageRoute[]> = Routes[number]['id']

/** Page id → the data its loader returns, for a list of page routes. */
export type PageDataOf<Routes extends readonly PageRoute[]> = {
  [Route in Routes[number] as Route['id']]: Route extends PageRoute<string, infer Data, unknown> ? Data : never
}
