import { describe, expect, it } from 'vitest'
import { loadPriceList } from '../../server/pricing/api.js'
import { contentDir } from '../../server/project-root.js'
import {
  crossedOutPrice,
  discountPercent,
  emailsPricePer1000,
  formatAmount,
  monthlyViewsLabel,
  planIncludes,
  pricePerMonth,
  yearlySavingPercent,
} from '../../shared/pricing/price-math.js'

const priceList = loadPriceList(contentDir)
const usd = priceList.forCurrency('USD')!
const rub = priceList.forCurrency('RUB')!
const plan = (name: string) => usd.plans.find((candidate) => candidate.name === name)!

describe('price per 1000 emails', () => {
  it('is 2 dollars reduced by the plan discount', () => {
    expect(emailsPricePer1000(0)).toBe(2)
    expect(emailsPricePer1000(0.25)).toBe(1.5)
    expect(emailsPricePer1000(0.5)).toBe(1)
    expect(emailsPricePer1000(1)).toBe(0)
    expect(emailsPricePer1000(0.333)).toBe(1.33)
  })

  it('shows the discount as a whole percentage', () => {
    expect(discountPercent(0.25)).toBe(25)
    expect(discountPercent(0.5)).toBe(50)
    expect(discountPercent(0.125)).toBe(13)
  })
})

describe('plans', () => {
  it('carries the spec numbers in USD', () => {
    expect(usd.plans.map((p) => [p.id, p.name, p.prices.USD?.price, p.prices.USD?.price_yearly, p.prices.USD?.price_old])).toEqual([
      [4, 'Creator', 9, 7, 19],
      [5, 'Pro', 19, 14, null],
      [6, 'Pro Max', 19, 14, null],
    ])
    expect(usd.plans.map((p) => p.features.VIEWS)).toEqual([20000, 100000, null])
    expect(usd.plans.map((p) => p.features.FEATURE_PRO)).toEqual([false, true, true])
    expect(usd.plans.map((p) => p.features.FEATURE_STORE_INTEGRATION)).toEqual([false, true, true])
    expect(usd.plans.map((p) => p.features.SITES)).toEqual([1, 1, 1])
  })

  it('carries the spec numbers in RUB, formatted with the ruble sign', () => {
    expect(rub.plans.map((p) => [p.prices.RUB?.price_format, p.prices.RUB?.price_yearly_format, p.prices.RUB?.price_old_format])).toEqual([
      ['490 ₽', '390 ₽', '990 ₽'],
      ['790 ₽', '690 ₽', '1,390 ₽'],
      ['790 ₽', '690 ₽', '1,390 ₽'],
    ])
  })

  it('makes RUB the current currency and offers USD', () => {
    expect(priceList.forCurrency()?.currency.code).toBe('RUB')
    expect(priceList.currencies.map((currency) => currency.code)).toEqual(['RUB', 'USD'])
    expect(priceList.forCurrency('usd')?.currency.code).toBe('USD')
    expect(priceList.forCurrency('EUR')).toBeUndefined()
  })

  it('labels unlimited views', () => {
    expect(monthlyViewsLabel(null)).toBe('Unlimited')
    expect(monthlyViewsLabel(20000)).toBe('20,000')
  })

  it('includes branding removal only on pro plans, and store integration where the plan has it', () => {
    const branding = usd.features.find((feature) => feature.id === 'branding-removal')!
    const store = usd.features.find((feature) => feature.id === 'store-integration')!
    expect(usd.plans.map((p) => planIncludes(p, branding))).toEqual([false, true, true])
    expect(usd.plans.map((p) => planIncludes(p, store))).toEqual([false, true, true])
  })

  it('marks Widgets, Email marketing and Branding removal as pro', () => {
    expect(usd.features.filter((feature) => feature.pro).map((feature) => feature.name)).toEqual(['Widgets', 'Email marketing', 'Branding removal'])
  })
})

describe('price display', () => {
  const creator = plan('Creator').prices.USD!
  const pro = plan('Pro').prices.USD!

  it('shows the monthly or the per-month yearly price', () => {
    expect(pricePerMonth(creator, 'monthly').text).toBe('$9')
    expect(pricePerMonth(creator, 'yearly').text).toBe('$7')
  })

  it('crosses out the old price, or the monthly price when billed yearly', () => {
    expect(crossedOutPrice(creator, 'monthly')).toBe('$19')
    expect(crossedOutPrice(pro, 'monthly')).toBeNull()
    expect(crossedOutPrice(pro, 'yearly')).toBe('$19')
  })

  it('computes the yearly saving', () => {
    expect(yearlySavingPercent(creator)).toBe(22)
    expect(yearlySavingPercent(pro)).toBe(26)
  })

  it('formats amounts with the currency pattern', () => {
    expect(formatAmount(1.5, { code: 'USD', flag: '', format: '${amount}' })).toBe('$1.50')
    expect(formatAmount(1390, { code: 'RUB', flag: '', format: '{amount} ₽' })).toBe('1,390 ₽')
  })
})
