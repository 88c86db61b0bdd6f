import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'node-html-parser'
import { describe, expect, it } from 'vitest'
import { renderEmail, TEXT_WIDTH } from '../../scripts/templates/email-mjml.js'
import {
  checkEmailCatalog,
  emailGroupsFileSchema,
  emailTemplatesFileSchema,
} from '../../shared/gallery/email-schema.js'
import { layoutOf } from '../../scripts/templates/generate-email-templates.js'
import { generatedDir } from '../../server/project-root.js'

const data = generatedDir
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(data, file), 'utf8')) as unknown
const { groups } = emailGroupsFileSchema.parse(readJson('email-groups.json'))
const { templates } = emailTemplatesFileSchema.parse(readJson('email-templates.json'))
const sizeOf = (slug: string) => templates.filter((template) => template.groups.includes(slug)).length
const squash = (text: string) => text.replace(/\s+/g, ' ')

describe('the email templates in data/generated/', () => {
  it('lists the eight groups in order, with only Black Friday hidden', () => {
    expect(groups).toEqual([
      { name: 'All', slug: 'all-email-templates', hidden: false },
      { name: 'Black Friday', slug: 'black-friday-email-templates', hidden: true },
      { name: 'Welcome', slug: 'welcome-email-templates', hidden: false },
      { name: 'Products', slug: 'products-email-templates', hidden: false },
      { name: 'Coupons', slug: 'coupons-email-templates', hidden: false },
      { name: 'News', slug: 'news-email-templates', hidden: false },
      { name: 'Review requests', slug: 'review-requests-email-templates', hidden: false },
      { name: 'Abandonment', slug: 'abandonment-email-templates', hidden: false },
    ])
  })

  it('holds about 85 templates that pass the catalog check', () => {
    expect(templates.length).toBeGreaterThanOrEqual(80)
    expect(templates.length).toBeLessThanOrEqual(90)
    expect(() => checkEmailCatalog(groups, templates)).not.toThrow()
  })

  it('fills each group to about its intended size', () => {
    const expected: [string, number, number][] = [
      ['all-email-templates', 84, 2],
      ['black-friday-email-templates', 9, 1],
      ['welcome-email-templates', 18, 2],
      ['products-email-templates', 50, 3],
      ['coupons-email-templates', 15, 2],
      ['news-email-templates', 55, 3],
      ['review-requests-email-templates', 8, 2],
      ['abandonment-email-templates', 8, 2],
    ]
    for (const [slug, size, tolerance] of expected) {
      expect(Math.abs(sizeOf(slug) - size), `${slug} has ${sizeOf(slug)}`).toBeLessThanOrEqual(tolerance)
    }
  })

  it('has the seven named templates', () => {
    const names = new Set(templates.map((template) => template.name))
    for (const name of ['Offer expires soon', 'Sale closes soon', 'Final day sale', 'Cart saved for 24 hours', 'Trending items on sale', 'Claim your coupon', 'Store anniversary sale']) {
      expect(names.has(name), name).toBe(true)
    }
  })

  it('opens every template over a visible group, except those only in Black Friday', () => {
    const hidden = new Set(groups.filter((group) => group.hidden).map((group) => group.slug))
    for (const template of templates) {
      const home = template.groups[0]!
      if (hidden.has(home)) expect(template.groups).toEqual(['black-friday-email-templates'])
    }
    expect(templates.filter((template) => !template.groups.includes('all-email-templates')).map((template) => template.groups)).toEqual([['black-friday-email-templates']])
  })

  it('keeps every template distinct: subject, palette and layout', () => {
    expect(new Set(templates.map((template) => template.subject)).size).toBe(templates.length)
    expect(new Set(templates.map((template) => `${template.style.light.accent}|${template.style.light.band}`)).size).toBe(templates.length)
    expect(new Set(templates.map(layoutOf)).size).toBe(templates.length)
    for (const type of ['hero', 'products', 'spotlight', 'coupon', 'countdown', 'articles', 'steps', 'perks', 'quote', 'rating', 'cart']) {
      expect(templates.filter((template) => template.blocks.some((block) => block.type === type)).length, type).toBeGreaterThanOrEqual(4)
    }
    expect(new Set(templates.map((template) => template.brand.industry)).size).toBeGreaterThanOrEqual(10)
  })
})

describe('checkEmailCatalog', () => {
  const sample = templates[0]!
  it('names a duplicate id', () => {
    expect(() => checkEmailCatalog(groups, [sample, { ...sample, key: 'another-key', name: 'Another name' }])).toThrow(`duplicate id ${sample.id}`)
  })
  it('names an unknown group', () => {
    const groupsWithoutNews = groups.filter((group) => group.slug !== 'news-email-templates')
    expect(() => checkEmailCatalog(groupsWithoutNews, [{ ...sample, groups: ['news-email-templates'] }])).toThrow('unknown group news-email-templates')
  })
  it('refuses a hidden home group unless the template is only in Black Friday', () => {
    expect(() => checkEmailCatalog(groups, [{ ...sample, groups: ['black-friday-email-templates', 'all-email-templates'] }])).toThrow('is hidden')
    expect(() => checkEmailCatalog(groups, [{ ...sample, groups: ['black-friday-email-templates'] }])).not.toThrow()
  })
})

