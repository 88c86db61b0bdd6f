/**
 * data/plans.json: plans, their prices in every offered currency and the feature list. The server
 * parses it with this schema (server/pricing/api.ts); the types are what the pricing page and
 * /api/prices receive.
 *
 * zod stays out of the browser bundle: browser code may only `import type` from this module.
 */
import { z } from 'zod'

const amount = z.number().nonnegative()

export const currencySchema = z.object({
  code: z.string().regex(/^[A-Z]{3}$/),
  flag: z.string(),
  /** Display pattern with an `{amount}` slot, e.g. "${amount}" or "{amount} ₽". */
  format: z.string().includes('{amount}'),
})

export const planFeaturesSchema = z.object({
  SITES: z.number().int().positive(),
  /** Widget views a month; null means unlimited. */
  VIEWS: z.number().int().positive().nullable(),
  FEATURE_PRO: z.boolean(),
  FEATURE_STORE_INTEGRATION: z.boolean(),
  /** Fraction taken off the base price per 1000 emails, 0 to 1. */
  EMAILS_DISCOUNT: z.number().min(0).max(1),
})

/** A row of the feature comparison. */
export const planFeatureRowSchema = z.object({
  /** Also the in-page anchor of the feature on the pricing page. */
  id: z.string().regex(/^[a-z0-9-]+$/),
  name: z.string(),
  description: z.string(),
  /** Marked as a Pro feature. */
  pro: z.boolean(),
  /** The plan flag a plan needs to include the feature; null when every plan has it. */
  requires: z.enum(['FEATURE_PRO', 'FEATURE_STORE_INTEGRATION']).nullable(),
})

export const planFileSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1),
  full_name: z.string().min(1),
  summary: z.string(),
  /** By currency code; `price_yearly` is the per-month price when billed yearly. */
  prices: z.record(z.string(), z.object({ price: amount, price_yearly: amount, price_old: amount.nullable() })),
  features: planFeaturesSchema,
})

export const plansFileSchema = z.object({
  promoPrices: z.boolean(),
  /** Code of the currency shown when a visitor has not picked one. */
  currentCurrency: z.string(),
  currencies: z.array(currencySchema).min(1),
  plans: z.array(planFileSchema),
  features: z.array(planFeatureRowSchema),
})

export type Currency = z.infer<typeof currencySchema>
export type PlanFeatures = z.infer<typeof planFeaturesSchema>
export type PlanFeatureRow = z.infer<typeof planFeatureRowSchema>

/*
 * What the server builds from the file: every amount also formatted in its currency. Not read
 * from a file, so no schema of its own; the fields that come from the file keep its types.
 */

type FilePrice = z.infer<typeof planFileSchema>['prices'][string]

export type PlanPrice = FilePrice & {
  price_format: string
  price_old_format: string | null
  price_yearly_format: string
}

export type Plan = Omit<z.infer<typeof planFileSchema>, 'prices'> & {
  resource_uri: string
  prices: Record<string, PlanPrice>
}

/** The body of /api/prices, and the pricing page's prices. */
export interface PricesResponse {
  plans: Plan[]
  currency: Currency
  currencies: Currency[]
  features: PlanFeatureRow[]
}
