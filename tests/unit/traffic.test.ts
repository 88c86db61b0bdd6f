import { describe, expect, it } from 'vitest'
import { classifyLanding, recordPageView, type PageView } from '../../server/tracking/traffic.js'

const SITE = 'poplift.example'
const landing = (url: string, referrer?: string) => classifyLanding(new URL(url, `https://${SITE}`), referrer, SITE)

describe('classifyLanding', () => {
  it('reads UTM tags first', () => {
    expect(landing('/?utm_source=newsletter&utm_medium=email&utm_campaign=bf&utm_content=hero&utm_term=popup', 'https://www.google.com/')).toEqual({
      type: 'utm',
      source: 'newsletter',
      medium: 'email',
      campaign: 'bf',
      content: 'hero',
      term: 'popup',
    })
  })

  it('counts an ad click id as paid search', () => {
    expect(landing('/?gclid=abc')).toMatchObject({ type: 'utm', source: 'google', medium: 'cpc' })
  })

  it('counts Google, Bing, Yahoo, AOL, Ask and other engines as organic search', () => {
    for (const [referrer, source] of [
      ['https://www.google.co.uk/', 'google'],
      ['https://www.bing.com/search?q=x', 'bing'],
      ['https://search.yahoo.com/', 'yahoo'],
      ['https://search.aol.com/', 'aol'],
      ['https://www.ask.com/', 'ask'],
      ['https://duckduckgo.com/', 'duckduckgo'],
      ['https://yandex.ru/', 'yandex'],
    ]) {
      expect(landing('/', referrer), referrer).toMatchObject({ type: 'organic', source, medium: 'organic' })
    }
  })

  it('counts other sites as referrals and the site itself as direct', () => {
    expect(landing('/', 'https://www.shopblog.example/post')).toMatchObject({ type: 'referral', source: 'shopblog.example', medium: 'referral' })
    expect(landing('/', `https://${SITE}/pricing/`)).toMatchObject({ type: 'typein', source: '(direct)', medium: '(none)' })
    expect(landing('/')).toMatchObject({ type: 'typein', source: '(direct)', medium: '(none)' })
    expect(landing('/', 'not a url')).toMatchObject({ type: 'typein' })
    expect(landing('/', 'javascript:alert(1)')).toMatchObject({ type: 'typein' })
  })

  it('keeps values short whatever the URL holds', () => {
    expect(landing(`/?utm_source=${'x'.repeat(5000)}`).source).toHaveLength(200)
  })
})

describe('recordPageView', () => {
  const view = (overrides: Partial<PageView>): PageView => ({
    url: new URL(`https://${SITE}/`),
    referrer: undefined,
    siteHost: SITE,
    now: new Date('2026-11-22T10:00:00Z'),
    traffic: null,
    session: null,
    random: () => 0.5,
    ...overrides,
  })

  it('starts the first visit with its source, entry point, referrer and a promo code in range', () => {
    const { traffic, session } = recordPageView(view({ url: new URL(`https://${SITE}/pricing/?utm_source=fb&utm_medium=social`), referrer: 'https://facebook.com/' }))
    expect(traffic.first).toMatchObject({ type: 'utm', source: 'fb', medium: 'social' })
    expect(traffic.firstVisit).toEqual({ entry: '/pricing/?utm_source=fb&utm_medium=social', referrer: 'https://facebook.com/', at: '2026-11-22T10:00:00.000Z' })
    expect(traffic.current).toEqual(traffic.first)
    expect(traffic.visits).toBe(1)
    expect(traffic.promo).toBe(550_000)
    expect(recordPageView(view({ random: () => 0 })).traffic.promo).toBe(100_000)
    expect(recordPageView(view({ random: () => 0.9999999 })).traffic.promo).toBe(999_999)
    expect(session).toEqual({ pages: 1 })
  })

  it('counts pages within a visit without touching the sources', () => {
    const first = recordPageView(view({ referrer: 'https://www.bing.com/' }))
    const second = recordPageView(view({ url: new URL(`https://${SITE}/blog/`), referrer: `https://${SITE}/`, traffic: first.traffic, session: first.session }))
    expect(second.session).toEqual({ pages: 2 })
    expect(second.traffic).toEqual(first.traffic)
  })

  it('starts a new visit when the session has ended, keeping the known source on a direct return', () => {
    const first = recordPageView(view({ referrer: 'https://www.bing.com/' }))
    const returning = recordPageView(view({ url: new URL(`https://${SITE}/faq/`), now: new Date('2026-11-25T10:00:00Z'), traffic: first.traffic, session: null }))
    expect(returning.traffic.visits).toBe(2)
    expect(returning.traffic.current).toMatchObject({ type: 'organic', source: 'bing' })
    expect(returning.traffic.currentVisit).toMatchObject({ entry: '/faq/', at: '2026-11-25T10:00:00.000Z' })
    expect(returning.traffic.firstVisit.entry).toBe('/')
    expect(returning.session).toEqual({ pages: 1 })
  })

  it('takes a new referral on a new visit, and UTM tags even mid-visit', () => {
    const first = recordPageView(view({}))
    const referred = recordPageView(view({ referrer: 'https://partner.example/', traffic: first.traffic, session: null }))
    expect(referred.traffic.current).toMatchObject({ type: 'referral', source: 'partner.example' })
    expect(referred.traffic.first).toMatchObject({ type: 'typein' })
    const tagged = recordPageView(view({ url: new URL(`https://${SITE}/?utm_source=mail`), traffic: referred.traffic, session: referred.session }))
    expect(tagged.traffic.current).toMatchObject({ type: 'utm', source: 'mail' })
    expect(tagged.traffic.visits).toBe(2)
  })
})
