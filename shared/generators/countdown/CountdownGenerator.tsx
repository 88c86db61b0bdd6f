import { useEffect, useState } from 'react'
import {
  amountOnBlur,
  convertAmount,
  COUNTDOWN_SIZE,
  countdownHeight,
  countdownQuery,
  countdownRequest,
  delayToHoliday,
  isDelayUnit,
  liveTimerRequest,
  localIsoDate,
  liveTimerSnippet,
  quickPicks,
  type CountdownSettings,
  type QuickPick,
} from './countdown.js'
import { CaptionFields, DelayFields, HolidayPicks } from './CountdownFields.js'
import { CopyButton, DownloadButton } from '../actions.js'
import { ColorField } from '../fields.js'
import { FontSelect, WeightSelect } from '../font-fields.js'
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

/** The settings, and the amount as typed next to them: it only becomes a setting once it is one. */
function useCountdownSettings(initial: CountdownSettings) {
  const [settings, setSettings] = useState<CountdownSettings>(initial)
  const [amountText, setAmountText] = useState(String(initial.amount))

  const update = (patch: Partial<CountdownSettings>) => {
    setSettings((current) => ({ ...current, ...patch }))
    if (patch.amount !== undefined) setAmountText(String(patch.amount))
  }

  /** A typed amount of at least 1 counts at once, instead of a holiday picked before. */
  const typeAmount = (text: string) => {
    setAmountText(text)
    if (Number(text) >= 1) setSettings((current) => ({ ...current, amount: Number(text), date: null }))
  }

  const changeUnit = (unit: string) => {
    if (!isDelayUnit(unit)) return
    const amount = convertAmount(amountOnBlur(amountText, settings.unit), settings.unit, unit)
    update({ unit, amount, date: null })
  }

  return { settings, amountText, update, typeAmount, changeUnit }
}

/** The holidays to count down to: the server's list until the browser has asked for its own day. */
function useQuickPicks(initial: QuickPick[]) {
  const [picks, setPicks] = useState<QuickPick[]>(initial)
  useEffect(() => {
    const controller = new AbortController()
    fetch(`/api/holidays?from=${localIsoDate(new Date())}`, { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<Holiday[]>) : Promise.reject(new Error(`HTTP ${response.status}`))))
      .then((holidays) => setPicks(quickPicks(holidays, new Date())))
      .catch(() => setPicks((current) => quickPicks(current, new Date())))
    return () => controller.abort()
  }, [])
  return picks
}

export default function CountdownGenerator() {
  const data = usePageData('countdown-generator')
  const { settings, amountText, update, typeAmount, changeUnit } = useCountdownSettings(data.settings)
  const { status, result, error, run } = useGeneratorRun<CountdownResult>((old) => URL.revokeObjectURL(old.url))
  const fonts = data.fonts.flatMap((group) => group.fonts)
  const font = fonts.find((candidate) => candidate.id === settings.font) ?? fonts[0]!

  useSettingsInUrl(countdownQuery(settings))

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
    // A holiday counts from the visitor's own clock; a shared link opens with its result.
    let current = data.settings
    if (current.date) {
      current = { ...current, ...delayToHoliday(current.date, new Date()) }
      update(current)
    }
    if (window.location.search) void generate(current)
  }, [])
  const picks = useQuickPicks(data.quickPicks)

  const submit = () => {
    // Enter in the amount field submits without leaving it: the blur rule applies first.
    const amount = amountOnBlur(amountText, settings.unit)
    update({ amount })
    void generate({ ...settings, amount })
  }

  const changeFont = (id: string) => update(pickFont(data.fonts, id, settings.weight, settings.font, BOLD))

  const delayMessage = messageFor(error, 'delay', 'until', 'tz')
  const loading = status === 'loading'

  return (
    <GeneratorPage data={data}>
      <GeneratorForm label="Countdown settings" loading={loading} submit={data.content.submit} onSubmit={submit}>
        <HolidayPicks picks={picks} date={settings.date} onPick={(holiday) => update({ ...delayToHoliday(holiday.value, new Date()), date: holiday.value })} />
        {settings.date && <input type="hidden" name="date" value={settings.date} />}
        <DelayFields settings={settings} amountText={amountText} onAmountText={typeAmount} onChange={update} onUnit={changeUnit} message={delayMessage} />
        <div className="field-row">
          <FontSelect id="countdown-font" name="font" groups={data.fonts} value={settings.font} onChange={changeFont} message={messageFor(error, 'font')} text={settings.captions ? `${settings.days} ${settings.hours} ${settings.minutes} ${settings.seconds}` : ''} />
          <WeightSelect id="countdown-weight" name="weight" weights={font.weights} value={settings.weight} onChange={(weight) => update({ weight })} message={messageFor(error, 'font_weight')} />
        </div>
        <div className="field-row">
          <ColorField id="countdown-color" name="color" label="Digits color" value={settings.color} onChange={(color) => update({ color })} message={messageFor(error, 'color')} />
          <ColorField id="countdown-background" name="background" label="Background" value={settings.background} onChange={(background) => update({ background })} message={messageFor(error, 'background')} />
        </div>
        <CaptionFields settings={settings} error={error} onChange={update} />
      </GeneratorForm>
      <ResultArea title={data.labels.result} loading={loading} error={error} empty={data.labels.resultEmpty}>
        {result && <CountdownResultView result={result} />}
      </ResultArea>
    </GeneratorPage>
  )
}

function CountdownResultView({ result }: { result: CountdownResult }) {
  const snippet = liveTimerSnippet(result.live, result.captions)
  return (
    <div className="countdown-result">
      <img className="result-image" src={result.url} alt="Your countdown timer" width={COUNTDOWN_SIZE.width} height={countdownHeight(result.captions)} />
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
