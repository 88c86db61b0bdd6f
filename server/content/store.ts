import fs from 'node:fs'
import path from 'node:path'
import type { z } from 'zod'
import {
  faqFileSchema,
  helpMetaSchema,
  helpSectionListSchema,
  homeSchema,
  navSchema,
  pageMetaSchema,
  postMetaSchema,
  sectionListSchema,
  useCaseMetaSchema,
  type Article,
  type BlogPost,
  type BlogPostSummary,
  type BlogTheme,
  type FaqContent,
  type HelpArticleSummary,
  type HelpSection,
  type HelpSub,
  type HomeContent,
  type SiteNav,
  type UseCaseSummary,
} from '../../shared/content/schema.js'
import { checkDataWith, readDataFile } from '../data-file.js'
import { renderMarkdown, splitFrontMatter } from './markdown.js'

/** Words a visitor reads a minute, for the blog's reading-time estimate. */
const WORDS_PER_MINUTE = 230

export class ContentError extends Error {
  override name = 'ContentError'
}

const parseWith = <T,>(schema: z.ZodType<T>, value: unknown, file: string): T => checkDataWith(schema, value, file, ContentError)

const readJson = <T,>(file: string, schema: z.ZodType<T>): T => readDataFile(file, schema, ContentError)

function readMarkdown<T>(file: string, schema: z.ZodType<T>) {
  const { data, body } = splitFrontMatter(fs.readFileSync(file, 'utf8'))
  return { meta: parseWith(schema, data, file), ...renderMarkdown(body) }
}

function markdownFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => path.join(dir, name))
}

const baseName = (file: string) => path.basename(file, '.md')

type HelpArticle = Article & z.infer<typeof helpMetaSchema>

/** The site's pages, read and validated once from data/. Every lookup afterwards is in memory. */
export interface ContentStore {
  nav: SiteNav
  home: HomeContent
  faq: FaqContent
  page(slug: string): Article | undefined
  blogThemes: BlogTheme[]
  blogPosts(theme?: string): BlogPostSummary[]
  blogPost(theme: string, slug: string): BlogPost | undefined
  helpSections: HelpSection[]
  helpArticles(section: string, sub?: string): HelpArticleSummary[]
  helpArticle(section: string, sub: string | undefined, slug: string): Article | undefined
  useCases: UseCaseSummary[]
  useCase(slug: string): Article | undefined
  /** Every page path the content defines, for the sitemap. */
  paths(): string[]
}

