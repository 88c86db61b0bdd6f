/**
 * The offline subject line composer: writes subject lines and preheaders from the phrase banks
 * of data/subject-lines.json, for the chosen industry and tone, around the visitor's topic. It
 * answers when no language model is configured, and whenever the model fails.
 *
 *   const composer = new SubjectComposer(loadSubjectPhrases(file))
 *   composer.compose({ industry: 'fashion', tone: 'playful', topic: 'summer sale', emoji: true })
 */
import { LRUCache } from 'lru-cache'
import { subjectPhrasesSchema, type SubjectAnswer, type SubjectPhrases, type SubjectRequest } from '../../../shared/generators/subject-lines/schema.js'
import { spamTriggers } from '../../../shared/generators/subject-lines/options.js'
import { readDataFile } from '../../data-file.js'
import { collapseSpaces, stripEmoji } from './text.js'

/** Lines per answer. */
export const OFFLINE_SUBJECT_COUNT = 8
/** Subject lines joining the topic with an industry thing, when there is a topic. */
const PAIRED_COUNT = 2
/** Lines whose length falls in this range are preferred: long enough to say something, short enough to be read. */
const PREFERRED_LENGTH = { min: 30, max: 60 }
/** A long topic is cut at a word boundary to at most this many characters inside a subject line. */
const TOPIC_PHRASE_MAX = 32
/** Words a shortened topic should not end on: articles, linking words, pronouns waiting for their noun. */
const DANGLING_WORDS = new Set([
  ...['a', 'an', 'the', 'this', 'that', 'these', 'those', 'our', 'your', 'my', 'its', 'their', 'every'],
  ...['and', 'or', 'but', 'so', 'as', 'than', 'at', 'by', 'for', 'from', 'in', 'into', 'of', 'on', 'to', 'with'],
  ...['is', 'are', 'was', 'were', 'be', 'just', 'very', '&', '-'],
])
/** Title case keeps these in lower case unless they open the line. */
const MINOR_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'but', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'vs', 'with'])
/** Requests whose previous answer is remembered, so that the same input never gets the same list twice in a row. */
const REMEMBERED_REQUESTS = 2_000

class PhraseBankError extends Error {
  override name = 'PhraseBankError'
}

/** Reads and checks the phrase banks: every industry and tone present, every slot known, no spam words. */
export function loadSubjectPhrases(file: string): SubjectPhrases {
  const phrases = readDataFile(file, subjectPhrasesSchema, PhraseBankError)
  const banks = [...Object.values(phrases.tones), ...Object.values(phrases.industries)]
  for (const bank of banks) {
    for (const line of Object.values(bank).flat()) {
      const triggers = spamTriggers(line)
      if (triggers.length) throw new PhraseBankError(`${file}: "${line}" contains spam words (${triggers.join(', ')})`)
    }
  }
  return phrases
}

type Random = () => number

function shuffled<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
  }
  return copy
}

const fill = (template: string, slots: Record<string, string>) => template.replace(/\{([a-z]+)\}/g, (_, name: string) => slots[name] ?? '')

const upperFirst = (text: string) => text.replace(/\p{L}/u, (letter) => letter.toUpperCase())

/** Capitalises each word but the minor ones; letters already in capitals stay ("SaaS", "SEO"). */
export function titleCase(text: string): string {
  return text
    .split(' ')
    .map((word, index) => {
      const bare = word.replace(/^[^\p{L}\p{N}]+/u, '').toLowerCase()
      const afterColon = index > 0 && /[:.?!]$/.test(text.split(' ')[index - 1]!)
      return index > 0 && !afterColon && MINOR_WORDS.has(bare) ? word : upperFirst(word)
    })
    .join(' ')
}

/**
 * The topic as it goes into a subject line: one line, no emoji, no closing punctuation, no
 * shouting (a topic all in capitals is lowered; in a mixed one, a word of four or more capitals
 * keeps only its first), and at most TOPIC_PHRASE_MAX characters cut at a word boundary.
 */
export function topicPhrase(topic: string): string {
  let phrase = collapseSpaces(stripEmoji(topic)).replace(/[\s.,;:!?]+$/u, '')
  if (!/\p{Ll}/u.test(phrase)) phrase = phrase.toLowerCase()
  else phrase = phrase.replace(/(?<![\p{L}\p{N}])(\p{Lu})(\p{Lu}{3,})(?![\p{L}\p{N}])/gu, (_, first: string, rest: string) => first + rest.toLowerCase())
  if (phrase.length <= TOPIC_PHRASE_MAX) return phrase
  const words = phrase.slice(0, TOPIC_PHRASE_MAX + 1).split(' ')
  words.pop()
  while (words.length > 1 && DANGLING_WORDS.has(words.at(-1)!.toLowerCase())) words.pop()
  const cut = words.join(' ').replace(/[\s.,;:!?-]+$/u, '')
  return cut || phrase.slice(0, TOPIC_PHRASE_MAX)
}

