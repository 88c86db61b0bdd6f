import request from 'supertest'
import { describe, expect, it } from 'vitest'
import type { WidgetGroupsFile, WidgetTemplate } from '../../shared/gallery/widget-schema.js'
import { LARGEST_IMAGE_MARK } from '../../shared/site.js'
import { breadcrumbTexts, fetchPage, readDataFile, testApp, textOf } from './app.js'

const app = testApp()
const { groups } = readDataFile<WidgetGroupsFile>('generated/widget-groups.json')
const templates = readDataFile<WidgetTemplate[]>('generated/widget-templates.json')
const visible = groups.filter((group) => !group.hidden && !group.special?.disabled)
const inGroup = (slug: string, sub?: string) => templates.filter((template) => template.group === slug && (sub === undefined || template.sub === sub))
const forms = groups.find((group) => group.slug === 'forms')!
const firstSub = forms.subs[0]!
const sample = inGroup('forms', firstSub.slug)[0]!

const page = (pathname: string, status = 200) => fetchPage(app, pathname, status)

const cardIds = (html: string) => [...html.matchAll(/class="template-card[^"]*"><a href="\/p\/([a-z0-9]{8})"/g)].map((match) => match[1])

describe('widget gallery pages', () => {
  it('/p/ shows every visible group as a row with its count, specials first', async () => {
    const { root } = await page('/p/')
    const rows = root.querySelectorAll('.gallery-row')
    expect(rows.map((row) => row.querySelector('h2 a')?.textContent)).toEqual(visible.filter((group) => inGroup(group.slug).length).map((group) => group.name))
    for (const row of rows) {
      const group = visible.find((candidate) => candidate.name === row.querySelector('h2 a')?.textContent)!
      expect(row.querySelector('h2 .count')?.textContent).toBe(String(inGroup(group.slug).length))
    }
    expect(groups[0]!.special).toBeDefined()
  })

  it('fetches only the first screen of cards at once: the first card first, the rest of the first row or grid eagerly, every other card as it scrolls near', async () => {
    for (const pathname of ['/p/', '/e/', `/p/forms/${firstSub.slug}/`, '/e/welcome-email-templates/']) {
      const { root } = await page(pathname)
      const images = root.querySelectorAll('.template-card img')
      expect(images.length, pathname).toBeGreaterThan(8)
      const first = root.querySelector('.gallery-row, .gallery-section')!.querySelectorAll('.template-card img')
      const loading = (image: (typeof images)[number]) => [image.getAttribute('loading'), image.getAttribute('fetchpriority') ?? null]
      expect(first.slice(0, 4).map(loading), pathname).toEqual([
        ['eager', 'high'],
        ['eager', null],
        ['eager', null],
        ['eager', null],
      ])
      // The first card is the one the app waits to see drawn before it starts.
      expect(images.filter((image) => image.hasAttribute('elementtiming')).map((image) => image.getAttribute('elementtiming')), pathname).toEqual([LARGEST_IMAGE_MARK])
      expect(first[0]!.getAttribute('elementtiming'), pathname).toBe(LARGEST_IMAGE_MARK)
      const rest = images.filter((image) => !first.slice(0, 4).includes(image))
      for (const image of rest) expect(loading(image), `${pathname} ${image.getAttribute('src')}`).toEqual(['lazy', null])
      // Every card is one image whose cuts the browser chooses by the width the layout draws it.
      for (const image of images) {
        expect(image.getAttribute('srcset')?.split(', ')).toHaveLength(4)
        expect(image.getAttribute('sizes')).toBe(pathname.split('/').length > 3 ? '(max-width: 600px) 92vw, (max-width: 1230px) 45vw, 376px' : 'min(80vw, 300px)')
      }
    }
  })

  it('fetches no card ahead on a template page, whose preview covers the listing, and marks none as the largest image', async () => {
    const [widget] = (await page('/p/')).root.querySelectorAll('.gallery-row .template-card a')
    const [email] = (await page('/e/')).root.querySelectorAll('.gallery-row .template-card a')
    for (const pathname of [widget!.getAttribute('href')!, email!.getAttribute('href')!]) {
      const { root } = await page(pathname)
      expect(root.querySelector('dialog'), `${pathname} draws its preview`).not.toBeNull()
      expect(root.querySelectorAll('[elementtiming]'), pathname).toHaveLength(0)
      const images = root.querySelectorAll('.gallery-grid .template-card img')
      expect(images.length, pathname).toBeGreaterThan(4)
      for (const image of images) {
        expect([image.getAttribute('loading'), image.getAttribute('fetchpriority') ?? null, image.getAttribute('elementtiming') ?? null], `${pathname} ${image.getAttribute('src')}`).toEqual(['lazy', null, null])
      }
    }
  })

  it('sends a group with subcategories to its first one, and unknown groups and subs to the nearest listing', async () => {
    for (const [from, to] of [
      ['/p/forms/', `/p/forms/${firstSub.slug}/`],
      ['/p/forms/nothing-here/', `/p/forms/${firstSub.slug}/`],
      ['/p/no-such-group/', '/p/'],
      [`/p/forms/${firstSub.slug}/?position=nowhere`, `/p/forms/${firstSub.slug}/`],
    ]) {
      const response = await request(app).get(from!)
      expect(response.status, from).toBe(302)
      expect(response.headers.location, from).toBe(to)
    }
  })

  it('a listing has the breadcrumb, the sidebar with counts, the filters and exactly its templates', async () => {
    const { html, root } = await page(`/p/forms/${firstSub.slug}/`)
    expect(breadcrumbTexts(root)).toEqual(['Widgets', 'Forms', firstSub.name])
    const expected = inGroup('forms', firstSub.slug)
    expect(new Set(cardIds(html))).toEqual(new Set(expected.map((template) => template.id)))
    expect(textOf(html, '.gallery-total')).toBe(`${expected.length} templates`)
    const subLink = root.querySelectorAll('.gallery-sidebar details ul a').find((link) => link.getAttribute('href') === `/p/forms/${firstSub.slug}/`)!
    expect(subLink.getAttribute('aria-current')).toBe('page')
    expect(subLink.nextElementSibling?.textContent).toBe(String(expected.length))
    // Works without JavaScript: a GET form to the listing itself.
    const form = root.querySelector('form.gallery-filter')!
    expect(form.getAttribute('method')).toBe('get')
    expect(form.getAttribute('action')).toBe(`/p/forms/${firstSub.slug}/`)
  })

  it('takes the filter form posted without JavaScript to the chosen category, keeping type and search', async () => {
    const other = forms.subs[1]!
    const { root } = await page(`/p/forms/${firstSub.slug}/`)
    const option = root.querySelectorAll('select[name="sub"] option').find((candidate) => candidate.textContent?.startsWith(other.name))!
    // What a browser sends for the form: every field, empty ones included.
    const sent = await request(app).get(`/p/forms/${firstSub.slug}/`).query({ sub: option.getAttribute('value'), position: 'modal', q: 'spin' }).expect(302)
    expect(sent.headers.location).toBe(`/p/forms/${other.slug}/?position=modal&q=spin`)
    const bare = await request(app).get(`/p/forms/${firstSub.slug}/`).query({ sub: option.getAttribute('value'), position: '', q: '' }).expect(302)
    expect(bare.headers.location).toBe(`/p/forms/${other.slug}/`)
    const unknown = await request(app).get(`/p/forms/${firstSub.slug}/?sub=nowhere`).expect(302)
    expect(unknown.headers.location).toBe(`/p/forms/${firstSub.slug}/`)
  })

  it('filters by position and by search words, with counts per type', async () => {
    const expected = inGroup('forms', firstSub.slug)
    const position = expected[0]!.position
    const { html, root } = await page(`/p/forms/${firstSub.slug}/?position=${position}`)
    const withPosition = expected.filter((template) => template.position === position)
    expect(new Set(cardIds(html))).toEqual(new Set(withPosition.map((template) => template.id)))
    const option = root.querySelectorAll('select[name="position"] option').find((candidate) => candidate.getAttribute('value') === position)!
    expect(option.textContent).toContain(`(${withPosition.length})`)

    const search = await page('/p/?q=halloween')
    expect(cardIds(search.html).length).toBeGreaterThan(0)
    expect(breadcrumbTexts(search.root)).toEqual(['Widgets', 'Search'])
  })

  it('an empty result says so and offers a reset and a request link', async () => {
    const { html } = await page(`/p/forms/${firstSub.slug}/?q=zzqqxx`)
    expect(textOf(html, '.gallery-empty')).toContain('No matches found, try resetting filter')
    expect(textOf(html, '.gallery-empty')).toContain('request a template')
  })

  it('/p/{hid} is its own page: the preview open over its listing, with title, canonical and image', async () => {
    const { html, root } = await page(`/p/${sample.id}`)
    expect(root.querySelector('title')?.textContent).toBe(`${sample.name} — widget template | Poplift`)
    expect(root.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`https://site.example/p/${sample.id}`)
    expect(root.querySelector('meta[property="og:image"]')?.getAttribute('content')).toMatch(new RegExp(`^https://site.example/thumbnails/widgets/${sample.id}-716\\.webp\\?v=`))
    const dialog = root.querySelector('dialog.preview-dialog')!
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    expect(textOf(html, 'dialog h2')).toBe(sample.name)
    const listing = inGroup('forms', firstSub.slug)
    expect(textOf(html, '.preview-pager span')).toBe(`${cardIds(html).indexOf(sample.id) + 1} / ${listing.length}`)
    expect(textOf(html, '.preview-panel h3')).toBe('Make it yours')
    expect(textOf(html, '.preview-panel .preview-checked')).toBe('Accessible: WCAG 2.1 AA checked — contrast, keyboard, focus, labels')
    expect(textOf(html, '.preview-panel button')).toBe('Take this template')
    expect(root.querySelector('.preview-panel a.get-it')?.getAttribute('href')).toBe(`/t/${sample.id}`)
    const frame = root.querySelector('iframe.preview-frame')!
    expect(frame.getAttribute('src')).toBe(`/app/preview/${sample.id}`)
    // Sandboxed as its response is; in its origin of its own, its discount code's Copy still reaches the clipboard.
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts allow-forms')
    expect(frame.getAttribute('allow')).toBe('clipboard-write')
  })

  it('an unknown template id is not found', async () => {
    await page('/p/zz99zz99', 404)
  })

  it('the standalone preview is a bare, unindexed page with the collection it was given', async () => {
    const others = inGroup('forms', firstSub.slug).slice(1, 3)
    const ids = [sample.id, ...others.map((template) => template.id)]
    const { html, root } = await page(`/widget-preview/?id=${sample.id}&collection=${ids.join(',')}`)
    expect(root.querySelector('header.site-header')).toBeNull()
    expect(root.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex')
    expect(textOf(html, '.preview-pager span')).toBe(`1 / ${ids.length}`)
    expect(root.querySelector('a[aria-label="Next template"]')?.getAttribute('href')).toBe(`/widget-preview/?id=${ids[1]}&collection=${ids.join(',')}`)
    expect(root.querySelector('iframe.preview-frame')?.getAttribute('sandbox')).toBe('allow-scripts allow-forms')
    expect(root.querySelector('iframe.preview-frame')?.getAttribute('allow')).toBe('clipboard-write')
    await page('/widget-preview/?id=zz99zz99', 404)
  })

  it('the sitemap lists every listing and every template page', async () => {
    const xml = (await request(app).get('/sitemap.xml')).text
    for (const pathname of ['/p/', `/p/forms/${firstSub.slug}/`, ...templates.map((template) => `/p/${template.id}`)]) {
      expect(xml).toContain(`<loc>https://site.example${pathname}</loc>`)
    }
    expect(xml).not.toContain('/widget-preview/')
  })
})
