import path from 'node:path'
import { DataFileError, readDataFile } from '../data-file.js'
import { EMAILS_PRICE_CURRENCY, formatAmount } from '../../shared/pricing/price-math.js'
import { plansFileSchema, type Currency, type Plan, type PlanFeatureRow, type PricesResponse } from '../../shared/pricing/schema.js'

export interface PriceList {
  features: PlanFeatureRow[]
  currencies: Currency[]
  currentCurrency: Currency
  /** The response for a currency code, or undefined when the code is not offered. */
  forCurrency(code?: string): PricesResponse | undefined
}

/** Reads plans.json of the content folder once and prepares the /api/prices response for every currency. */
export function loadPriceList(contentDir: string): PriceList {
  const data = readDataFile(path.join(contentDir, 'plans.json'), plansFileSchema, DataFileError)
  const currencyByCode = new Map(data.currencies.map((currency) => [currency.code, currency]))
  const currentCurrency = currencyByCode.get(data.currentCurrency)
  if (!currentCurrency) throw new DataFileError(`plans.json: currentCurrency ${data.currentCurrency} is not listed`)
  if (!currencyByCode.has(EMAILS_PRICE_CURRENCY)) throw new DataFileError(`plans.json: ${EMAILS_PRICE_CURRENCY}, the currency of email prices, is not listed`)

  const plans: Plan[] = data.plans.map((plan) => ({
    resource_uri: `/api/v1/plans/${plan.id}/`,
    id: plan.id,
    name: plan.name,
    full_name: plan.full_name,
    summary: plan.summary,
    features: plan.features,
    prices: Object.fromEntries(
      Object.entries(plan.prices).map(([code, price]) => {
        const currency = currencyByCode.get(code)
        if (!currency) throw new DataFileError(`plans.json: plan ${plan.id} is priced in unlisted currency ${code}`)
        return [
          code,
          {
            price: price.price,
            price_format: formatAmount(price.price, currency),
            price_old: price.price_old,
            price_old_format: price.price_old === null ? null : formatAmount(price.price_old, currency),
            price_yearly: price.price_yearly,
            price_yearly_format: formatAmount(price.price_yearly, currency),
          },
        ]
      }),
    ),
  }))
  const features: PlanFeatureRow[] = data.features
  const responses = new Map(
    data.currencies.map((currency) => [currency.code, { plans, currency, currencies: data.currencies, features }]),
  )
  return {
    features,
    currencies: data.currencies,
    currentCurrency,
    forCurrency: (code) => responses.get((code ?? currentCurrency.code).toUpperCase()),
  }
}
