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

/**
 * The name the browser's own zone data gives `zone` (US/Eastern → America/New_York, say), or
 * undefined when it does not know the zone. Only reached for a zone missing from the list, so the
 * cost of a first date format (loading the browser's date data) is paid only then.
 */
function browserZoneName(zone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone
  } catch {
    return undefined
  }
}

/**
 * The zones a time-zone select offers, `current` among them once: where the list has the zone
 * under another name (a renamed zone from the table above, else any alias the browser's own zone
 * data resolves), that entry takes `current`'s name rather than showing the zone twice. A zone
 * the list lacks altogether comes first.
 */
export function zoneChoices(current: string, known: readonly string[], resolve: (zone: string) => string | undefined = browserZoneName): string[] {
  if (known.includes(current)) return [...known]
  const listed = [...sameZoneNames(current), resolve(current)].find((name) => name !== undefined && name !== current && known.includes(name))
  return listed ? known.map((zone) => (zone === listed ? current : zone)) : [current, ...known]
}

/** Every zone the browser knows by name; none where it cannot list them. */
export function knownZones(): string[] {
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
}
