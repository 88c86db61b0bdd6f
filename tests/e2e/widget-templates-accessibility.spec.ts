/**
 * Every widget template, in each of its themes, as a visitor meets it on its live preview
 * (/app/preview/{hid}): axe-core finds no WCAG 2.0/2.1 A or AA violation inside the widget as it
 * loads and after an empty submit (or, without fields, after its button shows what it reveals);
 * the text typed into every field, and its placeholder, read at 4.5:1 on the field's own
 * background, measured from the computed styles (axe does not look at typed text); a modal takes
 * the focus when it opens, keeps Tab inside and gives the focus back when Escape closes it; the
 * page names the template in a heading inside its main landmark.
 *
 * The decorative pattern and background art are hidden while axe measures, so that it can decide
 * the contrast of every text (it leaves text over a background image undecided): what they do to
 * contrast is measured on the palettes by tests/unit/widget-contrast.test.ts. A text axe still
 * cannot decide fails the check.
 *
 * One page walks through a chunk of templates; chunks run in parallel. The last chunk to finish
 * prints the figures of the whole run.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Page } from '@playwright/test'
import type { AxeResults } from 'axe-core'
import { contrast } from '../../scripts/lib/colour.js'
import type { WidgetTemplate } from '../../shared/gallery/widget-schema.js'
import { expect, readData, test } from './fixtures.js'

const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']
const TEXT = 4.5
/** Templates (in one theme) per test: 11–15 s a test on this 2-core machine beside the other worker. */
const CHUNK = 16
/**
 * A test's limit: four times what a chunk takes. One run saw four chunks in a row take over 30 s
 * (every step of each slowed alike, the machine's CPU for a minute), and the next chunks 9–12 s.
 */
const CHUNK_LIMIT_MS = 60_000

interface Run {
  template: WidgetTemplate
  theme: 'light' | 'dark'
}

const runs: Run[] = readData<WidgetTemplate[]>('generated/widget-templates.json').flatMap((template): Run[] =>
  template.dark ? [{ template, theme: 'light' }, { template, theme: 'dark' }] : [{ template, theme: 'light' }],
)
const chunks = Array.from({ length: Math.ceil(runs.length / CHUNK) }, (_, index) => runs.slice(index * CHUNK, (index + 1) * CHUNK))

interface Figures {
  checked: number
  /** Previews with at least one problem, and the problems found. */
  failing: number
  problems: number
  axeRuns: number
  violations: number
  fields: number
  minTyped: number
  minPlaceholder: number
  modals: number
  modalsFocused: number
  ms: number
}

/** `rgb(…)`, `rgba(…)` or `color(srgb …)` as `#rrggbb` and its alpha. */
function parseColour(css: string): { hex: string; alpha: number } {
  const srgb = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.]+))?\)$/.exec(css)
  const rgb = /^rgba?\((\d+(?:\.\d+)?),\s*(\d+(?:\.\d+)?),\s*(\d+(?:\.\d+)?)(?:,\s*([\d.]+))?\)$/.exec(css)
  const channels = srgb ? srgb.slice(1, 4).map((value) => Number(value) * 255) : rgb ? rgb.slice(1, 4).map(Number) : undefined
  if (!channels) throw new Error(`unreadable colour ${css}`)
  const alpha = Number((srgb ?? rgb)![4] ?? 1)
  return { hex: `#${channels.map((value) => Math.round(value).toString(16).padStart(2, '0')).join('')}`, alpha }
}

/** axe-core on the widget: its WCAG A/AA violations, and the texts whose contrast it could not decide. */
async function axeProblems(page: Page, state: string): Promise<{ problems: string[]; violations: number }> {
  const results = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<AxeResults> } }).axe.run(
        { include: [['[data-plw]']] },
        { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations', 'incomplete'] },
      ),
    WCAG_AA,
  )
  const problems: string[] = []
  let violations = 0
  for (const violation of results.violations) {
    violations += violation.nodes.length
    for (const node of violation.nodes) problems.push(`${state}: ${violation.id} at ${node.target.join(' ')}: ${(node.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`)
  }
  for (const result of results.incomplete.filter((rule) => rule.id === 'color-contrast')) {
    for (const node of result.nodes) {
      // A lone symbol (the success tick, hidden from assistive technology) is not text to axe.
      if ((node.any[0]?.data as { messageKey?: string } | undefined)?.messageKey === 'nonBmp') continue
      problems.push(`${state}: axe could not decide the contrast of ${node.target.join(' ')}: ${(node.any[0]?.message ?? '').trim()}`)
    }
  }
  return { problems, violations }
}

/** The colours of every field as drawn: typed text and placeholder on the field's background. */
async function fieldColours(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('[data-plw] .plw-input'))
      .filter((field) => field.offsetParent !== null)
      .map((field) => {
        const style = getComputedStyle(field)
        const option = field instanceof HTMLSelectElement ? field.options[field.options.length - 1] : undefined
        return {
          id: field.id,
          text: style.color,
          background: style.backgroundColor,
          placeholder: 'placeholder' in field && field.placeholder ? getComputedStyle(field, '::placeholder').color : undefined,
          option: option ? { text: getComputedStyle(option).color, background: getComputedStyle(option).backgroundColor } : undefined,
        }
      }),
  )
}

