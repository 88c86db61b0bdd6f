import { parse } from 'node-html-parser'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { projectSiteData } from '../routes/app.js'
import { dashboardSite } from './helpers.js'

const { app } = dashboardSite()
const catalog = projectSiteData().galleries.catalogs.emails
const sample = catalog.templates[0]!
const withImages = catalog.templates.find((template) => catalog.html(template, 'X').includes('X/'))

describe('GET /app/api/v2/emailmessages/{hid}/view', () => {
  it('is the email’s real HTML, with a policy that allows no script and only the site’s images, framed by the site', async () => {
    const response = await request(app).get(`/app/api/v2/emailmessages/${sample.id}/view`).expect(200)
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    const policy = response.headers['content-security-policy']!
    expect(policy).toContain("default-src 'none'")
    expect(policy).not.toContain('script-src')
    expect(policy).toMatch(/frame-ancestors 'self' https?:\/\//)
    const root = parse(response.text)
    expect(root.querySelector('html')!.getAttribute('lang')).toBe('en')
    expect(root.querySelector('title')!.text).toBe(sample.subject)
    expect(root.querySelectorAll('script')).toHaveLength(0)
    // Links leave the preview frame.
    expect(root.querySelector('head base')!.getAttribute('target')).toBe('_blank')
    expect(response.text).toContain(sample.preheader)
  })

  it('points the images at the site’s /email-assets/', async () => {
    expect(withImages, 'some emails have images').toBeDefined()
    const response = await request(app).get(`/app/api/v2/emailmessages/${withImages!.id}/view`).expect(200)
    const sources = parse(response.text).querySelectorAll('img').map((image) => image.getAttribute('src')!)
    expect(sources.length).toBeGreaterThan(0)
    for (const source of sources) expect(source).toMatch(/^https?:\/\/[^/]+\/email-assets\/[a-z0-9-]+\.(png|jpg)$/)
    expect(response.text).not.toContain('{{assets}}')
  })

  it('serves the pictures to any origin (a webmail showing a sent email, a preview opened by another host name)', async () => {
    const response = await request(app).get(`/app/api/v2/emailmessages/${withImages!.id}/view`).expect(200)
    const source = new URL(parse(response.text).querySelector('img')!.getAttribute('src')!)
    const picture = await request(app).get(source.pathname).expect(200)
    expect(picture.headers['cross-origin-resource-policy']).toBe('cross-origin')
  })

  it('points the images at the port the site listens on when no PUBLIC_URL is set', async () => {
    const onOtherPort = dashboardSite({ PORT: '4100', PUBLIC_URL: '' }).app
    const response = await request(onOtherPort).get(`/app/api/v2/emailmessages/${withImages!.id}/view`).expect(200)
    const sources = parse(response.text).querySelectorAll('img').map((image) => image.getAttribute('src')!)
    for (const source of sources) expect(source).toMatch(/^http:\/\/localhost:4100\/email-assets\//)
    const page = await request(onOtherPort).get('/pricing/').expect(200)
    expect(parse(page.text).querySelector('link[rel=canonical]')!.getAttribute('href')).toBe('http://localhost:4100/pricing/')
  })

  it('gives the plain-text part with format=text', async () => {
    const response = await request(app).get(`/app/api/v2/emailmessages/${sample.id}/view?format=text`).expect(200)
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(response.text).toBe(catalog.text(sample))
    expect(response.text).not.toMatch(/<[a-z]/i)
  })

  it('with view=inverted darkens the page by inversion and inverts pictures and marked parts back, as forced-dark clients leave them', async () => {
    const response = await request(app).get(`/app/api/v2/emailmessages/${withImages!.id}/view?view=inverted`).expect(200)
    // The policy is unchanged and still lets the page's own inline style in.
    expect(response.headers['content-security-policy']).toContain("style-src 'unsafe-inline'")
    const root = parse(response.text)
    expect(root.querySelectorAll('script')).toHaveLength(0)
    const style = root.querySelector('head style#forced-dark')!.text
    const rules = [...style.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map(([, selector, body]) => ({ selector: selector!.trim(), body: body!.trim() }))
    const inversion = 'filter:invert(1) hue-rotate(180deg)'
    expect(rules[0]).toEqual({ selector: 'html', body: inversion })
    // Inverted twice is as drawn: pictures, background images and `em-keep` get the same filter again…
    const again = rules.find((rule) => rule.body === inversion && rule.selector !== 'html')!
    for (const kept of ['img', '[background]', '[style*="background-image"]', '.em-keep']) expect(again.selector).toContain(kept)
    // …and nothing inside one of them is turned a third time.
    expect(rules.find((rule) => rule.body === 'filter:none')?.selector).toBe(`${again.selector} ${again.selector}`)
    // The email itself is the same as in the light view.
    const light = await request(app).get(`/app/api/v2/emailmessages/${withImages!.id}/view`).expect(200)
    expect(light.text).not.toContain('forced-dark')
    expect(response.text.replace(/<style id="forced-dark">[^<]*<\/style>/, '')).toBe(light.text)
  })

  it('answers an unknown id with 404 and a bad format or view with 400 naming it', async () => {
    await request(app).get('/app/api/v2/emailmessages/zz99zz99/view').expect(404)
    await request(app).get('/app/api/v2/emailmessages/..%2F..%2Fetc/view').expect(404)
    const bad = await request(app).get(`/app/api/v2/emailmessages/${sample.id}/view?format=pdf`).expect(400)
    expect(bad.body.errors.format).toEqual(['must be html or text'])
    const badView = await request(app).get(`/app/api/v2/emailmessages/${sample.id}/view?view=sepia`).expect(400)
    expect(badView.body.errors.view).toEqual(['must be inverted'])
  })
})
