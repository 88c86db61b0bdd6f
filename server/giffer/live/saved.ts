/**
 * Saved timers: a live timer kept by id rather than signed into its URL, so that it can be changed
 * after the email is sent (a sale extended, a time zone corrected, colours matched to the final
 * design) while the URL in the email stays. Whoever holds the edit key, handed out once when the
 * timer is saved, can read, change and delete it, and read its counts.
 *
 * A saved timer is the same timer as a signed one: the same parameters (its look, its kind and
 * schedule, its expiry), checked by the same rules when saved and read by the same reading when
 * drawn. It adds a name, the targets of its `go` link, and two things of its own:
 * - a salt, random per timer, with which its evergreen recipients' keys are hashed (a signed
 *   timer uses its signing key, which a saved timer must outlive);
 * - for an evergreen timer, the time it was saved with: first opens are stored with that time,
 *   and a change of the time moves every recipient's deadline by the difference, the ones who
 *   have opened already included.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { HttpError, badRequest } from '../../process/errors.js'
import { parseRequest } from '../../process/validation.js'
import { liveParams, liveUrlSchema, openParameterOf, readLiveDefinition, type LiveTimer } from './timer.js'
import type { SavedTimerRecord } from './saved-store.js'

/** A saved timer's id: random, never a count. 12 bytes, written as 16 characters of base64url. */
const ID_BYTES = 12
export const SAVED_ID = /^[A-Za-z0-9_-]{10,24}$/
/** The edit key: 24 random bytes (192 bits), written as 32 characters of base64url. */
const EDIT_KEY_BYTES = 24
export const SAVED_NAME_MAX = 100
export const LINK_MAX = 2_000
/** The longest definition kept, as JSON: far above what the checked fields can add up to. */
export const DEFINITION_MAX_BYTES = 8_192

/** A target of the `go` link: an absolute http(s) URL without credentials, set only by the timer's owner. */
const link = z
  .string({ error: 'must be an absolute http(s) URL' })
  .trim()
  .max(LINK_MAX, `must be at most ${LINK_MAX} characters`)
  .refine((value) => {
    try {
      const url = new URL(value)
      return (url.protocol === 'https:' || url.protocol === 'http:') && Boolean(url.hostname) && !url.username && !url.password && /^https?:\/\//i.test(value)
    } catch {
      return false
    }
  }, 'must be an absolute http(s) URL, like https://shop.example/sale')
  // Kept as the URL parser reads it, which is where a browser goes: `https://a.example\\@b.example`
  // is kept as `https://a.example/@b.example`, never as text another reader could take elsewhere.
  .transform((value) => new URL(value).href)

/** `POST countdown/timers`: what `countdown/live-url` takes, plus a name and the `go` link's targets. */
export const savedTimerSchema = liveUrlSchema.extend({
  name: z.string({ error: 'must be text' }).trim().max(SAVED_NAME_MAX, `must be at most ${SAVED_NAME_MAX} characters`).optional(),
  link: link.optional(),
  link_expired: link.optional(),
})
export type SavedTimerInput = z.output<typeof savedTimerSchema>

/** The fields of a timer's schedule: a change that names none of them keeps the schedule as it is. */
const SCHEDULE_FIELDS = ['kind', 'until', 'tz', 'for', 'from', 'to', 'at', 'weekdays'] as const
/** The schedule's fields and the kinds that have them; a change naming another kind's field is refused. */
const KIND_FIELDS: Readonly<Record<string, readonly string[]>> = {
  until: ['fixed'],
  for: ['evergreen'],
  from: ['per-recipient'],
  to: ['per-recipient'],
  tz: ['fixed', 'per-recipient', 'recurring'],
  at: ['recurring'],
  weekdays: ['recurring'],
  expired: ['fixed', 'evergreen', 'per-recipient'],
  message: ['fixed', 'evergreen', 'per-recipient'],
}
/** Fields the API shows of a timer that no change sets. */
const READ_ONLY = new Set(['id', 'version', 'created_at', 'updated_at', 'url', 'png_url', 'link_url'])
/** Fields a change may clear with `null`. */
const CLEARABLE = ['name', 'link', 'link_expired', 'message'] as const

