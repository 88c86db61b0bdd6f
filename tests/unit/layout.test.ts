/**
 * The shape of the code, checked like behaviour: a feature is found in one folder on each side,
 * each concept is written once, functions stay short enough to read, every source is typed, and
 * what scripts generate lives apart from what people write.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
// TypeScript 7's package is the native compiler and exports no parser: TypeScript 6, the last with the
// JavaScript compiler API, parses here under its own name (package.json: typescript-api).
import ts from 'typescript-api'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file && fs.existsSync(path.join(ROOT, file)))
const CODE_FOLDERS = ['server/', 'shared/', 'client/']
const code = tracked.filter((file) => CODE_FOLDERS.some((folder) => file.startsWith(folder)))
const typescript = code.filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))

/** Longest a server function may be, and a React component anywhere. */
const MAX_SERVER_FUNCTION_LINES = 80
const MAX_COMPONENT_LINES = 150

/**
 * Every feature and the words its files are named with. The image service's own folders
 * (`server/giffer/routes`, `server/giffer/render`) are the one drawing engine and count once.
 */
const FEATURES: Record<string, RegExp> = {
  accounts: /(^|[/-])accounts?([/.-]|$)/,
  pricing: /(^|[/-])pric(ing|es)([/.-]|$)/i,
  holidays: /(^|[/-])holidays?([/.-]|$)/i,
  gallery: /(^|[/-])gallery([/.-]|$)/i,
  tracking: /(^|[/-])tracking([/.-]|$)/,
  countdown: /(^|[/-])countdown([/.-]|$)/i,
  'scrolling-text': /(^|[/-])scrolling-text([/.-]|$)/,
  'text-image': /(^|[/-])text-image([/.-]|$)/,
  slideshow: /(^|[/-])slideshow([/.-]|$)/i,
  'subject-lines': /(^|[/-])subject-lines([/.-]|$)/,
}

/** A name a feature no longer goes by, anywhere in the project. */
const RETIRED_NAME = /ai-subjects/
/** Folders named for a technique, which would hide a feature's parts from its folder. */
const TECHNIQUE_FOLDER = /\/(pages|schemas|loaders|actions)\//

function folderOf(file: string): string {
  const folder = path.posix.dirname(file)
  return folder.startsWith('server/giffer/') ? 'server/giffer/*' : folder
}

interface LongFunction {
  where: string
  lines: number
}

function functionName(node: ts.Node): string | undefined {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText()
  const parent = node.parent
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText()
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText()
  return undefined
}

/** Functions longer than their limit: any function of a server file, and components (capitalised functions of .tsx files). */
function longFunctions(file: string): LongFunction[] {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true)
  const found: LongFunction[] = []
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node)) {
      const name = functionName(node) ?? '(anonymous)'
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - start + 1
      const isComponent = file.endsWith('.tsx') && /^[A-Z]/.test(name)
      const limit = isComponent ? MAX_COMPONENT_LINES : file.startsWith('server/') ? MAX_SERVER_FUNCTION_LINES : Infinity
      if (lines > limit) found.push({ where: `${file}:${start + 1} ${name}`, lines })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** Files of the code folders whose text matches, with the number of matches. */
function occurrences(pattern: RegExp, files = typescript): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const file of files) {
    const matches = fs.readFileSync(path.join(ROOT, file), 'utf8').match(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : pattern.flags + 'g'))
    if (matches) counts[file] = matches.length
  }
  return counts
}

describe('where a feature lives', () => {
  it.each(Object.entries(FEATURES))('keeps the files named for %s in its own folders', (feature, pattern) => {
    const folders = new Set(code.filter((file) => pattern.test(file)).map(folderOf))
    expect(folders.size).toBeGreaterThan(0)
    // Its folder on each side (under generators/ for a generator), and the image service's engine.
    const own = ['server', 'shared'].flatMap((side) => [`${side}/${feature}`, `${side}/generators/${feature}`])
    expect([...folders].filter((folder) => folder !== 'server/giffer/*' && !own.includes(folder)).sort()).toEqual([])
  })

  it('uses one name per feature, and no folder named for a technique', () => {
    expect(tracked.filter((file) => RETIRED_NAME.test(file))).toEqual([])
    expect(code.filter((file) => TECHNIQUE_FOLDER.test(file))).toEqual([])
  })

  it('keeps server-only code out of shared/', () => {
    const serverOnly = typescript.filter((file) => file.startsWith('shared/') && /from '(node:|express|better-sqlite3|pino|sharp|@napi-rs|(\.\.\/)+server\/)/.test(fs.readFileSync(path.join(ROOT, file), 'utf8')))
    expect(serverOnly).toEqual([])
  })
})

describe('code a reader can take in', () => {
  it(`has no server function over ${MAX_SERVER_FUNCTION_LINES} lines and no component over ${MAX_COMPONENT_LINES}`, () => {
    const long = typescript.flatMap(longFunctions).map(({ where, lines }) => `${where}: ${lines} lines`)
    expect(long).toEqual([])
  })

  it('has no untyped JavaScript under server/, shared/ or client/', () => {
    expect(code.filter((file) => /\.(c|m)?jsx?$/.test(file))).toEqual([])
  })
})

describe('one definition per concept', () => {
  it('spells the template id pattern once', () => {
    expect(Object.keys(occurrences(/\[a-z0-9\]\{8\}/))).toEqual(['shared/gallery/paths.ts'])
  })

  it('writes the immutable cache lifetime once', () => {
    expect(Object.keys(occurrences(/immutable['`"]/))).toEqual(['server/process/http-cache.ts'])
  })

  it('names the tracking cookies in one module', () => {
    for (const cookie of ['pl_traffic', 'pl_session', 'pl_ref']) expect(Object.keys(occurrences(new RegExp(`['\`"]${cookie}['\`"]`))), cookie).toEqual(['shared/tracking/tracking.ts'])
  })

  it('defines the thumbnail aspect heights once', () => {
    expect(Object.values(occurrences(/(const|let)\s+ASPECT_HEIGHTS\b/)).reduce((sum, n) => sum + n, 0)).toBe(1)
  })

  it('words the too-many-attempts answer once', () => {
    expect(Object.values(occurrences(/Too many attempts/)).reduce((sum, n) => sum + n, 0)).toBe(1)
  })
})

describe('sources apart from what is generated from them', () => {
  const GENERATED = 'data/generated/'
  const generatedOutputs = ['widget-groups.json', 'widget-templates.json', 'email-groups.json', 'email-templates.json', 'emails', 'thumbnails', 'font-coverage.json']

  it.each(generatedOutputs)('keeps %s under data/generated/', (output) => {
    expect(fs.existsSync(path.join(ROOT, 'data', output)), `data/${output} should not exist`).toBe(false)
    expect(fs.existsSync(path.join(ROOT, GENERATED, output)), `${GENERATED}${output}`).toBe(true)
  })
})
