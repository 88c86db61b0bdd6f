/**
 * Which parts of the stylesheet (listed in shared/site.ts, each beside its feature) each page
 * draws with, worked out by the build from the code itself: a part is a page's when a class or id
 * its rules name is written in the page's code, in the code every page loads (the app), or in code
 * either fetches on demand (a dialog, a photo sender). A class made up in code counts by the
 * literal it starts with (`card--${kind}` names every `card--…`); none is made with a variable first.
 *
 * It errs on the side of sending a part: a word in any string counts. A class that no code names
 * (one only in data, such as Markdown's HTML) must be in a frame part. A route test renders a
 * sample of every page module and checks that each rule matching something on it comes with the
 * page; a browser test compares every element's computed style on a page, and in its dialogs and
 * menus, with what the whole stylesheet gives.
 */
import fs from 'node:fs'
import path from 'node:path'
import { parseAst } from 'rolldown/parseAst'
import type { OutputChunk } from 'rolldown'
import { pages } from '../../shared/pages.js'
import { FRAME_SHEETS, SHEETS, type SheetName } from '../../shared/site.js'
import { root } from './server-process.js'

/** Where each part of the stylesheet is written: beside the feature it styles. */
const SHEET_SOURCES: Record<SheetName, string> = {
  site: 'shared/layout/site.css',
  home: 'shared/home/home.css',
  cards: 'shared/components/cards.css',
  'long-form': 'shared/content/long-form.css',
  pricing: 'shared/pricing/pricing.css',
  footer: 'shared/layout/footer.css',
  auth: 'shared/accounts/auth.css',
  galleries: 'shared/gallery/galleries.css',
  generators: 'shared/generators/generators.css',
  countdown: 'shared/generators/countdown/countdown.css',
  'saved-timers': 'shared/generators/countdown/saved-timers.css',
  slideshow: 'shared/generators/slideshow/slideshow.css',
  'subject-lines': 'shared/generators/subject-lines/subject-lines.css',
}

export const sheetSource = (name: SheetName) => path.join(root, SHEET_SOURCES[name])

/** A selector list's selectors: split at its commas, not at those inside `:is(…)`, `:not(…)` and the like. */
export function splitSelectorList(list: string): string[] {
  const selectors: string[] = []
  let depth = 0
  let current = ''
  for (const char of list) {
    if (char === ',' && depth === 0) {
      selectors.push(current.trim())
      current = ''
      continue
    }
    if (char === '(') depth++
    else if (char === ')') depth = Math.max(0, depth - 1)
    current += char
  }
  return [...selectors, current.trim()]
}

/**
 * A stylesheet's selectors. Plain CSS: a rule's selector is what comes before its `{`, after the
 * last `;`, `{` or `}`; inside @keyframes the steps (`from`, `to`, `50%`) are no selectors.
 */