const distanceFromPreferred = (length: number) => Math.max(0, PREFERRED_LENGTH.min - length, length - PREFERRED_LENGTH.max)

export class SubjectComposer {
  /** Per request, the lines of the last answer (lower case, before case and emoji). */
  private readonly previous = new LRUCache<string, string[]>({ max: REMEMBERED_REQUESTS })

  constructor(
    private readonly phrases: SubjectPhrases,
    private readonly random: Random = Math.random,
  ) {}

  /**
   * A fresh list for the request. Never the lines this composer gave the same request last
   * time, in whatever order: should chance draw them again, they are drawn anew with the last
   * ones put behind every other line, so at least one line is new.
   */
  compose(request: SubjectRequest): SubjectAnswer {
    const key = JSON.stringify([request.industry, request.tone, topicPhrase(request.topic), request.emoji])
    const last = this.previous.get(key)
    let drawn = this.draw(request)
    if (last && drawn.lines.every((line) => last.includes(line))) drawn = this.draw(request, new Set(last))
    this.previous.set(key, drawn.lines)
    return drawn.answer
  }

  /** Preheaders for the request's industry and tone, distinct, as many as asked (up to 13). */
  preheaders(request: SubjectRequest, count = OFFLINE_SUBJECT_COUNT): string[] {
    const tone = this.phrases.tones[request.tone]
    const industry = this.phrases.industries[request.industry]
    const topic = topicPhrase(request.topic)
    const things = shuffled(industry.things, this.random)
    const fromTone = shuffled(tone.preheaders, this.random).map((template, index) => fill(template, { focus: topic || things[index % things.length]! }))
    const fromIndustry = shuffled(industry.preheaders, this.random).slice(0, 3)
    return shuffled([...fromIndustry, ...fromTone.slice(0, Math.max(0, count - fromIndustry.length))], this.random)
      .slice(0, count)
      .map(upperFirst)
  }

  private draw(request: SubjectRequest, avoid = new Set<string>()): { answer: SubjectAnswer; lines: string[] } {
    const random = this.random
    const tone = this.phrases.tones[request.tone]
    const industry = this.phrases.industries[request.industry]
    const topic = topicPhrase(request.topic)
    const things = shuffled(industry.things, random)
    let thingIndex = 0
    const nextThing = () => things[thingIndex++ % things.length]!
    const byPreference = (lines: string[]) =>
      lines
        .map((text, order) => ({ text, order, rank: distanceFromPreferred(text.length) + (avoid.has(text.toLowerCase()) ? 1_000 : 0) }))
        .sort((a, b) => a.rank - b.rank || a.order - b.order)
        .map((entry) => entry.text)

    // 1. Lines joining topic and industry first (they keep the industry in view), then the
    //    tone's lines about the topic, or about the industry's things when there is no topic.
    const paired = topic ? byPreference(shuffled(tone.paired, random).map((template) => fill(template, { topic, thing: nextThing() }))).slice(0, PAIRED_COUNT) : []
    const single = byPreference(shuffled(tone.subjects, random).map((template) => fill(template, { focus: topic || nextThing() }))).slice(0, OFFLINE_SUBJECT_COUNT - paired.length)

    // 2. A mix of sentence case and title case, in a shuffled order.
    const lines = shuffled([...paired, ...single], random)
    const titled = new Set(shuffled(lines.map((_, index) => index), random).slice(0, 2 + Math.floor(random() * 2)))
    let subjects = lines.map((line, index) => (titled.has(index) ? titleCase(line) : upperFirst(line)))

    // 3. One emoji per line when asked, fitting the industry or the tone, at the start or the end.
    if (request.emoji) {
      const emoji = shuffled([...industry.emoji, ...tone.emoji], random)
      subjects = subjects.map((line, index) => (random() < 0.4 ? `${emoji[index % emoji.length]} ${line}` : `${line} ${emoji[index % emoji.length]}`))
    }
    return { answer: { subjects, preheaders: this.preheaders(request, subjects.length) }, lines: lines.map((line) => line.toLowerCase()) }
  }
}
