/** The days of the week of a recurring timer, on the generator and on a saved timer's edit page. */
import { WEEKDAYS } from './timer-basics.js'

/** The days of the week a recurring timer counts to, each a checkbox, with the service's message. */
export function WeekdaysField({ id, days, message, onToggle }: { id: string; days: readonly number[]; message: string | null; onToggle: (day: number) => void }) {
  return (
    <fieldset className="field radio-row weekdays" aria-describedby={message ? `${id}-message` : undefined}>
      <legend>Days of the week</legend>
      {WEEKDAYS.map(([day, name]) => (
        <label key={day}>
          <input type="checkbox" name="weekdays" value={day} checked={days.includes(day)} onChange={() => onToggle(day)} /> {name}
        </label>
      ))}
      {message && (
        <p className="field-message" id={`${id}-message`} role="alert">
          {message}
        </p>
      )}
    </fieldset>
  )
}
