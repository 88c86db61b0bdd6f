/** Sections of the countdown generator's form: the holidays to pick, the time left, the captions. */
import { amountOnBlur, amountWhileTyping, CAPTION_MAX_LENGTH, DELAY_UNITS, isBlockedAmountKey, type CountdownSettings, type DelayCaps, type QuickPick } from './countdown.js'
import { COUNTDOWN_CAPTION_PRESETS, type CountdownCaptionLanguage } from './captions.js'
import { formatCalendarDate } from '../../dates.js'
import { controlProps, Field } from '../fields.js'
import { messageFor } from '../GeneratorPage.js'
import type { GeneratorError } from '../giffer-client.js'

const CAPTIONS = [
  ['days', 'Days caption'],
  ['hours', 'Hours caption'],
  ['minutes', 'Minutes caption'],
  ['seconds', 'Seconds caption'],
] as const

const CAPTION_LANGUAGES: [CountdownCaptionLanguage, string][] = [
  ['en', 'English captions'],
  ['ru', 'Русские подписи'],
]

const UNIT_NAMES = { days: 'Days', hours: 'Hours', minutes: 'Minutes' } as const

export function HolidayPicks({ picks, date, onPick }: { picks: QuickPick[]; date: string | null; onPick: (holiday: QuickPick) => void }) {
  if (!picks.length) return null
  return (
    <fieldset className="quick-picks">
      <legend>Count down to a holiday</legend>
      <ul>
        {picks.map((holiday) => (
          <li key={holiday.value + holiday.title}>
            <button type="button" className="chip" aria-pressed={date === holiday.value} onClick={() => onPick(holiday)}>
              {holiday.title} <span className="chip-note">{formatCalendarDate(holiday.value)}</span>
            </button>
          </li>
        ))}
      </ul>
    </fieldset>
  )
}

interface DelayFieldsProps {
  settings: CountdownSettings
  /** The amount as typed, which may be empty or out of range until the field is left. */
  amountText: string
  /** The longest amount in each unit, for the chosen type of timer. */
  caps: DelayCaps
  onAmountText: (text: string) => void
  onChange: (patch: Partial<CountdownSettings>) => void
  onUnit: (unit: string) => void
  message: string | null
}

/**
 * The time left: an amount and its unit. A picked holiday sends its date instead, so these two
 * are left out of the no-script form then.
 */
export function DelayFields({ settings, amountText, caps, onAmountText, onChange, onUnit, message }: DelayFieldsProps) {
  return (
    <div className="field-row">
      <Field id="countdown-amount" label="Time left" message={message}>
        <input
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          name={settings.date ? undefined : 'amount'}
          value={amountText}
          onKeyDown={(event) => {
            if (!event.ctrlKey && !event.metaKey && !event.altKey && isBlockedAmountKey(event.key)) event.preventDefault()
          }}
          onChange={(event) => onAmountText(amountWhileTyping(event.target.value, settings.unit, caps))}
          onBlur={() => onChange({ amount: amountOnBlur(amountText, settings.unit, caps) })}
          {...controlProps('countdown-amount', message)}
        />
      </Field>
      <Field id="countdown-unit" label="Unit">
        <select id="countdown-unit" name={settings.date ? undefined : 'unit'} value={settings.unit} onChange={(event) => onUnit(event.target.value)}>
          {DELAY_UNITS.map((unit) => (
            <option key={unit} value={unit}>
              {UNIT_NAMES[unit]}
            </option>
          ))}
        </select>
      </Field>
    </div>
  )
}

/** Whether the timer has captions, a language's set in one click, and each caption on its own. */
export function CaptionFields({ settings, error, onChange }: { settings: CountdownSettings; error: GeneratorError | null; onChange: (patch: Partial<CountdownSettings>) => void }) {
  return (
    <>
      <div className="field field-check">
        <input type="hidden" name="captions" value="0" />
        <input type="checkbox" id="countdown-captions" name="captions" value="1" checked={settings.captions} onChange={(event) => onChange({ captions: event.target.checked })} />
        <label htmlFor="countdown-captions">Show captions</label>
      </div>
      {settings.captions && (
        <div className="chips" role="group" aria-label="Caption language">
          {CAPTION_LANGUAGES.map(([language, label]) => {
            const preset = COUNTDOWN_CAPTION_PRESETS[language]
            const chosen = CAPTIONS.every(([part]) => settings[part] === preset[part])
            return (
              <button key={language} type="button" className="chip" lang={language} aria-pressed={chosen} onClick={() => onChange({ ...preset })}>
                {label}
              </button>
            )
          })}
        </div>
      )}
      {settings.captions && (
        <div className="field-row captions">
          {CAPTIONS.map(([part, label]) => {
            const message = messageFor(error, part)
            return (
              <Field key={part} id={`countdown-${part}`} label={label} message={message}>
                <input type="text" name={part} maxLength={CAPTION_MAX_LENGTH} value={settings[part]} onChange={(event) => onChange({ [part]: event.target.value })} {...controlProps(`countdown-${part}`, message)} />
              </Field>
            )
          })}
        </div>
      )}
    </>
  )
}
