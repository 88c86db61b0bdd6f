import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { testApp } from './app.js'

const app = testApp({}, { now: () => new Date('2026-11-22T15:00:00Z') })

describe('GET /api/prices', () => {
  it('returns the plans with RUB as the current currency and USD offered', async () => {
    const response = await request(app).get('/api/prices').expect(200)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(response.headers['access-control-allow-origin']).toBe('*')
    expect(response.headers['cache-control']).toBe('public, max-age=300')
    expect(response.headers.etag).toBeTruthy()
    expect(response.body.currency).toEqual({ code: 'RUB', flag: '🇷🇺', format: '{amount} ₽' })
    expect(response.body.currencies.map((currency: { code: string }) => currency.code)).toEqual(['RUB', 'USD'])
    const [creator, pro, proMax] = response.body.plans
    expect(creator).toMatchObject({ id: 4, name: 'Creator', resource_uri: '/api/v1/plans/4/' })
    expect(creator.prices.USD).toEqual({ price: 9, price_format: '$9', price_old: 19, price_old_format: '$19', price_yearly: 7, price_yearly_format: '$7' })
    expect(creator.prices.RUB).toEqual({ price: 490, price_format: '490 ₽', price_old: 990, price_old_format: '990 ₽', price_yearly: 390, price_yearly_format: '390 ₽' })
    expect(pro.prices.USD).toMatchObject({ price: 19, price_yearly: 14, price_old: null })
    expect(proMax.features).toEqual({ SITES: 1, VIEWS: null, FEATURE_PRO: true, FEATURE_STORE_INTEGRATION: true, EMAILS_DISCOUNT: 0.5 })
  })

  it('marks the requested currency as current', async () => {
    const response = await request(app).get('/api/prices?currency=usd').expect(200)
    expect(response.body.currency.code).toBe('USD')
  })

  it('answers 304 when the ETag matches', async () => {
    const first = await request(app).get('/api/prices').expect(200)
    await request(app).get('/api/prices').set('If-None-Match', String(first.headers.etag)).expect(304)
  })

  it('refuses an unknown or malformed currency, naming the parameter', async () => {
    for (const query of ['currency=EUR', 'currency=dollars', 'currency=', 'currency=USD&currency=RUB']) {
      const response = await request(app).get(`/api/prices?${query}`).expect(400)
      expect(response.body.error).toMatchObject({ code: 'invalid_parameter', field: 'currency' })
      expect(response.body.error.message).toMatch(/^currency: /)
    }
  })
})

describe('GET /api/holidays', () => {
  it('defaults to today (UTC) and lists all 14 next occurrences, nearest first', async () => {
    const response = await request(app).get('/api/holidays').expect(200)
    expect(response.headers['access-control-allow-origin']).toBe('*')
    expect(response.body).toHaveLength(14)
    expect(response.body[0]).toEqual({ title: 'Thanksgiving (U.S.)', value: '2026-11-26' })
    expect(response.body[1]).toEqual({ title: 'Black Friday', value: '2026-11-27' })
    expect(response.body.map((holiday: { value: string }) => holiday.value)).toEqual([...response.body.map((holiday: { value: string }) => holiday.value)].sort())
  })

  it('counts from the given date', async () => {
    const response = await request(app).get('/api/holidays?from=2027-02-14').expect(200)
    expect(response.body[0]).toEqual({ title: "Valentine's Day", value: '2027-02-14' })
    expect(response.body.find((holiday: { title: string }) => holiday.title === 'Easter')).toEqual({ title: 'Easter', value: '2027-03-28' })
  })

  it('refuses a date that is not a real YYYY-MM-DD, naming the parameter', async () => {
    for (const from of ['tomorrow', '2026-02-30', '2026-1-1', '1200-01-01', '99999-01-01', '']) {
      const response = await request(app).get(`/api/holidays?from=${from}`).expect(400)
      expect(response.body.error.field).toBe('from')
    }
    const twice = await request(app).get('/api/holidays?from=2026-01-01&from=2026-01-02').expect(400)
    expect(twice.body.error.field).toBe('from')
  })
})

describe('the rest of /api', () => {
  it('describes itself in OpenAPI', async () => {
    const response = await request(app).get('/api/openapi.json').expect(200)
    expect(response.body.openapi).toBe('3.1.0')
    expect(Object.keys(response.body.paths)).toEqual(expect.arrayContaining(['/api/prices', '/api/holidays']))
  })

  it('answers an unknown endpoint with a JSON 404', async () => {
    const response = await request(app).get('/api/nope').expect(404)
    expect(response.body).toEqual({ error: { code: 'not_found', message: 'No such API endpoint.' } })
  })
})
