/** What each page's loader returns: the same shape on the server and in the browser. */
import type {
  Article,
  BlogPost,
  BlogPostSummary,
  BlogTheme,
  Breadcrumbs,
  FaqContent,
  HelpArticleSummary,
  HelpSection,
  HelpSub,
  HomeContent,
  UseCaseSummary,
} from './content.js'
import type { PlanFeatureRow, PricesResponse } from './pricing.js'

export interface HomeData {
  home: HomeContent
}

export interface PricingData {
  /** Null when prices could not be loaded: the page then shows no plans. */
  prices: PricesResponse | null
  /** Feature descriptions with their in-page anchors; shown even when prices are not. */
  features: PlanFeatureRow[]
}

export interface ContentPageData {
  page: Article
}

export interface FaqData {
  faq: FaqContent
}

export interface BlogIndexData {
  themes: BlogTheme[]
  /** The theme being listed, or null on /blog/ itself. */
  theme: BlogTheme | null
  posts: BlogPostSummary[]
}

export interface BlogPostData {
  post: BlogPost
  theme: BlogTheme
  related: BlogPostSummary[]
}

export interface HelpIndexData {
  sections: HelpSection[]
}

export type HelpListingData =
  | { kind: 'listing'; section: HelpSection; sub: HelpSub | null; articles: HelpArticleSummary[]; breadcrumbs: Breadcrumbs }
  | { kind: 'article'; section: HelpSection; sub: HelpSub | null; article: Article; siblings: HelpArticleSummary[]; breadcrumbs: Breadcrumbs }

export interface UseCasesData {
  useCases: UseCaseSummary[]
  /** The use case being shown, or null on the /usecase/ index. */
  current: (Article & { name: string }) | null
}
