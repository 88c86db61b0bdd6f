/** The live timer sections of the countdown form: the type of timer, its own fields, and what it shows once the time is up. */
import { useEffect, useState } from 'react'
import { END_MESSAGE_MAX_LENGTH, END_MESSAGES, captionLanguage } from './captions.js'
import type { CountdownSettings } from './countdown.js'
import { EXPIRY_CHOICES, EXPIRY_NAMES, LIVE_TIMER_TYPE_NAMES, LIVE_TIMER_TYPES, type LiveTimerChoices, type LiveTimerType } from './live-timer.js'
import { controlProps, Field } from '../fields.js'
import { WeekdaysField } from './WeekdaysField.js'
import { messageFor } from '../GeneratorPage.js'
import type { GeneratorError } from '../giffer-client.js'
import { knownZones, zoneChoices } from './zones.js'

interface LiveTimerFieldsProps {
  choices: LiveTimerChoices
  settings: CountdownSettings
  error: GeneratorError | null
  onChange: (patch: Partial<LiveTimerChoices>) => void
}

export function TimerTypeField({ type: chosen, onChange }: { type: LiveTimerType; onChange: (type: LiveTimerType) => void }) {
  return (
    <fieldset className="field timer-types">
      <legend>Timer type</legend>
      {LIVE_TIMER_TYPES.map((type) => (
        <label key={type}>
          <input type="radio" name="timer" value={type} checked={chosen === type} onChange={() => onChange(type)} aria-describedby={`timer-type-${type}-hint`} />
          <span>
            {LIVE_TIMER_TYPE_NAMES[type].label}
            <span className="field-hint" id={`timer-type-${type}-hint`}>
              {LIVE_TIMER_TYPE_NAMES[type].hint}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  )
}

/** Time zones the browser knows, once it has hydrated (the server renders the visitor's one alone). */
function useTimeZones(current: string): string[] {
  const [zones, setZones] = useState<string[]>([current])
  useEffect(() => {
    setZones(zoneChoices(current, knownZones()))
  }, [current])
  return zones
}

function TimeZoneField({ choices, error, onChange }: Pick<LiveTimerFieldsProps, 'choices' | 'error' | 'onChange'>) {
  const zones = useTimeZones(choices.timeZone)
  const message = messageFor(error, 'tz')
  return (
    <Field id="live-tz" label="Time zone" message={message}>
      <select name="tz" value={choices.timeZone} onChange={(event) => onChange({ timeZone: event.target.value })} {...controlProps('live-tz', message)}>
        {zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone}
          </option>
        ))}
      </select>
    </Field>
  )
}

/** The fields of the chosen type that the countdown's own do not cover. */
export function TimerTypeFields({ choices, error, onChange }: Omit<LiveTimerFieldsProps, 'settings'>) {
  if (choices.type === 'per-recipient') {
    const from = messageFor(error, 'from')
    const to = messageFor(error, 'to')
    return (
      <div className="field-row">
        <Field id="live-from" label="Earliest date" message={from}>
          <input type="date" name="from" value={choices.from} onChange={(event) => onChange({ from: event.target.value })} required {...controlProps('live-from', from)} />
        </Field>
        <Field id="live-to" label="Latest date" message={to}>
          <input type="date" name="to" value={choices.to} onChange={(event) => onChange({ to: event.target.value })} required {...controlProps('live-to', to)} />
        </Field>
        <TimeZoneField choices={choices} error={error} onChange={onChange} />
      </div>
    )
  }
  if (choices.type === 'recurring') {
    const at = messageFor(error, 'at')
    const weekdays = messageFor(error, 'weekdays')
    const toggle = (day: number) => onChange({ weekdays: choices.weekdays.includes(day) ? choices.weekdays.filter((d) => d !== day) : [...choices.weekdays, day] })
    return (
      <>
        <div className="field-row">
          <Field id="live-at" label="Time of day" message={at}>
            <input type="time" name="at" value={choices.at} onChange={(event) => onChange({ at: event.target.value })} required {...controlProps('live-at', at)} />
          </Field>
          <TimeZoneField choices={choices} error={error} onChange={onChange} />
        </div>
        <WeekdaysField id="live-weekdays" days={choices.weekdays} message={weekdays} onToggle={toggle} />
      </>
    )
  }
  return null
}

/** What the timer shows once the time is up; a recurring timer never ends. */
export function ExpiryFields({ choices, settings, error, onChange }: LiveTimerFieldsProps) {
  if (choices.type === 'recurring') return null
  const message = messageFor(error, 'message', 'expired')
  return (
    <>
      <fieldset className="field radio-row">
        <legend>When the time is up</legend>
        {EXPIRY_CHOICES.map((expired) => (
          <label key={expired}>
            <input type="radio" name="expired" value={expired} checked={choices.expired === expired} onChange={() => onChange({ expired })} /> {EXPIRY_NAMES[expired]}
          </label>
        ))}
      </fieldset>
      {choices.expired === 'message' && (
        <Field id="live-message" label="Message" message={message}>
          <input
            type="text"
            name="message"
            maxLength={END_MESSAGE_MAX_LENGTH}
            value={choices.message}
            placeholder={END_MESSAGES[captionLanguage(settings)]}
            onChange={(event) => onChange({ message: event.target.value })}
            {...controlProps('live-message', message)}
          />
        </Field>
      )}
    </>
  )
}
