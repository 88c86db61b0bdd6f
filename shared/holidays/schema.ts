/**
 * data/holidays.json: campaign holidays and the rule that places each in a year. The server
 * parses it with this schema (server/holidays/api.ts); shared/holidays/holidays.ts computes the dates.
 */
import { z } from 'zod'

const month = z.number().int().min(1).max(12)

export const holidayRuleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fixed'), month, day: z.number().int().min(1).max(31) }),
  /** The nth weekday (0 = Sunday) of a month, e.g. the 4th Thursday of November. */
  z.object({ kind: z.literal('nth-weekday'), month, weekday: z.number().int().min(0).max(6), nth: z.number().int().min(1).max(4) }),
  z.object({ kind: z.literal('easter') }),
  /** A number of days after (or, when negative, before) another holiday of the same list. */
  z.object({ kind: z.literal('days-after'), holiday: z.string().min(1), days: z.number().int().min(-31).max(31) }),
])

export const holidayDefinitionSchema = z.object({ title: z.string().min(1), rule: holidayRuleSchema })
export const holidaysFileSchema = z.array(holidayDefinitionSchema).min(1)

export type HolidayRule = z.infer<typeof holidayRuleSchema>
export type HolidayDefinition = z.infer<typeof holidayDefinitionSchema>
