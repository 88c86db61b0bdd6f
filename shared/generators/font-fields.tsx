/** The font fields of the GIF generators that draw text (the countdown, a saved timer, the scrolling text). */
import { useMemo, useState } from 'react'
import { escapeHtml } from './html.js'
import { controlProps, Field } from './fields.js'
import { missingScripts, noLettersMessage, SCRIPT_NAMES, scriptsOf, type FontScript } from './font-coverage.js'
import type { FontOptionGroup } from './types.js'

/**
 * The GIF generators' fonts under their headings (General, Monospaced, Seasonal). Fonts that
 * cannot draw the letters of `text` with their own glyphs say so in the list, and under it.
 *
 * The options are HTML that React leaves be, rather than some forty elements it would hydrate as
 * the page starts and compare again on every change of the form. The list is written with the
 * font chosen at first marked `selected` (so the server's page, with or without scripts, shows
 * it); from then on React sets the select's value itself, after any change to the list. React does
 * not compare that HTML as it hydrates: the first render must be the server's (the page's data,
 * never something only the browser knows, such as storage).
 */
export function FontSelect({ id, name, groups, value, onChange, message, text = '' }: { id: string; name: string; groups: FontOptionGroup[]; value: string; onChange: (id: string) => void; message?: string | null; text?: string }) {
  const chosen = groups.flatMap((group) => group.fonts).find((font) => font.id === value)
  // The text's alphabets, read once for the whole list: each letter is matched against Unicode's
  // scripts. The same alphabets keep the same list (a keystroke in Latin rewrites nothing).
  const alphabets = scriptsOf(text).join(',')
  const needed = useMemo(() => (alphabets ? (alphabets.split(',') as FontScript[]) : []), [alphabets])
  const lacking = chosen ? missingScripts(chosen, needed) : []
  const [firstChoice] = useState(value)
  const options = useMemo(() => ({ __html: fontOptionsHtml(groups, needed, firstChoice) }), [groups, needed, firstChoice])
  return (
    <Field id={id} label="Font" message={message}>
      <select name={name} value={value} onChange={(event) => onChange(event.target.value)} {...controlProps(id, message)} dangerouslySetInnerHTML={options} />
      {lacking.length > 0 && <p className="field-hint font-warning">{noLettersMessage(lacking)}: those letters are drawn in a plain fallback face.</p>}
    </Field>
  )
}

/** The font list's `<optgroup>`s and `<option>`s; each font lacking one of `needed`'s alphabets says which. */
export function fontOptionsHtml(groups: FontOptionGroup[], needed: readonly FontScript[], selected: string): string {
  return groups
    .map((group) => {
      const options = group.fonts.map((font) => {
        const missing = missingScripts(font, needed)
        const label = missing.length ? `${font.family} (no ${missing.map((script) => SCRIPT_NAMES[script]).join(', ')})` : font.family
        return `<option value="${escapeHtml(font.id)}"${font.id === selected ? ' selected=""' : ''}>${escapeHtml(label)}</option>`
      })
      return `<optgroup label="${escapeHtml(group.label)}">${options.join('')}</optgroup>`
    })
    .join('')
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
