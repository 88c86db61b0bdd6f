import { useEffect, useRef, useState } from 'react'
import { CopyButton, DownloadButton } from '../actions.js'
import { ColorField, Field } from '../fields.js'
import { GeneratorForm, GeneratorPage } from '../GeneratorPage.js'
import { useSettingsInUrl } from '../page-hooks.js'
import type { FontOption } from '../types.js'
import type { FontScript } from '../font-coverage.js'
import { fontsCovering, missingScripts, noLettersMessage, scriptsOf } from '../font-coverage.js'
import { usePageData } from '../../page-data.js'
import {
  limitText,
  snapLineHeight,
  snapStroke,
  snapTextSize,
  TEXT_ALIGNMENTS,
  TEXT_LINE_HEIGHT,
  TEXT_MAX_LINE_CHARS,
  TEXT_MAX_LINES,
  TEXT_PROMPTS,
  TEXT_SIZE,
  TEXT_STROKE,
  TEXT_STYLE_GROUPS,
  textImageFileName,
  textImageQuery,
  textLines,
  textPreviewUrl,
  type TextImageSettings,
} from './text-image.js'

/** Cards drawn at once; the rest load as they come near the screen. */
const EAGER_CARDS = 6
const ALIGN_NAMES = { left: 'Left', center: 'Center', right: 'Right' } as const

export default function TextImageGenerator() {
  const data = usePageData('text-image-generator')
  const [settings, setSettings] = useState<TextImageSettings>(data.settings)
  // What the cards show: the settings of the last submit.
  const [drawn, setDrawn] = useState<TextImageSettings>(data.settings)
  const [pending, setPending] = useState(0)
  const [coveringOnly, setCoveringOnly] = useState(false)
  // Letters some fonts lack (Cyrillic, Greek): the visitor may list only the fonts that draw them.
  const needed = scriptsOf(drawn.text)
  const needsCoverage = needed.some((script) => script !== 'latin')
  const groupFonts = data.fonts[drawn.group]
  const covering = needsCoverage ? fontsCovering(groupFonts, needed) : groupFonts
  const fonts = coveringOnly ? covering : groupFonts
  const loading = pending > 0

  useSettingsInUrl(textImageQuery(drawn))
  const update = (patch: Partial<TextImageSettings>) => setSettings((current) => ({ ...current, ...patch }))

  const submit = () => {
    if (loading) return
    const next = { ...settings, text: textLines(settings.text).join('\n') }
    if (!next.text) return
    setSettings(next)
    if (textImageQuery(next) === textImageQuery(drawn)) return
    // The first cards are drawn straight away; the button reads "loading" until they are.
    setPending(Math.min(EAGER_CARDS, data.fonts[next.group].length))
    setDrawn(next)
  }
  const settle = () => setPending((count) => Math.max(0, count - 1))
  const empty = textLines(settings.text).join('').trim() === ''

  return (
    <GeneratorPage data={data}>
      <GeneratorForm label="Text image settings" loading={loading} submit={data.content.submit} onSubmit={submit}>
        <Field id="text-prompt" label="Ready texts">
          <select id="text-prompt" value="" onChange={(event) => event.target.value && update({ text: event.target.value })}>
            <option value="">Choose a text…</option>
            {TEXT_PROMPTS.map((prompt) => (
              <option key={prompt} value={prompt}>
                {prompt.replace('\n', ' ')}
              </option>
            ))}
          </select>
        </Field>
        <Field id="text-text" label="Your text" message={empty ? 'Type a text to draw.' : null}>
          <textarea
            id="text-text"
            name="text"
            rows={TEXT_MAX_LINES}
            value={settings.text}
            onChange={(event) => update({ text: limitText(event.target.value) })}
            aria-describedby="text-text-hint"
            aria-invalid={empty || undefined}
          />
        </Field>
        <p className="field-hint" id="text-text-hint">
          Up to {TEXT_MAX_LINES} lines of {TEXT_MAX_LINE_CHARS} characters.
        </p>
        <fieldset className="field radio-row">
          <legend>Font style</legend>
          {TEXT_STYLE_GROUPS.map((group) => (
            <label key={group.value}>
              <input type="radio" name="group" value={group.value} checked={settings.group === group.value} onChange={() => update({ group: group.value })} /> {group.label}{' '}
              <span className="chip-note">({data.fonts[group.value].length})</span>
            </label>
          ))}
        </fieldset>
        <div className="field-row">
          <fieldset className="field radio-row">
            <legend>Alignment</legend>
            {TEXT_ALIGNMENTS.map((align) => (
              <label key={align}>
                <input type="radio" name="align" value={align} checked={settings.align === align} onChange={() => update({ align })} /> {ALIGN_NAMES[align]}
              </label>
            ))}
          </fieldset>
          <ColorField id="text-color" name="color" label="Text color" value={settings.color} onChange={(color) => update({ color })} />
        </div>
        <div className="field-row">
          <Field id="text-size" label={`Font size: ${settings.size} px`}>
            <input id="text-size" type="range" name="size" min={TEXT_SIZE.min} max={TEXT_SIZE.max} step={TEXT_SIZE.step} value={settings.size} onChange={(event) => update({ size: snapTextSize(Number(event.target.value)) })} />
          </Field>
          <Field id="text-line-height" label={`Line height: ${settings.lineHeight.toFixed(1)}`}>
            <input
              id="text-line-height"
              type="range"
              name="lineHeight"
              min={TEXT_LINE_HEIGHT.min}
              max={TEXT_LINE_HEIGHT.max}
              step={TEXT_LINE_HEIGHT.step}
              value={settings.lineHeight}
              onChange={(event) => update({ lineHeight: snapLineHeight(Number(event.target.value)) })}
            />
          </Field>
        </div>
        <div className="field-row">
          <Field id="text-stroke" label={settings.stroke ? `Stroke size: ${settings.stroke} px` : 'Stroke size: none'}>
            <input id="text-stroke" type="range" name="stroke" min={TEXT_STROKE.min} max={TEXT_STROKE.max} step={TEXT_STROKE.step} value={settings.stroke} onChange={(event) => update({ stroke: snapStroke(Number(event.target.value)) })} />
          </Field>
          <ColorField id="text-stroke-color" name="strokeColor" label="Stroke color" value={settings.strokeColor} onChange={(strokeColor) => update({ strokeColor })} />
        </div>
      </GeneratorForm>
      <section className="generator-result text-image-result" aria-labelledby="result-title" aria-busy={loading}>
        <h2 id="result-title">
          {TEXT_STYLE_GROUPS.find((group) => group.value === drawn.group)!.label} fonts: {fonts.length}
        </h2>
        {needsCoverage && (
          <div className="field field-check">
            <input type="checkbox" id="text-covering" checked={coveringOnly} onChange={(event) => setCoveringOnly(event.target.checked)} />
            <label htmlFor="text-covering">
              Only fonts that draw my text ({covering.length} of {groupFonts.length})
            </label>
          </div>
        )}
        <div className="info-block">
          <p>Download a PNG with a transparent background, or copy its link and paste it into the image block of your email editor. Each image is drawn at twice its size, so it stays sharp on every screen.</p>
        </div>
        <ul className="text-image-cards">
          {fonts.map((font, index) => (
            <TextImageCard
              key={font.id}
              font={font}
              src={textPreviewUrl(drawn, font.id)}
              lacking={missingScripts(font, needed)}
              eager={index < EAGER_CARDS}
              onSettled={index < EAGER_CARDS ? settle : undefined}
            />
          ))}
        </ul>
      </section>
    </GeneratorPage>
  )
}

