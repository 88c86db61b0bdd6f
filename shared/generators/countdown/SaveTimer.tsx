/**
 * "Save this timer", under a live timer's result: the timer is kept by id, so it can be changed
 * after the email is sent, its opens are counted, and a link under it can know its deadline. The
 * edit address holds the edit key, shown this once.
 */
import { useEffect, useRef, useState } from 'react'
import type { CountdownSettings } from './countdown.js'
import type { LiveTimerChoices, Platform } from './live-timer.js'
import { editAddress, savedTimerBody, savedTimerSnippet, taggedAddresses, type SavedAnswer, type SavedExtras } from './saved-timer.js'
import { LINK_MAX, SAVED_NAME_MAX } from './timer-basics.js'
import { CopyButton } from '../actions.js'
import { controlProps, Field, useFocusOnError } from '../fields.js'
import { messageFor } from '../GeneratorPage.js'
import { asGeneratorError, postForJson, type GeneratorError } from '../giffer-client.js'

interface SaveTimerProps {
  settings: CountdownSettings
  choices: LiveTimerChoices
  platform: Platform
  /** When the result was made, and the visitor's zone: a timer counting from now is saved with the deadline its link has. */
  madeAt: Date
  timeZone: string
}

/** The inputs of the fields the service may name. */
const SAVE_FIELDS: Readonly<Record<string, string>> = { name: 'saved-name', link: 'saved-link', link_expired: 'saved-link-expired' }

export function SaveTimer({ settings, choices, platform, madeAt, timeZone }: SaveTimerProps) {
  const [extras, setExtras] = useState<SavedExtras>({ name: '', link: '', linkExpired: '' })
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<GeneratorError | null>(null)
  const [saved, setSaved] = useState<SavedAnswer | null>(null)
  const change = (patch: Partial<SavedExtras>) => setExtras((current) => ({ ...current, ...patch }))
  useFocusOnError(error, SAVE_FIELDS)

  const save = async () => {
    setSaving(true)
    setError(null)
    try {
      setSaved(await postForJson<SavedAnswer>('countdown/timers', savedTimerBody(settings, choices, madeAt, timeZone, extras)))
    } catch (caught) {
      setError(asGeneratorError(caught))
    } finally {
      setSaving(false)
    }
  }

  if (saved) return <SavedTimerAddresses saved={saved} choices={choices} platform={platform} captions={settings.captions} />
  const general = error && !error.field?.match(/^(name|link|link_expired)$/) ? error.message : null
  return (
    <form
      className="saved-timer"
      aria-labelledby="save-timer-title"
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <h3 id="save-timer-title">Save this timer</h3>
      <p className="field-hint">Change its date or look after your email is sent, see how often it is opened, and add a link that knows when the time is up. Opens are counted without tracking anyone.</p>
      <Field id="saved-name" label="Name (optional)" message={messageFor(error, 'name')}>
        <input type="text" name="name" maxLength={SAVED_NAME_MAX} value={extras.name} onChange={(event) => change({ name: event.target.value })} {...controlProps('saved-name', messageFor(error, 'name'))} />
      </Field>
      <Field id="saved-link" label="Link under the timer (optional)" message={messageFor(error, 'link')}>
        <input type="url" name="link" maxLength={LINK_MAX} placeholder="https://" value={extras.link} onChange={(event) => change({ link: event.target.value })} {...controlProps('saved-link', messageFor(error, 'link'))} />
      </Field>
      <Field id="saved-link-expired" label="Link once the time is up (optional)" message={messageFor(error, 'link_expired')}>
        <input
          type="url"
          name="link_expired"
          maxLength={LINK_MAX}
          placeholder="https://"
          value={extras.linkExpired}
          onChange={(event) => change({ linkExpired: event.target.value })}
          {...controlProps('saved-link-expired', messageFor(error, 'link_expired'))}
        />
      </Field>
      {general && (
        <p className="field-message" role="alert">
          {general}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={saving} aria-busy={saving || undefined}>
        {saving ? 'Saving…' : 'Save this timer'}
      </button>
    </form>
  )
}

function SavedTimerAddresses({ saved, choices, platform, captions }: { saved: SavedAnswer; choices: LiveTimerChoices; platform: Platform; captions: boolean }) {
  const addresses = taggedAddresses(saved, choices.type, platform, Boolean(saved.timer.link))
  const snippet = savedTimerSnippet(addresses, captions)
  const edit = editAddress(window.location.origin, saved.id, saved.edit_key)
  const heading = useRef<HTMLHeadingElement>(null)
  // The form the visitor submitted is gone: the news takes its place, and the focus with it.
  useEffect(() => heading.current?.focus(), [])
  return (
    <section className="saved-timer" aria-labelledby="saved-timer-title">
      <h3 id="saved-timer-title" tabIndex={-1} ref={heading}>
        Timer saved
      </h3>
      <div className="field">
        <label htmlFor="saved-url">Saved timer image link</label>
        <input id="saved-url" type="text" readOnly value={addresses.url} onFocus={(event) => event.target.select()} />
      </div>
      <CopyButton text={addresses.url} label="Copy image link" />
      {addresses.link_url && (
        <>
          <div className="field">
            <label htmlFor="saved-link-url">Link for the button or image</label>
            <input id="saved-link-url" type="text" readOnly value={addresses.link_url} onFocus={(event) => event.target.select()} />
          </div>
          <CopyButton text={addresses.link_url} label="Copy link" />
        </>
      )}
      <div className="field">
        <label htmlFor="saved-html">HTML for your email</label>
        <textarea id="saved-html" readOnly rows={6} value={snippet} onFocus={(event) => event.target.select()} />
      </div>
      <CopyButton text={snippet} label="Copy HTML" />
      <div className="field">
        <label htmlFor="saved-edit">Edit address</label>
        <input id="saved-edit" type="text" readOnly value={edit} onFocus={(event) => event.target.select()} aria-describedby="saved-edit-warning" />
      </div>
      <p className="saved-warning" id="saved-edit-warning">
        <strong>Keep this address private.</strong> Whoever has it can change or delete this timer and see its counts. It is shown only this once, and it cannot be recovered.
      </p>
      <CopyButton text={edit} label="Copy edit address" />
    </section>
  )
}