describe('the rendered emails in data/generated/emails/', () => {
  const assets = path.join(data, 'emails', 'assets')

  it('keeps the pictures small: each at most 60 KB, all together under 4 MB', () => {
    const files = fs.readdirSync(assets)
    expect(files.length).toBeGreaterThanOrEqual(30)
    const sizes = files.map((file) => fs.statSync(path.join(assets, file)).size)
    for (const [index, size] of sizes.entries()) expect(size, files[index]).toBeLessThanOrEqual(60 * 1024)
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(4 * 1024 * 1024)
  })

  it.each(templates.map((template) => [template.id, template.name, template] as const))('%s (%s) is committed as rendered and is a well-formed email', async (id, _name, template) => {
    const html = fs.readFileSync(path.join(data, 'emails', `${id}.html`), 'utf8')
    const text = fs.readFileSync(path.join(data, 'emails', `${id}.txt`), 'utf8')
    const fresh = await renderEmail(template)
    // A template changed without `npm run emails` fails here.
    expect(html === fresh.html, 'HTML differs from a fresh render: run npm run emails').toBe(true)
    expect(text === fresh.text, 'text differs from a fresh render: run npm run emails').toBe(true)

    expect(Buffer.byteLength(html)).toBeLessThan(102_000)
    expect(html).toMatch(/<html lang="en"/)
    expect(html).toContain('<!--[if mso')
    expect(html).toContain('<meta name="color-scheme" content="light dark">')
    expect(html).toContain('<meta name="supported-color-schemes" content="light dark">')
    expect(html).toContain('@media (prefers-color-scheme: dark)')
    expect(html).toMatch(new RegExp(`\\[data-ogsc\\] \\.em-text div,[^{]*\\{ color:${template.style.dark.text} !important; \\}`))
    expect(html).toMatch(new RegExp(`\\[data-ogsb\\] body,[^{]*\\{ background-color:${template.style.dark.page} !important; \\}`))
    expect(html).toContain(`background:${template.style.dark.surface} !important`)
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toMatch(/<link\b/i)
    expect(html).not.toMatch(/@import/i)

    const root = parse(html)
    expect(root.querySelector('title')?.text).toBe(template.subject)
    // The wrapper of the body repeats the light page colour inline; the dark page colour reaches it by its class.
    expect(root.querySelector('body > div[role="article"]')?.classList.contains('em-page')).toBe(true)
    const preheader = root.querySelectorAll('body > div').find((div) => div.getAttribute('style')?.includes('display:none'))
    expect(preheader?.text.trim()).toBe(template.preheader)
    const images = root.querySelectorAll('img')
    for (const image of images) {
      expect(image.getAttribute('alt')?.trim(), image.toString()).toBeTruthy()
      const src = image.getAttribute('src') ?? ''
      expect(src).toMatch(/^\{\{assets\}\}\/[a-z0-9-]+\.(?:png|jpg)$/)
      expect(fs.existsSync(path.join(assets, src.slice('{{assets}}/'.length))), src).toBe(true)
    }
    for (const anchor of root.querySelectorAll('a')) {
      const href = anchor.getAttribute('href') ?? ''
      expect(href).toMatch(/^https:\/\/[a-z0-9.-]+\.example\.com\/[^#\s]*$/)
    }
    // The only absolute addresses are link targets; pictures come from {{assets}}.
    expect(html.match(/(?:src|background)=["']https?:/gi)).toBeNull()
    const unsubscribe = `${template.brand.url}/unsubscribe`
    expect(root.querySelectorAll('a').some((anchor) => anchor.getAttribute('href') === unsubscribe && anchor.text === 'Unsubscribe')).toBe(true)
    expect(squash(root.text)).toContain(template.brand.address)

    expect(squash(text).startsWith(squash(template.subject))).toBe(true)
    expect(text).toContain(`Unsubscribe: ${unsubscribe}`)
    expect(squash(text)).toContain(template.brand.address)
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(TEXT_WIDTH)
    expect(text).not.toMatch(/<[a-z]/i)
  })

  it('leaves no rendered file of a template that no longer exists', () => {
    const ids = new Set(templates.map((template) => template.id))
    const files = fs.readdirSync(path.join(data, 'emails')).filter((file) => file !== 'assets')
    expect(files.length).toBe(templates.length * 2)
    for (const file of files) expect(ids.has(file.replace(/\.(?:html|txt)$/, '')), file).toBe(true)
  })

  it('writes the plain text from the content: products, coupon codes and calls to action with their URLs', async () => {
    const byName = (name: string) => templates.find((template) => template.name === name)!
    const coupon = (await renderEmail(byName('Claim your coupon'))).text
    expect(coupon).toContain('Code: EMBER5')
    expect(coupon).toContain('Claim my coupon:\nhttps://emberroast.example.com/coffee')
    const cart = (await renderEmail(byName('Cart saved for 24 hours'))).text
    expect(cart).toContain('* Pulse ANC headphones (Graphite) x 1: $199')
    expect(cart).toContain('Total: $278')
    const review = (await renderEmail(byName('How was your coffee?'))).text
    expect(review).toContain('5 stars: https://emberroast.example.com/review/guji?rating=5')
  })
})
