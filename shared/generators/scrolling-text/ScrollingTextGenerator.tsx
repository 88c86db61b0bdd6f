import { useEffect, useState } from 'react'
import { DownloadButton } from '../actions.js'
import { ColorField, controlProps, Field } from '../fields.js'
import { FontSelect, WeightSelect } from '../font-fields.js'
import { pickFont } from '../font-choice.js'
import { GeneratorForm, GeneratorPage, messageFor, ResultArea } from '../GeneratorPage.js'
import { postForImage } from '../giffer-client.js'
import { useSettingsInUrl } from '../page-hooks.js'
import { useGeneratorRun } from '../use-generator-run.js'
import { groupDigits } from '../../numbers.js'
import { usePageData } from '../../page-data.js'
import {
  EMAIL_GIF_BUDGET_BYTES,
  FLICKER_EFFECTS,
  FLICKER_PATTERNS,
  SCROLL_DIVIDER_MAX,
  SCROLL_FONT_SIZE,
  SCROLL_TEXT_MAX,
  SCROLL_WIDTH,
  scrollingTextEstimate,
  scrollingTextQuery,
  scrollingTextRequest,
  SEPARATOR_PRESETS,
  snapFontSize,
  type ScrollingTextSettings,
} from './scrolling-text.js'

/** A new font keeps the weight chosen when it has it, else bold, else its heaviest. */
const BOLD = 700

interface ScrollingResult {
  blob: Blob
  url: string
  height: number
}

const kilobytes = (bytes: number) => `${groupDigits(Math.round(bytes / 1024))} KB`

