import path from 'node:path'
import { holidaysFileSchema, type HolidayDefinition } from '../../shared/holidays/schema.js'
import { DataFileError, readDataFile } from '../data-file.js'

/** Reads holidays.json of the content folder once; every `days-after` rule must name a holiday of the same list. */
export function loadHolidayDefinitions(contentDir: string): HolidayDefinition[] {
  const definitions = readDataFile(path.join(contentDir, 'holidays.json'), holidaysFileSchema, DataFileError)
  const titles = new Set(definitions.map((definition) => definition.title))
  for (const { title, rule } of definitions) {
    if (rule.kind === 'days-after' && (!titles.has(rule.holiday) || rule.holiday === title)) {
      throw new DataFileError(`holidays.json: "${title}" is relative to unknown holiday "${rule.holiday}"`)
    }
  }
  return definitions
}
