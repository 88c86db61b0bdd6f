/**
 * The subject-line generator page's rules: its settings and the address that keeps them, the
 * ready prompts, the prompts a visitor saved (kept in the browser), and the request.
 */
import { INDUSTRIES, MOBILE_SUBJECT_CUTOFF, TONES, TOPIC_MAX_LENGTH, type Industry, type Tone } from './options.js'

/** Where the generator calls: the dashboard's public AI endpoint, on the site's origin. */
export const SUBJECTS_ENDPOINT = '/app/api/v2/public/ai/email-subject-generate'
/** Shown when the answer holds no subject line. */
export const NO_SUBJECTS = 'No email subject line returned.'
/** How many prompts the browser keeps, newest first. */
export const SAVED_PROMPTS_MAX = 10
export const SAVED_PROMPTS_KEY = 'poplift.subjectPrompts'

export interface SubjectSettings {
  topic: string
  industry: Industry
  tone: Tone
  emoji: boolean
}

export const SUBJECT_DEFAULTS: Readonly<SubjectSettings> = { topic: '', industry: 'ecommerce', tone: 'friendly', emoji: false }

/** Prompts to start from: a topic with the industry and tone that suit it. */
export const READY_PROMPTS: readonly SubjectSettings[] = [
  { topic: 'Black Friday: 30% off everything for 48 hours', industry: 'ecommerce', tone: 'urgent', emoji: true },
  { topic: 'Our new spring collection is here', industry: 'fashion', tone: 'playful', emoji: true },
  { topic: 'Welcome to our newsletter, here is 10% off your first order', industry: 'ecommerce', tone: 'friendly', emoji: false },
  { topic: 'You left something in your cart', industry: 'ecommerce', tone: 'witty', emoji: false },
  { topic: 'Last seats for our spring workshop', industry: 'education', tone: 'urgent', emoji: false },
  { topic: 'New feature: schedule reports to your team', industry: 'saas', tone: 'informative', emoji: false },
  { topic: 'Summer getaway deals to the coast', industry: 'travel', tone: 'inspirational', emoji: true },
  { topic: 'Our limited holiday candle collection', industry: 'home-garden', tone: 'luxurious', emoji: false },
  { topic: 'Join our charity run this weekend', industry: 'nonprofit', tone: 'inspirational', emoji: true },
  { topic: 'New class schedule and a free trial week', industry: 'fitness', tone: 'friendly', emoji: true },
]

const industries = new Set<string>(INDUSTRIES.map((option) => option.value))
const tones = new Set<string>(TONES.map((option) => option.value))
export const isIndustry = (value: unknown): value is Industry => typeof value === 'string' && industries.has(value)
export const isTone = (value: unknown): value is Tone => typeof value === 'string' && tones.has(value)

/** What the topic box keeps: at most the length the service takes. */
export const limitTopic = (topic: string) => topic.slice(0, TOPIC_MAX_LENGTH)

/** The body of the generate request: the topic trimmed (it may be empty). */
export function subjectRequest(settings: SubjectSettings) {
  return { industry: settings.industry, tone: settings.tone, topic: settings.topic.trim(), emoji: settings.emoji }
}

/** The settings as the page's query string: only what differs from the defaults. */
export function subjectQuery(settings: SubjectSettings): string {
  const query = new URLSearchParams()
  if (settings.topic.trim()) query.set('topic', settings.topic.trim())
  if (settings.industry !== SUBJECT_DEFAULTS.industry) query.set('industry', settings.industry)
  if (settings.tone !== SUBJECT_DEFAULTS.tone) query.set('tone', settings.tone)
  if (settings.emoji) query.set('emoji', '1')
  return query.toString()
}

/** Settings from a query string, each bad value replaced by its default. */
export function subjectSettingsFromQuery(search: URLSearchParams): SubjectSettings {
  const industry = search.get('industry')
  const tone = search.get('tone')
  return {
    topic: limitTopic((search.get('topic') ?? '').trim()),
    industry: isIndustry(industry) ? industry : SUBJECT_DEFAULTS.industry,
    tone: isTone(tone) ? tone : SUBJECT_DEFAULTS.tone,
    emoji: search.get('emoji') === '1' || search.get('emoji') === 'on',
  }
}

/** A label for a prompt in the saved and ready lists. */
export function promptLabel(settings: SubjectSettings): string {
  const industry = INDUSTRIES.find((option) => option.value === settings.industry)!.label
  const tone = TONES.find((option) => option.value === settings.tone)!.label
  const topic = settings.topic.trim() || 'Any topic'
  return `${topic.length > 60 ? `${topic.slice(0, 59)}…` : topic} (${industry}, ${tone.toLowerCase()}${settings.emoji ? ', emoji' : ''})`
}

/** The saved list after using a prompt: it moves to the front, once, and the list stays short. */
export function rememberPrompt(saved: readonly SubjectSettings[], used: SubjectSettings): SubjectSettings[] {
  const clean = subjectRequest(used)
  const same = (other: SubjectSettings) => other.topic === clean.topic && other.industry === clean.industry && other.tone === clean.tone && other.emoji === clean.emoji
  return [clean, ...saved.filter((other) => !same(other))].slice(0, SAVED_PROMPTS_MAX)
}

/** The saved prompts as stored, dropping anything that is not a prompt (an old or edited entry). */
export function parseSavedPrompts(stored: string | null): SubjectSettings[] {
  if (!stored) return []
  try {
    const value: unknown = JSON.parse(stored)
    if (!Array.isArray(value)) return []
    return value
      .filter(
        (entry): entry is SubjectSettings =>
          typeof entry === 'object' && entry !== null && typeof entry.topic === 'string' && isIndustry(entry.industry) && isTone(entry.tone) && typeof entry.emoji === 'boolean',
      )
      .map((entry) => ({ ...entry, topic: limitTopic(entry.topic) }))
      .slice(0, SAVED_PROMPTS_MAX)
  } catch {
    return []
  }
}

/** A subject line as a phone's inbox row shows it: cut at about 40 characters with an ellipsis. */
export function mobileInboxCut(subject: string): { shown: string; cut: boolean } {
  const characters = [...subject]
  if (characters.length <= MOBILE_SUBJECT_CUTOFF) return { shown: subject, cut: false }
  return { shown: `${characters.slice(0, MOBILE_SUBJECT_CUTOFF - 1).join('').trimEnd()}…`, cut: true }
}