type CardState = 'loading' | 'ok' | 'error'

interface TextImageCardProps {
  font: FontOption
  src: string
  /** Alphabets of the text the font cannot draw: the card says so instead of drawing. */
  lacking: FontScript[]
  eager: boolean
  onSettled?: () => void
}

/**
 * One font's image: loading, then shown with its actions, or an error without them. A font
 * that lacks letters of the text gets a written notice and no image to download, rather than
 * the fallback face under its name.
 */
function TextImageCard(props: TextImageCardProps) {
  if (props.lacking.length > 0) return <MissingLettersCard font={props.font} lacking={props.lacking} onSettled={props.onSettled} src={props.src} />
  return <DrawnTextImageCard {...props} />
}

function MissingLettersCard({ font, lacking, src, onSettled }: Pick<TextImageCardProps, 'font' | 'lacking' | 'src' | 'onSettled'>) {
  // Counts as settled at once: there is no image to wait for.
  useEffect(() => onSettled?.(), [src])
  return (
    <li className="text-image-card is-missing">
      <h3>{font.family}</h3>
      <div className="text-image-frame">
        <p className="card-status">{noLettersMessage(lacking)}</p>
      </div>
    </li>
  )
}

function DrawnTextImageCard({ font, src, eager, onSettled }: TextImageCardProps) {
  const [state, setState] = useState<CardState>('loading')
  const image = useRef<HTMLImageElement>(null)
  const settledFor = useRef<string | null>(null)
  const settle = (next: CardState) => {
    setState(next)
    if (settledFor.current !== src) {
      settledFor.current = src
      onSettled?.()
    }
  }
  // A card kept across submits starts again with its new image.
  useEffect(() => {
    const element = image.current
    // An image the server page already loaded (or failed) before the script ran.
    if (element?.complete && element.currentSrc.endsWith(src)) settle(element.naturalWidth > 0 ? 'ok' : 'error')
    else setState('loading')
  }, [src])
  const absolute = () => new URL(src, window.location.href).href
  return (
    <li className={`text-image-card is-${state}`}>
      <h3>{font.family}</h3>
      <div className="text-image-frame">
        <img ref={image} src={src} alt={`Your text in ${font.family}`} loading={eager ? 'eager' : 'lazy'} decoding="async" onLoad={() => settle('ok')} onError={() => settle('error')} />
        {state === 'loading' && <span className="card-status">Loading…</span>}
        {state === 'error' && (
          <span className="card-status" role="status">
            Image not loaded
          </span>
        )}
      </div>
      {state === 'ok' && (
        <div className="card-actions">
          <DownloadButton fileName={textImageFileName(font.id)} image={() => image.current} fallbackUrl={src} />
          <a className="button button-ghost" href={src} target="_blank" rel="noopener">
            Open image
          </a>
          <CopyButton text={absolute} label="Copy link" className="button button-ghost" />
        </div>
      )}
    </li>
  )
}
