/**
 * The live timer choices of the countdown generator: the kind of timer, what it shows once the
 * time is up, and the sending platform whose merge tag fills in each recipient's part of the URL.
 * Plain functions, used by the page, its server loader and the tests.
 */
import { countdownQuery, DELAY_CAPS, delaySeconds, liveTimerRequest, localIsoDate, type CountdownSettings, type DelayCaps } from './countdown.js'
import { EXPIRY_CHOICES, EXPIRY_NAMES, LIVE_TIMER_TYPES, WEEKDAYS, type ExpiryChoice, type LiveTimerType } from './timer-basics.js'

export { EXPIRY_CHOICES, EXPIRY_NAMES, LIVE_TIMER_TYPES, WEEKDAYS, type ExpiryChoice, type LiveTimerType }

export const LIVE_TIMER_TYPE_NAMES: Readonly<Record<LiveTimerType, { label: string; hint: string }>> = {
  fixed: { label: 'One date', hint: 'Everyone counts down to the same moment.' },
  'per-recipient': { label: 'A date from your list', hint: "Each subscriber's own date (a trial's end, a booking), from a field of your list." },
  evergreen: { label: "From each subscriber's first open", hint: 'Each subscriber gets the same time, counted from when they first open the email.' },
  recurring: { label: 'Every day or week at a time', hint: 'Counts to the next cut-off, such as 14:00 on weekdays, and starts again after it.' },
}

/** The longest time an evergreen timer gives each subscriber, in each unit: 90 days, the image service's limit. */
export const EVERGREEN_DELAY_CAPS: DelayCaps = { days: 90, hours: 2160, minutes: 129_600 }

/** The caps of the amount field for a type: an evergreen timer's are shorter. */
export function delayCapsFor(type: LiveTimerType): DelayCaps {
  return type === 'evergreen' ? EVERGREEN_DELAY_CAPS : DELAY_CAPS
}

export const PLATFORMS = ['mailchimp', 'klaviyo', 'hubspot', 'brevo', 'activecampaign', 'other'] as const
export type Platform = (typeof PLATFORMS)[number]
export const PLATFORM_NAMES: Readonly<Record<Platform, string>> = {
  mailchimp: 'Mailchimp',
  klaviyo: 'Klaviyo',
  hubspot: 'HubSpot',
  brevo: 'Brevo',
  activecampaign: 'ActiveCampaign',
  other: 'Other',
}

/**
 * What each platform writes in place of its merge tags when it sends. `r=`: a key that is the
 * same for one subscriber in every email (the platform's subscriber id, or the address). `until=`:
 * a field of the list holding each subscriber's date, under the name the user gave it (these tags
 * assume a field named "Deadline"). "Other" is a placeholder the user replaces.
 */
export const MERGE_TAGS: Readonly<Record<'evergreen' | 'per-recipient', Readonly<Record<Platform, string>>>> = {
  evergreen: {
    mailchimp: '*|UNIQID|*',
    klaviyo: '{{ person.id }}',
    hubspot: '{{ contact.hs_object_id }}',
    brevo: '{{ contact.EMAIL }}',
    activecampaign: '%SUBSCRIBERID%',
    other: 'RECIPIENT_ID',
  },
  'per-recipient': {
    mailchimp: '*|DEADLINE|*',
    klaviyo: "{{ person|lookup:'Deadline' }}",
    hubspot: '{{ contact.deadline }}',
    brevo: '{{ contact.DEADLINE }}',
    activecampaign: '%DEADLINE%',
    other: 'DEADLINE_DATE',
  },
}

/** The live timer choices beside the countdown's own settings. */
export interface LiveTimerChoices {
  type: LiveTimerType
  /** Per-recipient: the earliest and latest date accepted, `YYYY-MM-DD`. */
  from: string
  to: string
  /** Recurring: `HH:MM`, the days (Sunday 0); the zone of these and of the per-recipient dates. */
  at: string
  weekdays: number[]
  timeZone: string
  expired: ExpiryChoice
  message: string
}

/** How many days after today the latest accepted date of a per-recipient timer is, unless changed. */
const PER_RECIPIENT_DEFAULT_DAYS = 90

/**
 * The choices a page opens with: one date, showing zeros once over; a per-recipient range from
 * today (in the local calendar of `now`) for 90 days; 14:00 on weekdays; the visitor's zone.
 */
export function defaultLiveTimerChoices(now: Date, timeZone: string): LiveTimerChoices {
  const daysAhead = (days: number) => localIsoDate(new Date(now.getFullYear(), now.getMonth(), now.getDate() + days))
  return { type: 'fixed', from: daysAhead(0), to: daysAhead(PER_RECIPIENT_DEFAULT_DAYS), at: '14:00', weekdays: [1, 2, 3, 4, 5], timeZone, expired: 'zeros', message: '' }
}

/** Days of the week once each, in the image service's order (Sunday 0 first). */
const weekdayList = (days: readonly number[]) => [...new Set(days)].sort((a, b) => a - b)

/**
 * The choices as part of the page's query string: only what the chosen type uses and what differs
 * from the visitor's defaults. The zone is written whenever the type uses it: its default is each
 * visitor's own, so leaving it out would move a shared timer to the zone of whoever opens the
 * link. The server reads the same names back (server/generators/countdown/query.ts); the form's
 * fields carry them too.
 */
