/** Shapes of the site's content (data/) as pages receive it from their loaders. */

export interface Link {
  text: string
  href: string
}

export interface NavItem {
  label: string
  href: string
  description: string
}

export interface NavGroup {
  label: string
  href?: string
  items?: NavItem[]
}

export interface SiteNav {
  groups: NavGroup[]
  footer: {
    columns: { title: string; links: { label: string; href: string }[] }[]
    legal: { label: string; href: string }[]
  }
}

export interface Seo {
  title: string
  description: string
}

export interface HomeContent extends Seo {
  hero: { eyebrow: string; title: string; subtitle: string; primaryCta: Link; secondaryCta: Link; note: string }
  widgetKinds: { title: string; subtitle: string; items: { slug: string; name: string; description: string; href: string }[] }
  sections: { id: string; eyebrow: string; title: string; text: string; bullets: string[]; link: Link }[]
  storeExamples: {
    title: string
    subtitle: string
    categories: { slug: string; name: string }[]
    stores: { title: string; url: string; name: string; categories: string[]; img: string; width: number; height: number }[]
  }
  generators: {
    title: string
    subtitle: string
    items: { title: string; name: string; description: string; button: string; link: string }[]
  }
  cta: { title: string; text: string; button: Link }
}

/** A Markdown document rendered to HTML on the server. */
export interface Article extends Seo {
  slug: string
  html: string
  headings: { id: string; text: string }[]
  updated?: string
}

export interface BlogTheme {
  slug: string
  name: string
  description: string
}

export interface BlogPostSummary extends Seo {
  slug: string
  theme: string
  date: string
  author: string
  tags: string[]
  readingMinutes: number
}

export interface BlogPost extends BlogPostSummary {
  html: string
}

export interface HelpCounts {
  articles: number
  videos: number
}

export interface HelpArticleSummary extends Seo {
  slug: string
  /** Site path of the article, e.g. /help/widgets/design/colors-and-fonts/ */
  path: string
  hasVideo: boolean
}

export interface HelpSub extends Seo, HelpCounts {
  slug: string
  name: string
  path: string
}

export interface HelpSection extends Seo, HelpCounts {
  slug: string
  name: string
  path: string
  subs: HelpSub[]
}

export interface FaqContent extends Seo {
  groups: { name: string; items: { q: string; html: string }[] }[]
}

export interface UseCaseSummary extends Seo {
  slug: string
  name: string
  summary: string
}

/** A breadcrumb trail, outermost first. The last entry is the current page. */
export type Breadcrumbs = Link[]
