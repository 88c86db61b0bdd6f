import fs from 'node:fs'
import path from 'node:path'
import { holidaysFileSchema, type HolidayDefinition } from '../../shared/holidays/schema.js'

/** Reads data/holidays.json once; every `days-after` rule must name a holiday of the same list. */
export function loadHolidayDefinitions(dataDir: string): HolidayDefinition[] {
  const definitions = holidaysFileSchema.parse(JSON.parse(fs.readFileSync(path.join(dataDir, 'holidays.json'), 'utf8')))
  const titles = new Set(definitions.map((definition) => definition.title))
  for (const { title, rule } of definitions) {
    if (rule.kind === 'days-after' && (!titles.has(rule.holiday) || rule.holiday === title)) {
      throw new Error(`holidays.json: "${title}" is relative to unknown holiday "${rule.holiday}"`)
    }
  }
  return definitions
}
