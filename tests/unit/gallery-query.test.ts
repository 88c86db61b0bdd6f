import { describe, expect, it } from 'vitest'
import { queryTemplates, searchMatcher, searchWords, type QueryableTemplate } from '../../server/gallery/query.js'

interface Card extends QueryableTemplate {
  id: string
}

const card = (id: string, groups: string[], sub: string | null, position: string | null, searchText: string): Card => ({ id, groups, sub, position, searchText })

const CARDS: Card[] = [
  card('a', ['forms'], 'discounts', 'modal', 'First order 10% discount welcome'),
  card('b', ['forms'], 'discounts', 'bar', 'Free shipping discount'),
  card('c', ['forms'], 'subscription', 'inline', 'Weekly newsletter subscribe'),
  card('d', ['messages'], 'sales', 'bar', 'Flash sale countdown'),
  card('e', ['halloween'], null, 'modal', 'Spooky 10% off discount halloween'),
  card('f', ['secret'], null, 'modal', 'Hidden café offer discount'),
  // Emails can sit in several groups at once.
  card('g', ['welcome', 'coupons'], null, null, 'Claim your coupon'),
]
const visibleGroups = new Set(['forms', 'messages', 'halloween', 'welcome', 'coupons'])
const ids = (items: Card[]) => items.map((item) => item.id)

describe('searchWords and searchMatcher', () => {
  it('splits into lowercase words without accents', () => {
    expect(searchWords('Café Olé! 10%-OFF')).toEqual(['cafe', 'ole', '10', 'off'])
  })

  it('needs every query word to begin a word of the text', () => {
    const matches = searchMatcher('disc welc')
    expect(matches('First order 10% discount welcome')).toBe(true)
    expect(matches('Free shipping discount')).toBe(false)
    expect(searchMatcher('iscount')('discount')).toBe(false)
    expect(searchMatcher('')('anything')).toBe(true)
    expect(searchMatcher('   ')('anything')).toBe(true)
  })
})

describe('queryTemplates', () => {
  it('lists every template of a visible group, in the given order, when no group is asked for', () => {
    const result = queryTemplates(CARDS, { offset: 0, limit: 50 }, { visibleGroups })
    expect(ids(result.items)).toEqual(['a', 'b', 'c', 'd', 'e', 'g'])
    expect(result.total).toBe(6)
  })

  it('lists a hidden group when it is asked for by its slug', () => {
    expect(ids(queryTemplates(CARDS, { group: 'secret', offset: 0, limit: 50 }, { visibleGroups }).items)).toEqual(['f'])
  })

  it('filters by group, sub and position together', () => {
    const result = queryTemplates(CARDS, { group: 'forms', sub: 'discounts', position: 'bar', offset: 0, limit: 50 }, { visibleGroups })
    expect(ids(result.items)).toEqual(['b'])
  })

  it('finds a template in any of its groups', () => {
    expect(ids(queryTemplates(CARDS, { group: 'coupons', offset: 0, limit: 50 }, { visibleGroups }).items)).toEqual(['g'])
    expect(ids(queryTemplates(CARDS, { group: 'welcome', offset: 0, limit: 50 }, { visibleGroups }).items)).toEqual(['g'])
  })

  it('counts each facet under the other filters, so a count is what choosing it would show', () => {
    const result = queryTemplates(CARDS, { group: 'forms', sub: 'discounts', position: 'modal', q: 'discount', offset: 0, limit: 50 }, { visibleGroups })
    expect(ids(result.items)).toEqual(['a'])
    // Groups: position and q apply, the group filter does not; hidden groups stay out.
    expect(result.facets.group).toEqual({ forms: 1, halloween: 1 })
    // Subs: within the group, with position and q.
    expect(result.facets.sub).toEqual({ discounts: 1 })
    // Positions: within group and sub, with q.
    expect(result.facets.position).toEqual({ modal: 1, bar: 1 })
  })

  it('searches and pages: total counts every match, items only the page', () => {
    const all = queryTemplates(CARDS, { q: 'discount', offset: 0, limit: 50 }, { visibleGroups })
    expect(ids(all.items)).toEqual(['a', 'b', 'e'])
    const page = queryTemplates(CARDS, { q: 'discount', offset: 1, limit: 1 }, { visibleGroups })
    expect(ids(page.items)).toEqual(['b'])
    expect(page.total).toBe(3)
    expect(queryTemplates(CARDS, { q: 'discount', offset: 10, limit: 5 }, { visibleGroups }).items).toEqual([])
  })

  it('answers an empty result with zero total and empty facets', () => {
    const result = queryTemplates(CARDS, { q: 'nothing-like-this', offset: 0, limit: 10 }, { visibleGroups })
    expect(result).toEqual({ items: [], total: 0, facets: { group: {}, sub: {}, position: {} } })
  })

  it('treats negative or fractional paging as whole numbers from zero', () => {
    const result = queryTemplates(CARDS, { offset: -5, limit: 2.9 }, { visibleGroups })
    expect(ids(result.items)).toEqual(['a', 'b'])
  })
})
