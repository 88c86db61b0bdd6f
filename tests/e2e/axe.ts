import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>
type Violation = AxeResults['violations'][number]
/** A CSS selector, or `{ fromFrames: ['iframe.preview', 'form'] }` for an element inside a frame. */
export type AxeSelector = Exclude<Parameters<AxeBuilder['include']>[0], unknown[]>

/** WCAG 2.0 and 2.1, levels A and AA, and axe's own best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']

export interface AxeScope {
  /** Checks only these parts of the page (default: the whole document). */
  include?: AxeSelector | AxeSelector[]
  /** Leaves these parts out. */
  exclude?: AxeSelector | AxeSelector[]
  /**
   * Whether to check what the page's iframes hold (default true). With false, the frames
   * themselves are still checked (a title, their place in the page), but not their documents.
   */
  frames?: boolean
}

const asList = (value: AxeSelector | AxeSelector[] | undefined): AxeSelector[] => (value === undefined ? [] : Array.isArray(value) ? value : [value])

/** One line per rule broken, then for each element its selector, its markup and what to change. */
function describeViolations(violations: Violation[]): string {
  return violations
    .map((violation) => {
      const nodes = violation.nodes.map((node) => {
        const fix = (node.failureSummary ?? '').split('\n').map((line) => line.trim()).filter(Boolean).join(' ')
        const selector = node.target.map((part) => (Array.isArray(part) ? part.join(' >>> ') : part)).join(' >> ')
        const html = node.html.replace(/\s+/g, ' ')
        return `    ${selector}\n      ${html.length > 160 ? `${html.slice(0, 159)}…` : html}\n      ${fix}`
      })
      return `  ${violation.id} (${violation.impact ?? 'no impact'}): ${violation.help} — ${violation.helpUrl}\n${nodes.join('\n')}`
    })
    .join('\n')
}

/**
 * Lets running CSS transitions and finite animations end first: axe reads the colours as drawn,
 * and text caught halfway through a fade-in would count as too faint.
 */
async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
    await Promise.race([Promise.all(finite.map((animation) => animation.finished.catch(() => undefined))), new Promise((resolve) => setTimeout(resolve, 2000))])
  })
}

/**
 * Runs axe-core on the page as it is now and fails with every violation of WCAG 2.0/2.1 A and AA
 * and of axe's best practices: the rule, its impact, what it asks for, and the selector of each
 * element that breaks it.
 */
export async function expectNoAxeViolations(page: Page, scope: AxeScope = {}): Promise<void> {
  await settleAnimations(page)
  let builder = new AxeBuilder({ page }).withTags(AXE_TAGS)
  for (const selector of asList(scope.include)) builder = builder.include(selector)
  for (const selector of asList(scope.exclude)) builder = builder.exclude(selector)
  // The frame-by-frame run steps into every frame whatever the options say, and an exclude aimed
  // inside a frame still leaves its document-level rules in; a single run in the top document
  // with `iframes: false` checks the frame elements and nothing they hold.
  if (scope.frames === false) builder = builder.options({ iframes: false }).setLegacyMode(true)
  const { violations } = await builder.analyze()
  expect(violations.length, `axe found ${violations.length} accessibility violation(s) on ${page.url()}:\n${describeViolations(violations)}\n`).toBe(0)
}
