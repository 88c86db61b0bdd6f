import { useEffect, useState } from 'react'
import { DownloadButton } from '../actions.js'
import { ColorField, controlProps, Field } from '../fields.js'
import { GeneratorForm, GeneratorPage, messageFor, ResultArea } from '../GeneratorPage.js'
import { fieldMessage, GeneratorError, NO_IMAGE, postForImage } from '../giffer-client.js'
import { ImageUploader, useImageUploads } from '../ImageUploader.js'
import { useSettingsInUrl } from '../page-hooks.js'
import { useGeneratorRun } from '../use-generator-run.js'
import { usePageData } from '../../page-data.js'
import {
  ASPECTS,
  clampSetting,
  isSlideshowMode,
  LAYOUTS,
  MESSAGES,
  MODE_PATHS,
  NUMBER_FIELDS,
  SLIDESHOW_MODES,
  SLIDESHOW_WIDTH,
  slideshowQuery,
  slideshowRequest,
  type Aspect,
  type Layout,
  type NumberField,
  type SlideshowSettings,
} from './slideshow.js'

interface SlideshowResult {
  blob: Blob
  /** Object URL of the GIF, freed when the result is replaced. */
  url: string
}

const MODE_LABELS = { slideshow: 'Slideshow', row: 'Row', trio: 'Trio', overlay: 'Overlay' } as const
const MODE_HINTS = {
  slideshow: 'One photo at a time',
  row: 'Photos side by side, moving on one by one',
  trio: 'The current photo between its neighbours',
  overlay: 'A deck: the photos behind under a veil',
} as const
const ASPECT_LABELS: Record<Aspect, string> = { '1:1': 'Square 1:1', '4:5': 'Portrait 4:5', '3:2': 'Landscape 3:2', '16:9': 'Wide 16:9', '9:16': 'Story 9:16' }
const LAYOUT_LABELS: Record<Layout, string> = {
  soft: 'Soft',
  focus: 'Focus',
  hero: 'Hero',
  'soft-cut': 'Soft, cut edges',
  'focus-cut': 'Focus, cut edges',
  'hero-cut': 'Hero, cut edges',
}

/** The image service's names for the fields of this form: its 400 answers name them. */
const SERVICE_FIELDS: Record<Exclude<NumberField, 'columns'>, string[]> = {
  delay: ['delay'],
  radius: ['radius'],
  gap: ['spacing'],
  border: ['border_width'],
  opacity: ['overlay_opacity'],
}

