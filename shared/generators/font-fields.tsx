/** The font fields of the GIF generators that draw text; apart, so a page without them does not load font coverage. */
import { useMemo } from 'react'
import { controlProps, Field } from './fields.js'
import { missingScripts, noLettersMessage, SCRIPT_NAMES, scriptsOf } from './font-coverage.js'
import type { FontOptionGroup } from './types.js'

/**
 * The GIF generators' fonts under their headings (General, Monospaced, Seasonal). Fonts that
 * cannot draw the letters of `text` with their own glyphs say so in the list, and under it.
 */
export function FontSelect({ id, name, groups, value, onChange, message, text = '' }: { id: string; name: string; groups: FontOptionGroup[]; value: string; onChange: (id: string) => void; message?: string | null; text?: string }) {
  const chosen = groups.flatMap((group) => group.fonts).find((font) => font.id === value)
  // The text's alphabets, read once for the whole list: each letter is matched against Unicode's scripts.
  const needed = useMemo(() => scriptsOf(text), [text])
  const lacking = chosen ? missingScripts(chosen, needed) : []
  return (
    <Field id={id} label="Font" message={message}>
      <select name={name} value={value} onChange={(event) => onChange(event.target.value)} {...controlProps(id, message)}>
        {groups.map((group) => (
          <optgroup key={group.label} label={group.label}>
            {group.fonts.map((font) => {
              const missing = missingScripts(font, needed)
              return (
                <option key={font.id} value={font.id}>
                  {missing.length ? `${font.family} (no ${missing.map((script) => SCRIPT_NAMES[script]).join(', ')})` : font.family}
                </option>
              )
            })}
          </optgroup>
        ))}
      </select>
      {lacking.length > 0 && <p className="field-hint font-warning">{noLettersMessage(lacking)}: those letters are drawn in a plain fallback face.</p>}
    </Field>
  )
}

const WEIGHT_NAMES: Record<number, string> = { 100: 'Thin', 200: 'Extra light', 300: 'Light', 400: 'Regular', 500: 'Medium', 600: 'Semibold', 700: 'Bold', 800: 'Extra bold', 900: 'Black' }

export function WeightSelect({ id, name, weights, value, onChange, message }: { id: string; name: string; weights: number[]; value: number; onChange: (weight: number) => void; message?: string | null }) {
  return (
    <Field id={id} label="Font weight" message={message}>
      <select name={name} value={value} onChange={(event) => onChange(Number(event.target.value))} {...controlProps(id, message)}>
        {weights.map((weight) => (
          <option key={weight} value={weight}>
            {WEIGHT_NAMES[weight] ?? weight}
          </option>
        ))}
      </select>
    </Field>
  )
}
