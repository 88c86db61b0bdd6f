import SwaggerParser from '@apidevtools/swagger-parser'
import request from 'supertest'
import { describe, expect, it, vi } from 'vitest'
import { projectSiteData, testApp, testSite } from './app.js'

const app = testApp()
const catalog = projectSiteData().galleries.catalogs.widgets

interface Group {
  value: string
  name: string
  slug: string
  count: number
  hidden: boolean
  subs: { value: string; name: string; slug: string; count: number }[]
}
interface Item {
  wid: string
  id: string
  type: string
  group: string
  sub: string | null
  [field: string]: unknown
}

async function listAll(query: string): Promise<{ items: Item[]; total: number }> {
  const items: Item[] = []
  let total = 0
  for (let offset = 0; offset === 0 || offset < total; offset += 100) {
    const response = await request(app).get(`/api/widgets?${query}${query ? '&' : ''}limit=100&offset=${offset}`).expect(200)
    total = response.body.total
    items.push(...response.body.items)
  }
  return { items, total }
}

describe('GET /api/widget-groups', () => {
  it('lists the visible groups in order with their subs and counts, specials and positions', async () => {
    const response = await request(app).get('/api/widget-groups').expect(200)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(Object.keys(response.body)).toEqual(['groups', 'specials', 'positions'])
    const groups = response.body.groups as Group[]
    expect(groups.map((group) => group.name)).toEqual(['Halloween', 'Forms', 'Messages', 'Launchers', 'Inspired by brands'])
    for (const group of groups) {
      expect(Object.keys(group)).toEqual(['value', 'name', 'slug', 'count', 'hidden', 'subs'])
      expect(group.hidden).toBe(false)
      for (const sub of group.subs) expect(Object.keys(sub)).toEqual(['value', 'name', 'slug', 'count'])
    }
    const forms = groups.find((group) => group.slug === 'forms')!
    expect(forms.subs.map((sub) => sub.name)).toEqual(['Discounts', 'Subscription', 'Feedback', 'Age gates', 'Filters'])
    expect(forms.count).toBe(forms.subs.reduce((sum, sub) => sum + sub.count, 0))
    const messages = groups.find((group) => group.slug === 'messages')!
    expect(messages.subs.map((sub) => sub.name)).toEqual(['Sales', 'Notifications', 'WhatsApp'])

    expect(response.body.specials).toHaveLength(1)
    const [halloween] = response.body.specials
    expect(halloween).toMatchObject({ group: 'halloween', disabled: false, hidden: false })
    expect(halloween.widgets).toHaveLength(groups[0]!.count)
    expect(halloween.extensions[0]).toMatchObject({ type: 'icon' })
    expect(halloween.extensions[0].data.src).toMatch(/^data:image\/svg\+xml,/)
    expect(halloween.extensions[1]).toEqual({ type: 'start', data: { index: 0 } })
    expect(halloween.extensions.slice(2).every((extension: { type: string; data: { url: string } }) => extension.type === 'link' && extension.data.url.startsWith('/'))).toBe(true)

    expect(response.body.positions.map((position: { name: string }) => position.name)).toEqual(['Slidein', 'Bar', 'Panel', 'Modal', 'Sidebar', 'Fullscreen', 'Inline', 'Custom'])
    const visibleTotal = groups.reduce((sum, group) => sum + group.count, 0)
    expect(response.body.positions.reduce((sum: number, position: { count: number }) => sum + position.count, 0)).toBe(visibleTotal)
  })

  it('adds the hidden groups and specials with all=1, keeping their slugs', async () => {
    const response = await request(app).get('/api/widget-groups?all=1').expect(200)
    const names = (response.body.groups as Group[]).map((group) => group.name)
    expect(names.slice(0, 7)).toEqual(['Halloween', 'Black Friday', 'Christmas', 'Valentine’s Day', 'Easter', 'Earth Day', 'Mother’s Day'])
    expect(names).toContain('Use cases')
    expect(response.body.specials.map((special: { group: string; hidden: boolean }) => [special.group, special.hidden])).toEqual([
      ['halloween', false],
      ['black-friday', true],
      ['christmas', true],
      ['valentines-day', true],
      ['easter', true],
      ['earth-day', true],
      ['mothers-day', true],
    ])
    expect((response.body.groups as Group[]).reduce((sum, group) => sum + group.count, 0)).toBe(catalog.templates.length)
  })

  it('refuses a bad all, naming it', async () => {
    const response = await request(app).get('/api/widget-groups?all=yes').expect(400)
    expect(response.body.error).toMatchObject({ code: 'invalid_parameter', field: 'all' })
  })
})

