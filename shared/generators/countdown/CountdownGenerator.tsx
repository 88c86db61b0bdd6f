import { useEffect, useRef, useState } from 'react'
import {
  amountOnBlur,
  capAmount,
  convertAmount,
  COUNTDOWN_SIZE,
  countdownHeight,
  countdownRequest,
  delayToHoliday,
  isDelayUnit,
  localIsoDate,
  liveTimerSnippet,
  quickPicks,
  type CountdownSettings,
  type DelayCaps,
  type QuickPick,
} from './countdown.js'
import { CaptionFields, DelayFields, HolidayPicks } from './CountdownFields.js'
import {
  countdownPageQuery,
  defaultLiveTimerChoices,
  delayCapsFor,
  liveTimerBody,
  liveTimerNotes,
  PLATFORM_NAMES,
  PLATFORMS,
  previewUrl,
  withMergeTag,
  usesVisitorDays,
  withVisitorDefaults,
  type LiveTimerChoices,
  type LiveTimerType,
  type Platform,
} from './live-timer.js'
import { ExpiryFields, TimerTypeField, TimerTypeFields } from './LiveTimerFields.js'
import { SaveTimer } from './SaveTimer.js'
import { CopyButton, DownloadButton } from '../actions.js'
import { ColorField } from '../fields.js'
import { FontSelect, WeightSelect } from '../font-fields.js'
import { pickFont } from '../font-choice.js'
import { GeneratorForm, GeneratorPage, messageFor, ResultArea } from '../GeneratorPage.js'
import { postForImage, postForJson } from '../giffer-client.js'
import { useSettingsInUrl } from '../page-hooks.js'
import { useGeneratorRun } from '../use-generator-run.js'
import { browserTimeZone } from '../../dates.js'
import type { Holiday } from '../../holidays/holidays.js'
import { usePageData } from '../../page-data.js'

/** A new font keeps the weight chosen when it has it, else bold, else its heaviest. */
const BOLD = 700

interface CountdownResult {
  /**
   * The GIF drawn for a timer of one date, to download. The other types are previewed as the live
   * image itself, with no download: a copy would be frozen at one subscriber's moment, while
   * these timers differ per subscriber or start again.
   */
  gif: { blob: Blob; url: string } | null
  live: { url: string; png_url: string }
  captions: boolean
  /** The settings and live timer choices the result was made with, and when. */
  settings: CountdownSettings
  choices: LiveTimerChoices
  madeAt: Date
}

/** The settings, and the amount as typed next to them: it only becomes a setting once it is one. */
function useCountdownSettings(initial: CountdownSettings, caps: DelayCaps) {
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
    const amount = convertAmount(amountOnBlur(amountText, settings.unit, caps), settings.unit, unit, caps)
    update({ unit, amount, date: null })
  }

  return { settings, amountText, update, typeAmount, changeUnit }
}

/** How long the visitor's own holiday list may take. */
const HOLIDAYS_TIMEOUT_MS = 10_000

/**
 * The holidays to count down to: the server's list, counted from the day `from`. A visitor whose
 * own day is another (another zone, or a page a cache kept since) gets the list for their day.
 */
function useQuickPicks(initial: QuickPick[], from: string) {
  const [picks, setPicks] = useState<QuickPick[]>(initial)
  useEffect(() => {
    const today = localIsoDate(new Date())
    if (today === from) return
    const controller = new AbortController()
    // Unanswered, the server's list is counted again from the visitor's day (past holidays drop out).
    const timer = setTimeout(() => controller.abort(), HOLIDAYS_TIMEOUT_MS)
    fetch(`/api/holidays?from=${today}`, { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<Holiday[]>) : Promise.reject(new Error(`HTTP ${response.status}`))))
      .then((holidays) => setPicks(quickPicks(holidays, new Date())))
      .catch(() => setPicks((current) => quickPicks(current, new Date())))
      .finally(() => clearTimeout(timer))
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [from])
  return picks
}