/** What is kept of a saved timer, as JSON in the store. */
export interface SavedDefinition {
  /** The timer's parameters, as a signed URL would carry them. */
  params: Record<string, string>
  name?: string
  link?: string
  link_expired?: string
  /** An evergreen timer's time (seconds) when it was saved: its first opens are stored with it. */
  base?: number
  /** Hashes its recipients' keys. */
  salt: string
}

export const newSavedId = () => randomBytes(ID_BYTES).toString('base64url')
export const newEditKey = () => randomBytes(EDIT_KEY_BYTES).toString('base64url')

/** The edit key as kept: its SHA-256. The key is random and long, so a slow hash adds nothing. */
export const editKeyHash = (key: string) => createHash('sha256').update(`saved timer edit key\n${key}`).digest('base64url')

/** Whether `key` is the timer's edit key, compared in constant time. */
export function isEditKey(key: string, record: SavedTimerRecord): boolean {
  const given = Buffer.from(editKeyHash(key))
  const kept = Buffer.from(record.keyHash)
  return given.length === kept.length && timingSafeEqual(given, kept)
}

/** The definition of a new timer, checked as a signed one is when minted. */
export function newDefinition(input: SavedTimerInput, nowMs: number): SavedDefinition {
  return withinBounds({
    params: liveParams(input, nowMs),
    ...links(input),
    ...(input.kind === 'evergreen' ? { base: input.for } : {}),
    salt: randomBytes(16).toString('base64url'),
  })
}

function links(input: Pick<SavedTimerInput, 'name' | 'link' | 'link_expired'>): Pick<SavedDefinition, 'name' | 'link' | 'link_expired'> {
  return {
    ...(input.name ? { name: input.name } : {}),
    ...(input.link ? { link: input.link } : {}),
    ...(input.link_expired ? { link_expired: input.link_expired } : {}),
  }
}

function withinBounds(definition: SavedDefinition): SavedDefinition {
  if (Buffer.byteLength(JSON.stringify(definition)) > DEFINITION_MAX_BYTES) throw new HttpError(413, 'too_large', `The timer's definition is over ${DEFINITION_MAX_BYTES} bytes.`, 'body')
  return definition
}

/** The timer's fields as `countdown/timers` takes them: what a change starts from. */
function inputOf(definition: SavedDefinition): Record<string, unknown> {
  const { params } = definition
  const { weekdays, ...rest } = params
  return {
    ...rest,
    kind: params.kind ?? 'fixed',
    color: `#${params.color}`,
    background: `#${params.background}`,
    ...(weekdays ? { weekdays: weekdays.split(',').map(Number) } : {}),
    ...Object.fromEntries(['font_weight', 'duration', 'scale', 'for'].filter((name) => params[name] !== undefined).map((name) => [name, Number(params[name])])),
    ...links(definition),
  }
}

/**
 * The definition after a change (`PATCH`): the fields given replace the kept ones and the whole is
 * checked again, as when saved. The kind never changes. A change that names no field of the
 * schedule keeps the schedule as it is, even one whose date has passed, so a finished timer's
 * colours can still be changed; one that does name the schedule is checked against the clock.
 */
