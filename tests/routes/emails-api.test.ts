import SwaggerParser from '@apidevtools/swagger-parser'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { projectSiteData, testApp } from './app.js'

const app = testApp()
const catalog = projectSiteData().galleries.catalogs.emails
const visible = catalog.groups.filter((group) => !group.hidden)
const blackFriday = catalog.groups.find((group) => group.slug === 'black-friday-email-templates')!
const welcome = catalog.groups.find((group) => group.slug === 'welcome-email-templates')!
const sample = catalog.templates.find((template) => template.groups.length > 1)!

interface Item {
  id: string
  name: string
  img: string
  videoUrl: string | null
  collection: string[]
}

async function listAll(query: string): Promise<{ items: Item[]; total: number }> {
  const items: Item[] = []
  let total = 0
  for (let offset = 0; offset === 0 || offset < total; offset += 100) {
    const response = await request(app).get(`/api/emails?${query}${query ? '&' : ''}limit=100&offset=${offset}`).expect(200)
    total = response.body.total
    items.push(...response.body.items)
  }
  return { items, total }
}

describe('GET /api/email-groups', () => {
  it('lists the seven visible groups in order with their counts; Black Friday only with all=1', async () => {
    const response = await request(app).get('/api/email-groups').expect(200)
    expect(response.headers['access-control-allow-origin']).toBe('*')
    expect(response.headers['cache-control']).toContain('max-age=300')
    const groups = response.body.groups as { group: string; name: string; slug: string; count: number; hidden: boolean }[]
    expect(groups.map((group) => group.slug)).toEqual(visible.map((group) => group.slug))
    expect(groups).toHaveLength(7)
    for (const group of groups) {
      expect(Object.keys(group)).toEqual(['group', 'name', 'slug', 'count', 'hidden'])
      expect(group.count).toBe(catalog.templates.filter((template) => template.groups.includes(group.slug)).length)
      expect(group.hidden).toBe(false)
    }
    const all = await request(app).get('/api/email-groups?all=1').expect(200)
    const hidden = all.body.groups.find((group: { slug: string }) => group.slug === blackFriday.slug)
    expect(hidden).toMatchObject({ name: 'Black Friday', hidden: true })
    expect(hidden.count).toBeGreaterThan(0)
  })

  it('answers a repeated request with 304 through its ETag', async () => {
    const first = await request(app).get('/api/email-groups').expect(200)
    await request(app).get('/api/email-groups').set('If-None-Match', first.headers.etag!).expect(304)
  })
})

describe('GET /api/emails', () => {
  it('lists a group with the fields of the contract, each collection being the whole group', async () => {
    const { items, total } = await listAll(`group=${welcome.slug}`)
    const ids = catalog.idsOf(welcome.slug)
    expect(total).toBe(ids.length)
    expect(items.map((item) => item.id)).toEqual(ids)
    for (const item of items) {
      expect(Object.keys(item)).toEqual(['id', 'name', 'img', 'videoUrl', 'collection'])
      expect(item.collection).toEqual(ids)
      expect(item.img).toMatch(new RegExp(`^/thumbnails/emails/${item.id}-376\\.webp\\?v=[a-z0-9]+$`))
    }
  })

  it('without a group lists every template of a visible group once, and the hidden group on request', async () => {
    const { items } = await listAll('')
    const inVisible = catalog.templates.filter((template) => template.groups.some((group) => catalog.visibleGroups.has(group)))
    expect(new Set(items.map((item) => item.id))).toEqual(new Set(inVisible.map((template) => template.id)))
    const hidden = await listAll(`group=${blackFriday.slug}`)
    expect(hidden.total).toBe(catalog.idsOf(blackFriday.slug).length)
  })

  it('searches names, subjects and tags, with counts per group', async () => {
    const target = catalog.templates.find((template) => template.name === 'Claim your coupon')!
    const response = await request(app).get('/api/emails?q=claim%20coupon').expect(200)
    expect(response.body.items.map((item: Item) => item.id)).toContain(target.id)
    const facets = response.body.facets.group as Record<string, number>
    expect(Object.keys(facets)).toEqual(visible.map((group) => group.slug))
    expect(Object.values(facets).reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(response.body.total)
    // Each group's count is what that group would list for the same search.
    for (const group of visible) {
      const within = await request(app).get(`/api/emails?q=claim%20coupon&group=${group.slug}&limit=1`).expect(200)
      expect(facets[group.slug], group.slug).toBe(within.body.total)
    }
    expect(facets['all-email-templates']).toBeLessThan(catalog.idsOf('all-email-templates').length)
  })

  it('pages with offset and limit', async () => {
    const first = await request(app).get('/api/emails?limit=5').expect(200)
    const second = await request(app).get('/api/emails?limit=5&offset=5').expect(200)
    expect(first.body.items).toHaveLength(5)
    expect(first.body.items.map((item: Item) => item.id)).not.toContain(second.body.items[0].id)
    expect(second.body).toMatchObject({ offset: 5, limit: 5 })
  })

  it.each([
    ['group=nope', 'group'],
    ['group=Bad%20Slug', 'group'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=abc', 'offset'],
    [`q=${'x'.repeat(101)}`, 'q'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const response = await request(app).get(`/api/emails?${query}`).expect(400)
    expect(response.body.error.field).toBe(field)
    expect(response.body.error.message).toMatch(new RegExp(field))
  })
})

describe('GET /api/emails/{hid}', () => {
  it('gives one template with its first group as the collection, or the group asked for', async () => {
    const response = await request(app).get(`/api/emails/${sample.id}`).expect(200)
    expect(response.body).toMatchObject({ id: sample.id, name: sample.name, subject: sample.subject, preheader: sample.preheader, groups: sample.groups, videoUrl: null })
    expect(response.body.collection).toEqual(catalog.idsOf(sample.groups[0]!))
    expect(response.body.bytes).toBeLessThan(102_000)
    const other = sample.groups[1]!
    const inOther = await request(app).get(`/api/emails/${sample.id}?group=${other}`).expect(200)
    expect(inOther.body.collection).toEqual(catalog.idsOf(other))
  })

  it('answers 404 for an unknown id and 400 for a malformed one or a group it is not in', async () => {
    expect((await request(app).get('/api/emails/zz99zz99').expect(404)).body.error.field).toBe('hid')
    expect((await request(app).get('/api/emails/NOT-AN-ID').expect(400)).body.error.field).toBe('hid')
    const notIn = catalog.groups.find((group) => !sample.groups.includes(group.slug))!
    expect((await request(app).get(`/api/emails/${sample.id}?group=${notIn.slug}`).expect(400)).body.error.field).toBe('group')
  })
})

describe('email clone links', () => {
  it('/te/{hid} sends a known template to the app clone, and an unknown one to the 404 page', async () => {
    const response = await request(app).get(`/te/${sample.id}`).expect(302)
    expect(response.headers.location).toBe(`/app/clone-email/${sample.id}`)
    await request(app).get('/te/zz99zz99').expect(404)
  })
})

describe('/api/openapi.json', () => {
  it('describes the email endpoints in a valid document', async () => {
    const response = await request(app).get('/api/openapi.json').expect(200)
    const document = await SwaggerParser.validate(structuredClone(response.body))
    expect(Object.keys(document.paths ?? {})).toEqual(expect.arrayContaining(['/api/email-groups', '/api/emails', '/api/emails/{hid}']))
  })
})
