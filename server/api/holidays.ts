import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import type { HolidayDefinition } from '../../shared/holidays.js'

const month = z.number().int().min(1).max(12)
const ruleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fixed'), month, day: z.number().int().min(1).max(31) }),
  z.object({ kind: z.literal('nth-weekday'), month, weekday: z.number().int().min(0).max(6), nth: z.number().int().min(1).max(4) }),
  z.object({ kind: z.literal('easter') }),
  z.object({ kind: z.literal('days-after'), holiday: z.string().min(1), days: z.number().int().min(-31).max(31) }),
])
const holidaysFile = z.array(z.object({ title: z.string().min(1), rule: ruleSchema })).min(1)

/** Reads data/holidays.json once; every `days-after` rule must name a holiday of the same list. */
export function loadHolidayDefinitions(dataDir: string): HolidayDefinition[] {
  const definitions = holidaysFile.parse(JSON.parse(fs.readFileSync(path.join(dataDir, 'holidays.json'), 'utf8')))
  const titles = new Set(definitions.map((definition) => definition.title))
  for (const { title, rule } of definitions) {
    if (rule.kind === 'days-after' && (!titles.has(rule.holiday) || rule.holiday === title)) {
      throw new Error(`holidays.json: "${title}" is relative to unknown holiday "${rule.holiday}"`)
    }
  }
  return definitions
}