export default function ScrollingTextGenerator() {
  const data = usePageData('scrolling-text-generator')
  const [settings, setSettings] = useState<ScrollingTextSettings>(data.settings)
  const { status, result, error, run } = useGeneratorRun<ScrollingResult>((old) => URL.revokeObjectURL(old.url))
  const fonts = data.fonts.flatMap((group) => group.fonts)
  const font = fonts.find((candidate) => candidate.id === settings.font) ?? fonts[0]!
  const estimate = scrollingTextEstimate(settings)
  const loading = status === 'loading'

  useSettingsInUrl(scrollingTextQuery(settings))
  const update = (patch: Partial<ScrollingTextSettings>) => setSettings((current) => ({ ...current, ...patch }))

  const generate = (current: ScrollingTextSettings) =>
    run(async (signal) => {
      const blob = await postForImage('scrollingtext/create', scrollingTextRequest(current), signal)
      return { blob, url: URL.createObjectURL(blob), height: Math.ceil(current.size * 1.6) }
    })

  // A shared link opens with its result.
  useEffect(() => {
    if (window.location.search) void generate(data.settings)
  }, [])

  const changeFont = (id: string) => update(pickFont(data.fonts, id, settings.weight, settings.font, BOLD))

  const textMessage = messageFor(error, 'text')
  const separatorMessage = messageFor(error, 'divider')
  const overBudget = estimate.bytes > EMAIL_GIF_BUDGET_BYTES

  return (
    <GeneratorPage data={data}>
      <GeneratorForm label="Scrolling text settings" loading={loading} submit={data.content.submit} onSubmit={() => void generate(settings)}>
        <Field id="scroll-text" label="Text" message={textMessage}>
          <input
            type="text"
            name="text"
            required
            maxLength={SCROLL_TEXT_MAX}
            value={settings.text}
            onChange={(event) => update({ text: event.target.value })}
            {...controlProps('scroll-text', textMessage)}
          />
        </Field>
        <Field id="scroll-separator" label="Separator" message={separatorMessage}>
          <input
            type="text"
            name="separator"
            list="scroll-separator-presets"
            maxLength={SCROLL_DIVIDER_MAX * 10}
            value={settings.separator}
            onChange={(event) => update({ separator: event.target.value })}
            {...controlProps('scroll-separator', separatorMessage)}
            aria-describedby={separatorMessage ? 'scroll-separator-message scroll-separator-hint' : 'scroll-separator-hint'}
          />
          <datalist id="scroll-separator-presets">
            {SEPARATOR_PRESETS.map((preset) => (
              <option key={preset.value} value={preset.value} label={preset.label} />
            ))}
          </datalist>
        </Field>
        <div className="chips" role="group" aria-label="Separator presets">
          {SEPARATOR_PRESETS.map((preset) => (
            <button key={preset.value} type="button" className="chip" aria-pressed={settings.separator === preset.value} onClick={() => update({ separator: preset.value })}>
              {preset.label}
            </button>
          ))}
        </div>
        <p className="field-hint" id="scroll-separator-hint">
          Up to {SCROLL_DIVIDER_MAX} characters; codes like <code>&amp;#9733;</code> become the character, and icon codes draw in the icon color.
        </p>
        <div className="field-row">
          <FontSelect id="scroll-font" name="font" groups={data.fonts} value={settings.font} onChange={changeFont} message={messageFor(error, 'font')} text={`${settings.text} ${settings.separator}`} />
          <WeightSelect id="scroll-weight" name="weight" weights={font.weights} value={settings.weight} onChange={(weight) => update({ weight })} message={messageFor(error, 'font_weight')} />
        </div>
        <Field id="scroll-size" label={`Font size: ${settings.size} px`} message={messageFor(error, 'font_size')}>
          <input
            type="range"
            name="size"
            min={SCROLL_FONT_SIZE.min}
            max={SCROLL_FONT_SIZE.max}
            step={SCROLL_FONT_SIZE.step}
            value={settings.size}
            onChange={(event) => update({ size: snapFontSize(Number(event.target.value)) })}
            {...controlProps('scroll-size', messageFor(error, 'font_size'))}
          />
        </Field>
        <div className="field-row">
          <ColorField id="scroll-color" name="color" label="Text color" value={settings.color} onChange={(color) => update({ color })} message={messageFor(error, 'color')} />
          <ColorField id="scroll-icon-color" name="iconColor" label="Icon color" value={settings.iconColor} onChange={(iconColor) => update({ iconColor })} message={messageFor(error, 'divider_color')} />
          <ColorField id="scroll-background" name="background" label="Background" value={settings.background} onChange={(background) => update({ background })} message={messageFor(error, 'background')} />
        </div>
        <div className="field-row">
          <fieldset className="field radio-row">
            <legend>Direction</legend>
            {(['left', 'right'] as const).map((direction) => (
              <label key={direction}>
                <input type="radio" name="direction" value={direction} checked={settings.direction === direction} onChange={() => update({ direction })} /> {direction === 'left' ? 'Left' : 'Right'}
              </label>
            ))}
          </fieldset>
          <Field id="scroll-flicker" label="Flicker effect" message={messageFor(error, 'flicker_pattern')}>
            <select name="flicker" value={settings.flicker} onChange={(event) => update({ flicker: event.target.value as ScrollingTextSettings['flicker'] })} {...controlProps('scroll-flicker', messageFor(error, 'flicker_pattern'))}>
              {FLICKER_EFFECTS.map((effect) => (
                <option key={effect} value={effect}>
                  {FLICKER_PATTERNS[effect].label}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <p className={overBudget ? 'estimate is-warning' : 'estimate'} aria-live="polite">
          About {estimate.frames} frames, {kilobytes(estimate.bytes)}.
          {overBudget && ` Over the ${kilobytes(EMAIL_GIF_BUDGET_BYTES)} that loads quickly in email: use a shorter text or a smaller size.`}
        </p>
      </GeneratorForm>
      <ResultArea title={data.labels.result} loading={loading} error={error} empty={data.labels.resultEmpty}>
        {result && (
          <div className="scrolling-result">
            <img className="result-image" src={result.url} alt={`Scrolling text: ${settings.text}`} width={SCROLL_WIDTH} height={result.height} />
            <p className="field-hint">
              {kilobytes(result.blob.size)}, {SCROLL_WIDTH} px wide.
            </p>
            <div className="result-actions">
              <DownloadButton fileName="scrolling-text.gif" blob={result.blob} fallbackUrl={result.url} label="Download GIF" />
            </div>
          </div>
        )}
      </ResultArea>
    </GeneratorPage>
  )
}
