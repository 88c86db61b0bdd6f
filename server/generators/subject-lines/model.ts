/**
 * Subject lines from a language model behind any OpenAI-compatible chat-completions server
 * (OpenAI, Ollama, llama.cpp): one call, JSON only, within a time limit, and the answer checked
 * line by line before anyone sees it. Every failure throws a ModelError saying why in one line.
 */
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai'
import { INDUSTRIES, SUBJECT_COUNT_MAX, SUBJECT_COUNT_MIN, TONES } from '../../../shared/generators/subject-lines/options.js'
import type { SubjectRequest } from '../../../shared/generators/subject-lines/schema.js'
import type { AiSettings } from '../../dashboard/config.js'
import { collapseSpaces, stripEmoji } from './text.js'

/** Lines asked of the model; it may give between SUBJECT_COUNT_MIN and SUBJECT_COUNT_MAX. */
const REQUESTED_COUNT = 8
/** Longest line kept from the model; longer ones are dropped. */
const MODEL_SUBJECT_MAX = 100
const MODEL_PREHEADER_MAX = 150
/** Tokens the model may spend on its answer, and characters of it that are read. */
const MAX_TOKENS = 1_200
/** The same for a reasoning model, whose thinking comes out of the same budget. */
const REASONING_MAX_TOKENS = 6_000
const MAX_ANSWER_CHARS = 20_000
/** Entries of the model's list looked at, at most. */
const MAX_ENTRIES = 30

export class ModelError extends Error {
  override name = 'ModelError'
}

export interface ModelLines {
  subjects: string[]
  /** Aligned with `subjects`; empty where the model gave no usable preheader. */
  preheaders: Array<string | undefined>
}

const labelOf = (options: ReadonlyArray<{ value: string; label: string }>, value: string) => options.find((option) => option.value === value)?.label ?? value

export function promptFor(request: SubjectRequest): Array<{ role: 'system' | 'user'; content: string }> {
  const system = [
    'You write email marketing subject lines and their preheaders (the preview text shown after the subject in the inbox).',
    'Reply with one JSON object and nothing else, in exactly this form:',
    '{"subjects":[{"subject":"...","preheader":"..."}]}',
  ].join('\n')
  const user = [
    `Write ${REQUESTED_COUNT} different subject lines, each with its own preheader.`,
    `Industry: ${labelOf(INDUSTRIES, request.industry)}`,
    `Tone: ${labelOf(TONES, request.tone)}`,
    request.topic ? `Topic of the email (the sender's words, as JSON text): ${JSON.stringify(request.topic)}` : 'No topic given: write about what this industry usually emails its customers about.',
    request.emoji ? 'Put exactly one emoji that fits the industry or tone in each subject line.' : 'Use no emoji at all.',
    'Subject lines: 30 to 60 characters, varied in wording and structure. Preheaders: 40 to 100 characters, adding to the subject rather than repeating it.',
    'No numbering and no quotation marks around lines. Avoid spam triggers: no words in capitals, no repeated exclamation marks, no phrases like "act now", "free money", "100% free" or "risk-free".',
  ].join('\n')
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ]
}

const LEADING_NUMBER = /^(?:\(?\d{1,2}[.):\]-]|[-*\u2022\u2013\u2014])\s*/u
const LABEL = /^(?:subject(?:\s*line)?|preheader|preview(?:\s*text)?)\s*\d*\s*[:-]\s*/iu
const QUOTES: Array<[string, string]> = [
  ['"', '"'],
  ["'", "'"],
  ['\u201C', '\u201D'],
  ['\u2018', '\u2019'],
  ['\u00AB', '\u00BB'],
  ['`', '`'],
]

/** One line from the model: one line of text, no numbering, label or wrapping quotes; emoji only when asked. */
export function cleanLine(value: unknown, emoji: boolean, maxLength: number): string | undefined {
  if (typeof value !== 'string') return undefined
  let line = collapseSpaces(emoji ? value : stripEmoji(value))
  for (let pass = 0; pass < 3; pass++) {
    const before = line
    line = line.replace(LEADING_NUMBER, '').replace(LABEL, '').trim()
    const pair = QUOTES.find(([open, close]) => line.length > 1 && line.startsWith(open) && line.endsWith(close))
    if (pair) line = line.slice(pair[0].length, -pair[1].length).trim()
    if (line === before) break
  }
  return line.length > 0 && line.length <= maxLength && /[\p{L}\p{N}]/u.test(line) ? line : undefined
}

/** The JSON in a model's reply, which may wrap it in a code fence or a sentence. */
function jsonIn(content: string): unknown {
  const text = content.slice(0, MAX_ANSWER_CHARS)
  const starts = [text.indexOf('{'), text.indexOf('[')].filter((index) => index >= 0)
  if (!starts.length) throw new ModelError('the answer holds no JSON')
  const start = Math.min(...starts)
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'))
  try {
    return JSON.parse(text.slice(start, end + 1))
  } catch {
    throw new ModelError('the answer is not valid JSON')
  }
}

/**
 * Reads the model's reply: `{"subjects":[{"subject","preheader"}]}`, or subjects as plain
 * strings (with an optional `preheaders` list beside them), or a bare list. Keeps distinct
 * usable lines, at most SUBJECT_COUNT_MAX; fewer than SUBJECT_COUNT_MIN is a failure.
 */
