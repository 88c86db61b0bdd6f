import { createHash } from 'node:crypto'
import { parse } from 'node-html-parser'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { projectSiteData } from '../routes/app.js'
import { dashboardSite, register } from './helpers.js'
import { dashboardStaticFiles } from '../../server/dashboard/static-files.js'
import { inlined } from '../../server/gallery/preview-routes.js'

const { app } = dashboardSite()
const catalog = projectSiteData().galleries.catalogs.widgets
const themed = catalog.templates.find((template) => template.themed && template.layout === 'modal')!
const custom = catalog.templates.find((template) => template.isCustom)!
const inline = catalog.templates.find((template) => template.layout === 'inline')!

describe('what the preview carries inline', () => {
  it('is hashed with its line ends as the browser reads them (LF)', () => {
    const lf = inlined('a{color:red}\nb{color:blue}\n', 'style')
    expect(inlined('a{color:red}\r\nb{color:blue}\r', 'style')).toEqual(lf)
    expect(lf.source).toBe(`'sha256-${createHash('sha256').update('a{color:red}\nb{color:blue}\n').digest('base64')}'`)
  })

  it('refuses what would end its element early or make the parser miss a script’s end', () => {
    for (const text of ['x="</script>"', 'x="</SCRIPT "', 'x="<!--"', 'x="<script>"']) expect(() => inlined(text, 'script'), text).toThrow(/cannot be carried inline/)
    expect(() => inlined('a::after{content:"</style>"}', 'style')).toThrow(/cannot be carried inline/)
    expect(() => inlined('a::after{content:"<!--"}', 'style')).not.toThrow()
    // A harmless "</" in a script's string is carried; a NUL, which the parser replaces, is not.
    expect(() => inlined('x="</div>"', 'script')).not.toThrow()
    for (const element of ['script', 'style'] as const) expect(() => inlined('a\0b', element), element).toThrow(/cannot be carried inline: it holds "\\u0000"/)
  })
})

