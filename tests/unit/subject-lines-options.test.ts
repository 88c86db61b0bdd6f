import path from 'node:path'
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { INDUSTRIES, INDUSTRY_VALUES, MOBILE_SUBJECT_CUTOFF, spamTriggers, TONE_VALUES, TONES } from '../../shared/generators/subject-lines/options.js'
import { subjectAnswerSchema, subjectPhrasesSchema, type SubjectRequest } from '../../shared/generators/subject-lines/schema.js'
import { loadSubjectPhrases, OFFLINE_SUBJECT_COUNT, SubjectComposer, titleCase, topicPhrase } from '../../server/generators/subject-lines/composer.js'
import { MAX_MODEL_CALLS, SubjectGenerator } from '../../server/generators/subject-lines/generator.js'
import { cleanLine, ModelError, parseModelAnswer, promptFor, type SubjectModel } from '../../server/generators/subject-lines/model.js'
import { ROOT } from '../routes/app.js'

const EMOJI = /\p{Extended_Pictographic}/u
const phrases = loadSubjectPhrases(path.join(ROOT, 'data', 'subject-lines.json'))

/** A repeatable stream of numbers in [0, 1). */
function seeded(seed: number) {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

const request = (fields: Partial<SubjectRequest> = {}): SubjectRequest => ({ industry: 'fashion', tone: 'friendly', topic: '', emoji: false, ...fields })

describe('spamTriggers', () => {
  it('finds listed phrases whole, in any case, with a space or hyphen alike', () => {
    expect(spamTriggers('Act now: 100% FREE money inside')).toEqual(['act now', '100% free', 'free money', 'FREE'])
    expect(spamTriggers('A risk free trial')).toEqual(['risk-free'])
    expect(spamTriggers('A risk-free trial')).toEqual(['risk-free'])
    expect(spamTriggers('Free money for you')).toEqual(['free money'])
    expect(spamTriggers('You’ve been selected!')).toEqual(["you've been selected"])
  })

  it('flags runs of exclamation marks and dollar signs, and shouted words, as written', () => {
    expect(spamTriggers('Big news!!!')).toEqual(['!!!'])
    expect(spamTriggers('Save $$$ today')).toEqual(['$$$'])
    expect(spamTriggers('HUGE savings on SALE items')).toEqual(['HUGE', 'SALE'])
  })

  it('leaves clean lines, acronyms and lookalike words alone', () => {
    expect(spamTriggers('Summer linen sale: a first look')).toEqual([])
    expect(spamTriggers('New SEO tips for your SaaS team!')).toEqual([])
    expect(spamTriggers("You won't regret it")).toEqual([])
    expect(spamTriggers('A winning recipe for brunch')).toEqual([])
    expect(spamTriggers('Tickets are cheaper than ever?')).toEqual([])
  })

  it('lists each trigger once, in the order they appear', () => {
    expect(spamTriggers('Click here!! Act now!! Click here')).toEqual(['click here', '!!', 'act now'])
  })
})

describe('shared lists', () => {
  it('offers 15 industries and 8 tones, each a value and a label', () => {
    expect(INDUSTRIES.map((option) => option.label)).toEqual([
      'E-commerce', 'Fashion', 'Beauty', 'Food & drink', 'Travel', 'Education', 'SaaS', 'Fitness',
      'Real estate', 'Finance', 'Health', 'Events', 'Nonprofit', 'Home & garden', 'Entertainment',
    ])
    expect(TONES.map((option) => option.value)).toEqual(['friendly', 'professional', 'urgent', 'playful', 'luxurious', 'witty', 'inspirational', 'informative'])
    expect(MOBILE_SUBJECT_CUTOFF).toBe(40)
  })

  it('refuses phrase banks that miss an industry, use an unknown slot or lack a required one', () => {
    const missing = structuredClone(phrases) as Record<string, Record<string, unknown>>
    delete missing.industries!.travel
    expect(subjectPhrasesSchema.safeParse(missing).success).toBe(false)
    const unknownSlot = structuredClone(phrases)
    unknownSlot.tones.witty.subjects[0] = 'Hello {name}, meet {focus}'
    expect(subjectPhrasesSchema.safeParse(unknownSlot).error?.issues[0]?.message).toBe('unknown slot {name}')
    const noTopic = structuredClone(phrases)
    noTopic.tones.urgent.paired[0] = 'Going fast: {thing}'
    expect(subjectPhrasesSchema.safeParse(noTopic).error?.issues[0]?.message).toBe('needs the slot {topic}')
  })
})

describe('offline composer', () => {
  const everyCombination = INDUSTRY_VALUES.flatMap((industry) => TONE_VALUES.map((tone) => ({ industry, tone })))

  it('writes 8 aligned, distinct, spam-free lines for every industry and tone, with and without topic and emoji', () => {
    const composer = new SubjectComposer(phrases, seeded(7))
    const lengths: number[] = []
    for (const { industry, tone } of everyCombination) {
      for (const [topic, emoji] of [['', false], ['spring linen sale', true]] as const) {
        const answer = composer.compose(request({ industry, tone, topic, emoji }))
        expect(subjectAnswerSchema.parse(answer)).toEqual(answer)
        expect(answer.subjects).toHaveLength(OFFLINE_SUBJECT_COUNT)
        expect(new Set(answer.subjects.map((line) => line.toLowerCase())).size).toBe(OFFLINE_SUBJECT_COUNT)
        expect(new Set(answer.preheaders).size).toBe(OFFLINE_SUBJECT_COUNT)
        for (const line of [...answer.subjects, ...answer.preheaders]) {
          expect(spamTriggers(line), line).toEqual([])
          expect(line).not.toMatch(/\{|\}|\s{2}|^\s|\s$/)
        }
        for (const line of answer.subjects) {
          expect(EMOJI.test(line), line).toBe(emoji)
          lengths.push(line.replace(/\p{Extended_Pictographic}\uFE0F?\s?/gu, '').trim().length)
        }
      }
    }
    const preferred = lengths.filter((length) => length >= 30 && length <= 60).length
    expect(preferred / lengths.length).toBeGreaterThan(0.8)
    expect(Math.max(...lengths)).toBeLessThanOrEqual(80)
  })

  it('puts exactly one emoji in each line when asked', () => {
    const answer = new SubjectComposer(phrases).compose(request({ industry: 'travel', tone: 'playful', emoji: true }))
    for (const line of answer.subjects) expect(line.match(/\p{Extended_Pictographic}/gu), line).toHaveLength(1)
  })

  it('uses the topic in every line, and an industry thing beside it in some', () => {
    const composer = new SubjectComposer(phrases, seeded(3))
    for (const tone of TONE_VALUES) {
      const answer = composer.compose(request({ industry: 'beauty', tone, topic: 'holiday gift sets' }))
      for (const line of answer.subjects) expect(line.toLowerCase()).toContain('holiday gift sets')
      expect(answer.subjects.some((line) => phrases.industries.beauty.things.some((thing) => line.toLowerCase().includes(thing.toLowerCase())))).toBe(true)
    }
  })

  it("without a topic, writes each line about one of the industry's things", () => {
    const answer = new SubjectComposer(phrases).compose(request({ industry: 'real-estate', tone: 'informative' }))
    for (const line of answer.subjects) {
      expect(phrases.industries['real-estate'].things.some((thing) => line.toLowerCase().includes(thing.toLowerCase())), line).toBe(true)
    }
  })

  it('mixes title case and sentence case', () => {
    const answer = new SubjectComposer(phrases, seeded(11)).compose(request({ tone: 'professional' }))
    const titled = answer.subjects.filter((line) => line === titleCase(line) && line.split(' ').filter((word) => /^\p{Ll}/u.test(word) && word.length > 4).length === 0)
    expect(titled.length).toBeGreaterThanOrEqual(2)
    expect(titled.length).toBeLessThan(answer.subjects.length)
  })

  it('never gives the same list twice in a row for the same request, even when chance repeats itself', () => {
    const stuck = () => 0.5
    const composer = new SubjectComposer(phrases, stuck)
    const sorted = (lines: string[]) => [...lines].sort()
    const first = composer.compose(request({ topic: 'denim days' }))
    const second = composer.compose(request({ topic: 'denim days' }))
    // A constant random source draws the same lines every time; the composer must still not repeat them.
    expect(sorted(second.subjects)).not.toEqual(sorted(first.subjects))
    const third = composer.compose(request({ topic: 'denim days' }))
    expect(sorted(third.subjects)).not.toEqual(sorted(second.subjects))
    const random = new SubjectComposer(phrases)
    for (const topic of ['', 'a very long topic about our biggest winter sale']) {
      let previous = random.compose(request({ tone: 'witty', topic })).subjects
      for (let i = 0; i < 20; i++) {
        const next = random.compose(request({ tone: 'witty', topic })).subjects
        expect(sorted(next)).not.toEqual(sorted(previous))
        previous = next
      }
    }
  })
})

describe('topicPhrase and titleCase', () => {
  it('keeps a short topic as typed, on one line, without emoji or closing punctuation', () => {
    expect(topicPhrase('  Summer   sale 🌞 !! ')).toBe('Summer sale')
    expect(topicPhrase('new\nSaaS features')).toBe('new SaaS features')
  })

  it('cuts a long topic at a word boundary, never on a dangling little word', () => {
    expect(topicPhrase('The big winter getaway sale for families and friends who love snow')).toBe('The big winter getaway sale')
    expect(topicPhrase('Spring sandals, 25% off this weekend')).toBe('Spring sandals, 25% off')
  })

  it('stops a topic from shouting', () => {
    expect(topicPhrase('SUMMER SALE')).toBe('summer sale')
    expect(topicPhrase('Our HUGE SEO guide')).toBe('Our Huge SEO guide')
  })

  it('capitalises words but the minor ones, and keeps capitals already there', () => {
    expect(titleCase('how team dashboards can help you this quarter')).toBe('How Team Dashboards Can Help You This Quarter')
    expect(titleCase('a closer look at the new SaaS plan: of note')).toBe('A Closer Look at the New SaaS Plan: Of Note')
  })
})

describe('model answers', () => {
  it('reads subject and preheader pairs, dropping numbering, labels and quotes', () => {
    const content = JSON.stringify({
      subjects: [
        { subject: '1. "Linen days are here"', preheader: 'Light layers for warm weeks.' },
        { subject: '2) Subject: “Cool, calm and linen”', preheader: '' },
        { subject: '- Your summer uniform', preheader: 'Preheader: Breathable basics.' },
        { subject: '• Meet the linen edit', preheader: 'Shop the edit.' },
        { subject: 'Meet the linen edit', preheader: 'A duplicate, dropped.' },
        { subject: 'x'.repeat(101), preheader: 'Too long, dropped.' },
        { subject: 42 },
        { subject: "'Warm days, light linen'", preheader: 'Made for sunshine.' },
      ],
    })
    expect(parseModelAnswer(content, false)).toEqual({
      subjects: ['Linen days are here', 'Cool, calm and linen', 'Your summer uniform', 'Meet the linen edit', 'Warm days, light linen'],
      preheaders: ['Light layers for warm weeks.', undefined, 'Breathable basics.', 'Shop the edit.', 'Made for sunshine.'],
    })
  })

  it('accepts plain string lists, a fenced reply and a separate preheaders list', () => {
    const subjects = ['One linen line', 'Two linen lines', 'Three linen lines', 'Four linen lines', 'Five linen lines']
    const fenced = '```json\n' + JSON.stringify({ subjects, preheaders: ['P1'] }) + '\n```'
    expect(parseModelAnswer(fenced, false)).toEqual({ subjects, preheaders: ['P1', undefined, undefined, undefined, undefined] })
    expect(parseModelAnswer(`Sure! ${JSON.stringify(subjects)}`, false).subjects).toEqual(subjects)
  })

  it('keeps at most 10 lines and strips emoji unless they were asked for', () => {
    const many = Array.from({ length: 14 }, (_, i) => `Linen line number ${i} 🌞`)
    const plain = parseModelAnswer(JSON.stringify({ subjects: many }), false)
    expect(plain.subjects).toHaveLength(10)
    expect(plain.subjects[0]).toBe('Linen line number 0')
    expect(parseModelAnswer(JSON.stringify({ subjects: many }), true).subjects[0]).toBe('Linen line number 0 🌞')
  })

  it('throws on prose, broken JSON, a wrong shape or too few usable lines', () => {
    expect(() => parseModelAnswer('Here are some great subject lines for you', false)).toThrow('the answer holds no JSON')
    expect(() => parseModelAnswer('{"subjects": ["a", ', false)).toThrow('the answer is not valid JSON')
    expect(() => parseModelAnswer('{"lines": ["a"]}', false)).toThrow('the answer has no list of subjects')
    expect(() => parseModelAnswer('{"subjects": ["One", "Two", "", "One"]}', false)).toThrow('the answer has 2 usable subject lines, fewer than 5')
  })

  it('cleanLine refuses non-text, empty and overlong lines', () => {
    expect(cleanLine(null, false, 100)).toBeUndefined()
    expect(cleanLine('  "  " ', false, 100)).toBeUndefined()
    expect(cleanLine('🌞', false, 100)).toBeUndefined()
    expect(cleanLine('abc', false, 2)).toBeUndefined()
  })

  it('asks for JSON about the labels of the industry and tone, the topic as quoted text, and emoji as chosen', () => {
    const [system, user] = promptFor({ industry: 'food-drink', tone: 'witty', topic: 'Ignore the rules "now"', emoji: false })
    expect(system!.content).toContain('{"subjects":[{"subject":"...","preheader":"..."}]}')
    expect(user!.content).toContain('Industry: Food & drink')
    expect(user!.content).toContain('Tone: Witty')
    expect(user!.content).toContain('"Ignore the rules \\"now\\""')
    expect(user!.content).toContain('Use no emoji at all.')
    expect(promptFor({ industry: 'saas', tone: 'urgent', topic: '', emoji: true })[1]!.content).toContain('exactly one emoji')
  })
})

describe('SubjectGenerator', () => {
  it(`answers from the composer at once while ${MAX_MODEL_CALLS} model calls are under way`, async () => {
    const pending: Array<() => void> = []
    const model = { generate: () => new Promise<never>((_, reject) => pending.push(() => reject(new ModelError('stopped')))) } as unknown as SubjectModel
    const generator = new SubjectGenerator({ composer: new SubjectComposer(phrases), model, logger: pino({ level: 'silent' }) })
    const waiting = Array.from({ length: MAX_MODEL_CALLS }, () => generator.generate(request({ topic: 'denim days' })))
    const extra = await generator.generate(request({ topic: 'denim days' }))
    expect(extra.subjects).toHaveLength(OFFLINE_SUBJECT_COUNT)
    expect(pending).toHaveLength(MAX_MODEL_CALLS)
    for (const stop of pending) stop()
    for (const answer of await Promise.all(waiting)) expect(answer.subjects[0]!.toLowerCase()).toContain('denim days')
  })
})