describe('GET /api/widgets', () => {
  it('describes each template with exactly the fields of the contract', async () => {
    const response = await request(app).get('/api/widgets?group=forms&sub=discounts&limit=3').expect(200)
    expect(Object.keys(response.body)).toEqual(['items', 'total', 'offset', 'limit', 'facets'])
    const first = response.body.items[0]
    const template = catalog.byId(first.id)!
    expect(first).toEqual({
      wid: template.id,
      id: template.id,
      name: template.name,
      type: template.position,
      group: 'forms',
      sub: 'discounts',
      img: `/thumbnails/widgets/${template.id}-376.webp?v=${template.revision}`,
      videoUrl: null,
      isInline: template.position === 'inline',
      isCustom: template.name.includes('Custom'),
      isInspiredCustom: template.name.startsWith('InspiredCustom'),
      hiddenTheme: template.name.includes('Custom'),
    })
    expect(Object.keys(first)).toEqual(['wid', 'id', 'name', 'type', 'group', 'sub', 'img', 'videoUrl', 'isInline', 'isCustom', 'isInspiredCustom', 'hiddenTheme'])
  })

  it('lists the same number of templates as the groups say, for every group and sub', async () => {
    const groups = (await request(app).get('/api/widget-groups?all=1').expect(200)).body.groups as Group[]
    for (const group of groups) {
      const listed = await listAll(`group=${group.slug}`)
      expect(listed.total, group.slug).toBe(group.count)
      expect(listed.items).toHaveLength(group.count)
      expect(listed.items.every((item) => item.group === group.slug)).toBe(true)
      for (const sub of group.subs) {
        const subListed = await listAll(`group=${group.slug}&sub=${sub.slug}`)
        expect(subListed.total, `${group.slug}/${sub.slug}`).toBe(sub.count)
        expect(subListed.items.every((item) => item.sub === sub.slug)).toBe(true)
      }
    }
  })

  it('lists every visible template without a group, specials first, and no hidden one', async () => {
    const visible = (await request(app).get('/api/widget-groups').expect(200)).body.groups as Group[]
    const listed = await listAll('')
    expect(listed.total).toBe(visible.reduce((sum, group) => sum + group.count, 0))
    expect(new Set(listed.items.map((item) => item.wid)).size).toBe(listed.total)
    expect(listed.items[0]!.group).toBe('halloween')
    const hidden = new Set(catalog.groups.filter((group) => group.hidden).map((group) => group.slug))
    expect(listed.items.some((item) => hidden.has(item.group))).toBe(false)
  })

  it('filters by position and flags inline and custom templates', async () => {
    const inline = await listAll('position=inline')
    expect(inline.total).toBeGreaterThan(0)
    expect(inline.items.every((item) => item.type === 'inline' && item.isInline === true)).toBe(true)
    const custom = await listAll('position=custom')
    expect(custom.items.every((item) => item.type === 'custom' && item.isCustom === true && item.hiddenTheme === true)).toBe(true)
    const inspired = await listAll('group=inspired-by-brands&position=custom')
    expect(inspired.items.length).toBeGreaterThan(0)
    expect(inspired.items.every((item) => item.isInspiredCustom === true)).toBe(true)
  })

  it('searches names, families and tags with q', async () => {
    const byName = await listAll('q=spooky')
    expect(byName.items.map((item) => item.name)).toEqual(['Spooky 10% off', 'Spooky story contest'])
    const byFamily = await listAll('q=whatsapp')
    expect(byFamily.total).toBe(catalog.templates.filter((template) => template.family === 'whatsapp').length)
    const byTag = await listAll('q=gamified')
    expect(byTag.total).toBeGreaterThan(3)
    expect(byTag.items.every((item) => catalog.byId(item.wid)!.tags.includes('gamified'))).toBe(true)
    const twoWords = await listAll('q=coffee%20club')
    expect(twoWords.items.map((item) => item.name)).toEqual(['Coffee club code'])
    expect((await listAll('q=zzqx')).total).toBe(0)
  })

  it('counts every facet under the other filters', async () => {
    const response = await request(app).get('/api/widgets?group=forms&sub=discounts&position=modal').expect(200)
    const { facets, total } = response.body
    const inForms = catalog.templates.filter((template) => template.group === 'forms')
    expect(facets.position.modal).toBe(total)
    expect(facets.position.bar).toBe(inForms.filter((template) => template.sub === 'discounts' && template.position === 'bar').length)
    expect(facets.sub.subscription).toBe(inForms.filter((template) => template.sub === 'subscription' && template.position === 'modal').length)
    expect(facets.group.messages).toBe(catalog.templates.filter((template) => template.group === 'messages' && template.position === 'modal').length)
    expect(Object.keys(facets.group)).toEqual(['halloween', 'forms', 'messages', 'launchers', 'inspired-by-brands'])
    expect(Object.keys(facets.sub)).toEqual(['discounts', 'subscription', 'feedback', 'age-gates', 'filters'])
    expect(Object.keys(facets.position)).toEqual(['slidein', 'bar', 'panel', 'modal', 'sidebar', 'fullscreen', 'inline', 'custom'])
  })

  it('pages with offset and limit, 24 by default and at most 100', async () => {
    const first = (await request(app).get('/api/widgets').expect(200)).body
    expect(first.items).toHaveLength(24)
    expect(first).toMatchObject({ offset: 0, limit: 24 })
    const second = (await request(app).get('/api/widgets?offset=24&limit=24').expect(200)).body
    expect(second.items[0].wid).not.toBe(first.items[0].wid)
    const all = await listAll('')
    expect(second.items.map((item: Item) => item.wid)).toEqual(all.items.slice(24, 48).map((item) => item.wid))
    const past = (await request(app).get(`/api/widgets?offset=${first.total + 5}`).expect(200)).body
    expect(past.items).toEqual([])
    expect(past.total).toBe(first.total)
  })

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=-1', 'limit'],
    ['offset=10001', 'offset'],
    ['offset=1.5', 'offset'],
    ['group=nope', 'group'],
    ['group=Forms', 'group'],
    ['group=forms&sub=sales', 'sub'],
    ['sub=nope', 'sub'],
    ['position=popup', 'position'],
    [`q=${'a'.repeat(101)}`, 'q'],
    ['group=forms&group=messages', 'group'],
    ['limit=1&limit=2', 'limit'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const response = await request(app).get(`/api/widgets?${query}`).expect(400)
    expect(response.headers['access-control-allow-origin']).toBe('*')
    expect(response.body.error).toMatchObject({ code: 'invalid_parameter', field })
    expect(response.body.error.message).toMatch(new RegExp(`^${field}: `))
  })

  it('lists a hidden group when asked by slug', async () => {
    const response = await request(app).get('/api/widgets?group=black-friday').expect(200)
    expect(response.body.total).toBe(catalog.templates.filter((template) => template.group === 'black-friday').length)
    expect(response.body.facets.group['black-friday']).toBe(response.body.total)
  })
})

