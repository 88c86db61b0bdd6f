import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { test as base, expect, type Locator, type Page } from '@playwright/test'
import { parse as parseYaml } from 'yaml'
import { HYDRATION_ELEMENT_ID } from '../../shared/site.js'
import { AXE_SOURCE } from './axe.js'

export { expect }

const dataDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data')

/** Reads a JSON file of data/, e.g. `readData<Nav>('nav.json')`. */
export function readData<T>(relativePath: string): T {
  return JSON.parse(fs.readFileSync(path.join(dataDir, relativePath), 'utf8')) as T
}

/** Slugs of the Markdown files in a folder of data/, sorted (the file name is the page slug). */
export function markdownSlugs(relativeDir: string): string[] {
  return fs
    .readdirSync(path.join(dataDir, relativeDir))
    .filter((name) => name.endsWith('.md'))
    .map((name) => name.slice(0, -'.md'.length))
    .sort()
}

/** The YAML front matter of a Markdown file of data/. */
export function readFrontMatter(relativePath: string): Record<string, unknown> {
  const text = fs.readFileSync(path.join(dataDir, relativePath), 'utf8')
  const match = /^---\n([\s\S]*?)\n---/.exec(text)
  return match?.[1] ? (parseYaml(match[1]) as Record<string, unknown>) : {}
}

interface ContentSection {
  slug: string
  name: string
  subs?: { slug: string; name: string }[]
}

/** One page of each kind of content, read from data/: for tests that visit every page type. */
export const sampleContent = (() => {
  const blogTheme = readData<ContentSection[]>('content/blog/themes.json')[0]!
  const helpSections = readData<ContentSection[]>('content/help/sections.json')
  const helpSection = helpSections.find((section) => !section.subs)!
  const widgetsSection = helpSections.find((section) => section.subs?.length)!
  const widgetsSub = widgetsSection.subs![0]!
  return {
    blogTheme,
    blogPost: markdownSlugs(`content/blog/${blogTheme.slug}`)[0]!,
    helpSection,
    helpArticle: markdownSlugs(`content/help/${helpSection.slug}`)[0]!,
    widgetsSection,
    widgetsSub,
    widgetsArticle: markdownSlugs(`content/help/${widgetsSection.slug}/${widgetsSub.slug}`)[0]!,
    useCase: readData<ContentSection[]>('content/usecase/sections.json')[0]!,
  }
})()

interface NavGroup {
  label: string
  href?: string
  items?: { label: string; href: string; description: string }[]
}

export const nav = readData<{ groups: NavGroup[] }>('nav.json')

/**
 * Runs in the page: whether React has hydrated the whole document. React attaches its props to
 * every DOM node it hydrates; the page-state script is the last node it renders, and the header's
 * brand link the first.
 */
export function isDocumentHydrated(stateId: string): boolean {
  const isHydrated = (node: Element | null) => node !== null && Object.keys(node).some((key) => key.startsWith('__reactProps$'))
  return isHydrated(document.querySelector('.site-header .brand')) && isHydrated(document.getElementById(stateId))
}

/** Runs in the page: whether React has begun with the document (marked it as its root), hydrated or not. */
export function hasReactStarted(): boolean {
  return Object.keys(document).some((key) => key.startsWith('__reactContainer$'))
}

/**
 * Resolves once React has hydrated the whole document and run its effects. Effects (the carousel
 * is wired in one) run right after the commit, so two animation frames later the page is fully
 * interactive. Waiting on this rather than on a sleep keeps a test's first click from landing on
 * inert server HTML.
 */
export async function waitForHydration(page: Page): Promise<void> {
  const hydrated = page.waitForFunction(isDocumentHydrated, HYDRATION_ELEMENT_ID, { timeout: 10_000 })
  await hydrated.catch((error: Error) => {
    throw new Error(`${page.url()} did not hydrate within 10 s (is the build complete?): ${error.message}`)
  })
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
}

/** Opens a page, checks its status and waits until it is hydrated. */
export async function gotoHydrated(page: Page, url: string, status = 200): Promise<void> {
  const response = await page.goto(url)
  expect(response?.status(), `status of ${url}`).toBe(status)
  await waitForHydration(page)
}

/** `button`'s menu is open, `panel` shown and the focus on the button; Escape closes it. */
export async function expectEscapeClosesMenu(page: Page, button: Locator, panel: Locator): Promise<void> {
  await expect(button).toHaveAttribute('aria-expanded', 'true')
  await expect(panel).toBeVisible()
  await expect(button).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(button).toHaveAttribute('aria-expanded', 'false')
  await expect(panel).toBeHidden()
}

/** Marks the current document, to tell a client-side navigation (marker kept) from a reload (marker gone). */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    ;(window as Window & { __e2eDocument?: boolean }).__e2eDocument = true
  })
}

export async function isSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as Window & { __e2eDocument?: boolean }).__e2eDocument === true)
}

interface ConsoleGuard {
  /** Accepts console messages matching `pattern` in this test only; say why at the call site. */
  allow(pattern: RegExp): void
}

/**
 * Every test fails when the page logs a console error or warning, or throws: hydration
 * mismatches ("Minified React error #418", "Hydration failed") surface this way.
 */
export const test = base.extend<{ consoleGuard: ConsoleGuard; axe: boolean }>({
  /** Loads axe-core into every document of the test's pages, before their own scripts (tests/e2e/axe.ts). */
  axe: [false, { option: true }],
  context: async ({ context, axe }, use) => {
    if (axe) await context.addInitScript({ path: AXE_SOURCE })
    await use(context)
  },
  consoleGuard: [
    async ({ page }, use) => {
      const problems: string[] = []
      const allowed: RegExp[] = []
      page.on('console', (message) => {
        if (message.type() !== 'error' && message.type() !== 'warning') return
        const text = message.text()
        if (allowed.some((pattern) => pattern.test(text))) return
        const { url, lineNumber } = message.location()
        problems.push(`on ${page.url()}: console.${message.type()}: ${text}${url ? ` (${url}:${lineNumber})` : ''}`)
      })
      page.on('pageerror', (error) => problems.push(`on ${page.url()}: page error: ${error.message}`))
      await use({ allow: (pattern) => allowed.push(pattern) })
      expect(problems, 'the page logged errors or warnings').toEqual([])
    },
    { auto: true },
  ],
})
