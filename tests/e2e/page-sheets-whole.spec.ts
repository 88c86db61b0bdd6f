import fs from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { SHEETS } from '../../shared/site.js'
import { expect, gotoHydrated, test } from './fixtures.js'

const root = path.join(import.meta.dirname, '..', '..')
const json = <T,>(...file: string[]) => JSON.parse(fs.readFileSync(path.join(root, ...file), 'utf8')) as T

/** The built stylesheet's parts, by name (the browser tests run the built site). */
const manifest = json<{ sheets: { name: string; href: string }[] }>('dist', 'manifest.json')

/** A page of each kind the data has: a template on its own, an email group, a blog theme and post, a help section. */
const widget = json<{ id: string }[]>('data', 'generated', 'widget-templates.json')[0]!.id
const email = json<{ templates: { id: string }[] }>('data', 'generated', 'email-templates.json').templates[0]!.id
const emailGroup = json<{ groups: { slug: string }[] }>('data', 'generated', 'email-groups.json').groups[1]!.slug
const theme = json<{ slug: string }[]>('data', 'content', 'blog', 'themes.json')[0]!.slug
const post = fs.readdirSync(path.join(root, 'data', 'content', 'blog', theme)).find((file) => file.endsWith('.md'))!.replace(/\.md$/, '')
const helpSection = json<{ slug: string }[]>('data', 'content', 'help', 'sections.json')[0]!.slug

/**
 * The computed style of every element there was at the first call (and of its ::before and
 * ::after, when drawn), as `element: property=value; …` lines: what the page looks like, short
 * of its pixels. Later calls describe the same elements, whatever the page has added since.
 */
function computedStyles(): string[] {
  const page = window as Window & { __e2eStyled?: Element[] }
  const elements = (page.__e2eStyled ??= [document.documentElement, document.body, ...document.body.querySelectorAll('*')])
  const lines: string[] = []
  elements.forEach((element, at) => {
    const name = `${at} ${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.classList.length ? `.${[...element.classList].join('.')}` : ''}`
    for (const pseudo of [null, '::before', '::after']) {
      const style = getComputedStyle(element, pseudo)
      if (pseudo && style.content === 'none') continue
      const values: string[] = []
      for (let index = 0; index < style.length; index++) {
        const property = style.item(index)
        values.push(`${property}=${style.getPropertyValue(property)}`)
      }
      lines.push(`${name}${pseudo ?? ''}: ${values.join('; ')}`)
    }
  })
  return lines
}

/** Adds every part the page lacks, where the cascade's order puts it, and waits until they apply. */
async function addEveryPart(page: Page) {
  await page.evaluate(
    async ({ sheets, order }) => {
      const loads: Promise<unknown>[] = []
      for (const { name, href } of sheets) {
        if (document.head.querySelector(`[data-sheet="${name}"]`)) continue
        const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href })
        link.dataset.sheet = name
        const next = [...document.head.querySelectorAll<HTMLElement>('[data-sheet]')].find((part) => order.indexOf(part.dataset.sheet!) > order.indexOf(name))
        if (next) next.before(link)
        else document.head.append(link)
        loads.push(new Promise((resolve, reject) => ((link.onload = resolve), (link.onerror = reject))))
      }
      await Promise.all(loads)
    },
    { sheets: manifest.sheets, order: [...SHEETS] as string[] },
  )
}

/** The page, as it is now, looks exactly as it would with the whole stylesheet. */
async function expectDrawnAsWithEveryPart(page: Page, what: string) {
  // A still page: what loads by itself has come (the calligraphy's previews on screen; those
  // below wait for the visitor), and the pointer rests where it hovers over nothing (the browser
  // updates :hover a while after the page moves under it).
  await expect
    .poll(async () => {
      const loading = await page.locator('.is-loading').count()
      await page.waitForTimeout(1000)
      return loading === (await page.locator('.is-loading').count())
    }, { timeout: 20_000 })
    .toBe(true)
  await page.mouse.move(0, 0)
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))))
  await page.evaluate(() => delete (window as Window & { __e2eStyled?: Element[] }).__e2eStyled)
  const carried = await page.evaluate(computedStyles)
  await addEveryPart(page)
  const whole = await page.evaluate(computedStyles)
  const byElement = (lines: string[]) => new Map(lines.map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]))
  const [before, after] = [byElement(carried), byElement(whole)]
  const changed = [...new Set([...before.keys(), ...after.keys()])].flatMap((element) => {
    const [was, is] = [before.get(element), after.get(element)]
    if (was === is) return []
    if (was === undefined || is === undefined) return [`${element} ${was === undefined ? 'drawn only with every part' : 'drawn only without them'}`]
    const properties = new Map(was.split('; ').map((value) => value.split('=') as [string, string]))
    const differences = is.split('; ').map((value) => value.split('=') as [string, string]).filter(([property, value]) => properties.get(property) !== value)
    return [`${element} ${differences.slice(0, 4).map(([property, value]) => `${property}: ${properties.get(property)} → ${value}`).join(', ')}`]
  })
  expect(changed, `${what}: elements styled otherwise by the parts it lacks`).toEqual([])
}

