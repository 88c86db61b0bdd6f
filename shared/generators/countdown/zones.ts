/**
 * The time-zone selects of the countdown timers (a live timer's fields, a saved timer's form):
 * which zones they offer. Apart from shared/dates.ts, which every page's code loads, so that
 * only the pages with such a select carry the table of renamed zones.
 */

/**
 * Zones IANA has renamed, each old name with its new one. Temporal names a zone by its current
 * name where a browser's list of zones may still have the old one, and the other way round.
 */
const RENAMED_ZONES: readonly (readonly [string, string])[] = [
  ['Asia/Calcutta', 'Asia/Kolkata'],
  ['Asia/Katmandu', 'Asia/Kathmandu'],
  ['Asia/Rangoon', 'Asia/Yangon'],
  ['Asia/Saigon', 'Asia/Ho_Chi_Minh'],
  ['Europe/Kiev', 'Europe/Kyiv'],
  ['America/Godthab', 'America/Nuuk'],
  ['Pacific/Enderbury', 'Pacific/Kanton'],
  ['Atlantic/Faeroe', 'Atlantic/Faroe'],
  ['Europe/Uzhgorod', 'Europe/Kyiv'],
  ['Europe/Zaporozhye', 'Europe/Kyiv'],
  ['America/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
  ['America/Catamarca', 'America/Argentina/Catamarca'],
  ['America/Cordoba', 'America/Argentina/Cordoba'],
  ['America/Jujuy', 'America/Argentina/Jujuy'],
  ['America/Mendoza', 'America/Argentina/Mendoza'],
  ['America/Indianapolis', 'America/Indiana/Indianapolis'],
  ['America/Louisville', 'America/Kentucky/Louisville'],
  ['America/Coral_Harbour', 'America/Atikokan'],
  ['Africa/Asmera', 'Africa/Asmara'],
  ['Pacific/Truk', 'Pacific/Chuuk'],
  ['Pacific/Ponape', 'Pacific/Pohnpei'],
]

/** The other names of the same zone. */
const sameZoneNames = (zone: string): string[] => RENAMED_ZONES.flatMap(([old, current]) => (zone === old ? [current] : zone === current ? [old] : []))

/** What the page uses of Temporal, where the browser has it. */
interface TemporalZones {
  Now: { instant(): { toZonedDateTimeISO(zone: string): { equals(other: unknown): boolean } } }
}

/**
 * The entry of `known` that names the same zone as `zone` under another name (US/Eastern and
 * America/New_York, say), from the browser's own zone data: the name its date format gives the
 * zone, or, in a browser that gives a zone's name as written, the entry Temporal holds equal to
 * it. Undefined when the browser knows no such entry. Only reached for a zone missing from the
 * list, so its cost (loading the browser's date data, a look through the list) is paid only then.
 */
function sameZoneIn(zone: string, known: readonly string[]): string | undefined {
  try {
    const named = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone
    if (named !== zone && known.includes(named)) return named
    const temporal = (globalThis as { Temporal?: TemporalZones }).Temporal
    if (!temporal) return undefined
    const now = temporal.Now.instant()
    const here = now.toZonedDateTimeISO(zone)
    return known.find((other) => here.equals(now.toZonedDateTimeISO(other)))
  } catch {
    return undefined
  }
}

/**
 * The zones a time-zone select offers, `current` among them once: where the list has the zone
 * under another name (a renamed zone from the table above, else any alias the browser's own zone
 * data knows), that entry takes `current`'s name rather than showing the zone twice. A zone the
 * list lacks altogether comes first.
 */
export function zoneChoices(current: string, known: readonly string[], sameZone: (zone: string, known: readonly string[]) => string | undefined = sameZoneIn): string[] {
  if (known.includes(current)) return [...known]
  const listed = sameZoneNames(current).find((name) => known.includes(name)) ?? sameZone(current, known)
  return listed ? known.map((zone) => (zone === listed ? current : zone)) : [current, ...known]
}

/** Every zone the browser knows by name; none where it cannot list them. */
export function knownZones(): string[] {
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
}