/** Texts and controls of the widget that the close button or the launcher covers. */
async function coveredParts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const box = document.querySelector('[data-plw-box]')!
    const covers = Array.from(document.querySelectorAll<HTMLElement>('[data-plw-box] > .plw-close, [data-plw-launcher]')).filter((node) => node.offsetParent !== null || getComputedStyle(node).position === 'fixed')
    const parts: { name: string; rects: DOMRect[] }[] = []
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement!
      // Skipped: what is not drawn (hidden states, text for screen readers only, a bar's labels).
      if (!node.textContent!.trim() || parent.closest('.plw-close, [hidden], .plw-sr, .plw--bar .plw-label')) continue
      const range = document.createRange()
      range.selectNodeContents(node)
      parts.push({ name: `text “${node.textContent!.trim().slice(0, 30)}”`, rects: Array.from(range.getClientRects()) })
    }
    for (const control of box.querySelectorAll<HTMLElement>('input, select, textarea, button:not(.plw-close), .plw-option span, .plw-stars label')) {
      if (control.offsetParent === null || (control instanceof HTMLInputElement && control.type === 'radio')) continue
      parts.push({ name: `${control.tagName.toLowerCase()}.${control.className || control.getAttribute('type')}`, rects: [control.getBoundingClientRect()] })
    }
    // A text's box reaches a pixel or two past its letters (the font's ascent): a hair is no overlap.
    const HAIR = 2
    const meet = (a: DOMRect, b: DOMRect) =>
      a.width > 0 && a.height > 0 && Math.min(a.right, b.right) - Math.max(a.left, b.left) > HAIR && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > HAIR
    const found: string[] = []
    for (const cover of covers) {
      const area = cover.getBoundingClientRect()
      for (const part of parts) if (part.rects.some((rect) => meet(rect, area))) found.push(`${cover.classList.contains('plw-close') ? 'the close button' : 'the launcher'} covers ${part.name}`)
    }
    return found
  })
}

