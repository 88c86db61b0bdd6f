import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadWidgetCatalog, WidgetCatalogError } from '../../server/gallery/widget-catalog.js'
import { renderWidget } from '../../server/gallery/widget-render.js'
import { contentDir, GENERATED, generatedDir } from '../../server/project-root.js'

const catalog = loadWidgetCatalog(contentDir)

describe('the widget templates in data/', () => {
  it('holds about 250 templates in every family and layout', () => {
    expect(catalog.templates.length).toBeGreaterThanOrEqual(240)
    expect(catalog.templates.length).toBeLessThanOrEqual(260)
    expect(new Set(catalog.templates.map((template) => template.family))).toEqual(
      new Set(['discount', 'feedback', 'subscribe', 'launcher', 'age', 'announce', 'sale', 'product', 'whatsapp', 'inspired']),
    )
    expect(new Set(catalog.templates.map((template) => template.layout))).toEqual(new Set(['bar', 'fullscreen', 'inline', 'modal', 'sidebar', 'slide-in', 'panel']))
  })

  it('orders the groups specials first, then Forms, Messages, Launchers, Inspired by brands; only Halloween of the specials is visible', () => {
    const specials = catalog.groups.filter((group) => group.special)
    expect(specials.map((group) => group.name)).toEqual(['Halloween', 'Black Friday', 'Christmas', 'Valentine’s Day', 'Easter', 'Earth Day', 'Mother’s Day'])
    expect(specials.filter((group) => !group.hidden).map((group) => group.name)).toEqual(['Halloween'])
    const visible = catalog.groups.filter((group) => !group.hidden).map((group) => group.name)
    expect(visible).toEqual(['Halloween', 'Forms', 'Messages', 'Launchers', 'Inspired by brands'])
    expect(catalog.groups.find((group) => group.name === 'Use cases')?.hidden).toBe(true)
    for (const special of specials) {
      expect(special.special!.icon).toMatch(/^<svg[^>]*viewBox/)
      expect(special.special!.start).toBeGreaterThanOrEqual(0)
    }
  })

  it('keeps the purpose subs in their order across groups, and the positions by name', () => {
    const subs = catalog.groups.flatMap((group) => group.subs.map((sub) => sub.name))
    const order = ['Discounts', 'Sales', 'Subscription', 'Notifications', 'Feedback', 'Age gates', 'Filters', 'WhatsApp']
    expect(new Set(subs)).toEqual(new Set(order))
    for (const group of catalog.groups) {
      const names = group.subs.map((sub) => sub.name)
      expect(names).toEqual([...names].sort((a, b) => order.indexOf(a) - order.indexOf(b)))
    }
    expect(catalog.positions.map((position) => position.name)).toEqual(['Slidein', 'Bar', 'Panel', 'Modal', 'Sidebar', 'Fullscreen', 'Inline', 'Custom'])
  })

  it('gives every template a stable 8-character id with a digit, never a group slug', () => {
    const slugs = new Set(catalog.groups.map((group) => group.slug))
    for (const template of catalog.templates) {
      expect(template.id).toMatch(/^(?=.*[0-9])[a-z0-9]{8}$/)
      expect(slugs.has(template.id)).toBe(false)
    }
    // Ids come from the keys: the first welcome offer keeps its published id.
    expect(catalog.templates.find((template) => template.key === 'discount/first-order-ten')?.id).toBe('wt8mybhg')
  })

  it('has no two templates that look alike: palette, art and layout differ, and so do the headlines', () => {
    const looks = catalog.templates.map((template) => `${template.style.palette.bg}|${template.style.palette.accent}|${template.style.art}|${template.layout}`)
    expect(new Set(looks).size).toBe(looks.length)
    const palettes = catalog.templates.map((template) => `${template.style.palette.bg}|${template.style.palette.accent}`)
    expect(new Set(palettes).size).toBeGreaterThan(catalog.templates.length * 0.9)
    const headlines = catalog.templates.map((template) => template.copy.headline)
    expect(new Set(headlines).size).toBe(headlines.length)
  })

  it('flags custom and InspiredCustom templates by name and gives them no theme', () => {
    const custom = catalog.templates.filter((template) => template.isCustom)
    expect(custom.length).toBeGreaterThan(8)
    for (const template of custom) {
      expect(template.name).toContain('Custom')
      expect(template.position).toBe('custom')
      expect(template.hiddenTheme).toBe(true)
      expect(template.themed).toBe(false)
    }
    const inspired = catalog.templates.filter((template) => template.isInspiredCustom)
    expect(inspired.length).toBeGreaterThan(4)
    for (const template of inspired) expect(template.name.startsWith('InspiredCustom')).toBe(true)
    expect(catalog.templates.filter((template) => template.themed).length).toBeGreaterThan(40)
  })
})

