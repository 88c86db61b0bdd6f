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

/** The site's pages, read and validated once from the content folder. Every lookup afterwards is in memory. */
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

function readFaq(file: string): FaqContent {
  const faqData = readJson(file, faqFileSchema)
  return {
    title: faqData.title,
    description: faqData.description,
    groups: faqData.groups.map((group) => ({
      name: group.name,
      items: group.items.map((item) => ({ q: item.q, html: renderMarkdown(item.a).html })),
    })),
  }
}

function readPages(dir: string): Map<string, Article> {
  const pages = new Map<string, Article>()
  for (const file of markdownFiles(dir)) {
    const { meta, html, headings } = readMarkdown(file, pageMetaSchema)
    pages.set(baseName(file), { slug: baseName(file), ...meta, html, headings })
  }
  return pages
}

/** The blog's themes and every post, newest first. */
function readBlog(dir: string): { themes: BlogTheme[]; posts: BlogPost[] } {
  const themes = readJson(path.join(dir, 'themes.json'), sectionListSchema)
  const posts: BlogPost[] = []
  for (const theme of themes) {
    for (const file of markdownFiles(path.join(dir, theme.slug))) {
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
  return { themes, posts }
}

const listingKey = (section: string, sub?: string) => (sub ? `${section}/${sub}` : section)
const articlePath = (key: string, slug: string) => `/help/${key}/${slug}/`
const countsOf = (articles: HelpArticle[]) => ({
  articles: articles.length,
  videos: articles.filter((article) => article.video).length,
})

/** The help center's sections (with their subs and counts) and its articles by listing (`section` or `section/sub`). */
function readHelp(dir: string): { sections: HelpSection[]; byListing: Map<string, HelpArticle[]> } {
  const sectionList = readJson(path.join(dir, 'sections.json'), helpSectionListSchema)
  const byListing = new Map<string, HelpArticle[]>()
  const readListing = (section: string, sub?: string): HelpArticle[] => {
    const articles = markdownFiles(path.join(dir, section, ...(sub ? [sub] : []))).map((file) => {
      const { meta, html, headings } = readMarkdown(file, helpMetaSchema)
      return { slug: baseName(file), ...meta, html, headings }
    })
    articles.sort((a, b) => a.order - b.order || a.title.localeCompare(b.title))
    byListing.set(listingKey(section, sub), articles)
    return articles
  }
  const sections: HelpSection[] = sectionList.map((section) => {
    const sectionPath = `/help/${section.slug}/`
    const subs: HelpSub[] = (section.subs ?? []).map((sub) => ({
      slug: sub.slug,
      name: sub.name,
      title: sub.name,
      description: sub.description,
      path: `${sectionPath}${sub.slug}/`,
      ...countsOf(readListing(section.slug, sub.slug)),
    }))
    const own = countsOf(readListing(section.slug))
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
  return { sections, byListing }
}

/** The use cases in listing order, and each one's article. */
function readUseCases(dir: string): { useCases: UseCaseSummary[]; articles: Map<string, Article> } {
  const useCaseList = readJson(path.join(dir, 'sections.json'), sectionListSchema)
  const articles = new Map<string, Article & z.infer<typeof useCaseMetaSchema>>()
  for (const section of useCaseList) {
    const { meta, html, headings } = readMarkdown(path.join(dir, `${section.slug}.md`), useCaseMetaSchema)
    articles.set(section.slug, { slug: section.slug, ...meta, html, headings })
  }
  const useCases = useCaseList.map((section) => {
    const article = articles.get(section.slug)!
    return { slug: section.slug, name: section.name, title: article.title, description: article.description, summary: article.summary }
  })
  return { useCases, articles }
}

/** Reads nav.json, home.json and content/ of the content folder. */
export function loadContent(contentDir: string): ContentStore {
  const articlesDir = path.join(contentDir, 'content')
  const pages = readPages(path.join(articlesDir, 'pages'))
  const blog = readBlog(path.join(articlesDir, 'blog'))
  const help = readHelp(path.join(articlesDir, 'help'))
  const useCases = readUseCases(path.join(articlesDir, 'usecase'))
  // What the listings show, made once: the loaders hand these out as they are.
  const postSummaries = blog.posts.map(({ html: _html, ...summary }): BlogPostSummary => summary)
  const helpSummaries = new Map(
    [...help.byListing].map(([key, articles]) => [
      key,
      articles.map((article): HelpArticleSummary => ({ slug: article.slug, title: article.title, description: article.description, path: articlePath(key, article.slug), hasVideo: Boolean(article.video) })),
    ]),
  )

  return {
    nav: readJson(path.join(contentDir, 'nav.json'), navSchema),
    home: readJson(path.join(contentDir, 'home.json'), homeSchema),
    faq: readFaq(path.join(articlesDir, 'faq.json')),
    page: (slug) => pages.get(slug),
    blogThemes: blog.themes,
    blogPosts: (theme) => (theme ? postSummaries.filter((post) => post.theme === theme) : postSummaries),
    blogPost: (theme, slug) => blog.posts.find((post) => post.theme === theme && post.slug === slug),
    helpSections: help.sections,
    helpArticles: (section, sub) => helpSummaries.get(listingKey(section, sub)) ?? [],
    helpArticle: (section, sub, slug) => help.byListing.get(listingKey(section, sub))?.find((article) => article.slug === slug),
    useCases: useCases.useCases,
    useCase: (slug) => useCases.articles.get(slug),
    paths: () => [
      ...blog.themes.map((theme) => `/blog/${theme.slug}/`),
      ...blog.posts.map((post) => `/blog/${post.theme}/${post.slug}/`),
      ...help.sections.flatMap((section) => [section.path, ...section.subs.map((sub) => sub.path)]),
      ...[...help.byListing].flatMap(([key, articles]) => articles.map((article) => articlePath(key, article.slug))),
      ...useCases.useCases.map((useCase) => `/usecase/${useCase.slug}/`),
    ],
  }
}
