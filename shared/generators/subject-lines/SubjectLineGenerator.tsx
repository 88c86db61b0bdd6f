import { useEffect, useState } from 'react'
import { INDUSTRIES, MOBILE_SUBJECT_CUTOFF, spamTriggers, TONES, TOPIC_MAX_LENGTH } from './options.js'
import { SiteLink } from '../../components/SiteLink.js'
import { CopyButton } from '../actions.js'
import { controlProps, Field } from '../fields.js'
import { GeneratorForm, GeneratorPage, ResultArea } from '../GeneratorPage.js'
import { GeneratorError } from '../giffer-client.js'
import { useSettingsInUrl } from '../page-hooks.js'
import { useGeneratorRun } from '../use-generator-run.js'
import { usePageData } from '../../page-data.js'
import {
  isIndustry,
  isTone,
  limitTopic,
  mobileInboxCut,
  NO_SUBJECTS,
  parseSavedPrompts,
  promptLabel,
  READY_PROMPTS,
  rememberPrompt,
  SAVED_PROMPTS_KEY,
  subjectQuery,
  subjectRequest,
  SUBJECTS_ENDPOINT,
  type SubjectSettings,
} from './subject-lines.js'

interface Subject {
  subject: string
  preheader: string | null
}

/** The dashboard's errors: `{"errors": {"topic": ["…"]}}` or `{"message": "…"}`. */
async function failureOf(response: Response): Promise<GeneratorError> {
  try {
    const body = (await response.json()) as { message?: unknown; errors?: Record<string, unknown> }
    const [field, messages] = Object.entries(body.errors ?? {})[0] ?? []
    const first = Array.isArray(messages) ? messages[0] : undefined
    if (field && typeof first === 'string') return new GeneratorError(`${field}: ${first}`, field)
    if (typeof body.message === 'string' && body.message) return new GeneratorError(body.message)
  } catch {
    // Not JSON.
  }
  return new GeneratorError(`HTTP ${response.status}`)
}

async function generateSubjects(settings: SubjectSettings, signal: AbortSignal): Promise<Subject[]> {
  const response = await fetch(SUBJECTS_ENDPOINT, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(subjectRequest(settings)),
    signal,
  })
  if (!response.ok) throw await failureOf(response)
  const body = (await response.json()) as { subjects?: unknown; preheaders?: unknown }
  const subjects = Array.isArray(body.subjects) ? body.subjects.filter((line): line is string => typeof line === 'string' && line.trim() !== '') : []
  const preheaders = Array.isArray(body.preheaders) ? body.preheaders : []
  return subjects.map((subject, index) => ({ subject, preheader: typeof preheaders[index] === 'string' ? preheaders[index] : null }))
}

