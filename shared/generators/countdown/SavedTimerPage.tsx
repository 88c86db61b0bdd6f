/**
 * A saved timer's edit page, at the edit address handed out when it was saved. The key is in the
 * address's fragment, which the browser keeps to itself: the page reads it and sends it to the
 * image service's API as a bearer token. Nothing of the timer is in the page the server draws,
 * which is the same for every timer.
 */
import { useEffect, useRef, useState } from 'react'
import { COUNTDOWN_SIZE, countdownHeight } from './timer-basics.js'
import { editPreviewUrl, keyFromHash, savedTimerCall, type SavedTimerView } from './saved-timer-edit.js'
import { SavedTimerForm } from './SavedTimerForm.js'
import { TimerStatsSection } from './TimerStats.js'
import { Seo } from '../../components/Seo.js'
import { SiteLink } from '../../components/SiteLink.js'
import { usePageData } from '../../page-data.js'
import { browserTimeZone } from '../../dates.js'

type Loaded = { state: 'loading' } | { state: 'no-key' } | { state: 'failed'; message: string } | { state: 'ready'; key: string; timer: SavedTimerView } | { state: 'deleted' }

const KIND_NAMES: Readonly<Record<SavedTimerView['kind'], string>> = {
  fixed: 'One date',
  evergreen: 'From each subscriber’s first open',
  'per-recipient': 'A date from your list',
  recurring: 'Every day or week at a time',
}

function useSavedTimer(id: string): [Loaded, (loaded: Loaded) => void] {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' })
  useEffect(() => {
    const key = keyFromHash(window.location.hash)
    if (!key) return setLoaded({ state: 'no-key' })
    const controller = new AbortController()
    savedTimerCall<{ timer: SavedTimerView }>(`timers/${encodeURIComponent(id)}`, key, { signal: controller.signal }).then(
      ({ timer }) => setLoaded({ state: 'ready', key, timer }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ state: 'failed', message: error instanceof Error ? error.message : String(error) })
      },
    )
    return () => controller.abort()
  }, [id])
  return [loaded, setLoaded]
}

export default function SavedTimerPage() {
  const { id, fonts, generatorPath } = usePageData('saved-timer')
  const [loaded, setLoaded] = useSavedTimer(id)
  const [browserZone] = useState(browserTimeZone)
  return (
    <div className="page saved-timer-page">
      <Seo title="Your saved countdown timer" description="Change a saved countdown timer after your email is sent, and see how often it is opened." noindex />
      <header className="page-head">
        <h1>{loaded.state === 'ready' && loaded.timer.name ? loaded.timer.name : 'Your saved timer'}</h1>
        {loaded.state === 'ready' && <p className="lead">{KIND_NAMES[loaded.timer.kind]}. Changes show in every email already sent.</p>}
      </header>
      {loaded.state === 'loading' && <p role="status">Loading the timer…</p>}
      {loaded.state === 'no-key' && (
        <p role="alert">This address has no edit key. Open the edit address you were given when you saved the timer: it ends in #key= and a long code.</p>
      )}
      {loaded.state === 'failed' && (
        <p role="alert">
          This timer cannot be opened: {loaded.message} Check that the address is the whole edit address you were given; a deleted timer cannot be opened again.{' '}
          <SiteLink href={generatorPath}>Make a new timer</SiteLink>
        </p>
      )}
      {loaded.state === 'deleted' && (
        <p role="status">
          Timer deleted. Its images now show the timer as ended, and its counts are gone. <SiteLink href={generatorPath}>Make a new timer</SiteLink>
        </p>
      )}
      {loaded.state === 'ready' && (
        <>
          <div className="saved-timer-edit">
            <SavedTimerForm timer={loaded.timer} editKey={loaded.key} fonts={fonts} browserZone={browserZone} onSaved={(timer) => setLoaded({ ...loaded, timer })} />
            <figure className="saved-timer-preview">
              <img src={editPreviewUrl(loaded.timer)} alt="The timer as it shows now" width={COUNTDOWN_SIZE.width} height={countdownHeight(true)} />
              <figcaption>As it shows now{loaded.timer.kind === 'evergreen' ? ' to a subscriber opening it for the first time' : ''}.</figcaption>
            </figure>
          </div>
          <TimerStatsSection id={loaded.timer.id} editKey={loaded.key} />
          <DeleteTimer id={loaded.timer.id} editKey={loaded.key} onDeleted={() => setLoaded({ state: 'deleted' })} />
        </>
      )}
    </div>
  )
}

function DeleteTimer({ id, editKey, onDeleted }: { id: string; editKey: string; onDeleted: () => void }) {
  const [asking, setAsking] = useState(false)
  const [failed, setFailed] = useState<string | null>(null)
  const question = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (asking) question.current?.focus()
  }, [asking])
  const remove = async () => {
    try {
      await savedTimerCall<void>(`timers/${encodeURIComponent(id)}`, editKey, { method: 'DELETE' })
      onDeleted()
    } catch (error) {
      setFailed(error instanceof Error ? error.message : String(error))
    }
  }
  return (
    <section className="delete-timer" aria-labelledby="delete-timer-title">
      <h2 id="delete-timer-title">Delete this timer</h2>
      {!asking ? (
        <button type="button" className="button button-secondary" onClick={() => setAsking(true)}>
          Delete this timer…
        </button>
      ) : (
        <div className="delete-confirm">
          <p ref={question} tabIndex={-1}>
            Delete this timer? Emails already sent will show it as ended, its link will stop working, and its counts are deleted. This cannot be undone.
          </p>
          <button type="button" className="button button-danger" onClick={() => void remove()}>
            Delete
          </button>{' '}
          <button type="button" className="button button-secondary" onClick={() => setAsking(false)}>
            Keep it
          </button>
        </div>
      )}
      {failed && (
        <p className="field-message" role="alert">
          The timer was not deleted: {failed}
        </p>
      )}
    </section>
  )
}
