/**
 * The email subject line generator: its request and answer (`POST /app/api/v2/public/ai/
 * email-subject-generate`), and data/subject-lines.json, the phrase banks of the offline composer.
 * The browser imports types only.
 */
import { z } from 'zod'
import { INDUSTRY_VALUES, SUBJECT_COUNT_MAX, SUBJECT_COUNT_MIN, TONE_VALUES, TOPIC_MAX_LENGTH } from './options.js'

const oneOf = (values: readonly string[]) => (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be one of ${values.join(', ')}`)

export const subjectRequestSchema = z.object({
  industry: z.enum(INDUSTRY_VALUES, { error: oneOf(INDUSTRY_VALUES) }),
  tone: z.enum(TONE_VALUES, { error: oneOf(TONE_VALUES) }),
  // Checked as custom rules so that a value of the wrong type reads as such, not as a missing one.
  topic: z
    .custom<string>((value) => typeof value === 'string', 'must be text')
    .transform((topic) => topic.trim())
    .refine((topic) => topic.length <= TOPIC_MAX_LENGTH, `must be at most ${TOPIC_MAX_LENGTH} characters`)
    .default(''),
  emoji: z.custom<boolean>((value) => typeof value === 'boolean', 'must be true or false').default(false),
})

export type SubjectRequest = z.output<typeof subjectRequestSchema>

/** The answer: subject lines, and beside each (same index) a preheader, the inbox's preview line. */
export const subjectAnswerSchema = z
  .object({
    subjects: z.array(z.string().min(1)).min(SUBJECT_COUNT_MIN).max(SUBJECT_COUNT_MAX),
    preheaders: z.array(z.string().min(1)).min(SUBJECT_COUNT_MIN).max(SUBJECT_COUNT_MAX),
  })
  .refine((answer) => answer.preheaders.length === answer.subjects.length, { message: 'one preheader per subject', path: ['preheaders'] })

export type SubjectAnswer = z.output<typeof subjectAnswerSchema>

/** A template's slots: `{focus}` is the topic, or an industry thing when there is no topic. */
const PLACEHOLDER = /\{([a-z]+)\}/g

function template(required: string[], allowed: string[]) {
  return z
    .string()
    .min(8)
    .max(120)
    .superRefine((text, ctx) => {
      const used = [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!)
      for (const name of used) if (!allowed.includes(name)) ctx.addIssue({ code: 'custom', message: `unknown slot {${name}}` })
      for (const name of required) if (!used.includes(name)) ctx.addIssue({ code: 'custom', message: `needs the slot {${name}}` })
    })
}

const emojiList = z.array(z.string().regex(/^\p{Extended_Pictographic}\uFE0F?$/u, 'must be one emoji')).min(3)

export const subjectPhrasesSchema = z.object({
  /** Per tone: lines about one focus, lines joining the topic and an industry thing, preheaders, emoji. */
  tones: z.record(
    z.enum(TONE_VALUES),
    z.object({
      subjects: z.array(template(['focus'], ['focus'])).min(12),
      paired: z.array(template(['topic', 'thing'], ['topic', 'thing'])).min(2),
      preheaders: z.array(template([], ['focus'])).min(SUBJECT_COUNT_MAX),
      emoji: emojiList,
    }),
  ),
  /** Per industry: the things its mail is about (noun phrases), its own preheaders, emoji. */
  industries: z.record(
    z.enum(INDUSTRY_VALUES),
    z.object({
      things: z.array(z.string().min(3).max(30)).min(6),
      preheaders: z.array(template([], [])).min(4),
      emoji: emojiList,
    }),
  ),
})

export type SubjectPhrases = z.output<typeof subjectPhrasesSchema>
