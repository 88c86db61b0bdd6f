import request from 'supertest'
import { describe, expect, it } from 'vitest'
import type { EmailTemplatesFile } from '../../shared/gallery/email-schema.js'
import { breadcrumbTexts, fetchPage, readDataFile, testApp, textOf } from './app.js'

const app = testApp()
const { groups } = readDataFile<{ groups: Array<{ name: string; slug: string; hidden: boolean }> }>('generated/email-groups.json')
const { templates } = readDataFile<EmailTemplatesFile>('generated/email-templates.json')
const visible = groups.filter((group) => !group.hidden)
const inGroup = (slug: string) => templates.filter((template) => template.groups.includes(slug))
const welcome = groups.find((group) => group.slug === 'welcome-email-templates')!
const blackFriday = groups.find((group) => group.slug === 'black-friday-email-templates')!

const page = (pathname: string, status = 200) => fetchPage(app, pathname, status)

const cardIds = (html: string) => [...html.matchAll(/class="template-card[^"]*"><a href="\/e\/([a-z0-9]{8})"/g)].map((match) => match[1])

describe('email gallery pages', () => {
  it('/e/ shows every visible group as a row with its count, and never Black Friday', async () => {
    const { root } = await page('/e/')
    const rows = root.querySelectorAll('.gallery-row')
    expect(rows.map((row) => row.querySelector('h2 a')?.textContent)).toEqual(visible.filter((group) => inGroup(group.slug).length).map((group) => group.name))
    for (const row of rows) {
      const group = visible.find((candidate) => candidate.name === row.querySelector('h2 a')?.textContent)!
      expect(row.querySelector('h2 .count')?.textContent).toBe(String(inGroup(group.slug).length))
    }
  })

  it('a group lists exactly its emails under the breadcrumb Emails › group, with counts in the sidebar', async () => {
    const { html, root } = await page(`/e/${welcome.slug}/`)
    expect(breadcrumbTexts(root)).toEqual(['Emails', welcome.name])
    expect(new Set(cardIds(html))).toEqual(new Set(inGroup(welcome.slug).map((template) => template.id)))
    expect(textOf(html, '.gallery-total')).toBe(`${inGroup(welcome.slug).length} templates`)
    const link = root.querySelectorAll('.gallery-sidebar a').find((candidate) => candidate.getAttribute('href') === `/e/${welcome.slug}/`)!
    expect(link.getAttribute('aria-current')).toBe('page')
    expect(link.nextElementSibling?.textContent).toBe(String(inGroup(welcome.slug).length))
    expect(root.querySelectorAll('.gallery-sidebar a').map((candidate) => candidate.textContent)).not.toContain(blackFriday.name)
  })

  it('keeps the hidden Black Friday group reachable by its slug', async () => {
    const { html, root } = await page(`/e/${blackFriday.slug}/`)
    expect(breadcrumbTexts(root)).toEqual(['Emails', blackFriday.name])
    expect(new Set(cardIds(html))).toEqual(new Set(inGroup(blackFriday.slug).map((template) => template.id)))
  })

  it('sends unknown groups to the nearest listing; an unknown email id or a deeper path is not found', async () => {
    for (const [from, to] of [
      ['/e/no-such-group/', '/e/'],
      [`/e/${welcome.slug.toUpperCase()}/`, `/e/${welcome.slug}/`],
    ]) {
      const response = await request(app).get(from!)
      expect(response.status, from).toBe(302)
      expect(response.headers.location, from).toBe(to)
    }
    await page('/e/zz99zz99', 404)
    await page(`/e/${welcome.slug}/extra/`, 404)
  })

  it('/e/{hid} is its own page: the preview open over a listing it belongs to', async () => {
    const sample = inGroup(welcome.slug)[0]!
    const { html, root } = await page(`/e/${sample.id}`)
    expect(root.querySelector('title')?.textContent).toBe(`${sample.name} — email template | Poplift`)
    expect(root.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`https://site.example/e/${sample.id}`)
    expect(textOf(html, 'dialog h2')).toBe(sample.name)
    expect(textOf(html, '.preview-panel h3')).toBe('Make it yours')
    expect(textOf(html, '.preview-panel button')).toBe('Customize this email')
    expect(root.querySelector('.preview-panel a.get-it')?.getAttribute('href')).toBe(`/te/${sample.id}`)
    expect(cardIds(html)).toContain(sample.id)
  })

  it('searches every visible email by words', async () => {
    const sample = inGroup(welcome.slug)[0]!
    const word = sample.name.split(/\s+/).find((candidate) => candidate.length > 4) ?? sample.name
    const { html } = await page(`/e/?q=${encodeURIComponent(word)}`)
    expect(cardIds(html)).toContain(sample.id)
  })

  it('the sitemap lists every visible email listing and every email page', async () => {
    const xml = (await request(app).get('/sitemap.xml')).text
    for (const pathname of ['/e/', ...visible.map((group) => `/e/${group.slug}/`), ...templates.map((template) => `/e/${template.id}`)]) {
      expect(xml).toContain(`<loc>https://site.example${pathname}</loc>`)
    }
  })
})

describe('the search box of each gallery', () => {
  it.each(['widgets', 'emails'])('suggests only words that find %s', async (kind) => {
    const { root } = await page(kind === 'widgets' ? '/p/' : '/e/')
    const placeholder = root.querySelector('#gallery-q')?.getAttribute('placeholder') ?? ''
    const words = placeholder.replace(/…$/, '').split(', ')
    expect(words.length, placeholder).toBeGreaterThanOrEqual(3)
    for (const q of words) {
      const found = await request(app).get(`/api/${kind}`).query({ q }).expect(200)
      expect(found.body.total, `"${q}" in the ${kind} gallery`).toBeGreaterThan(0)
    }
  })
})
