/**
 * The traffic-source cookies the site sets (server/tracking/middleware.ts) and reads back. A
 * cookie that does not parse, tampered with or from an older shape, counts as absent.
 */
import { z } from 'zod'

const text = z.string().max(400)

/** Where a visit came from. */
export const trafficSourceSchema = z.object({
  type: z.enum(['utm', 'organic', 'referral', 'typein']),
  source: text,
  medium: text,
  campaign: text,
  content: text,
  term: text,
})

export const visitSchema = z.object({
  /** Page the visit started on (path and query). */
  entry: text,
  /** Referrer of that first page, or empty. */
  referrer: text,
  /** ISO time the visit started. */
  at: text,
})

/** The traffic cookie (`TRAFFIC_COOKIE`, shared/tracking/tracking.ts). */
export const trafficStateSchema = z.object({
  /** Source and landing of the very first visit. */
  first: trafficSourceSchema,
  firstVisit: visitSchema,
  /** The last known source, and the landing of the current visit. */
  current: trafficSourceSchema,
  currentVisit: visitSchema,
  visits: z.number().int().min(1).max(1_000_000),
  /** Promo code shown to this visitor, fixed at the first visit. */
  promo: z.number().int(),
})

/** The session cookie (`SESSION_COOKIE`, shared/tracking/tracking.ts): page views of the current visit. */
export const sessionStateSchema = z.object({ pages: z.number().int().min(0).max(1_000_000) })

export type TrafficSource = z.infer<typeof trafficSourceSchema>
export type Visit = z.infer<typeof visitSchema>
export type TrafficState = z.infer<typeof trafficStateSchema>
export type SessionState = z.infer<typeof sessionStateSchema>