/**
 * Opens a preview made to be framed (no site header, so not `gotoHydrated`) and waits until it
 * has hydrated: React has taken its "Use this template" button.
 */
async function gotoBarePreview(page: Page, pathname: string) {
  const response = await page.goto(pathname)
  expect(response?.status(), `status of ${pathname}`).toBe(200)
  await page.waitForFunction(() => {
    const button = [...document.querySelectorAll('button')].find((candidate) => candidate.textContent?.includes('Use this template'))
    return button !== undefined && Object.keys(button).some((key) => key.startsWith('__reactProps$'))
  })
}

/** A page that is not there: the not-found page, answered with 404. */
const MISSING = '/no-such-page/'

const PAGES = [
  '/',
  '/pricing/',
  '/p/',
  '/p/forms/',
  '/e/',
  `/e/${emailGroup}/`,
  '/email-templates/',
  `/widget-preview/?id=${widget}`,
  `/email-preview/?id=${email}`,
  '/blog/',
  `/blog/${theme}/`,
  `/blog/${theme}/${post}/`,
  '/help/',
  `/help/${helpSection}/`,
  '/faq/',
  '/about/',
  '/usecase/build-email-list/',
  '/ai-subject-line-generator/',
  '/email-scrolling-text-gif-generator/',
  '/calligraphy-text-generator/',
  '/email-countdown-timer-generator/',
  '/image-slideshow-gif-generator/',
  '/email-countdown-timer-generator/timers/abcdefghijklmnop/',
  '/email-marketing-holiday-calendar/',
  '/login/',
  '/start/',
  '/reset/',
  '/reset/new/?token=abc',
  MISSING,
]

test.describe('a page drawn with only its parts of the stylesheet', () => {
  for (const viewport of [
    { name: 'phone', width: 412, height: 823 },
    { name: 'desktop', width: 1280, height: 800 },
  ]) {
    for (const pathname of PAGES) {
      test(`${pathname} looks as with the whole stylesheet, on a ${viewport.name}`, async ({ page, consoleGuard }) => {
        await page.setViewportSize(viewport)
        if (pathname === MISSING) consoleGuard.allow(/status of 404/)
        if (pathname.includes('-preview/')) await gotoBarePreview(page, pathname)
        else await gotoHydrated(page, pathname, pathname === MISSING ? 404 : 200)
        await expectDrawnAsWithEveryPart(page, pathname)
      })
    }
  }

  test('a template open in the galleries, the log-in dialog and the phone menu look as with the whole stylesheet', async ({ page, consoleGuard }) => {
    test.setTimeout(90_000)
    // The gallery preloads the first card's image, which a page this long at work may not draw within the browser's few seconds.
    consoleGuard.allow(/was preloaded using link preload but not used within a few seconds/)
    for (const gallery of ['/p/forms/', '/e/']) {
      await gotoHydrated(page, gallery)
      await page.locator('.gallery-grid a, .gallery-track a').first().click()
      await expect(page.getByRole('dialog')).toBeVisible()
      await expectDrawnAsWithEveryPart(page, `a template open in ${gallery}`)
    }

    await gotoHydrated(page, '/pricing/')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }).click()
    await expect(page.getByRole('dialog', { name: 'Log in to Poplift' })).toBeVisible()
    await expectDrawnAsWithEveryPart(page, 'the log-in dialog over pricing')

    await page.setViewportSize({ width: 412, height: 823 })
    await gotoHydrated(page, '/faq/')
    await page.locator('.nav-toggle').click()
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
    await expectDrawnAsWithEveryPart(page, 'the phone menu open over the FAQ')
  })
})