/** Checks one template in one theme; what it finds goes into `problems`. */
async function checkTemplate(page: Page, { template, theme }: Run, figures: Figures, problems: string[]): Promise<void> {
  figures.checked++
  const response = await page.goto(`/app/preview/${template.id}${theme === 'dark' ? '?theme=dark' : ''}`)
  if (!response?.ok()) {
    problems.push(`answered ${response?.status()}`)
    return
  }
  const box = page.locator('[data-plw-box]')
  await expect(box).toBeVisible()

  // The page: one heading naming the template, in the main landmark, whatever the widget's position.
  const heading = await page.evaluate(() => Array.from(document.querySelectorAll('main h1'), (node) => node.textContent))
  if (heading.length !== 1 || !heading[0]!.includes(template.name)) problems.push(`page: no main landmark with a heading naming the template (${JSON.stringify(heading)})`)

  // Nothing to read or use lies under the close button or the launcher.
  for (const overlap of await coveredParts(page)) problems.push(`layout: ${overlap}`)

  // A modal holds the focus from the moment it opens.
  const modal = (await box.getAttribute('aria-modal')) === 'true'
  const focusInside = () => page.evaluate(() => document.querySelector('[data-plw-box]')!.contains(document.activeElement))
  if (modal) {
    figures.modals++
    if (await focusInside()) figures.modalsFocused++
    else problems.push('focus: the modal did not take the focus when it opened')
    for (const key of ['Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key)
      if (!(await focusInside())) problems.push(`focus: ${key} left the modal`)
    }
  }

  // Decorations off while axe measures (their effect on contrast is measured on the palettes),
  // and the shop backdrop out of sight: every text of the widget sits on its own opaque surface,
  // but axe leaves a text undecided when its lines cross different elements far beneath it.
  await page.evaluate(() => {
    const root = document.querySelector<HTMLElement>('[data-plw]')!
    root.style.setProperty('--plw-pattern', 'none')
    const art = root.querySelector<HTMLElement>('.plw--art-background .plw-art')
    if (art) art.style.visibility = 'hidden'
    for (const scenery of document.querySelectorAll<HTMLElement>('.shop')) scenery.style.visibility = 'hidden'
  })
  const loaded = await axeProblems(page, 'as loaded')
  figures.axeRuns++
  figures.violations += loaded.violations
  problems.push(...loaded.problems)

  for (const field of await fieldColours(page)) {
    figures.fields++
    const background = parseColour(field.background)
    if (background.alpha < 1) {
      problems.push(`${field.id}: the field's background is not opaque (${field.background})`)
      continue
    }
    const typed = contrast(parseColour(field.text).hex, background.hex)
    figures.minTyped = Math.min(figures.minTyped, typed)
    if (typed < TEXT) problems.push(`${field.id}: typed text ${field.text} on ${field.background} is ${typed.toFixed(2)}:1`)
    if (field.placeholder) {
      const placeholder = contrast(parseColour(field.placeholder).hex, background.hex)
      figures.minPlaceholder = Math.min(figures.minPlaceholder, placeholder)
      if (placeholder < TEXT) problems.push(`${field.id}: placeholder ${field.placeholder} on ${field.background} is ${placeholder.toFixed(2)}:1`)
    }
    if (field.option) {
      const option = contrast(parseColour(field.option.text).hex, parseColour(field.option.background).hex)
      figures.minTyped = Math.min(figures.minTyped, option)
      if (option < TEXT) problems.push(`${field.id}: options ${field.option.text} on ${field.option.background} are ${option.toFixed(2)}:1`)
    }
  }

  // An empty submit shows the errors; a button without fields shows what it reveals.
  const action = template.button.action
  if (action === 'submit' || action === 'reveal') {
    await box.locator('.plw-button').click({ timeout: 5000 })
    if (action === 'submit' && template.fields.some((field) => field.required)) await expect(box.locator('[data-plw-error]:not([hidden])').first()).toBeVisible()
    if (action === 'reveal') await expect(box.locator('[data-plw-success]')).toBeVisible()
    const after = await axeProblems(page, action === 'submit' ? 'after an empty submit' : 'after the button')
    figures.axeRuns++
    figures.violations += after.violations
    problems.push(...after.problems)
  }

  // Escape closes a modal and gives the focus back (to the button that shows it again).
  if (modal) {
    await page.keyboard.press('Escape')
    await expect(box).toBeHidden()
    const back = await page.evaluate(() => document.activeElement?.matches('[data-preview-replay], [data-plw-launcher]') ?? false)
    if (!back) problems.push('focus: closing the modal left the focus nowhere')
  }
}

const runDir = path.join(os.tmpdir(), `widget-templates-accessibility-${process.ppid}`)

function report(index: number, figures: Figures) {
  fs.mkdirSync(runDir, { recursive: true })
  fs.writeFileSync(path.join(runDir, `chunk-${index}.json`), JSON.stringify(figures))
  const files = fs.readdirSync(runDir).filter((name) => name.startsWith('chunk-'))
  if (files.length < chunks.length) return
  const all = files.map((name) => JSON.parse(fs.readFileSync(path.join(runDir, name), 'utf8')) as Figures)
  const sum = (key: keyof Figures) => all.reduce((total, figure) => total + figure[key], 0)
  // A chunk without fields has no minimum: JSON writes its Infinity as null.
  const min = (key: keyof Figures) => Math.min(...all.map((figure) => figure[key] ?? Infinity))
  const templateCount = new Set(runs.map((run) => run.template.id)).size
  console.log(
    `widget templates accessibility: ${sum('checked')} previews checked (${templateCount} templates, ${runs.length - templateCount} dark versions), ` +
      `${sum('failing')} with problems (${sum('problems')} in all), ${sum('axeRuns')} axe runs, ${sum('violations')} axe violations, ${sum('fields')} fields measured ` +
      `(typed text min ${min('minTyped').toFixed(2)}:1, placeholder min ${min('minPlaceholder').toFixed(2)}:1), ` +
      `modals focused on open ${sum('modalsFocused')}/${sum('modals')}, ${(sum('ms') / 1000).toFixed(1)} s of checks in ${chunks.length} chunks`,
  )
  fs.rmSync(runDir, { recursive: true, force: true })
}

test.use({ reducedMotion: 'reduce', axe: true })

test.describe('every widget template is accessible on its live preview', () => {
  chunks.forEach((chunk, index) => {
    const first = chunk[0]!.template.id
    const last = chunk.at(-1)!.template.id
    test(`templates ${index * CHUNK + 1}–${index * CHUNK + chunk.length} of ${runs.length} (${first} … ${last})`, async ({ page }) => {
      test.setTimeout(CHUNK_LIMIT_MS)
      const started = Date.now()
      const figures: Figures = { checked: 0, failing: 0, problems: 0, axeRuns: 0, violations: 0, fields: 0, minTyped: Infinity, minPlaceholder: Infinity, modals: 0, modalsFocused: 0, ms: 0 }
      const problems: string[] = []
      for (const run of chunk) {
        const found: string[] = []
        // A step that cannot be done (a control covered, a state that never shows) is a problem of that template.
        await checkTemplate(page, run, figures, found).catch((error: Error) => found.push(`check stopped: ${error.message.split('\n')[0]}`))
        if (found.length) figures.failing++
        for (const problem of found) problems.push(`${run.template.id} (${run.template.name}, ${run.theme}): ${problem}`)
      }
      figures.problems = problems.length
      figures.ms = Date.now() - started
      report(index, figures)
      expect(problems, `${problems.length} problem(s):\n${problems.join('\n')}\n`).toEqual([])
    })
  })
})
