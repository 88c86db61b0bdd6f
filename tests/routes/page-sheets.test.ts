import { parse } from 'node-html-parser'
import { build, type OutputChunk } from 'rolldown'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { BROWSER_OUTPUT, browserInput } from '../../scripts/lib/client-build.js'
import { literalWords, namesClass, pageSheets, requiredNames, selectorsOf, sheetNames, sheetsForWords } from '../../scripts/lib/page-sheets.js'
import { pageIdAt, pages } from '../../shared/pages.js'
import { FRAME_SHEETS, SHEETS, type SheetName } from '../../shared/site.js'
import { testApp } from './app.js'

const app = testApp()

/** The pages of the sitemap and those it leaves out (forms, previews, a missing page), a few of each page module. */
async function samplePaths(): Promise<Map<string, string[]>> {
  const xml = (await request(app).get('/sitemap.xml').expect(200)).text
  const listed = [...xml.matchAll(/<loc>https:\/\/site\.example([^<]*)<\/loc>/g)].map((match) => match[1]!)
  // A template of each gallery on its own, as the previews frame it; the forms' pages; a saved timer's; missing pages.
  const widget = listed.find((pathname) => /^\/p\/[a-z0-9]{8}$/.test(pathname))?.slice(3)
  const email = listed.find((pathname) => /^\/e\/[a-z0-9]{8}$/.test(pathname))?.slice(3)
  expect(widget && email, 'the sitemap lists widget and email templates').toBeTruthy()
  const unlisted = ['/login/', '/start/', '/reset/', '/reset/new/?token=abc', '/email-countdown-timer-generator/timers/abcdefghijklmnop/', '/no-such-page/', '/blog/no-such-theme/']
  unlisted.push(`/widget-preview/?id=${widget}`, `/email-preview/?id=${email}`)
  const all = new Map<string, string[]>()
  for (const pathname of [...unlisted, ...listed]) {
    const id = pageIdAt(new URL(pathname, 'http://x').pathname)
    const module = pages.find((page) => page.id === id)?.module
    if (module) all.set(module, [...(all.get(module) ?? []), pathname])
  }
  // Every page of a module is drawn by the same code; a few of each, spread over its pages (every
  // kind of page it draws: a group, a template, an email group), carry its data's variety.
  const kindOf = (pathname: string) => `${pageIdAt(new URL(pathname, 'http://x').pathname)}${/^\/[pe]\/[a-z0-9]{8}$/.test(pathname) ? ' template' : ''}`
  return new Map(
    [...all].map(([module, paths]) => {
      const firstOfEachKind = [...new Map(paths.toReversed().map((pathname) => [kindOf(pathname), pathname])).values()]
      const spread = Array.from({ length: Math.min(6, paths.length) }, (_, at) => paths[Math.floor((at * paths.length) / Math.min(6, paths.length))]!)
      return [module, [...new Set([...firstOfEachKind, ...spread])]]
    }),
  )
}

describe('the parts of the stylesheet a page carries', () => {
  let sheetsOf: Record<string, SheetName[]>
  let samples: Map<string, string[]>
  beforeAll(async () => {
    const output = await build({ ...browserInput({ app: 'client/entry.tsx' }), preserveEntrySignatures: 'allow-extension', write: false, output: BROWSER_OUTPUT })
    sheetsOf = pageSheets(new Map(output.output.filter((item): item is OutputChunk => item.type === 'chunk').map((chunk) => [chunk.fileName, chunk])))
    samples = await samplePaths()
  }, 60_000)

  it('are known for every page module, the log-in dialog too, and leave parts out', () => {
    for (const page of pages) expect(sheetsOf[page.module], page.module).toBeDefined()
    expect(sheetsOf.AuthDialog).toContain('auth')
    expect(sheetsOf.Pricing).toContain('pricing')
    expect(sheetsOf.Pricing).not.toContain('galleries')
    expect(sheetsOf.Gallery).toContain('galleries')
    expect(sheetsOf.CountdownGenerator).toEqual(expect.arrayContaining(['generators', 'countdown']))
    expect(sheetsOf.NotFound).toEqual([])
  })

  it('include every part with a rule for something on the page, on a sample of every page module', async () => {
    const names = sheetNames()
    expect([...new Set(pages.map((page) => page.module))].filter((module) => !samples.has(module))).toEqual([])
    for (const [module, paths] of samples) {
      const carried = new Set<SheetName>([...FRAME_SHEETS, ...sheetsOf[module]!])
      for (const pathname of paths) {
        const response = await request(app).get(pathname)
        expect(response.status, pathname).toBeLessThan(500)
        const root = parse(response.text)
        const onPage = new Set(root.querySelectorAll('[class], [id]').flatMap((element) => [...element.classList.values(), ...(element.id ? [element.id] : [])]))
        for (const sheet of SHEETS.filter((name) => !carried.has(name))) {
          const selects = names.get(sheet)!.find((required) => required.every((name) => onPage.has(name)))
          expect(selects, `${pathname} (${module}) lacks ${sheet}.css, whose rule for ${selects?.join(' ')} it needs`).toBeUndefined()
        }
      }
    }
  }, 120_000)
})

describe('reading a stylesheet', () => {
  it('finds each selector, leaving out at-rules and keyframe steps', () => {
    const css = '/* a { b } */ .a, .b > p { color: red; } @media (min-width: 40rem) { .c:hover { x: y } } @keyframes spin { from { a: b } to { a: c } } #d{}'
    expect(selectorsOf(css)).toEqual(['.a', '.b > p', '.c:hover', '#d'])
    // A list's commas, not those inside a pseudo-class's list.
    expect(selectorsOf('.x:not(.a, .b), .y :is(a, b) {}')).toEqual(['.x:not(.a, .b)', '.y :is(a, b)'])
  })

  it('requires the names a selector matches only with, not those under :not() or :is()', () => {
    expect(requiredNames('.gallery .page-head h1')).toEqual(['gallery', 'page-head'])
    expect(requiredNames('.card:not(.is-open) :is(.a, .b)')).toEqual(['card'])
    expect(requiredNames('#site-nav .nav-item:nth-child(2)')).toEqual(['site-nav', 'nav-item'])
  })

  it('reads the words of string literals and template texts, not of names, comments or module addresses', () => {
    const source = `import { x } from './card-list.js'
      // the page's plan-grid
      const kind = 'wide'
      export const Card = () => <div className="card card-body" id={\`card--\${kind}\`} title={plain}>don't</div>`
    expect([...literalWords(source, 'Card.tsx')].sort()).toEqual(['card', 'card--', 'card-body', 'wide'])
  })

  it('counts a class as named by its word, or by a literal it starts with', () => {
    const words = new Set(['card', 'plan-', 'is'])
    expect(namesClass(words, 'card')).toBe(true)
    expect(namesClass(words, 'plan-pro')).toBe(true)
    expect(namesClass(words, 'cards')).toBe(false)
    // A prefix must be more than a letter and a dash.
    expect(namesClass(new Set(['p-']), 'p-large')).toBe(false)
  })

  it('sends a part when one of its selectors can match, each name it requires being named', () => {
    const names = new Map<SheetName, string[][]>(SHEETS.map((sheet) => [sheet, [[`${sheet}-only`]]]))
    names.set('galleries', [['gallery', 'page-head']])
    expect(sheetsForWords(new Set(['gallery']), names)).toEqual([])
    expect(sheetsForWords(new Set(['gallery', 'page-head', 'pricing-only', 'site-only']), names)).toEqual(['pricing', 'galleries'])
  })
})