export default function SubjectLineGenerator() {
  const data = usePageData('subject-line-generator')
  const [settings, setSettings] = useState<SubjectSettings>(data.settings)
  const [saved, setSaved] = useState<SubjectSettings[]>([])
  const { status, result, error, run } = useGeneratorRun<Subject[]>()
  const loading = status === 'loading'

  useSettingsInUrl(subjectQuery(settings))
  const update = (patch: Partial<SubjectSettings>) => setSettings((current) => ({ ...current, ...patch }))

  useEffect(() => {
    try {
      setSaved(parseSavedPrompts(window.localStorage.getItem(SAVED_PROMPTS_KEY)))
    } catch {
      // Storage may be off (private mode, blocked cookies): nothing saved then.
    }
  }, [])

  const submit = () =>
    void run(async (signal) => {
      const subjects = await generateSubjects(settings, signal)
      const next = rememberPrompt(saved, settings)
      setSaved(next)
      try {
        window.localStorage.setItem(SAVED_PROMPTS_KEY, JSON.stringify(next))
      } catch {
        // Not saved; the result still shows.
      }
      return subjects
    })

  const topicMessage = error?.field === 'topic' ? error.message.replace(/^topic: /, '') : null

  return (
    <GeneratorPage data={data}>
      <GeneratorForm label="Subject line settings" loading={loading} submit={data.content.submit} onSubmit={submit}>
        {saved.length > 0 && (
          <Field id="subject-saved" label="Your saved prompts">
            <select id="subject-saved" value="" onChange={(event) => event.target.value !== '' && setSettings(saved[Number(event.target.value)]!)}>
              <option value="">Choose a saved prompt…</option>
              {saved.map((prompt, index) => (
                <option key={promptLabel(prompt)} value={index}>
                  {promptLabel(prompt)}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field id="subject-ready" label="Ready prompts">
          <select id="subject-ready" value="" onChange={(event) => event.target.value !== '' && setSettings(READY_PROMPTS[Number(event.target.value)]!)}>
            <option value="">Choose a ready prompt…</option>
            {READY_PROMPTS.map((prompt, index) => (
              <option key={prompt.topic} value={index}>
                {promptLabel(prompt)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="subject-topic" label="What is your email about?" message={topicMessage}>
          <textarea
            name="topic"
            rows={3}
            maxLength={TOPIC_MAX_LENGTH}
            placeholder="For example: our summer sale starts Friday, 25% off sandals"
            value={settings.topic}
            onChange={(event) => update({ topic: limitTopic(event.target.value) })}
            {...controlProps('subject-topic', topicMessage)}
          />
        </Field>
        <div className="field-row">
          <Field id="subject-industry" label="Industry" message={error?.field === 'industry' ? error.message : null}>
            <select id="subject-industry" name="industry" value={settings.industry} onChange={(event) => isIndustry(event.target.value) && update({ industry: event.target.value })}>
              {INDUSTRIES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </Field>
          <Field id="subject-tone" label="Tone" message={error?.field === 'tone' ? error.message : null}>
            <select id="subject-tone" name="tone" value={settings.tone} onChange={(event) => isTone(event.target.value) && update({ tone: event.target.value })}>
              {TONES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="field field-check">
          <input type="checkbox" id="subject-emoji" name="emoji" value="1" checked={settings.emoji} onChange={(event) => update({ emoji: event.target.checked })} />
          <label htmlFor="subject-emoji">Add emoji</label>
        </div>
      </GeneratorForm>
      <ResultArea title={data.labels.result} loading={loading} error={error} empty="Your subject lines appear here.">
        {result &&
          (result.length === 0 ? (
            <p className="result-empty">{NO_SUBJECTS}</p>
          ) : (
            <ul className="subject-list">
              {result.map((line) => (
                <SubjectRow key={line.subject} line={line} />
              ))}
              <li className="subject-link">
                <SiteLink href="/start/">Write the whole email with Poplift: free email editor and AI text generator →</SiteLink>
              </li>
            </ul>
          ))}
      </ResultArea>
    </GeneratorPage>
  )
}

function SubjectRow({ line }: { line: Subject }) {
  const triggers = spamTriggers(line.subject)
  const inbox = mobileInboxCut(line.subject)
  return (
    <li className="subject-row">
      <div className="subject-text">
        <p className="subject-line">{line.subject}</p>
        {line.preheader && <p className="subject-preheader">{line.preheader}</p>}
        <p className="inbox-row" title={`How a phone's inbox shows it: about ${MOBILE_SUBJECT_CUTOFF} characters`}>
          <span className="visually-hidden">On a phone: </span>
          <strong>{inbox.shown}</strong>
          {inbox.cut && <span className="inbox-note"> cut on phones</span>}
        </p>
        {triggers.length > 0 && (
          <p className="spam-warning">
            May look like spam: {triggers.map((trigger) => `“${trigger}”`).join(', ')}
          </p>
        )}
      </div>
      <CopyButton text={line.subject} label="Copy" className="button button-secondary" />
    </li>
  )
}
