/**
 * The form of a saved timer's edit page: every field but the kind, sent as a change of only what
 * differs from the timer as loaded. The image service checks it as it checks a new timer, and
 * names the field at fault.
 */
import { useMemo, useState, type ReactNode } from 'react'
import { END_MESSAGE_MAX_LENGTH } from './captions.js'
import type { DelayUnit } from './countdown.js'
import { CAPTION_MAX_LENGTH, EXPIRY_CHOICES, EXPIRY_NAMES, LINK_MAX, SAVED_NAME_MAX } from './timer-basics.js'
import { WeekdaysField } from './WeekdaysField.js'
import { changedFields, draftOf, requestOf, savedTimerCall, type SavedTimerView, type TimerDraft } from './saved-timer-edit.js'
import { ColorField, controlProps, Field, useFocusOnError } from '../fields.js'
import { FontSelect, WeightSelect } from '../font-fields.js'
import { messageFor } from '../GeneratorPage.js'
import { asGeneratorError, type GeneratorError } from '../giffer-client.js'
import type { FontOptionGroup } from '../types.js'
import { knownZones, zoneChoices } from './zones.js'

interface FormProps {
  timer: SavedTimerView
  editKey: string
  fonts: FontOptionGroup[]
  browserZone: string
  onSaved: (timer: SavedTimerView) => void
}

type Change = (patch: Partial<TimerDraft>) => void

/** The inputs of the fields the service may name. */
const EDIT_FIELDS: Readonly<Record<string, string>> = {
  name: 'edit-name',
  until: 'edit-until',
  tz: 'edit-tz',
  for: 'edit-amount',
  from: 'edit-from',
  to: 'edit-to',
  at: 'edit-at',
  font: 'edit-font',
  font_weight: 'edit-weight',
  color: 'edit-color',
  background: 'edit-background',
  days: 'edit-days',
  hours: 'edit-hours',
  minutes: 'edit-minutes',
  seconds: 'edit-seconds',
  message: 'edit-message',
  link: 'edit-link',
  link_expired: 'edit-link-expired',
}

