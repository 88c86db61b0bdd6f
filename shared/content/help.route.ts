import { definePage } from '../page-route.js'
import type { Article, Breadcrumbs, HelpArticleSummary, HelpSection, HelpSub } from './schema.js'

export interface HelpIndexData {
  sections: HelpSection[]
}

/** A section or subsection lists its articles; an article shows beside the rest of its listing. */
export type HelpListingData =
  | { kind: 'listing'; section: HelpSection; sub: HelpSub | null; articles: HelpArticleSummary[]; breadcrumbs: Breadcrumbs }
  | { kind: 'article'; section: HelpSection; sub: HelpSub | null; article: Article; siblings: HelpArticleSummary[]; breadcrumbs: Breadcrumbs }

export const helpPages = [
  definePage<HelpIndexData>()({ id: 'help', path: 'help/', module: 'HelpIndex', load: () => import('./HelpIndex.js') }),
  // A section, or (second segment) a subsection or an article of a section without subsections.
  definePage<HelpListingData>()({ id: 'help-section', path: 'help/:section/', module: 'HelpListing', load: () => import('./HelpListing.js') }),
  definePage<HelpListingData>()({ id: 'help-page', path: 'help/:section/:slug/', module: 'HelpListing', load: () => import('./HelpListing.js') }),
  definePage<HelpListingData>()({ id: 'help-article', path: 'help/:section/:sub/:article/', module: 'HelpListing', load: () => import('./HelpListing.js') }),
] as const
