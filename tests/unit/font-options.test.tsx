/** The font select's options, written as HTML that React leaves be. */
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { FontSelect, fontOptionsHtml } from '../../shared/generators/font-fields.js'
import type { FontOptionGroup } from '../../shared/generators/types.js'

const groups: FontOptionGroup[] = [
  { label: 'General', fonts: [{ id: 'roboto', family: 'Roboto', weights: [400, 700], scripts: ['latin', 'cyrillic', 'greek'] }, { id: 'lato', family: 'Lato', weights: [400], scripts: ['latin'] }] },
  { label: 'Seasonal & "fun" <fonts>', fonts: [{ id: 'x"><script>', family: 'A & <B>', weights: [400], scripts: ['latin'] }] },
]

describe('the font options', () => {
  it('are each font under its heading, the chosen one selected', () => {
    expect(fontOptionsHtml(groups.slice(0, 1), [], 'lato')).toBe('<optgroup label="General"><option value="roboto">Roboto</option><option value="lato" selected="">Lato</option></optgroup>')
  })

  it('say which alphabets of the text a font lacks', () => {
    const html = fontOptionsHtml(groups.slice(0, 1), ['latin', 'cyrillic', 'greek'], 'roboto')
    expect(html).toContain('<option value="roboto" selected="">Roboto</option>')
    expect(html).toContain('<option value="lato">Lato (no Cyrillic, Greek)</option>')
  })

  it('keep every name and id as text', () => {
    const html = fontOptionsHtml(groups, [], 'none')
    expect(html).toContain('<optgroup label="Seasonal &amp; &quot;fun&quot; &lt;fonts&gt;">')
    expect(html).toContain('<option value="x&quot;&gt;&lt;script&gt;">A &amp; &lt;B&gt;</option>')
    expect(html).not.toContain('<script')
  })

  it('are in the server’s page inside the select, the font chosen first selected', () => {
    const page = renderToString(<FontSelect id="font" name="font" groups={groups} value="lato" onChange={() => undefined} text="Привет" />)
    expect(page).toContain(`<select name="font" id="font">${fontOptionsHtml(groups, ['cyrillic'], 'lato')}</select>`)
    expect(page.replace(/<!-- -->/g, '')).toContain('No Cyrillic letters in this font: those letters are drawn in a plain fallback face.')
  })
})
