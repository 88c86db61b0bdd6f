/**
 * The site's content as data/ holds it: one zod schema per file shape, which the server parses
 * with at start-up (server/content/store.ts), and the TypeScript types of what pages receive.
 *
 * zod stays out of the browser bundle: browser code (shared/pages, shared/layout,
 * shared/components, client/) may only `import type` from this module.
 */
import { z } from 'zod'
import { TEMPLATE_ID } from '../gallery/paths.js'

const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a lowercase slug')
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
const href = z.string().regex(/^(\/|https:\/\/)/, 'must be a site path or https URL')

/** Title and description of a page, as search results and link previews show them. */
export const seoSchema = z.object({ title: z.string().min(1).max(70), description: z.string().min(50).max(170) })
export const linkSchema = z.object({ text: z.string().min(1), href })

/** A widget or email template's id; the home page's loader checks at start-up that its gallery has it. */
const templateId = z.string().regex(TEMPLATE_ID, 'must be a template id (8 lowercase letters or digits)')

/** data/nav.json: the header's menus and the footer's link columns. */
export const navSchema = z.object({
  groups: z.array(
    z.object({
      label: z.string().min(1),
      href: href.optional(),
      items: z.array(z.object({ label: z.string().min(1), href, description: z.string() })).optional(),
    }),
  ),
  footer: z.object({
    columns: z.array(z.object({ title: z.string().min(1), links: z.array(z.object({ label: z.string().min(1), href })) })),
    legal: z.array(z.object({ label: z.string().min(1), href })),
  }),
})

/** data/home.json: the home page, and the call to action every page ends with. */
export const homeSchema = seoSchema.extend({
  hero: z.object({
    eyebrow: z.string(),
    title: z.string().min(1),
    subtitle: z.string(),
    primaryCta: linkSchema,
    secondaryCta: linkSchema,
    note: z.string(),
    /** The shop window beside the copy: a widget template on its shop page, and an email template. */
    showcase: z.object({ widget: templateId, email: templateId }),
  }),
  widgetKinds: z.object({
    title: z.string(),
    subtitle: z.string(),
    items: z.array(z.object({ slug, name: z.string(), description: z.string(), href })).length(10),
  }),
  /** Rows of real template cards, four to a row as a wide screen shows them, each with a link to its whole gallery. */
  templates: z.object({
    title: z.string(),
    subtitle: z.string(),
    rows: z.array(z.object({ kind: z.enum(['widgets', 'emails']), title: z.string().min(1), ids: z.array(templateId).length(4), link: linkSchema })).min(1),
  }),
  sections: z.array(
    z.object({
      id: slug,
      eyebrow: z.string(),
      title: z.string(),
      text: z.string(),
      bullets: z.array(z.string()),
      link: linkSchema,
      /** Real templates drawn beside the section, as many as its art holds; a section without them keeps its sketch. */
      templates: z
        .discriminatedUnion('kind', [
          z.object({ kind: z.literal('widgets'), ids: z.array(templateId).length(2) }),
          z.object({ kind: z.literal('emails'), ids: z.array(templateId).length(3) }),
        ])
        .optional(),
    }),
  ),
  storeExamples: z.object({
    title: z.string(),
    subtitle: z.string(),
    categories: z.array(z.object({ slug, name: z.string() })).length(14),
    stores: z.array(
      z.object({
        title: z.string(),
        url: href,
        name: z.string(),
        categories: z.array(slug).min(1),
        img: href,
        width: z.number().int().positive(),
        height: z.number().int().positive(),
      }),
    ),
  }),
  generators: z.object({
    title: z.string(),
    subtitle: z.string(),
    items: z.array(z.object({ title: z.string(), name: z.string(), description: z.string(), button: z.string(), link: href })),
  }),
  cta: z.object({ title: z.string(), text: z.string(), button: linkSchema }),
})

/** data/content/faq.json: answers are Markdown. */
export const faqFileSchema = seoSchema.extend({
  groups: z.array(z.object({ name: z.string().min(1), items: z.array(z.object({ q: z.string().min(1), a: z.string().min(1) })).min(1) })).min(1),
})

/** Front matter of data/content/pages/{slug}.md. */
export const pageMetaSchema = seoSchema.extend({ updated: isoDate.optional() })
/** Front matter of data/content/blog/{theme}/{slug}.md. */
export const postMetaSchema = seoSchema.extend({ date: isoDate, author: z.string().min(1), tags: z.array(z.string()).default([]) })
/** Front matter of data/content/help/{section}[/{sub}]/{slug}.md; articles are listed by `order`, then title. */
export const helpMetaSchema = pageMetaSchema.extend({ order: z.number().int().default(0), video: z.string().optional() })
/** Front matter of data/content/usecase/{slug}.md. */
export const useCaseMetaSchema = seoSchema.extend({ summary: z.string().min(1) })

/** A named part of the site: a blog theme, a use case, a help section or subsection. */
export const sectionSchema = z.object({ slug, name: z.string().min(1), description: z.string().min(1) })
/** data/content/blog/themes.json and data/content/usecase/sections.json. */
export const sectionListSchema = z.array(sectionSchema)
/** data/content/help/sections.json: sections, some split into subsections. */
export const helpSectionListSchema = z.array(sectionSchema.extend({ subs: z.array(sectionSchema).optional() }))

export type Seo = z.infer<typeof seoSchema>
export type Link = z.infer<typeof linkSchema>
export type SiteNav = z.infer<typeof navSchema>
export type NavGroup = SiteNav['groups'][number]
export type HomeContent = z.infer<typeof homeSchema>
export type BlogTheme = z.infer<typeof sectionSchema>

/*
 * What the server builds from those files for the pages: Markdown rendered to HTML, paths and
 * counts worked out. Not read from a file, so no schema of their own; every field that does come
 * from a file keeps the type of its schema.
 */

/** A Markdown document rendered to HTML on the server. */
export type Article = z.infer<typeof pageMetaSchema> & {
  slug: string
  html: string
  headings: { id: string; text: string }[]
}

export type BlogPostSummary = z.infer<typeof postMetaSchema> & {
  slug: string
  /** Slug of the post's theme. */
  theme: string
  readingMinutes: number
}

export type BlogPost = BlogPostSummary & { html: string }

export interface HelpCounts {
  articles: number
  videos: number
}

export type HelpArticleSummary = Seo & {
  slug: string
  /** Site path of the article, e.g. /help/widgets/design/colors-and-fonts/ */
  path: string
  hasVideo: boolean
}

/** A help subsection; its title is its name. */
export type HelpSub = z.infer<typeof sectionSchema> & Seo & HelpCounts & { path: string }

/** A help section with its subsections; its title is its name. */
export type HelpSection = HelpSub & { subs: HelpSub[] }

/** The FAQ with every answer rendered to HTML. */
export type FaqContent = Seo & {
  groups: { name: string; items: { q: string; html: string }[] }[]
}

export type UseCaseSummary = Seo & Pick<z.infer<typeof useCaseMetaSchema>, 'summary'> & {
  slug: string
  name: string
}

/** A breadcrumb trail, outermost first. The last entry is the current page. */
export type Breadcrumbs = Link[]