export function liveTimerQuery(choices: LiveTimerChoices, defaults: LiveTimerChoices): string {
  const query = new URLSearchParams()
  if (choices.type !== 'fixed') query.set('timer', choices.type)
  if (choices.type === 'per-recipient') {
    if (choices.from !== defaults.from) query.set('from', choices.from)
    if (choices.to !== defaults.to) query.set('to', choices.to)
  }
  if (choices.type === 'recurring') {
    if (choices.at !== defaults.at) query.set('at', choices.at)
    const weekdays = weekdayList(choices.weekdays).join(',')
    if (weekdays !== weekdayList(defaults.weekdays).join(',')) query.set('weekdays', weekdays)
  }
  if (usesVisitorDays(choices.type)) query.set('tz', choices.timeZone)
  if (choices.type !== 'recurring' && choices.expired !== defaults.expired) {
    query.set('expired', choices.expired)
    if (choices.expired === 'message' && choices.message) query.set('message', choices.message)
  }
  return query.toString()
}

/** The page's whole query string: the timer's type and choices first, then the countdown's look. */
export function countdownPageQuery(settings: CountdownSettings, choices: LiveTimerChoices, defaults: LiveTimerChoices): string {
  return [liveTimerQuery(choices, defaults), countdownQuery(settings)].filter(Boolean).join('&')
}

/** Whether a type shows and sends dates and a zone, which default to the visitor's own day and zone. */
export const usesVisitorDays = (type: LiveTimerType) => type === 'per-recipient' || type === 'recurring'

/**
 * The choices the server read from the link, with the visitor's own defaults for what the link
 * left out or got wrong: the server knows neither their calendar day nor their time zone.
 */
export function withVisitorDefaults(choices: LiveTimerChoices, query: URLSearchParams, defaults: LiveTimerChoices): LiveTimerChoices {
  // The server takes a value given twice by its last one, and falls back to its own default when
  // a value is unusable: a value the link holds was read from it.
  const fromLink = (name: string, value: string) => query.getAll(name).at(-1) === value
  return {
    ...choices,
    from: fromLink('from', choices.from) ? choices.from : defaults.from,
    to: fromLink('to', choices.to) ? choices.to : defaults.to,
    timeZone: fromLink('tz', choices.timeZone) ? choices.timeZone : defaults.timeZone,
  }
}

/** The expiry part of the request; a recurring timer never ends, so it has none. */
function expiryFields(choices: LiveTimerChoices) {
  if (choices.type === 'recurring') return {}
  if (choices.expired === 'message') return { expired: 'message' as const, message: choices.message.trim() }
  return { expired: choices.expired }
}

/**
 * The body of `POST /giffer/countdown/live-url` for the chosen type: the countdown's style, the
 * type's own fields, and the expiry. `timeZone` is the visitor's, for dates picked on the page.
 */
export function liveTimerBody(settings: CountdownSettings, choices: LiveTimerChoices, now: Date, timeZone: string) {
  const fixed = liveTimerRequest(settings, now, timeZone)
  const { until: _until, tz: _tz, ...style } = fixed as typeof fixed & { tz?: string }
  switch (choices.type) {
    case 'fixed':
      return { ...fixed, kind: 'fixed' as const, ...expiryFields(choices) }
    case 'evergreen':
      return { ...style, kind: 'evergreen' as const, for: delaySeconds(settings.amount, settings.unit, EVERGREEN_DELAY_CAPS), ...expiryFields(choices) }
    case 'per-recipient':
      return { ...style, kind: 'per-recipient' as const, from: `${choices.from}T00:00`, to: `${choices.to}T23:59`, tz: choices.timeZone, ...expiryFields(choices) }
    case 'recurring':
      return { ...style, kind: 'recurring' as const, at: choices.at, weekdays: weekdayList(choices.weekdays), tz: choices.timeZone }
  }
}

/** A minted URL with the platform's merge tag where each recipient's part goes (as typed: the platform replaces it before sending). */
export function withMergeTag(url: string, type: LiveTimerType, platform: Platform): string {
  return type === 'evergreen' || type === 'per-recipient' ? url + MERGE_TAGS[type][platform] : url
}

/**
 * The image the page shows as the preview of a live timer: an evergreen one as a test send sees
 * it (the full time), a per-recipient one for a subscriber whose date is the latest accepted.
 */
export function previewUrl(url: string, choices: LiveTimerChoices): string {
  return choices.type === 'per-recipient' ? url + encodeURIComponent(`${choices.to}T23:59`) : url
}

/** What a user must know about the chosen type, in a sentence or two each. */
export function liveTimerNotes(choices: LiveTimerChoices): string[] {
  switch (choices.type) {
    case 'fixed':
      return []
    case 'evergreen':
      return [
        'Apple Mail loads images when the email arrives, so for Apple Mail readers the timer starts at delivery, and a re-opened email may show the image as first loaded.',
        'Test sends usually leave the merge tag empty: all of them then share one timer that shows the full time.',
      ]
    case 'per-recipient':
      return [
        `The field must hold each subscriber's date: 2026-12-24T18:00:00+01:00, a date and time in ${choices.timeZone || 'your time zone'}, or a Unix time. A missing date, or one outside ${choices.from} to ${choices.to}, shows what you chose for when the time is up.`,
      ]
    case 'recurring':
      return [`It counts to ${choices.at} in ${choices.timeZone}, whatever the reader's own time zone, and starts again after each one.`]
  }
}