export function selectorsOf(css: string): string[] {
  const selectors: string[] = []
  // For each open block, whether it is a @keyframes one.
  const open: boolean[] = []
  let prelude = ''
  for (const char of css.replace(/\/\*[\s\S]*?\*\//g, '')) {
    if (char === '{') {
      const text = prelude.trim()
      if (!text.startsWith('@') && !open.at(-1)) selectors.push(...splitSelectorList(text))
      open.push(/^@(-\w+-)?keyframes\b/.test(text))
      prelude = ''
    } else if (char === '}' || char === ';') {
      if (char === '}') open.pop()
      prelude = ''
    } else prelude += char
  }
  return selectors
}

/** The classes and ids a selector names (`.card`, `#site-nav`). */
export const namesIn = (selector: string) => [...selector.matchAll(/[.#](-?[A-Za-z_][\w-]*)/g)].map((match) => match[1]!)

/**
 * The classes and ids an element must have, or have around it, for a selector to select it:
 * those it names outside `:not(…)`, `:is(…)` and the like (which may be met without them).
 */
export function requiredNames(selector: string): string[] {
  let bare = selector
  for (let before = ''; before !== bare; ) [before, bare] = [bare, bare.replace(/:[\w-]+\([^()]*\)/g, '')]
  return namesIn(bare)
}

/** The words in a source file's string literals and template texts: where class names are written. */
export function literalWords(source: string, fileName = 'source.tsx'): Set<string> {
  const words = new Set<string>()
  const add = (text: string) => {
    for (const word of text.match(/-*[A-Za-z_][\w-]*/g) ?? []) words.add(word)
  }
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!node || typeof node !== 'object') return
    const { type, value } = node as { type?: unknown; value?: unknown }
    // A module's address is no class.
    if (type === 'ImportDeclaration' || type === 'ImportExpression' || type === 'ExportAllDeclaration' || type === 'ExportNamedDeclaration') {
      const { source, ...rest } = node as { source?: unknown }
      return visit(Object.values(rest))
    }
    if (type === 'Literal' && typeof value === 'string') add(value)
    else if (type === 'TemplateElement') add((value as { raw: string }).raw)
    else for (const child of Object.values(node)) visit(child)
  }
  visit(parseAst(source, { lang: fileName.endsWith('.tsx') ? 'tsx' : 'ts' }, fileName))
  return words
}

/** Whether code with these words can draw an element that `name` selects. */
export function namesClass(words: ReadonlySet<string>, name: string): boolean {
  if (words.has(name)) return true
  for (const word of words) {
    if (word.length < 3) continue
    if (word.endsWith('-') && name.startsWith(word)) return true
  }
  return false
}

/**
 * Each part's selectors, as the names each requires, read from its source. A rule of a part not
 * every page has must name a class or id.
 */
export function sheetNames(): Map<SheetName, string[][]> {
  const names = new Map<SheetName, string[][]>()
  for (const sheet of SHEETS) {
    const selectors = selectorsOf(fs.readFileSync(sheetSource(sheet), 'utf8'))
    if (!FRAME_SHEETS.includes(sheet)) {
      const global = selectors.filter((selector) => !namesIn(selector).length)
      if (global.length) throw new Error(`${SHEET_SOURCES[sheet]} styles ${global.join(', ')}, which names no class or id: only the parts every page has (${FRAME_SHEETS.join(', ')}) may style the whole page`)
    }
    names.set(sheet, selectors.map(requiredNames))
  }
  return names
}

const wordsByFile = new Map<string, Set<string>>()

/**
 * The words of every source file among `moduleIds`: the site's own TypeScript (packages draw
 * none of its classes), route tables (`*.route.ts`, which name pages and paths) aside.
 */
export function wordsOfModules(moduleIds: Iterable<string>): Set<string> {
  const words = new Set<string>()
  for (const id of moduleIds) {
    if (!path.isAbsolute(id) || id.includes(`${path.sep}node_modules${path.sep}`) || !/\.tsx?$/.test(id) || id.endsWith('.route.ts')) continue
    let own = wordsByFile.get(id)
    if (!own) wordsByFile.set(id, (own = literalWords(fs.readFileSync(id, 'utf8'), id)))
    for (const word of own) words.add(word)
  }
  return words
}

/**
 * The parts, besides the frame's, that code with these words draws with, in the cascade's order:
 * those with a selector whose every required name the words can make.
 */
export function sheetsForWords(words: ReadonlySet<string>, names: Map<SheetName, string[][]>): SheetName[] {
  return SHEETS.filter((sheet) => !FRAME_SHEETS.includes(sheet) && names.get(sheet)!.some((required) => required.every((name) => namesClass(words, name))))
}

/** A browser build's chunks by file name. */
type Chunks = Map<string, OutputChunk>

/**
 * Every module a chunk can run, at once or on demand: its own, those of the chunks it imports and
 * of those it fetches later, short of other pages (`stops`).
 */
function reachableModules(chunks: Chunks, file: string, stops: ReadonlySet<string>, seen = new Set<string>()): string[] {
  if (seen.has(file)) return []
  seen.add(file)
  const chunk = chunks.get(file)!
  // What it imports runs with it, even from another page's file; what it fetches later, short of another page.
  const next = [...chunk.imports, ...chunk.dynamicImports.filter((file) => !stops.has(file))]
  return [...chunk.moduleIds, ...next.flatMap((file) => reachableModules(chunks, file, stops, seen))]
}

/** The chunks a chunk can run (as `reachableModules`), itself included. */
function reachableChunks(chunks: Chunks, file: string, stops: ReadonlySet<string>): Set<string> {
  const seen = new Set<string>()
  reachableModules(chunks, file, stops, seen)
  return seen
}

/** The component a chunk loads on demand (a page, a dialog), by its file name, if it is one. */
export const componentOf = (chunk: OutputChunk) => (chunk.isDynamicEntry ? chunk.facadeModuleId?.match(/\/shared\/(?:.+\/)?([A-Z]\w*)\.tsx$/)?.[1] : undefined)

/**
 * The parts of the stylesheet each page draws with, besides the frame's: those its own code
 * names (with what it imports from another page's file), with what it fetches on demand and
 * what the app names. The app's own components fetched on demand (the log-in dialog) are listed
 * too, from their code and what it imports: they fetch their parts as they come
 * (`loadPageSheets`), so the app's list, and so every page's, leaves their code out.
 */
export function pageSheets(probe: Chunks): Record<string, SheetName[]> {
  const names = sheetNames()
  const pageModules = new Set<string>(pages.map((page) => page.module))
  const components = [...probe.values()].filter((chunk) => componentOf(chunk))
  const pageChunks = new Set(components.filter((chunk) => pageModules.has(componentOf(chunk)!)).map((chunk) => chunk.fileName))
  const entry = [...probe.values()].find((chunk) => chunk.isEntry)!
  const componentFiles = new Set(components.map((chunk) => chunk.fileName))
  // The app imports no page or dialog outright: its parts would then be every page's.
  const imported = new Set<string>()
  const importedBy = (file: string): void => {
    for (const next of probe.get(file)!.imports) {
      if (imported.has(next)) continue
      imported.add(next)
      importedBy(next)
    }
  }
  importedBy(entry.fileName)
  const outright = components.filter((chunk) => imported.has(chunk.fileName)).map(componentOf)
  if (outright.length) throw new Error(`the app imports ${outright.join(', ')} outright, not on demand: their parts of the stylesheet would be every page's`)
  const app = reachableModules(probe, entry.fileName, componentFiles)
  const appFetches = new Set([...reachableChunks(probe, entry.fileName, componentFiles)].flatMap((file) => probe.get(file)!.dynamicImports))
  const appComponents = components.filter((chunk) => !pageChunks.has(chunk.fileName) && appFetches.has(chunk.fileName))
  const sheets: Record<string, SheetName[]> = {}
  for (const chunk of components) {
    const isPage = pageChunks.has(chunk.fileName)
    if (!isPage && !appComponents.includes(chunk)) continue
    const stops = new Set([...pageChunks, ...appComponents.map((component) => component.fileName)].filter((file) => file !== chunk.fileName))
    const own = reachableModules(probe, chunk.fileName, stops)
    sheets[componentOf(chunk)!] = sheetsForWords(wordsOfModules(isPage ? [...app, ...own] : own), names)
  }
  const missing = [...pageModules].filter((module) => !sheets[module])
  if (missing.length) throw new Error(`no chunk was found for the page modules ${missing.join(', ')}`)
  return sheets
}
