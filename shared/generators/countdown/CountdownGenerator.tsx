import { useEffect, useState } from 'react'
import {
  amountOnBlur,
  amountWhileTyping,
  CAPTION_MAX_LENGTH,
  convertAmount,
  COUNTDOWN_SIZE,
  countdownQuery,
  countdownRequest,
  DELAY_UNITS,
  delayToHoliday,
  isBlockedAmountKey,
  isDelayUnit,
  liveTimerRequest,
  localIsoDate,
  liveTimerSnippet,
  quickPicks,
  type CountdownSettings,
  type QuickPick,
} from './countdown.js'
import { COUNTDOWN_CAPTION_PRESETS, type CountdownCaptionLanguage } from './captions.js'
import { formatCalendarDate } from '../../dates.js'
import { CopyButton, DownloadButton } from '../actions.js'
import { ColorField, controlProps, Field, FontSelect, WeightSelect } from '../fields.js'
import { pickFont } from '../font-choice.js'
import { GeneratorForm, GeneratorPage, messageFor, ResultArea } from '../GeneratorPage.js'
import { postForImage, postForJson } from '../giffer-client.js'
import { useSettingsInUrl } from '../page-hooks.js'
import { useGeneratorRun } from '../use-generator-run.js'
import type { Holiday } from '../../holidays/holidays.js'
import { usePageData } from '../../page-data.js'

/** A new font keeps the weight chosen when it has it, else bold, else its heaviest. */
const BOLD = 700

interface CountdownResult {
  blob: Blob
  /** Object URL of the GIF, freed when the result is replaced. */
  url: string
  live: { url: string; png_url: string }
  captions: boolean
}

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

