import { createRequire } from 'node:module'
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/**
 * The axe-core that @axe-core/playwright runs. A spec that checks pages loads it into every
 * document before the page's own scripts (`test.use({ axe: true })`, tests/e2e/fixtures.ts) and
 * calls it there: the builder sends the whole library into the page again for each check and
 * brings back every rule's every result, which costs more than the check itself (measured on
 * eight page types: half the CPU time in all, for the same violations).
 */
export const AXE_SOURCE = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve('axe-core/axe.min.js')

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
 * element that breaks it. Only violations come back (`resultTypes`): passes and the rest are all
 * that the full results add.
 */
export async function expectNoAxeViolations(page: Page, scope: AxeScope = {}): Promise<void> {
  await settleAnimations(page)
  const include = asList(scope.include)
  const exclude = asList(scope.exclude)
  let violations: Violation[]
  if (scope.frames === false) {
    // The page's own axe (loaded with the document), in the top document with `iframes: false`:
    // the frame elements are checked (a title, their place in the page), not what they hold.
    violations = await page.evaluate(
      async ({ include, exclude, tags }) => {
        const axe = (window as unknown as { axe?: { run(context: unknown, options: unknown): Promise<{ violations: Violation[] }> } }).axe
        if (!axe) throw new Error('axe-core is not in this page: the spec needs test.use({ axe: true })')
        const context = include.length ? { include, exclude } : { exclude }
        return (await axe.run(context, { runOnly: { type: 'tag', values: tags }, iframes: false, resultTypes: ['violations'] })).violations
      },
      { include, exclude, tags: AXE_TAGS },
    )
  } else {
    // Every frame, whatever its origin or sandbox, is checked by the builder, frame by frame.
    let builder = new AxeBuilder({ page }).withTags(AXE_TAGS).options({ resultTypes: ['violations'] })
    for (const selector of include) builder = builder.include(selector)
    for (const selector of exclude) builder = builder.exclude(selector)
    violations = (await builder.analyze()).violations
  }
  expect(violations.length, `axe found ${violations.length} accessibility violation(s) on ${page.url()}:\n${describeViolations(violations)}\n`).toBe(0)
}