export default function CountdownGenerator() {
  const data = usePageData('countdown-generator')
  const [choices, setChoices] = useState<LiveTimerChoices>(data.timer)
  // The visitor's own dates and zone, while the chosen type shows none of them: taken in with
  // the next change, rather than drawing the whole form again as the page starts.
  const visitorDays = useRef<Pick<LiveTimerChoices, 'from' | 'to' | 'timeZone'> | null>(null)
  const updateChoices = (patch: Partial<LiveTimerChoices>) => {
    const days = visitorDays.current
    visitorDays.current = null
    setChoices((current) => ({ ...current, ...days, ...patch }))
  }
  // The visitor's own defaults, which the address leaves out (the server's, during its render).
  const [visitorDefaults] = useState(() => defaultLiveTimerChoices(new Date(), browserTimeZone()))
  const caps = delayCapsFor(choices.type)
  const { settings, amountText, update, typeAmount, changeUnit } = useCountdownSettings(data.settings, caps)
  const { status, result, error, run } = useGeneratorRun<CountdownResult>((old) => old.gif && URL.revokeObjectURL(old.gif.url))
  const fonts = data.fonts.flatMap((group) => group.fonts)
  const font = fonts.find((candidate) => candidate.id === settings.font) ?? fonts[0]!

  useSettingsInUrl(countdownPageQuery(settings, choices, visitorDefaults))

  const generate = (current: CountdownSettings, live: LiveTimerChoices = choices) =>
    run(async (signal) => {
      const madeAt = new Date()
      const [blob, urls] = await Promise.all([
        live.type === 'fixed' ? postForImage('countdown/create', countdownRequest(current), signal) : null,
        postForJson<{ url: string; png_url: string }>('countdown/live-url', liveTimerBody(current, live, madeAt, browserTimeZone()), signal),
      ])
      return { gif: blob ? { blob, url: URL.createObjectURL(blob) } : null, live: urls, captions: current.captions, settings: current, choices: live, madeAt }
    })

  useEffect(() => {
    // A holiday counts from the visitor's own clock, and what the link leaves out takes the
    // visitor's own day and zone; a shared link opens with its result.
    const live = withVisitorDefaults(data.timer, new URLSearchParams(window.location.search), visitorDefaults)
    if (usesVisitorDays(live.type)) setChoices(live)
    else visitorDays.current = { from: live.from, to: live.to, timeZone: live.timeZone }
    let current = data.settings
    if (current.date) {
      current = { ...current, ...delayToHoliday(current.date, new Date()) }
      update(current)
    }
    if (window.location.search) void generate(current, live)
  }, [])
  const picks = useQuickPicks(data.quickPicks, data.quickPicksFrom)

  const submit = () => {
    // Enter in the amount field submits without leaving it: the blur rule applies first.
    const amount = amountOnBlur(amountText, settings.unit, caps)
    update({ amount })
    void generate({ ...settings, amount })
  }

  /** A holiday belongs to a timer of one date; an evergreen timer's longest time is shorter. */
  const changeType = (type: LiveTimerType) => {
    updateChoices({ type })
    if (type !== 'fixed') update({ date: null, amount: Math.max(1, capAmount(settings.amount, settings.unit, delayCapsFor(type))) })
  }

  const changeFont = (id: string) => update(pickFont(data.fonts, id, settings.weight, settings.font, BOLD))

  const delayMessage = messageFor(error, 'delay', 'until', 'for', ...(choices.type === 'fixed' ? ['tz'] : []))
  const countsFromNow = choices.type === 'fixed' || choices.type === 'evergreen'
  const loading = status === 'loading'

  return (
    <GeneratorPage data={data}>
      <GeneratorForm label="Countdown settings" loading={loading} submit={data.content.submit} onSubmit={submit}>
        <TimerTypeField type={choices.type} onChange={changeType} />
        {choices.type === 'fixed' && <HolidayPicks picks={picks} date={settings.date} onPick={(holiday) => update({ ...delayToHoliday(holiday.value, new Date()), date: holiday.value })} />}
        {choices.type === 'fixed' && settings.date && <input type="hidden" name="date" value={settings.date} />}
        {countsFromNow && <DelayFields settings={settings} amountText={amountText} caps={caps} onAmountText={typeAmount} onChange={update} onUnit={changeUnit} message={delayMessage} />}
        <TimerTypeFields choices={choices} error={error} onChange={updateChoices} />
        <div className="field-row">
          <FontSelect id="countdown-font" name="font" groups={data.fonts} value={settings.font} onChange={changeFont} message={messageFor(error, 'font')} text={`${settings.captions ? `${settings.days} ${settings.hours} ${settings.minutes} ${settings.seconds}` : ''} ${choices.expired === 'message' ? choices.message : ''}`} />
          <WeightSelect id="countdown-weight" name="weight" weights={font.weights} value={settings.weight} onChange={(weight) => update({ weight })} message={messageFor(error, 'font_weight')} />
        </div>
        <div className="field-row">
          <ColorField id="countdown-color" name="color" label="Digits color" value={settings.color} onChange={(color) => update({ color })} message={messageFor(error, 'color')} />
          <ColorField id="countdown-background" name="background" label="Background" value={settings.background} onChange={(background) => update({ background })} message={messageFor(error, 'background')} />
        </div>
        <CaptionFields settings={settings} error={error} onChange={update} />
        <ExpiryFields choices={choices} settings={settings} error={error} onChange={updateChoices} />
      </GeneratorForm>
      <ResultArea title={data.labels.result} loading={loading} error={error} empty={data.labels.resultEmpty}>
        {result && <CountdownResultView result={result} />}
      </ResultArea>
    </GeneratorPage>
  )
}