export default function CountdownGenerator() {
  const data = usePageData('countdown-generator')
  const [settings, setSettings] = useState<CountdownSettings>(data.settings)
  const [amountText, setAmountText] = useState(String(data.settings.amount))
  // The server's list until the browser has asked for its own day.
  const [picks, setPicks] = useState<QuickPick[]>(data.quickPicks)
  const { status, result, error, run } = useGeneratorRun<CountdownResult>((old) => URL.revokeObjectURL(old.url))
  const fonts = data.fonts.flatMap((group) => group.fonts)
  const font = fonts.find((candidate) => candidate.id === settings.font) ?? fonts[0]!

  useSettingsInUrl(countdownQuery(settings))

  const update = (patch: Partial<CountdownSettings>) => {
    setSettings((current) => ({ ...current, ...patch }))
    if (patch.amount !== undefined) setAmountText(String(patch.amount))
  }

  const generate = (current: CountdownSettings) =>
    run(async (signal) => {
      const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone
      const [blob, live] = await Promise.all([
        postForImage('countdown/create', countdownRequest(current), signal),
        postForJson<{ url: string; png_url: string }>('countdown/live-url', liveTimerRequest(current, new Date(), timeZone), signal),
      ])
      return { blob, url: URL.createObjectURL(blob), live, captions: current.captions }
    })

  useEffect(() => {
    const now = new Date()
    // A holiday counts from the visitor's own clock; a shared link opens with its result.
    let current = data.settings
    if (current.date) {
      current = { ...current, ...delayToHoliday(current.date, now) }
      update(current)
    }
    if (window.location.search) void generate(current)
    const controller = new AbortController()
    fetch(`/api/holidays?from=${localIsoDate(now)}`, { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<Holiday[]>) : Promise.reject(new Error(`HTTP ${response.status}`))))
      .then((holidays) => setPicks(quickPicks(holidays, new Date())))
      .catch(() => setPicks((current) => quickPicks(current, new Date())))
    return () => controller.abort()
  }, [])

  const submit = () => {
    // Enter in the amount field submits without leaving it: the blur rule applies first.
    const amount = amountOnBlur(amountText, settings.unit)
    const current = { ...settings, amount }
    update({ amount })
    void generate(current)
  }

  const pick = (holiday: QuickPick) => update({ ...delayToHoliday(holiday.value, new Date()), date: holiday.value })

  const changeUnit = (unit: string) => {
    if (!isDelayUnit(unit)) return
    const amount = convertAmount(amountOnBlur(amountText, settings.unit), settings.unit, unit)
    update({ unit, amount, date: null })
  }

  const changeFont = (id: string) => update(pickFont(data.fonts, id, settings.weight, settings.font, BOLD))

  const delayMessage = messageFor(error, 'delay', 'until', 'tz')
  const loading = status === 'loading'

  return (
    <GeneratorPage data={data}>
      <GeneratorForm label="Countdown settings" loading={loading} submit={data.content.submit} onSubmit={submit}>
        {picks.length > 0 && (
          <fieldset className="quick-picks">
            <legend>Count down to a holiday</legend>
            <ul>
              {picks.map((holiday) => (
                <li key={holiday.value + holiday.title}>
                  <button type="button" className="chip" aria-pressed={settings.date === holiday.value} onClick={() => pick(holiday)}>
                    {holiday.title} <span className="chip-note">{formatCalendarDate(holiday.value)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </fieldset>
        )}
        {settings.date && <input type="hidden" name="date" value={settings.date} />}
        <div className="field-row">
          <Field id="countdown-amount" label="Time left" message={delayMessage}>
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
              onChange={(event) => {
                const text = amountWhileTyping(event.target.value, settings.unit)
                setAmountText(text)
                if (Number(text) >= 1) setSettings((current) => ({ ...current, amount: Number(text), date: null }))
              }}
              onBlur={() => update({ amount: amountOnBlur(amountText, settings.unit) })}
              {...controlProps('countdown-amount', delayMessage)}
            />
          </Field>
          <Field id="countdown-unit" label="Unit">
            <select id="countdown-unit" name={settings.date ? undefined : 'unit'} value={settings.unit} onChange={(event) => changeUnit(event.target.value)}>
              {DELAY_UNITS.map((unit) => (
                <option key={unit} value={unit}>
                  {UNIT_NAMES[unit]}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="field-row">
          <FontSelect id="countdown-font" name="font" groups={data.fonts} value={settings.font} onChange={changeFont} message={messageFor(error, 'font')} text={settings.captions ? `${settings.days} ${settings.hours} ${settings.minutes} ${settings.seconds}` : ''} />
          <WeightSelect id="countdown-weight" name="weight" weights={font.weights} value={settings.weight} onChange={(weight) => update({ weight })} message={messageFor(error, 'font_weight')} />
        </div>
        <div className="field-row">
          <ColorField id="countdown-color" name="color" label="Digits color" value={settings.color} onChange={(color) => update({ color })} message={messageFor(error, 'color')} />
          <ColorField id="countdown-background" name="background" label="Background" value={settings.background} onChange={(background) => update({ background })} message={messageFor(error, 'background')} />
        </div>
        <div className="field field-check">
          <input type="hidden" name="captions" value="0" />
          <input type="checkbox" id="countdown-captions" name="captions" value="1" checked={settings.captions} onChange={(event) => update({ captions: event.target.checked })} />
          <label htmlFor="countdown-captions">Show captions</label>
        </div>
        {settings.captions && (
          <div className="chips" role="group" aria-label="Caption language">
            {CAPTION_LANGUAGES.map(([language, label]) => {
              const preset = COUNTDOWN_CAPTION_PRESETS[language]
              const chosen = CAPTIONS.every(([part]) => settings[part] === preset[part])
              return (
                <button key={language} type="button" className="chip" lang={language} aria-pressed={chosen} onClick={() => update({ ...preset })}>
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
                  <input type="text" name={part} maxLength={CAPTION_MAX_LENGTH} value={settings[part]} onChange={(event) => update({ [part]: event.target.value })} {...controlProps(`countdown-${part}`, message)} />
                </Field>
              )
            })}
          </div>
        )}
      </GeneratorForm>
      <ResultArea title={data.labels.result} loading={loading} error={error} empty={data.labels.resultEmpty}>
        {result && <CountdownResultView result={result} />}
      </ResultArea>
    </GeneratorPage>
  )
}

function CountdownResultView({ result }: { result: CountdownResult }) {
  const snippet = liveTimerSnippet(result.live, result.captions)
  const height = result.captions ? COUNTDOWN_SIZE.height : COUNTDOWN_SIZE.heightWithoutCaptions
  return (
    <div className="countdown-result">
      <img className="result-image" src={result.url} alt="Your countdown timer" width={COUNTDOWN_SIZE.width} height={height} />
      <div className="result-actions">
        <DownloadButton fileName="countdown.gif" blob={result.blob} fallbackUrl={result.url} label="Download GIF" />
      </div>
      <div className="live-timer">
        <h3>Live timer for your email</h3>
        <p className="field-hint">Drawn again whenever the email is opened, so it always shows the real time left. Outlook on Windows gets a still image.</p>
        <div className="field">
          <label htmlFor="live-url">Timer image link</label>
          <input id="live-url" type="text" readOnly value={result.live.url} onFocus={(event) => event.target.select()} />
        </div>
        <CopyButton text={result.live.url} label="Copy link" />
        <div className="field">
          <label htmlFor="live-html">HTML for your email</label>
          <textarea id="live-html" readOnly rows={5} value={snippet} onFocus={(event) => event.target.select()} />
        </div>
        <CopyButton text={snippet} label="Copy HTML" />
        <p className="field-hint">
          Paste it with <kbd className="key-mac">⌘ V</kbd>
          <kbd className="key-other">Ctrl V</kbd> into an HTML block of your email editor.
        </p>
      </div>
    </div>
  )
}