export function SavedTimerForm({ timer, editKey, fonts, browserZone, onSaved }: FormProps) {
  const [initial, setInitial] = useState(() => draftOf(timer, browserZone))
  const [draft, setDraft] = useState(initial)
  const [error, setError] = useState<GeneratorError | null>(null)
  const [status, setStatus] = useState('')
  const [saving, setSaving] = useState(false)
  const change: Change = (patch) => setDraft((current) => ({ ...current, ...patch }))
  useFocusOnError(error, EDIT_FIELDS)
  const font = fonts.flatMap((group) => group.fonts).find((candidate) => candidate.id === draft.font)

  const save = async () => {
    const body = changedFields(requestOf(initial, timer.kind), requestOf(draft, timer.kind))
    if (Object.keys(body).length === 0) return setStatus('Nothing has changed.')
    setSaving(true)
    setError(null)
    setStatus('')
    try {
      const { timer: saved } = await savedTimerCall<{ timer: SavedTimerView }>(`timers/${encodeURIComponent(timer.id)}`, editKey, { method: 'PATCH', body })
      onSaved(saved)
      setInitial(draft)
      setStatus('Changes saved. Every email shows them within a few seconds.')
    } catch (caught) {
      setError(asGeneratorError(caught))
    } finally {
      setSaving(false)
    }
  }
  const message = (...fields: string[]) => messageFor(error, ...fields)
  const general = error && !error.field ? error.message : null

  return (
    <form
      className="saved-timer-form"
      aria-label="Timer settings"
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <TextInput id="edit-name" name="name" label="Name" value={draft.name} maxLength={SAVED_NAME_MAX} message={message('name')} onChange={(name) => change({ name })} />
      <ScheduleFields kind={timer.kind} draft={draft} error={error} onChange={change} />
      <div className="field-row">
        <FontSelect id="edit-font" name="font" groups={fonts} value={draft.font} onChange={(id) => change({ font: id })} message={message('font')} text={`${draft.days} ${draft.hours} ${draft.minutes} ${draft.seconds} ${timer.kind !== 'recurring' && draft.expired === 'message' ? draft.message : ''}`} />
        <WeightSelect id="edit-weight" name="font_weight" weights={font?.weights ?? [draft.font_weight]} value={draft.font_weight} onChange={(weight) => change({ font_weight: weight })} message={message('font_weight')} />
      </div>
      <div className="field-row">
        <ColorField id="edit-color" name="color" label="Digits color" value={draft.color} onChange={(color) => change({ color })} message={message('color')} />
        <ColorField id="edit-background" name="background" label="Background" value={draft.background} onChange={(background) => change({ background })} message={message('background')} />
      </div>
      <div className="field-row">
        {(['days', 'hours', 'minutes', 'seconds'] as const).map((unit) => (
          <TextInput key={unit} id={`edit-${unit}`} name={unit} label={`Caption: ${unit}`} value={draft[unit]} maxLength={CAPTION_MAX_LENGTH} message={message(unit)} onChange={(text) => change({ [unit]: text })} />
        ))}
      </div>
      {timer.kind !== 'recurring' && <ExpiryChoice draft={draft} error={error} onChange={change} />}
      <TextInput id="edit-link" name="link" label="Link under the timer" type="url" value={draft.link} maxLength={LINK_MAX} message={message('link')} onChange={(link) => change({ link })} />
      <TextInput id="edit-link-expired" name="link_expired" label="Link once the time is up" type="url" value={draft.link_expired} maxLength={LINK_MAX} message={message('link_expired')} onChange={(link) => change({ link_expired: link })} />
      {general && (
        <p className="field-message" role="alert">
          {general}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={saving} aria-busy={saving || undefined}>
        {saving ? 'Saving…' : 'Save changes'}
      </button>
      <p className="form-status" role="status">
        {status}
      </p>
    </form>
  )
}

function TextInput(props: { id: string; name: string; label: string; value: string; maxLength: number; message: string | null; type?: string; onChange: (value: string) => void }) {
  return (
    <Field id={props.id} label={props.label} message={props.message}>
      <input type={props.type ?? 'text'} name={props.name} maxLength={props.maxLength} value={props.value} onChange={(event) => props.onChange(event.target.value)} {...controlProps(props.id, props.message)} />
    </Field>
  )
}

function ZoneSelect({ draft, message, onChange }: { draft: TimerDraft; message: string | null; onChange: Change }) {
  // The browser's few hundred zones, listed again only when the chosen one changes.
  const zones = useMemo(() => zoneChoices(draft.tz, knownZones()), [draft.tz])
  return (
    <Field id="edit-tz" label="Time zone" message={message}>
      <select name="tz" value={draft.tz} onChange={(event) => onChange({ tz: event.target.value })} {...controlProps('edit-tz', message)}>
        {zones.map((zone) => (
          <option key={zone}>{zone}</option>
        ))}
      </select>
    </Field>
  )
}

function ScheduleFields({ kind, draft, error, onChange }: { kind: SavedTimerView['kind']; draft: TimerDraft; error: GeneratorError | null; onChange: Change }): ReactNode {
  const message = (...fields: string[]) => messageFor(error, ...fields)
  const zone = <ZoneSelect draft={draft} message={message('tz')} onChange={onChange} />
  if (kind === 'fixed') {
    return (
      <div className="field-row">
        <Field id="edit-until" label="Ends at" message={message('until')}>
          <input type="datetime-local" name="until" required value={draft.until} onChange={(event) => onChange({ until: event.target.value })} {...controlProps('edit-until', message('until'))} />
        </Field>
        {zone}
      </div>
    )
  }
  if (kind === 'evergreen') {
    return (
      <div className="field-row">
        <Field id="edit-amount" label="Time each subscriber gets" message={message('for')}>
          <input type="number" name="amount" min={1} required value={draft.amount} onChange={(event) => onChange({ amount: Number(event.target.value) })} {...controlProps('edit-amount', message('for'))} />
        </Field>
        <Field id="edit-unit" label="Unit">
          <select name="unit" value={draft.unit} onChange={(event) => onChange({ unit: event.target.value as DelayUnit })} id="edit-unit">
            <option value="days">days</option>
            <option value="hours">hours</option>
            <option value="minutes">minutes</option>
          </select>
        </Field>
      </div>
    )
  }
  if (kind === 'per-recipient') {
    return (
      <div className="field-row">
        <Field id="edit-from" label="Earliest date" message={message('from')}>
          <input type="date" name="from" required value={draft.from} onChange={(event) => onChange({ from: event.target.value })} {...controlProps('edit-from', message('from'))} />
        </Field>
        <Field id="edit-to" label="Latest date" message={message('to')}>
          <input type="date" name="to" required value={draft.to} onChange={(event) => onChange({ to: event.target.value })} {...controlProps('edit-to', message('to'))} />
        </Field>
        {zone}
      </div>
    )
  }
  return <RecurringFields draft={draft} error={error} onChange={onChange} zone={zone} />
}

function RecurringFields({ draft, error, onChange, zone }: { draft: TimerDraft; error: GeneratorError | null; onChange: Change; zone: ReactNode }) {
  const toggle = (day: number) => onChange({ weekdays: draft.weekdays.includes(day) ? draft.weekdays.filter((d) => d !== day) : [...draft.weekdays, day] })
  const weekdays = messageFor(error, 'weekdays')
  return (
    <>
      <div className="field-row">
        <Field id="edit-at" label="Time of day" message={messageFor(error, 'at')}>
          <input type="time" name="at" required value={draft.at} onChange={(event) => onChange({ at: event.target.value })} {...controlProps('edit-at', messageFor(error, 'at'))} />
        </Field>
        {zone}
      </div>
      <WeekdaysField id="edit-weekdays" days={draft.weekdays} message={weekdays} onToggle={toggle} />
    </>
  )
}

function ExpiryChoice({ draft, error, onChange }: { draft: TimerDraft; error: GeneratorError | null; onChange: Change }) {
  const message = messageFor(error, 'message', 'expired')
  return (
    <>
      <fieldset className="field radio-row">
        <legend>When the time is up</legend>
        {EXPIRY_CHOICES.map((expired) => (
          <label key={expired}>
            <input type="radio" name="expired" value={expired} checked={draft.expired === expired} onChange={() => onChange({ expired })} /> {EXPIRY_NAMES[expired]}
          </label>
        ))}
      </fieldset>
      {draft.expired === 'message' && <TextInput id="edit-message" name="message" label="Message" value={draft.message} maxLength={END_MESSAGE_MAX_LENGTH} message={message} onChange={(text) => onChange({ message: text })} />}
    </>
  )
}