export default function SlideshowGenerator() {
  const data = usePageData('slideshow-generator')
  const [settings, setSettings] = useState<SlideshowSettings>(data.settings)
  const uploads = useImageUploads()
  const { status, result, error, run } = useGeneratorRun<SlideshowResult>((old) => URL.revokeObjectURL(old.url))

  useSettingsInUrl(slideshowQuery(settings))

  const update = (patch: Partial<SlideshowSettings>) => setSettings((current) => ({ ...current, ...patch }))

  const submit = () => {
    if (uploads.items.length === 0) return uploads.say(MESSAGES.noImages)
    if (uploads.items.some((item) => item.status !== 'ready' || !item.url)) return uploads.say(MESSAGES.uploadsRunning)
    const body = slideshowRequest(settings, uploads.items.map((item) => item.url!))
    void run(async (signal) => {
      try {
        const blob = await postForImage(MODE_PATHS[settings.mode], body, signal)
        return { blob, url: URL.createObjectURL(blob) }
      } catch (thrown) {
        // A photo the service refuses (an upload that has expired, or replaced since it was
        // checked) is named under the photos, in the service's words when they name it already.
        const photo = thrown instanceof GeneratorError ? /^images\.(\d+)$/.exec(thrown.field ?? '') : null
        if (photo) {
          const said = fieldMessage(thrown as GeneratorError)
          uploads.say(said.startsWith('Image ') ? said : `Image ${Number(photo[1]) + 1} ${said}. Remove it and add it again.`)
        }
        throw thrown instanceof GeneratorError && thrown.message === NO_IMAGE ? new GeneratorError(MESSAGES.noSlideshow) : thrown
      }
    })
  }

  const number = (field: keyof typeof SERVICE_FIELDS, id: string, label: string) => (
    <NumberInput
      key={field}
      id={id}
      name={field}
      label={label}
      field={field}
      value={settings[field as keyof SlideshowSettings] as number}
      onChange={(value) => update({ [field]: value })}
      message={messageFor(error, ...SERVICE_FIELDS[field])}
    />
  )
  const loading = status === 'loading'

  return (
    <GeneratorPage data={data}>
      <GeneratorForm label="Slideshow settings" loading={loading} submit={data.content.submit} onSubmit={submit}>
        <fieldset className="slideshow-images">
          <legend>Images</legend>
          <ImageUploader uploads={uploads} inputId="slideshow-files" />
        </fieldset>
        <fieldset className="slideshow-modes">
          <legend>Mode</legend>
          <div className="mode-options">
            {SLIDESHOW_MODES.map((mode) => (
              <label key={mode} className="mode-option">
                <input type="radio" name="mode" value={mode} checked={settings.mode === mode} onChange={(event) => isSlideshowMode(event.target.value) && update({ mode: event.target.value })} />
                <span className="mode-name">{MODE_LABELS[mode]}</span>
                <span className="mode-hint">{MODE_HINTS[mode]}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="field-row">
          {number('delay', 'slideshow-delay', 'Seconds per photo')}
          <Field id="slideshow-aspect" label="Photo shape" message={messageFor(error, 'height')}>
            <select {...controlProps('slideshow-aspect', messageFor(error, 'height'))} name="aspect" value={settings.aspect} onChange={(event) => update({ aspect: event.target.value as Aspect })}>
              {ASPECTS.map((aspect) => (
                <option key={aspect} value={aspect}>
                  {ASPECT_LABELS[aspect]}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {settings.mode === 'row' && (
          <div className="field-row">
            <Field id="slideshow-columns" label="Photos side by side" message={messageFor(error, 'count')}>
              <select {...controlProps('slideshow-columns', messageFor(error, 'count'))} name="columns" value={settings.columns} onChange={(event) => update({ columns: Number(event.target.value) })}>
                {Array.from({ length: NUMBER_FIELDS.columns.max - NUMBER_FIELDS.columns.min + 1 }, (_, i) => NUMBER_FIELDS.columns.min + i).map((count) => (
                  <option key={count} value={count}>
                    {count}
                  </option>
                ))}
              </select>
            </Field>
          </div>
        )}
        {settings.mode === 'trio' && (
          <div className="field-row">
            <LayoutSelect id="slideshow-trio" name="trio" label="Trio layout" value={settings.trio} onChange={(trio) => update({ trio })} />
          </div>
        )}
        {settings.mode === 'overlay' && (
          <div className="field-row">
            <LayoutSelect id="slideshow-overlay" name="overlay" label="Overlay layout" value={settings.overlay} onChange={(overlay) => update({ overlay })} />
            {number('opacity', 'slideshow-opacity', 'Overlay opacity (%)')}
          </div>
        )}
        <div className="field-row">
          {number('radius', 'slideshow-radius', 'Corner radius (px)')}
          {number('gap', 'slideshow-gap', 'Gap (px)')}
        </div>
        <div className="field-row">
          {number('border', 'slideshow-border', 'Border width (px)')}
          <ColorField id="slideshow-border-color" name="borderColor" label="Border color" value={settings.borderColor} onChange={(borderColor) => update({ borderColor })} message={messageFor(error, 'border_color')} />
        </div>
      </GeneratorForm>
      <ResultArea title={data.labels.result} loading={loading} error={error} empty={data.labels.resultEmpty} errorDetail={false}>
        {result && (
          <div className="slideshow-result">
            <img className="result-image" src={result.url} alt="Your slideshow" width={SLIDESHOW_WIDTH} />
            <div className="result-actions">
              <DownloadButton fileName="slideshow.gif" blob={result.blob} fallbackUrl={result.url} label="Download GIF" />
            </div>
          </div>
        )}
      </ResultArea>
    </GeneratorPage>
  )
}

function LayoutSelect({ id, name, label, value, onChange }: { id: string; name: string; label: string; value: Layout; onChange: (layout: Layout) => void }) {
  return (
    <Field id={id} label={label}>
      <select id={id} name={name} value={value} onChange={(event) => onChange(event.target.value as Layout)}>
        {LAYOUTS.map((layout) => (
          <option key={layout} value={layout}>
            {LAYOUT_LABELS[layout]}
          </option>
        ))}
      </select>
    </Field>
  )
}

/**
 * A number field that lets the visitor clear it and type anew: the setting follows every
 * readable value, and leaving the field puts it back within its bounds.
 */
function NumberInput({ id, name, label, field, value, onChange, message }: { id: string; name: string; label: string; field: NumberField; value: number; onChange: (value: number) => void; message: string | null }) {
  const { min, max, step } = NUMBER_FIELDS[field]
  const [text, setText] = useState(String(value))
  // A value set elsewhere (a shared link read back) replaces what is shown.
  useEffect(() => {
    setText((shown) => (shown.trim() !== '' && Number(shown) === value ? shown : String(value)))
  }, [value])
  return (
    <Field id={id} label={label} message={message}>
      <input
        {...controlProps(id, message)}
        type="number"
        name={name}
        inputMode="decimal"
        min={min}
        max={max}
        step={step}
        value={text}
        onChange={(event) => {
          setText(event.target.value)
          // Only values the field keeps as they are: others wait for the field to be left.
          const parsed = Number(event.target.value)
          if (event.target.value.trim() !== '' && clampSetting(field, parsed) === parsed) onChange(parsed)
        }}
        onBlur={() => {
          const parsed = text.trim() === '' ? NaN : Number(text)
          const clamped = clampSetting(field, Number.isFinite(parsed) ? parsed : value)
          setText(String(clamped))
          onChange(clamped)
        }}
      />
    </Field>
  )
}