export function loadContent(dataDir: string): ContentStore {
  const contentDir = path.join(dataDir, 'content')

  const nav = readJson(path.join(dataDir, 'nav.json'), navSchema)
  const home = readJson(path.join(dataDir, 'home.json'), homeSchema)
  const faqData = readJson(path.join(contentDir, 'faq.json'), faqFileSchema)
  const faq: FaqContent = {
    title: faqData.title,
    description: faqData.description,
    groups: faqData.groups.map((group) => ({
      name: group.name,
      items: group.items.map((item) => ({ q: item.q, html: renderMarkdown(item.a).html })),
    })),
  }

  const pages = new Map<string, Article>()
  for (const file of markdownFiles(path.join(contentDir, 'pages'))) {
    const { meta, html, headings } = readMarkdown(file, pageMetaSchema)
    pages.set(baseName(file), { slug: baseName(file), ...meta, html, headings })
  }

  const blogThemes = readJson(path.join(contentDir, 'blog', 'themes.json'), sectionListSchema)
  const posts: BlogPost[] = []
  for (const theme of blogThemes) {
    for (const file of markdownFiles(path.join(contentDir, 'blog', theme.slug))) {
      const { meta, html, words } = readMarkdown(file, postMetaSchema)
      posts.push({
        slug: baseName(file),
        theme: theme.slug,
        ...meta,
        html,
        readingMinutes: Math.max(1, Math.round(words / WORDS_PER_MINUTE)),
      })
    }
  }
  posts.sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug))
  const summarise = ({ html: _html, ...summary }: BlogPost): BlogPostSummary => summary

  const sectionList = readJson(path.join(contentDir, 'help', 'sections.json'), helpSectionListSchema)
  const helpByListing = new Map<string, HelpArticle[]>()
  const listingKey = (section: string, sub?: string) => (sub ? `${section}/${sub}` : section)
  const articlePath = (key: string, slug: string) => `/help/${key}/${slug}/`
  const readHelpListing = (section: string, sub?: string): HelpArticle[] => {
    const dir = path.join(contentDir, 'help', section, ...(sub ? [sub] : []))
    const articles = markdownFiles(dir).map((file) => {
      const { meta, html, headings } = readMarkdown(file, helpMetaSchema)
      return { slug: baseName(file), ...meta, html, headings }
    })
    articles.sort((a, b) => a.order - b.order || a.title.localeCompare(b.title))
    helpByListing.set(listingKey(section, sub), articles)
    return articles
  }
  const countsOf = (articles: HelpArticle[]) => ({
    articles: articles.length,
    videos: articles.filter((article) => article.video).length,
  })
  const helpSections: HelpSection[] = sectionList.map((section) => {
    const sectionPath = `/help/${section.slug}/`
    const subs: HelpSub[] = (section.subs ?? []).map((sub) => ({
      slug: sub.slug,
      name: sub.name,
      title: sub.name,
      description: sub.description,
      path: `${sectionPath}${sub.slug}/`,
      ...countsOf(readHelpListing(section.slug, sub.slug)),
    }))
    const own = countsOf(readHelpListing(section.slug))
    return {
      slug: section.slug,
      name: section.name,
      title: section.name,
      description: section.description,
      path: sectionPath,
      subs,
      articles: own.articles + subs.reduce((sum, sub) => sum + sub.articles, 0),
      videos: own.videos + subs.reduce((sum, sub) => sum + sub.videos, 0),
    }
  })
  const helpArticles = (section: string, sub?: string): HelpArticleSummary[] =>
    (helpByListing.get(listingKey(section, sub)) ?? []).map((article) => ({
      slug: article.slug,
      title: article.title,
      description: article.description,
      path: articlePath(listingKey(section, sub), article.slug),
      hasVideo: Boolean(article.video),
    }))

  const useCaseList = readJson(path.join(contentDir, 'usecase', 'sections.json'), sectionListSchema)
  const useCaseArticles = new Map<string, Article & z.infer<typeof useCaseMetaSchema>>()
  for (const section of useCaseList) {
    const file = path.join(contentDir, 'usecase', `${section.slug}.md`)
    const { meta, html, headings } = readMarkdown(file, useCaseMetaSchema)
    useCaseArticles.set(section.slug, { slug: section.slug, ...meta, html, headings })
  }
  const useCases: UseCaseSummary[] = useCaseList.map((section) => {
    const article = useCaseArticles.get(section.slug)!
    return { slug: section.slug, name: section.name, title: article.title, description: article.description, summary: article.summary }
  })

  return {
    nav,
    home,
    faq,
    page: (slug) => pages.get(slug),
    blogThemes,
    blogPosts: (theme) => (theme ? posts.filter((post) => post.theme === theme) : posts).map(summarise),
    blogPost: (theme, slug) => posts.find((post) => post.theme === theme && post.slug === slug),
    helpSections,
    helpArticles,
    helpArticle: (section, sub, slug) => helpByListing.get(listingKey(section, sub))?.find((article) => article.slug === slug),
    useCases,
    useCase: (slug) => useCaseArticles.get(slug),
    paths: () => [
      ...blogThemes.map((theme) => `/blog/${theme.slug}/`),
      ...posts.map((post) => `/blog/${post.theme}/${post.slug}/`),
      ...helpSections.flatMap((section) => [section.path, ...section.subs.map((sub) => sub.path)]),
      ...[...helpByListing].flatMap(([key, articles]) => articles.map((article) => articlePath(key, article.slug))),
      ...useCases.map((useCase) => `/usecase/${useCase.slug}/`),
    ],
  }
}
