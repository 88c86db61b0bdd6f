/**
 * The email subject line generator's shared vocabulary: the industry and tone choices (the
 * page's selects and the server's validation use the same lists), the request bounds, and the
 * checks the page shows beside each subject line (spam words, the mobile inbox cut).
 * Plain data and functions only: the browser imports this module.
 */

export interface SubjectOption<V extends string = string> {
  value: V
  label: string
}

export const INDUSTRIES = [
  { value: 'ecommerce', label: 'E-commerce' },
  { value: 'fashion', label: 'Fashion' },
  { value: 'beauty', label: 'Beauty' },
  { value: 'food-drink', label: 'Food & drink' },
  { value: 'travel', label: 'Travel' },
  { value: 'education', label: 'Education' },
  { value: 'saas', label: 'SaaS' },
  { value: 'fitness', label: 'Fitness' },
  { value: 'real-estate', label: 'Real estate' },
  { value: 'finance', label: 'Finance' },
  { value: 'health', label: 'Health' },
  { value: 'events', label: 'Events' },
  { value: 'nonprofit', label: 'Nonprofit' },
  { value: 'home-garden', label: 'Home & garden' },
  { value: 'entertainment', label: 'Entertainment' },
] as const satisfies readonly SubjectOption[]

export const TONES = [
  { value: 'friendly', label: 'Friendly' },
  { value: 'professional', label: 'Professional' },
  { value: 'urgent', label: 'Urgent' },
  { value: 'playful', label: 'Playful' },
  { value: 'luxurious', label: 'Luxurious' },
  { value: 'witty', label: 'Witty' },
  { value: 'inspirational', label: 'Inspirational' },
  { value: 'informative', label: 'Informative' },
] as const satisfies readonly SubjectOption[]

export type Industry = (typeof INDUSTRIES)[number]['value']
export type Tone = (typeof TONES)[number]['value']

export const INDUSTRY_VALUES = INDUSTRIES.map((option) => option.value) as [Industry, ...Industry[]]
export const TONE_VALUES = TONES.map((option) => option.value) as [Tone, ...Tone[]]

/** The topic box: what the email is about, in the visitor's words. */
export const TOPIC_MAX_LENGTH = 200

/** An answer holds this many subject lines. */
export const SUBJECT_COUNT_MIN = 5
export const SUBJECT_COUNT_MAX = 10

/** Characters of a subject line a phone's inbox row shows before cutting it off. */
export const MOBILE_SUBJECT_CUTOFF = 40

/**
 * Words and phrases that mail filters and wary readers associate with spam. Matched whole,
 * case-insensitively; a space or hyphen in an entry matches either.
 */
const SPAM_PHRASES = [
  '100% free',
  '100% satisfied',
  'act now',
  'apply now',
  'as seen on',
  'buy now',
  'call now',
  'cash bonus',
  'cheap',
  'claim your prize',
  'click here',
  'congratulations',
  'dear friend',
  'double your',
  'earn money',
  'extra income',
  'fast cash',
  'final notice',
  'free money',
  'get paid',
  'get rich',
  'guaranteed',
  'lose weight',
  'lowest price',
  'make money',
  'miracle',
  'no catch',
  'no credit check',
  'no obligation',
  'no strings attached',
  'once in a lifetime',
  'open immediately',
  'order now',
  'risk-free',
  'this is not spam',
  'urgent',
  'winner',
  'you have been selected',
  "you've been selected",
  'you won',
]

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The phrases as patterns, compiled on first use: Unicode classes are slow to build, and a page that loads may never check a line. */
let spamPatterns: { phrase: string; pattern: RegExp }[] | undefined
const compileSpamPatterns = () =>
  SPAM_PHRASES.map((phrase) => {
    const body = phrase
      .split(/[\s-]+/)
      .map(escapeRegExp)
      .join('[\\s-]+')
    // Word edges only where the phrase itself starts or ends with a letter or digit; an
    // apostrophe belongs to the word ("you won't" is not "you won").
    const start = /^\w/.test(phrase) ? "(?<![\\p{L}\\p{N}'])" : ''
    const end = /\w$/.test(phrase) ? "(?![\\p{L}\\p{N}'])" : ''
    return { phrase, pattern: new RegExp(`${start}${body}${end}`, 'iu') }
  })

/** Two or more exclamation marks in a row read as shouting. */
const EXCLAMATION_RUN = /!{2,}/gu
/** A shouted word: four or more letters, all capitals (shorter ones are usually acronyms). */
const SHOUTED_WORD = /(?<![\p{L}\p{N}])\p{Lu}{4,}(?![\p{L}\p{N}])/gu
/** Dollar signs in a row ("$$$"). */
const DOLLAR_RUN = /\${2,}/gu

/**
 * The spam triggers in a subject line, in the order they appear: listed phrases (lower case,
 * as listed), runs of exclamation marks and dollar signs, and words in capitals, as written.
 * Empty when the line is clean.
 */
export function spamTriggers(subject: string): string[] {
  const text = subject.replace(/[\u2018\u2019]/g, "'")
  const found: Array<{ at: number; trigger: string }> = []
  spamPatterns ??= compileSpamPatterns()
  for (const { phrase, pattern } of spamPatterns) {
    const match = pattern.exec(text)
    if (match) found.push({ at: match.index, trigger: phrase })
  }
  for (const pattern of [EXCLAMATION_RUN, DOLLAR_RUN, SHOUTED_WORD]) {
    for (const match of text.matchAll(pattern)) found.push({ at: match.index, trigger: match[0] })
  }
  const seen = new Set<string>()
  return found
    .sort((a, b) => a.at - b.at)
    .map((entry) => entry.trigger)
    .filter((trigger) => !seen.has(trigger) && Boolean(seen.add(trigger)))
}