export function parseModelAnswer(content: string, emoji: boolean): ModelLines {
  const json = jsonIn(content)
  const record = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined
  const list = Array.isArray(json) ? json : record?.subjects
  if (!Array.isArray(list)) throw new ModelError('the answer has no list of subjects')
  const separatePreheaders = Array.isArray(record?.preheaders) ? (record.preheaders as unknown[]) : []

  const seen = new Set<string>()
  const lines: ModelLines = { subjects: [], preheaders: [] }
  for (const [index, entry] of list.slice(0, MAX_ENTRIES).entries()) {
    const fields: Record<string, unknown> = entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : { subject: entry }
    const subject = cleanLine(fields.subject ?? fields.title ?? fields.line, emoji, MODEL_SUBJECT_MAX)
    if (!subject || seen.has(subject.toLowerCase())) continue
    seen.add(subject.toLowerCase())
    lines.subjects.push(subject)
    lines.preheaders.push(cleanLine(fields.preheader ?? fields.preview ?? separatePreheaders[index], false, MODEL_PREHEADER_MAX))
    if (lines.subjects.length === SUBJECT_COUNT_MAX) break
  }
  if (lines.subjects.length < SUBJECT_COUNT_MIN) throw new ModelError(`the answer has ${lines.subjects.length} usable subject lines, fewer than ${SUBJECT_COUNT_MIN}`)
  return lines
}

/** What a failed call comes down to, in a few words for the log. */
function reasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof ModelError) return error.message
  if (error instanceof APIUserAbortError) return `no answer within ${timeoutMs} ms`
  if (error instanceof APIConnectionError) return `could not reach the model server (${error.message})`
  if (error instanceof APIError) return `the model server answered ${error.status ?? 'with an error'}`
  if (error instanceof SyntaxError) return 'the model server answered with something other than JSON'
  return error instanceof Error ? error.message : String(error)
}

/** Sampling parameters a model may refuse; reasoning models (OpenAI's o-series, GPT-5) refuse both. */
type Refusable = 'temperature' | 'max_tokens' | 'reasoning_effort'

/**
 * The parameters a refusal names, when the server refused only because of them: OpenAI answers
 * 400 `unsupported_parameter` (`max_tokens` on reasoning models) or `unsupported_value`
 * (`temperature` other than 1), naming the parameter.
 */
function refusedParameter(error: unknown): Refusable | null {
  if (!(error instanceof APIError) || error.status !== 400) return null
  const param = (error.param ?? (error.error as { param?: unknown } | undefined)?.param) as unknown
  return param === 'temperature' || param === 'max_tokens' || param === 'reasoning_effort' ? param : null
}

export class SubjectModel {
  private readonly client: OpenAI
  /**
   * What this model refused, learned from its first refusals and left out of every later call:
   * chat models take a temperature and `max_tokens`; reasoning models take neither, count their
   * thinking in `max_completion_tokens`, and are asked to think briefly.
   */
  private readonly refused = new Set<Refusable>()

  constructor(private readonly settings: AiSettings) {
    this.client = new OpenAI({
      baseURL: settings.url,
      // Local servers (Ollama, llama.cpp) need no key, but the client insists on one.
      apiKey: settings.apiKey ?? 'none',
      timeout: settings.timeoutMs,
      maxRetries: 0,
    })
  }

  /** The call's parameters, without what the model has refused. */
  private body(request: SubjectRequest): OpenAI.ChatCompletionCreateParamsNonStreaming {
    const body: OpenAI.ChatCompletionCreateParamsNonStreaming = { model: this.settings.model, messages: promptFor(request), response_format: { type: 'json_object' } }
    if (!this.refused.has('temperature')) body.temperature = 0.9
    if (!this.refused.has('max_tokens')) body.max_tokens = MAX_TOKENS
    else {
      // A reasoning model: its thinking counts against the limit, so it gets room for both.
      body.max_completion_tokens = REASONING_MAX_TOKENS
      if (!this.refused.has('reasoning_effort')) body.reasoning_effort = 'low'
    }
    return body
  }

  /** One completion; a refusal of a parameter is learned, and the call made again without it (a few times at most). */
  private async complete(request: SubjectRequest, signal: AbortSignal): Promise<OpenAI.ChatCompletion> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.client.chat.completions.create(this.body(request), { signal })
      } catch (error) {
        const param = refusedParameter(error)
        if (!param || this.refused.has(param) || attempt >= 3) throw error
        this.refused.add(param)
      }
    }
  }

  /** Subject lines for the request, or a ModelError saying why there are none. */
  async generate(request: SubjectRequest): Promise<ModelLines> {
    const { timeoutMs } = this.settings
    const controller = new AbortController()
    // One limit for the whole call, reading the answer included.
    const timer = setTimeout(() => controller.abort(), timeoutMs)
    try {
      const completion = await this.complete(request, controller.signal)
      const content = completion.choices?.[0]?.message?.content
      if (typeof content !== 'string' || !content.trim()) throw new ModelError('the answer is empty')
      return parseModelAnswer(content, request.emoji)
    } catch (error) {
      throw error instanceof ModelError ? error : new ModelError(reasonOf(controller.signal.aborted ? new APIUserAbortError() : error, timeoutMs))
    } finally {
      clearTimeout(timer)
    }
  }
}