describe('renderWidget', () => {
  const sample = catalog.byId('wt8mybhg')!

  it('draws the template’s own words, fields and button', () => {
    const { html } = renderWidget(sample)
    expect(html).toContain('Take 10% off your first order')
    expect(html).toContain('type="email"')
    expect(html).toContain('>Get my 10%</button>')
    expect(html).toContain('HELLO10')
    expect(html).not.toMatch(/style="/)
  })

  it('escapes every text it is given', () => {
    const hostile = { ...sample, copy: { ...sample.copy, headline: '<img src=x onerror=alert(1)>', text: '"quoted" & <b>' } }
    const { html } = renderWidget(hostile)
    expect(html).not.toContain('<img src=x')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).toContain('&quot;quoted&quot; &amp; &lt;b&gt;')
  })

  it('draws dark only for a template that has a dark palette', () => {
    const themed = catalog.templates.find((template) => template.themed)!
    expect(renderWidget(themed, { theme: 'dark' }).theme).toBe('dark')
    expect(renderWidget(themed, { theme: 'dark' }).css).toContain(`#plw-${themed.id}[data-theme=dark]{--plw-bg:${themed.dark!.bg}`)
    const plain = catalog.templates.find((template) => !template.dark)!
    expect(renderWidget(plain, { theme: 'dark' }).theme).toBe('light')
  })

  it('renders every template', () => {
    for (const template of catalog.templates) {
      const { html, css } = renderWidget(template)
      expect(html.startsWith(`<div id="plw-${template.id}"`)).toBe(true)
      expect(css).toContain(`#plw-${template.id}{`)
      expect(html).not.toContain('</style')
    }
  })
})

describe('loading the catalog', () => {
  function dataWith(change: (templates: Record<string, unknown>[]) => void) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'widgets-'))
    fs.mkdirSync(path.join(dir, GENERATED))
    fs.copyFileSync(path.join(generatedDir, 'widget-groups.json'), path.join(dir, GENERATED, 'widget-groups.json'))
    const templates = JSON.parse(fs.readFileSync(path.join(generatedDir, 'widget-templates.json'), 'utf8'))
    change(templates)
    fs.writeFileSync(path.join(dir, GENERATED, 'widget-templates.json'), JSON.stringify(templates))
    return dir
  }

  it('stops with the file and the problem named when a template is invalid', () => {
    expect(() => loadWidgetCatalog(dataWith((templates) => (templates[0]!.id = 'NOT-AN-ID')))).toThrow(/widget-templates\.json: 0\.id: must be 8 lowercase/)
  })

  it('stops when a sub is not in its group, or an id repeats', () => {
    expect(() => loadWidgetCatalog(dataWith((templates) => (templates.find((template) => template.group === 'forms')!.sub = 'sales')))).toThrow(WidgetCatalogError)
    expect(() => loadWidgetCatalog(dataWith((templates) => (templates[1]!.id = templates[0]!.id)))).toThrow(/id used twice/)
  })
})