function CountdownResultView({ result }: { result: CountdownResult }) {
  const [platform, setPlatform] = useState<Platform>('mailchimp')
  const { choices } = result
  const tagged = choices.type === 'evergreen' || choices.type === 'per-recipient'
  const live = { url: withMergeTag(result.live.url, choices.type, platform), png_url: withMergeTag(result.live.png_url, choices.type, platform) }
  const snippet = liveTimerSnippet(live, result.captions)
  const notes = liveTimerNotes(choices)
  const height = countdownHeight(result.captions)
  return (
    <div className="countdown-result">
      {result.gif ? (
        <>
          <img className="result-image" src={result.gif.url} alt="Your countdown timer" width={COUNTDOWN_SIZE.width} height={height} />
          <div className="result-actions">
            <DownloadButton fileName="countdown.gif" blob={result.gif.blob} fallbackUrl={result.gif.url} label="Download GIF" />
          </div>
        </>
      ) : (
        <img className="result-image" src={previewUrl(result.live.url, choices)} alt="Your countdown timer" width={COUNTDOWN_SIZE.width} height={height} />
      )}
      <div className="live-timer">
        <h3>Live timer for your email</h3>
        <p className="field-hint">Drawn again whenever the email is opened, so it always shows the real time left. Outlook on Windows gets a still image.</p>
        {tagged && (
          <div className="field">
            <label htmlFor="live-platform">Sending platform</label>
            <select id="live-platform" value={platform} onChange={(event) => setPlatform(event.target.value as Platform)} aria-describedby="live-platform-hint">
              {PLATFORMS.map((name) => (
                <option key={name} value={name}>
                  {PLATFORM_NAMES[name]}
                </option>
              ))}
            </select>
            <p className="field-hint" id="live-platform-hint">
              {platform === 'other'
                ? `Replace ${choices.type === 'evergreen' ? 'RECIPIENT_ID with your platform’s tag for a subscriber’s id or address' : 'DEADLINE_DATE with your platform’s tag for the field holding each subscriber’s date'}.`
                : choices.type === 'evergreen'
                  ? 'The link ends with the platform’s tag for each subscriber, filled in when it sends.'
                  : 'The link ends with the tag of a list field named Deadline: rename it to your field.'}
            </p>
          </div>
        )}
        <div className="field">
          <label htmlFor="live-url">Timer image link</label>
          <input id="live-url" type="text" readOnly value={live.url} onFocus={(event) => event.target.select()} />
        </div>
        <CopyButton text={live.url} label="Copy link" />
        <div className="field">
          <label htmlFor="live-html">HTML for your email</label>
          <textarea id="live-html" readOnly rows={5} value={snippet} onFocus={(event) => event.target.select()} />
        </div>
        <CopyButton text={snippet} label="Copy HTML" />
        <p className="field-hint">
          Paste it with <kbd className="key-mac">⌘ V</kbd>
          <kbd className="key-other">Ctrl V</kbd> into an HTML block of your email editor.
        </p>
        {notes.length > 0 && (
          <ul className="live-timer-notes">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        )}
      </div>
      <SaveTimer key={result.madeAt.getTime()} settings={result.settings} choices={choices} platform={platform} madeAt={result.madeAt} timeZone={browserTimeZone()} />
    </div>
  )
}