export function changedDefinition(definition: SavedDefinition, body: unknown, nowMs: number): SavedDefinition {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('body', 'must be a JSON object of the fields to change')
  const change = body as Record<string, unknown>
  const before = inputOf(definition)
  if (Object.hasOwn(change, 'kind') && change.kind !== before.kind) throw new HttpError(400, 'kind_fixed', `kind: a saved timer stays ${String(before.kind)}; save a new timer for another kind.`, 'kind')
  for (const name of Object.keys(change)) {
    // What the API shows of a timer may come back whole: its read-only fields are left as they are.
    if (READ_ONLY.has(name)) continue
    if (!Object.hasOwn(savedTimerSchema.shape, name)) throw badRequest(name, 'is not a field of a saved timer')
    const owner = KIND_FIELDS[name]
    const shownAnyway = name === 'expired' && change[name] === 'zeros'
    if (owner && !owner.includes(String(before.kind)) && !shownAnyway) throw badRequest(name, `does not apply to a ${String(before.kind)} timer`)
  }
  const merged: Record<string, unknown> = { ...before, ...change }
  for (const name of CLEARABLE) if (change[name] === null) delete merged[name]
  const input = parseRequest(savedTimerSchema, merged)
  const schedule = SCHEDULE_FIELDS.some((name) => name !== 'kind' && name in change)
  // A message given without `expired` asks for the message to be shown.
  if ('message' in change && change.message !== null && !('expired' in change)) input.expired = 'message'
  const params = { ...liveParams(input, nowMs, { schedule }) }
  if (!schedule) for (const name of SCHEDULE_FIELDS) if (definition.params[name] !== undefined) params[name] = definition.params[name]!
  return withinBounds({ params, ...links(input), ...(definition.base !== undefined ? { base: definition.base } : {}), salt: definition.salt })
}

/** A saved timer as the API shows it: its fields as `countdown/timers` takes them, its id and version. */
export function timerView(record: SavedTimerRecord, definition: SavedDefinition): Record<string, unknown> {
  const { font, font_weight, color, background, days, hours, minutes, seconds, duration, scale, expired, message, ...schedule } = inputOf(definition)
  return {
    id: record.id,
    version: record.version,
    ...schedule,
    expired: expired ?? 'zeros',
    ...(message !== undefined ? { message } : {}),
    font,
    font_weight,
    color,
    background,
    days,
    hours,
    minutes,
    seconds,
    duration,
    scale,
    created_at: new Date(record.createdAt).toISOString(),
    updated_at: new Date(record.updatedAt).toISOString(),
  }
}

/** A kept definition, read back; null for one this release cannot read (it then draws the expiry image). */
export function readDefinition(text: string): SavedDefinition | null {
  try {
    const parsed = JSON.parse(text) as SavedDefinition
    return parsed && typeof parsed === 'object' && parsed.params && typeof parsed.salt === 'string' ? parsed : null
  } catch {
    return null
  }
}

/**
 * The live timer a saved definition describes, for a request with `open` as the recipient's part
 * (`r=` or `until=`). Its first opens are kept under a name of its own (`saved.` and its id: a
 * dot is in no signed timer's name), apart from every signed timer's.
 */
export function savedLiveTimer(id: string, definition: SavedDefinition, open: string): LiveTimer {
  const { style, schedule, expiry } = readLiveDefinition(definition.params)
  const evergreen = schedule.kind === 'evergreen' && definition.base !== undefined
  return {
    style,
    schedule: evergreen ? { kind: 'evergreen', seconds: definition.base! } : schedule,
    expiry,
    id: `saved.${id}`,
    secret: definition.salt,
    open: openParameterOf(definition.params.kind ?? 'fixed') ? open : '',
    changeable: true,
    ...(evergreen && schedule.kind === 'evergreen' ? { shiftMs: (schedule.seconds - definition.base!) * 1000 } : {}),
  }
}

/** Whether two definitions are the same timer: a change that changes nothing is not a new version. */
export function sameDefinition(a: SavedDefinition, b: SavedDefinition): boolean {
  const canonical = ({ params, ...rest }: SavedDefinition) => JSON.stringify([Object.entries(params).sort(([x], [y]) => (x < y ? -1 : 1)), Object.entries(rest).sort(([x], [y]) => (x < y ? -1 : 1))])
  return canonical(a) === canonical(b)
}