describe('GET /api/widgets/{hid}', () => {
  it('answers one template with the ids of its listing', async () => {
    const response = await request(app).get('/api/widgets/wt8mybhg').expect(200)
    expect(response.body).toMatchObject({ wid: 'wt8mybhg', id: 'wt8mybhg', name: 'First order 10%', group: 'forms', sub: 'discounts' })
    const listing = await listAll('group=forms&sub=discounts')
    expect(response.body.collection).toEqual(listing.items.map((item) => item.wid))
    expect(response.body.collection).toContain('wt8mybhg')
  })

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const unknown = await request(app).get('/api/widgets/zz99zz99').expect(404)
    expect(unknown.body.error).toMatchObject({ code: 'not_found', field: 'hid' })
    const malformed = await request(app).get('/api/widgets/NOPE').expect(400)
    expect(malformed.body.error).toMatchObject({ code: 'invalid_parameter', field: 'hid' })
  })
})

describe('caching and CORS', () => {
  it.each(['/api/widget-groups', '/api/widgets?group=forms', '/api/widgets/wt8mybhg'])('%s carries an ETag, answers 304 to it, and is open to every origin', async (url) => {
    const first = await request(app).get(url).expect(200)
    expect(first.headers['access-control-allow-origin']).toBe('*')
    expect(first.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=3600')
    expect(first.headers.etag).toBeTruthy()
    const again = await request(app).get(url).set('If-None-Match', String(first.headers.etag)).expect(304)
    expect(again.text).toBe('')
  })
})

describe('/api/openapi.json', () => {
  it('is a valid OpenAPI document that describes the widget endpoints', async () => {
    const response = await request(app).get('/api/openapi.json').expect(200)
    const document = await SwaggerParser.validate(structuredClone(response.body))
    expect(Object.keys(document.paths ?? {})).toEqual(expect.arrayContaining(['/api/widget-groups', '/api/widgets', '/api/widgets/{hid}']))
  })
})

describe('clone links', () => {
  it('sends /t/{hid} to the app’s clone', async () => {
    const response = await request(app).get('/t/wt8mybhg').expect(302)
    expect(response.headers.location).toBe('/app/clone/wt8mybhg')
  })

  it('answers an unknown or malformed id with the site’s 404 page', async () => {
    // A path that is not an id at all first gets the site's canonical slash, like any unknown page.
    for (const hid of ['zz99zz99', 'NOPE']) {
      const response = await request(app).get(`/t/${hid}`).redirects(1)
      expect(response.status, hid).toBe(404)
      expect(response.headers['content-type']).toMatch(/^text\/html/)
    }
  })
})

describe('repeat requests', () => {
  it('get the same bytes, headers and ETag from memory, and 304 when the client has them', async () => {
    // The server's listener, which sends kept answers before Express (tests/routes/answer-memory.test.ts has the rest).
    const fresh = testSite().listener
    const queried = vi.spyOn(catalog, 'query')
    const first = await request(fresh).get('/api/widgets?group=forms&limit=5').expect(200)
    const second = await request(fresh).get('/api/widgets?group=forms&limit=5').expect(200)
    // The repeat never reached the catalog.
    expect(queried).toHaveBeenCalledTimes(1)
    queried.mockRestore()
    expect(second.text).toBe(first.text)
    for (const header of ['etag', 'cache-control', 'content-type', 'access-control-allow-origin']) expect(second.headers[header], header).toBe(first.headers[header])
    await request(fresh).get('/api/widgets?group=forms&limit=5').set('If-None-Match', first.headers.etag!).expect(304)
    // Errors are never kept: the same bad request is refused afresh, with its own message.
    const bad = await request(fresh).get('/api/widgets?group=nope').expect(400)
    expect((await request(fresh).get('/api/widgets?group=nope').expect(400)).body).toEqual(bad.body)
  })
})
