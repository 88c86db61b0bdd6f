import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import type { PriceList } from '../../server/pricing/api.js'
import { fetchPage, ROOT, testApp, testSite, textOf } from './app.js'

const app = testApp()
const json = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, 'data', file), 'utf8'))
const home = json('home.json')
const helpSections: { slug: string; subs?: { slug: string }[] }[] = json('content/help/sections.json')
const blogThemes: { slug: string; name: string }[] = json('content/blog/themes.json')
const mdCount = (...dir: string[]) => {
  const full = path.join(ROOT, 'data', 'content', ...dir)
  return fs.existsSync(full) ? fs.readdirSync(full).filter((name) => name.endsWith('.md')).length : 0
}

/** The text of every <script> on a page that runs without loading a file (inert JSON never runs). */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes = '']) => !/\bsrc=/.test(attributes) && !/type="application\/json"/.test(attributes))
    .map(([, , text = '']) => text)
}

/** The CSP source that allows an inline script with exactly this text. */
const hashSource = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

async function page(pathname: string, status = 200) {
  const response = await request(app).get(pathname)
  expect(response.status, pathname).toBe(status)
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
  return response.text
}

describe('pages', () => {
  const sitemapPaths = async () => {
    const xml = (await request(app).get('/sitemap.xml')).text
    return [...xml.matchAll(/<loc>https:\/\/site\.example([^<]*)<\/loc>/g)].map((match) => match[1]!)
  }

  it('serves every page of the sitemap with a unique title and description, a canonical link and no inline script but those its CSP allows', async () => {
    const paths = await sitemapPaths()
    const scriptSources = /script-src ([^;]*)/.exec((await request(app).get('/')).headers['content-security-policy'] as string)?.[1]?.split(' ') ?? []
    expect(paths.length).toBeGreaterThan(60)
    const titles = new Set<string>()
    const descriptions = new Set<string>()
    for (const pathname of paths) {
      const html = await page(pathname)
      const title = /<title>([^<]+)<\/title>/.exec(html)?.[1]
      const description = /<meta name="description" content="([^"]+)"/.exec(html)?.[1]
      expect(title, pathname).toBeTruthy()
      expect(description, pathname).toBeTruthy()
      expect(titles.has(title!), `duplicate title ${title} on ${pathname}`).toBe(false)
      expect(descriptions.has(description!), `duplicate description on ${pathname}`).toBe(false)
      titles.add(title!)
      descriptions.add(description!)
      expect(html).toContain(`<link rel="canonical" href="https://site.example${pathname}"/>`)
      expect(html).toContain(`<meta property="og:url" content="https://site.example${pathname}"/>`)
      // The header's menus script and the boot script, allowed by their hashes; nothing else inline runs.
      expect(inlineScripts(html).map(hashSource), pathname).toEqual(scriptSources.filter((source) => source.startsWith("'sha256-")))
      expect(html.match(/<h1[\s>]/g), `one h1 on ${pathname}`).toHaveLength(1)
      // The first paint waits for the footer, the last thing drawn: in the head, and the footer there once.
      const head = html.slice(0, html.indexOf('</head>'))
      expect(head, pathname).toContain('<link rel="expect" href="#site-footer" blocking="render"/>')
      expect(html.match(/ id="site-footer"/g), pathname).toEqual([' id="site-footer"'])
      expect(html.indexOf('<footer class="site-footer" id="site-footer"'), pathname).toBeGreaterThan(html.indexOf('</main>'))
      // The footer is drawn whole by the server, marked to be left as it is when the page hydrates.
      const footer = /<footer class="site-footer" id="site-footer" data-static="[^"]+">([\s\S]*?)<\/footer>/.exec(html)
      expect(footer?.[1], pathname).toContain('<a href="/pricing/" data-discover="true">Pricing</a>')
    }
  }, 120_000)

  it('lists every content page in the sitemap', async () => {
    const paths = await sitemapPaths()
    for (const pathname of ['/', '/pricing/', '/faq/', '/about/', '/privacy/', '/terms/', '/anti-spam-policy/', '/aurora', '/shopify-apps', '/email-templates/', '/blog/', '/help/', '/usecase/']) {
      expect(paths).toContain(pathname)
    }
    for (const theme of blogThemes) expect(paths).toContain(`/blog/${theme.slug}/`)
    for (const section of ['build-email-list', 'collect-feedback', 'request-forms', 'make-announcements', 'shopify']) {
      expect(paths).toContain(`/usecase/${section}/`)
    }
  })

  it('renders the home page with its sections, the 14 shop categories and the generator cards', async () => {
    const html = await page('/')
    for (const id of ['widgets', 'automations', 'contacts', 'broadcasts']) expect(html).toContain(`id="${id}"`)
    expect(html).toContain(home.hero.title.replace(/&/g, '&amp;').replace(/'/g, '&#x27;'))
    const tabs = [...html.matchAll(/role="tab"[^>]*>([^<]+)</g)].map((match) => match[1])
    expect(tabs).toEqual(['Clothing', 'Jewelry', 'Video', 'Art', 'Food', 'Home', 'Shoes', 'Minimal', 'Sports', 'Kids', 'Beauty', 'Product', 'Pets', 'Bags'])
    for (const generator of ['/ai-subject-line-generator/', '/email-scrolling-text-gif-generator/', '/calligraphy-text-generator/', '/email-countdown-timer-generator/', '/image-slideshow-gif-generator/']) {
      expect(html).toContain(`href="${generator}"`)
    }
    expect(html).toContain('href="/start/"')
  })

  describe('real templates on the home page', () => {
    const templateNames = {
      widgets: new Map((json('generated/widget-templates.json') as { id: string; name: string }[]).map((template) => [template.id, template.name])),
      emails: new Map((json('generated/email-templates.json').templates as { id: string; name: string }[]).map((template) => [template.id, template.name])),
    }

    it('shows widget and email template cards, each linking to its template page with its card image and name, and a link to each gallery', async () => {
      const { root } = await fetchPage(app, '/')
      const section = root.querySelector('section[aria-labelledby="templates-title"]')!
      expect(section, 'the templates section').not.toBeNull()
      const links = section.querySelectorAll('.template-card a')
      expect(links.length).toBeGreaterThanOrEqual(4)
      const kindsShown = new Set<string>()
      for (const link of links) {
        const href = link.getAttribute('href') ?? ''
        const match = /^\/([pe])\/([a-z0-9]{8})$/.exec(href)
        expect(match, `${href} is a template page`).not.toBeNull()
        const kind = match![1] === 'p' ? 'widgets' : 'emails'
        const hid = match![2]!
        kindsShown.add(kind)
        const name = templateNames[kind].get(hid)
        expect(name, `${hid} is a ${kind} template of the catalog`).toBeDefined()
        // The link's accessible name is its text: the template's name (and a widget's type).
        expect(link.querySelector('.template-name')?.textContent).toBe(name)
        const image = link.querySelector('img')!
        expect(image.getAttribute('src')).toMatch(new RegExp(`^/thumbnails/${kind}/${hid}-\\d+\\.webp\\?v=\\w+$`))
        expect(image.getAttribute('srcset')).toContain(`/thumbnails/${kind}/${hid}-`)
        expect(Number(image.getAttribute('width'))).toBeGreaterThan(0)
        expect(Number(image.getAttribute('height'))).toBeGreaterThan(0)
        expect(image.getAttribute('loading'), 'below the fold, the cards load as they scroll near').toBe('lazy')
        const served = await request(app).get(image.getAttribute('src')!.replaceAll('&amp;', '&'))
        expect(served.status, image.getAttribute('src')!).toBe(200)
        expect(served.headers['content-type']).toBe('image/webp')
      }
      expect([...kindsShown].sort()).toEqual(['emails', 'widgets'])
      expect(section.querySelector('a[href="/p/"]')?.textContent).toBe('See all widget templates')
      expect(section.querySelector('a[href="/e/"]')?.textContent).toBe('See all email templates')
    })

    it('draws the hero from a real widget template, the one image fetched first, and gives every image its size and an alt', async () => {
      const { root } = await fetchPage(app, '/')
      const images = root.querySelectorAll('main img')
      for (const image of images) {
        const src = image.getAttribute('src')
        expect(Number(image.getAttribute('width')), `width of ${src}`).toBeGreaterThan(0)
        expect(Number(image.getAttribute('height')), `height of ${src}`).toBeGreaterThan(0)
        expect(image.getAttribute('alt'), `alt of ${src}`).not.toBeUndefined()
      }
      const first = images.filter((image) => image.getAttribute('fetchpriority') === 'high')
      expect(first).toHaveLength(1)
      const heroWidget = home.hero.showcase.widget as string
      expect(first[0]!.getAttribute('src')).toMatch(new RegExp(`^/thumbnails/widgets/${heroWidget}-`))
      expect(first[0]!.getAttribute('loading')).toBe('eager')
      expect(first[0]!.getAttribute('alt')).toContain(templateNames.widgets.get(heroWidget))
      expect(root.querySelector('.hero img:not([fetchpriority])')?.getAttribute('alt')).toContain(templateNames.emails.get(home.hero.showcase.email))
      // Past the hero, every image waits until it scrolls near.
      const belowTheHero = images.filter((image) => !image.closest('.hero'))
      expect(belowTheHero.length).toBeGreaterThan(4)
      for (const image of belowTheHero) expect(image.getAttribute('loading'), image.getAttribute('src')).toBe('lazy')
      // The feature sections that name templates show those templates' images, named in their alt.
      for (const section of home.sections as { id: string; templates?: { kind: 'widgets' | 'emails'; ids: string[] } }[]) {
        if (!section.templates) continue
        const art = root.querySelectorAll(`#${section.id} .feature-art img`)
        expect(art.map((image) => /\/thumbnails\/\w+\/(\w+)-/.exec(image.getAttribute('src') ?? '')?.[1])).toEqual(section.templates.ids)
        art.forEach((image, index) => expect(image.getAttribute('alt')).toContain(templateNames[section.templates!.kind].get(section.templates!.ids[index]!)))
      }
    })

    it('refuses to start when home.json names a template the gallery does not have', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-home-'))
      fs.mkdirSync(path.join(dir, 'data'))
      for (const entry of fs.readdirSync(path.join(ROOT, 'data'))) {
        if (entry !== 'home.json') fs.symlinkSync(path.join(ROOT, 'data', entry), path.join(dir, 'data', entry))
      }
      fs.symlinkSync(path.join(ROOT, 'public'), path.join(dir, 'public'))
      const changed = structuredClone(home)
      changed.templates.rows[0].ids[1] = 'zzzzzzz9'
      fs.writeFileSync(path.join(dir, 'data', 'home.json'), JSON.stringify(changed))
      try {
        expect(() => testSite({ DATA_DIR: path.join(dir, 'state') }, {}, dir)).toThrow('data/home.json: no widget template with the id zzzzzzz9')
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    })
  })

  it('renders the navigation groups in order with Pricing as a link', async () => {
    const html = await page('/faq/')
    const labels = [...html.matchAll(/class="nav-trigger"[^>]*>([A-Za-z]+)/g)].map((match) => match[1])
    expect(labels).toEqual(['Solutions', 'Templates', 'Resources', 'Pricing', 'Products'])
    expect(html).toMatch(/<a class="nav-trigger" href="\/pricing\/"[^>]*>Pricing<\/a>/)
    expect(html).toMatch(/<button[^>]*class="nav-trigger"[^>]*aria-expanded="false"/)
  })

  it('renders the pricing plans in RUB, monthly, with views, per-1000 email prices and pro marks', async () => {
    const html = await page('/pricing/')
    expect(html).toContain('data-testid="price-4">490 ₽<')
    expect(html).toContain('data-testid="price-5">790 ₽<')
    expect(html).toContain('data-testid="price-6">790 ₽<')
    expect(html).toContain('990 ₽')
    expect(html).toContain('1,390 ₽')
    expect(html).toMatch(/<strong>Unlimited<\/strong> widget views a month/)
    expect(html).toMatch(/<strong>20,000<\/strong> widget views a month/)
    expect(html).toMatch(/data-testid="emails-4"><strong>\$2<\/strong> per 1000 emails<\/li>/)
    expect(textOf(html, '[data-testid="emails-5"]')).toBe('$1.50 per 1000 emails−25%')
    expect(textOf(html, '[data-testid="emails-6"]')).toBe('$1 per 1000 emails−50%')
    for (const anchor of ['widgets', 'email-marketing', 'branding-removal']) expect(html).toContain(`id="${anchor}"`)
  })

  it('renders USD yearly prices when the query asks for them', async () => {
    const html = await page('/pricing/?currency=usd&billing=yearly')
    expect(html).toContain('data-testid="price-4">$7<')
    expect(html).toContain('data-testid="price-5">$14<')
  })

  it('still renders the pricing page, without plans, when prices fail to load', async () => {
    const failing: PriceList = {
      features: [],
      currencies: [],
      currentCurrency: { code: 'RUB', flag: '', format: '{amount}' },
      forCurrency: () => {
        throw new Error('price service down')
      },
    }
    const response = await request(testApp({}, { prices: failing })).get('/pricing/')
    expect(response.status).toBe(200)
    expect(response.text).not.toContain('class="plan-card')
    expect(response.text).toContain('Plans are not available right now')
    expect(response.text).toContain('<h1>Simple plans that grow with your shop</h1>')
    expect(response.text).toContain('class="site-footer"')
  })

  it('answers a page whose data fails with a server-rendered 500 page, keeping the site around it', async () => {
    const broken = {
      currencies: [],
      currentCurrency: { code: 'RUB', flag: '', format: '{amount}' },
      forCurrency: () => undefined,
      get features(): never {
        throw new Error('plans file unreadable')
      },
    } as PriceList
    const response = await request(testApp({}, { prices: broken })).get('/pricing/')
    expect(response.status).toBe(500)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.text).toContain('<h1>Something went wrong</h1>')
    expect(response.text).toContain('class="site-footer"')
    expect(response.text).not.toContain('plans file unreadable')
    expect(await request(testApp({}, { prices: broken })).get('/faq/').then((r) => r.status)).toBe(200)
  })

  it('shows help article counts that equal the articles that exist', async () => {
    const html = await page('/help/')
    for (const section of helpSections) {
      const own = mdCount('help', section.slug)
      const inSubs = (section.subs ?? []).reduce((sum, sub) => sum + mdCount('help', section.slug, sub.slug), 0)
      const total = own + inSubs
      expect(total, section.slug).toBeGreaterThan(0)
      const sectionHtml = await page(`/help/${section.slug}/`)
      expect(textOf(sectionHtml)).toContain(`${total} ${total === 1 ? 'article' : 'articles'} · `)
      for (const sub of section.subs ?? []) {
        const count = mdCount('help', section.slug, sub.slug)
        expect(textOf(await page(`/help/${section.slug}/${sub.slug}/`))).toContain(`${count} ${count === 1 ? 'article' : 'articles'} · `)
      }
    }
    expect(html).toContain('videos')
  })

  it('lists the widget help subsections in order', async () => {
    const html = await page('/help/widgets/')
    const subs = [...html.matchAll(/<h2><a href="\/help\/widgets\/([a-z-]+)\/"/g)].map((match) => match[1])
    expect(subs).toEqual(['installation', 'design', 'targeting', 'integrations', 'ab-tests', 'developers'])
  })

  it('has the seven blog themes with at least two posts each', async () => {
    expect(blogThemes.map((theme) => theme.slug)).toEqual([
      'lead-generation',
      'ecommerce-marketing',
      'customer-engagement',
      'aurora-updates',
      'product-updates',
      'email-marketing',
      'success-stories',
    ])
    for (const theme of blogThemes) {
      const html = await page(`/blog/${theme.slug}/`)
      expect(mdCount('blog', theme.slug), theme.slug).toBeGreaterThanOrEqual(2)
      expect(html.match(/class="post-card"/g)).toHaveLength(mdCount('blog', theme.slug))
    }
  })

  it('links the Shopify app store from /shopify-apps', async () => {
    expect(await page('/shopify-apps')).toContain('href="https://apps.shopify.com/poplift"')
  })

  it('answers unknown pages with a rendered 404 that search engines skip', async () => {
    for (const pathname of ['/no-such-page/', '/blog/no-such-theme/', '/blog/lead-generation/no-such-post/', '/help/no-such-section/', '/help/widgets/no-such-sub/', '/help/widgets/design/no-such-article/', '/usecase/no-such-case/']) {
      const html = await page(pathname, 404)
      expect(html).toContain('We can’t find that page')
      expect(html).toContain('<meta name="robots" content="noindex"/>')
      expect(html).toContain('class="site-header"')
    }
  })

  it('answers methods a page does not take with 405, naming POST as allowed only on a page with a form', async () => {
    for (const [method, pathname, allow] of [
      ['put', '/login/', 'GET, HEAD, POST'],
      ['delete', '/reset/new/', 'GET, HEAD, POST'],
      ['post', '/pricing/', 'GET, HEAD'],
      ['put', '/pricing/', 'GET, HEAD'],
    ] as const) {
      const response = await request(app)[method](pathname).expect(405)
      expect(response.headers.allow, `${method} ${pathname}`).toBe(allow)
    }
  })

  it('serves route data as JSON for client navigation', async () => {
    const response = await request(app).get('/faq/?_data=faq').expect(200)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(response.body.faq.groups.length).toBeGreaterThan(0)
    const missing = await request(app).get('/blog/nope/?_data=blog-theme').expect(404)
    expect(missing.body.error.code).toBe('not_found')
    const bad = await request(app).get('/faq/?_data=%3Cscript%3E').expect(400)
    expect(bad.body.error.field).toBe('_data')
    const twice = await request(app).get('/faq/?_data=faq&_data=home').expect(400)
    expect(twice.body.error.field).toBe('_data')
  })

  it('gives route data the cache rule of its page: the new-password page\'s data, which holds the token, is never kept', async () => {
    const token = 'a'.repeat(43)
    const page = await request(app).get(`/reset/new/?token=${token}`).expect(200)
    const data = await request(app).get(`/reset/new/?token=${token}&_data=reset-new`).expect(200)
    expect(page.headers['cache-control']).toBe('private, no-store')
    expect(data.headers['cache-control']).toBe(page.headers['cache-control'])
    const shared = await request(app).get('/faq/?_data=faq').expect(200)
    expect(shared.headers['cache-control']).toBe((await request(app).get('/faq/')).headers['cache-control'])
  })
})
