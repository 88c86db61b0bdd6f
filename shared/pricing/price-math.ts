/** The price arithmetic shown on the pricing page and served by /api/prices; the shapes are in schemas/pricing.ts. */
import { groupDigits } from '../numbers.js'
import type { Currency, Plan, PlanFeatureRow, PlanPrice } from './schema.js'

export type Billing = 'monthly' | 'yearly'

export function planIncludes(plan: Plan, feature: PlanFeatureRow): boolean {
  return feature.requires === null || plan.features[feature.requires]
}

/** What 1000 emails cost before a plan's discount, in US dollars. */
export const EMAILS_BASE_PRICE_USD = 2
/** Email prices are quoted in this currency whatever the plan prices are shown in. */
export const EMAILS_PRICE_CURRENCY = 'USD'

export function formatAmount(amount: number, currency: Currency): string {
  const text = Number.isInteger(amount) ? groupDigits(amount) : amount.toFixed(2)
  return currency.format.replace('{amount}', text)
}

/** Price of 1000 emails on a plan: the base price reduced by the plan's EMAILS_DISCOUNT fraction. */
export function emailsPricePer1000(discount: number): number {
  return Math.round(EMAILS_BASE_PRICE_USD * (1 - discount) * 100) / 100
}

/** The discount as a whole percentage, e.g. 0.25 → 25. */
export function discountPercent(discount: number): number {
  return Math.round(discount * 100)
}

export function monthlyViewsLabel(views: number | null): string {
  return views === null ? 'Unlimited' : groupDigits(views)
}

/** The monthly price to show: the monthly price, or the per-month price when billed yearly. */
export function pricePerMonth(price: PlanPrice, billing: Billing): { amount: number; text: string } {
  return billing === 'yearly'
    ? { amount: price.price_yearly, text: price.price_yearly_format }
    : { amount: price.price, text: price.price_format }
}

/**
 * The crossed-out price beside the current one: the plan's old price when it has one, otherwise,
 * when billed yearly, the monthly price it is cheaper than.
 */
export function crossedOutPrice(price: PlanPrice, billing: Billing): string | null {
  if (price.price_old_format) return price.price_old_format
  return billing === 'yearly' && price.price_yearly < price.price ? price.price_format : null
}

/** Whole-percent saving of yearly billing against monthly, e.g. 9 → 7 is 22. */
export function yearlySavingPercent(price: PlanPrice): number {
  return price.price > 0 ? Math.round((1 - price.price_yearly / price.price) * 100) : 0
}