describe('GET /app/preview/{hid}', () => {
  it('shows the widget with its words, fields and behaviour script on the shop backdrop', async () => {
    const response = await request(app).get('/app/preview/wt8mybhg').expect(200)
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    const root = parse(response.text)
    expect(root.querySelector('title')!.text).toBe('First order 10% · live preview · Poplift')
    const widget = root.querySelector('[data-plw]')!
    expect(widget.getAttribute('data-hid')).toBe('wt8mybhg')
    expect(widget.getAttribute('data-theme')).toBe('light')
    expect(widget.querySelector('h2')!.text).toBe('Take 10% off your first order')
    expect(widget.querySelector('input[type=email]')!.getAttribute('required')).toBe('')
    expect(widget.querySelector('button[type=submit]')!.text).toBe('Get my 10%')
    expect(widget.querySelector('[data-plw-success]')!.hasAttribute('hidden')).toBe(true)
    expect(widget.querySelector('[data-plw-code]')!.text).toBe('HELLO10')
    expect(widget.querySelector('[data-plw-close]')!.getAttribute('aria-label')).toBe('Close')
    // Inline: the widget's behaviour (its form's check), and no file to fetch.
    const script = root.querySelector('script')!
    expect(script.getAttribute('src')).toBeUndefined()
    expect(script.innerHTML).toContain('Enter a valid email address')
    expect(root.querySelector('.shop-header')).not.toBeNull()
    expect(root.querySelector('meta[name=robots]')!.getAttribute('content')).toBe('noindex')
  })

  it('carries its stylesheets and script inline, each allowed by hash, runs sandboxed, and is framed by the site only', async () => {
    const response = await request(app).get('/app/preview/wt8mybhg').expect(200)
    const root = parse(response.text)
    const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
    const styles = root.querySelectorAll('style').map((style) => style.innerHTML)
    expect(styles).toHaveLength(2)
    expect(styles[0]).toContain('.preview-replay')
    const policy = String(response.headers['content-security-policy'])
    expect(policy).toContain(`style-src ${styles.map(hashOf).join(' ')};`)
    expect(policy).toContain(`script-src ${hashOf(root.querySelector('script')!.innerHTML)};`)
    expect(policy).not.toContain('unsafe-inline')
    expect(policy).toContain("frame-ancestors 'self'")
    // An origin of its own, whoever frames it: scripts and its form, nothing more. What it would
    // fetch from the site, a same-origin resource policy would refuse it: it fetches nothing.
    expect(policy).toContain('sandbox allow-scripts allow-forms')
    expect(response.text).not.toContain('/app/static/')
    expect(root.querySelectorAll('link[rel=stylesheet], script[src]')).toHaveLength(0)
    expect(response.headers['origin-agent-cluster']).toBe('?0')
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN')
    expect(response.headers['cache-control']).toBe('public, max-age=300')
    expect(response.text).not.toMatch(/\sstyle="/)
  })

  it('answers 304 to a matching ETag', async () => {
    const first = await request(app).get('/app/preview/wt8mybhg').expect(200)
    expect(first.headers.etag).toBeTruthy()
    await request(app).get('/app/preview/wt8mybhg').set('If-None-Match', String(first.headers.etag)).expect(304)
  })

  it('draws a themed template dark with ?theme=dark, light by default', async () => {
    const dark = parse((await request(app).get(`/app/preview/${themed.id}?theme=dark`).expect(200)).text)
    expect(dark.querySelector('html')!.getAttribute('data-theme')).toBe('dark')
    expect(dark.querySelector('[data-plw]')!.getAttribute('data-theme')).toBe('dark')
    expect(dark.querySelector('[data-plw]')!.hasAttribute('data-themed')).toBe(true)
    expect(dark.querySelectorAll('style')[1]!.innerHTML).toContain(`#plw-${themed.id}[data-theme=dark]{--plw-bg:${themed.dark!.bg}`)
    const light = parse((await request(app).get(`/app/preview/${themed.id}?theme=light`).expect(200)).text)
    expect(light.querySelector('[data-plw]')!.getAttribute('data-theme')).toBe('light')
  })

  it('keeps custom templates in their own colours whatever the theme asked', async () => {
    const page = parse((await request(app).get(`/app/preview/${custom.id}?theme=dark`).expect(200)).text)
    expect(page.querySelector('[data-plw]')!.getAttribute('data-theme')).toBe('light')
    expect(page.querySelector('[data-plw]')!.hasAttribute('data-themed')).toBe(false)
  })

  it('names the template in a heading inside the main landmark, whatever the widget’s position (the shop is hidden scenery)', async () => {
    for (const template of [themed, inline, catalog.templates.find((candidate) => candidate.layout === 'bar')!]) {
      const page = parse((await request(app).get(`/app/preview/${template.id}`).expect(200)).text)
      const headings = page.querySelectorAll('h1').filter((heading) => !heading.closest('[aria-hidden=true]'))
      expect(headings.map((heading) => heading.text), template.layout).toEqual([`${template.name}: live preview`])
      expect(page.querySelectorAll('main')).toHaveLength(1)
      expect(page.querySelector('main h1.preview-heading'), template.layout).not.toBeNull()
      expect(page.querySelector(`main [data-plw]`), template.layout).not.toBeNull()
      for (const scenery of page.querySelectorAll('.shop')) expect(scenery.getAttribute('aria-hidden')).toBe('true')
    }
  })

  it('places an inline widget inside the page content', async () => {
    const page = parse((await request(app).get(`/app/preview/${inline.id}`).expect(200)).text)
    expect(page.querySelector('main.shop-section [data-plw]')).not.toBeNull()
    expect(page.querySelector('body')!.classList.contains('preview-inline')).toBe(true)
  })

  it('answers an unknown or malformed id with a 404 page, and a bad theme with 400', async () => {
    for (const hid of ['zz99zz99', 'NOPE', 'wt8mybhg1']) {
      const response = await request(app).get(`/app/preview/${hid}`)
      expect(response.status, hid).toBe(404)
      expect(response.headers['content-type']).toMatch(/^text\/html/)
      expect(response.text).toContain('No such template')
    }
    const bad = await request(app).get('/app/preview/wt8mybhg?theme=blue').expect(400)
    expect(bad.text).toContain('theme: must be light or dark.')
    // As sandboxed as the preview, its one stylesheet inline by hash, no script at all.
    const style = parse(bad.text).querySelector('style')!.innerHTML
    const policy = String(bad.headers['content-security-policy'])
    expect(policy).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}';`)
    expect(policy).toContain("script-src 'none'")
    expect(policy).toContain('sandbox allow-scripts allow-forms')
    expect(bad.headers['origin-agent-cluster']).toBe('?0')
  })

  it('goes compressed when asked; its script, as a file, is still served (immutable once built)', async () => {
    const compressed = await request(app).get('/app/preview/wt8mybhg').set('Accept-Encoding', 'br, gzip')
    expect(compressed.headers['content-encoding']).toMatch(/^(br|gzip)$/)
    expect(compressed.headers['vary']).toMatch(/Accept-Encoding/i)
    const scriptUrl = dashboardStaticFiles().url('widget-preview.js')
    const script = await request(app).get(scriptUrl).expect(200)
    expect(script.headers['content-type']).toMatch(/javascript/)
    expect(script.text).toMatch(/\.type\s*!==\s*["']navigate["']/)
    // What the page carries inline is that file.
    expect((await request(app).get('/app/preview/wt8mybhg')).text).toContain(script.text.trim())
    if (/-[A-Z0-9]{8}\.js$/.test(scriptUrl)) expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    // Fetched by the dashboard's own pages only: other origins may not load it.
    expect(script.headers['cross-origin-resource-policy']).toBe('same-origin')
  })
})

describe('clone of a widget template', () => {
  it('accepts only known widget ids and shows the template’s name on the app home', async () => {
    const { cookie } = await register(app)
    await request(app).get('/app/clone/zz99zz99').set('Cookie', cookie).expect(404)
    await request(app).get(`/app/clone/${themed.id}`).set('Cookie', cookie).expect(302)
    const home = await request(app).get('/app/').set('Cookie', cookie).expect(200)
    expect(home.text).toContain(`<strong>${themed.name}</strong> Widget from template <code>${themed.id}</code>`)
  })
})
