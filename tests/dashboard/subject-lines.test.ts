import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/process/config.js'
import { loadSubjectPhrases } from '../../server/generators/subject-lines/composer.js'
import { ROOT, testSite } from '../routes/app.js'
import { dashboardSite, ORIGIN } from './helpers.js'

const PATH = '/app/api/v2/public/ai/email-subject-generate'
const EMOJI = /\p{Extended_Pictographic}/u
const phrases = loadSubjectPhrases(`${ROOT}/data/subject-lines.json`)

const generate = (app: Parameters<typeof request>[0], body: unknown) => request(app).post(PATH).set(ORIGIN).send(body as object)
const valid = { industry: 'fashion', tone: 'playful', topic: 'linen summer sale', emoji: false }

describe('POST /app/api/v2/public/ai/email-subject-generate: validation', () => {
  const { app } = dashboardSite()

  it.each([
    ['industry', { ...valid, industry: undefined }, 'is required'],
    ['industry', { ...valid, industry: 'cars' }, 'must be one of ecommerce, fashion, beauty, food-drink, travel, education, saas, fitness, real-estate, finance, health, events, nonprofit, home-garden, entertainment'],
    ['tone', { ...valid, tone: 'angry' }, 'must be one of friendly, professional, urgent, playful, luxurious, witty, inspirational, informative'],
    ['tone', { ...valid, tone: undefined }, 'is required'],
    ['topic', { ...valid, topic: 'x'.repeat(201) }, 'must be at most 200 characters'],
    ['topic', { ...valid, topic: 42 }, 'must be text'],
    ['emoji', { ...valid, emoji: 'yes' }, 'must be true or false'],
  ])('names %s: 400', async (field, body, text) => {
    const response = await generate(app, body).expect(400)
    expect(response.body).toEqual({ message: `${field}: ${text}`, errors: { [field]: [text] } })
    expect(response.headers['cache-control']).toBe('no-store')
  })

  it('accepts a topic of 200 characters once trimmed, and a missing topic and emoji', async () => {
    await generate(app, { ...valid, topic: `  ${'a'.repeat(200)}  ` }).expect(200)
    await generate(app, { industry: 'saas', tone: 'urgent' }).expect(200)
  })

  it('refuses malformed JSON and bodies over 16 KB', async () => {
    const broken = await request(app).post(PATH).set(ORIGIN).type('json').send('{"industry":').expect(400)
    expect(broken.body).toEqual({ message: 'The request body is not valid JSON.' })
    await generate(app, { ...valid, padding: 'x'.repeat(17_000) }).expect(413)
  })

  it('refuses a post from another site (403) and takes one from the site itself', async () => {
    const refused = await request(app).post(PATH).set('Origin', 'https://evil.example').send(valid).expect(403)
    expect(refused.body).toEqual({ message: 'Cross-site request refused.' })
    await request(app).post(PATH).set('Sec-Fetch-Site', 'same-origin').send(valid).expect(200)
  })
})

describe('offline composer (no AI_API_URL)', () => {
  const { app } = dashboardSite()

  it('answers subjects and aligned preheaders, 5 to 10 of each, not cached', async () => {
    const response = await generate(app, valid).expect(200)
    expect(Object.keys(response.body).sort()).toEqual(['preheaders', 'subjects'])
    const { subjects, preheaders } = response.body as { subjects: string[]; preheaders: string[] }
    expect(subjects.length).toBeGreaterThanOrEqual(5)
    expect(subjects.length).toBeLessThanOrEqual(10)
    expect(preheaders).toHaveLength(subjects.length)
    for (const line of [...subjects, ...preheaders]) expect(typeof line === 'string' && line.trim().length > 0).toBe(true)
    expect(response.headers['cache-control']).toBe('no-store')
  })

  it('uses no emoji when emoji is false, and one per line when true', async () => {
    const plain = await generate(app, { ...valid, topic: 'beach days 🌞', emoji: false }).expect(200)
    for (const line of plain.body.subjects) expect(line).not.toMatch(EMOJI)
    const fun = await generate(app, { ...valid, emoji: true }).expect(200)
    for (const line of fun.body.subjects) expect(line.match(/\p{Extended_Pictographic}/gu), line).toHaveLength(1)
  })

  it('writes the topic, trimmed, into every line', async () => {
    const response = await generate(app, { ...valid, topic: '   linen summer sale  ' }).expect(200)
    for (const line of response.body.subjects) expect(line.toLowerCase()).toContain('linen summer sale')
  })

  it("reflects the industry: without a topic every line is about one of its things", async () => {
    const response = await generate(app, { industry: 'fitness', tone: 'inspirational', topic: '', emoji: false }).expect(200)
    const things = phrases.industries.fitness.things
    for (const line of response.body.subjects) expect(things.some((thing) => line.toLowerCase().includes(thing)), line).toBe(true)
    const other = await generate(app, { industry: 'finance', tone: 'inspirational', topic: '', emoji: false }).expect(200)
    for (const line of other.body.subjects) expect(things.some((thing) => line.toLowerCase().includes(thing)), line).toBe(false)
  })

  it('gives a different list on a second identical call', async () => {
    const first = await generate(app, valid).expect(200)
    const second = await generate(app, valid).expect(200)
    expect([...second.body.subjects].sort()).not.toEqual([...first.body.subjects].sort())
  })
})

describe('rate limit', () => {
  it('answers 429 JSON with Retry-After past the limit per address', async () => {
    const { app } = dashboardSite({}, { limits: { subjects: { limit: 2, windowMs: 60_000 } } })
    await generate(app, valid).expect(200)
    await generate(app, valid).expect(200)
    const refused = await generate(app, valid).expect(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.body.message).toMatch(/^Too many attempts\. Try again in \d+ seconds?\.$/)
  })
})

describe('configuration', () => {
  it('stops on AI_API_URL without AI_MODEL, naming AI_MODEL', () => {
    expect(() => loadConfig({ AI_API_URL: 'http://127.0.0.1:11434/v1' })).toThrow(/AI_MODEL: is required when AI_API_URL is set/)
    expect(() => loadConfig({ AI_TIMEOUT_MS: 'soon' })).toThrow(/AI_TIMEOUT_MS/)
  })
})

/** A stand-in for an OpenAI-compatible server: answers POST /v1/chat/completions as told. */
interface FakeModel {
  url: string
  calls: Array<{ headers: http.IncomingHttpHeaders; body: Record<string, unknown> }>
  close(): Promise<void>
}

type Reply = { delayMs?: number; status?: number; content?: string; raw?: string }

async function fakeModel(reply: (body: Record<string, unknown>) => Reply): Promise<FakeModel> {
  const calls: FakeModel['calls'] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end()
        return
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>
      calls.push({ headers: req.headers, body })
      const { delayMs = 0, status = 200, content = '', raw } = reply(body)
      setTimeout(() => {
        if (res.destroyed) return
        const body =
          raw ??
          JSON.stringify({
            id: 'chatcmpl-test',
            object: 'chat.completion',
            created: 1_764_000_000,
            model: 'test-model',
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          })
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(body)
      }, delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The site with the model server at `url`, and its warn lines collected. */
function siteWithModel(url: string, timeoutMs = 2_000) {
  const logs: Array<Record<string, unknown>> = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(JSON.parse(String(chunk)))
      done()
    },
  })
  const site = testSite(
    { AI_API_URL: url, AI_API_KEY: 'sk-test-key', AI_MODEL: 'test-model', AI_TIMEOUT_MS: String(timeoutMs) },
    { logger: pino({ level: 'warn' }, sink) },
  )
  return { app: site.app, warnings: () => logs.filter((line) => line.level === 40) }
}

const modelLines = [
  { subject: '1. "Linen days are here"', preheader: 'Light layers for the warmest weeks.' },
  { subject: 'Cool, calm and linen 🌞', preheader: 'Breathable basics in six colors.' },
  { subject: 'Your summer uniform, sorted', preheader: 'Preheader: Mix, match, repeat.' },
  { subject: 'Meet the linen edit', preheader: '' },
  { subject: 'Warm days, light linen', preheader: 'Made for sunshine.' },
  { subject: 'Linen, but make it summer', preheader: 'The sale starts now.' },
]

describe('with an OpenAI-compatible model server (AI_API_URL)', () => {
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  it("answers with the model's lines, cleaned, and asks it for JSON about the request", async () => {
    model = await fakeModel(() => ({ content: JSON.stringify({ subjects: modelLines }) }))
    const { app, warnings } = siteWithModel(model.url)
    const response = await generate(app, valid).expect(200)
    expect(response.body.subjects).toEqual([
      'Linen days are here',
      'Cool, calm and linen',
      'Your summer uniform, sorted',
      'Meet the linen edit',
      'Warm days, light linen',
      'Linen, but make it summer',
    ])
    const { preheaders } = response.body as { preheaders: string[] }
    expect(preheaders).toHaveLength(6)
    expect(preheaders.slice(0, 3)).toEqual(['Light layers for the warmest weeks.', 'Breathable basics in six colors.', 'Mix, match, repeat.'])
    // The model gave no preheader for the fourth line: one of the composer's stands in.
    expect(preheaders[3]!.length).toBeGreaterThan(10)
    expect(warnings()).toEqual([])

    expect(model.calls).toHaveLength(1)
    const [call] = model.calls
    expect(call!.headers.authorization).toBe('Bearer sk-test-key')
    expect(call!.body.model).toBe('test-model')
    expect(call!.body.response_format).toEqual({ type: 'json_object' })
    const prompt = JSON.stringify(call!.body.messages)
    for (const text of ['Industry: Fashion', 'Tone: Playful', 'linen summer sale', 'Use no emoji at all.']) expect(prompt).toContain(text)
  })

  it('keeps emoji from the model when they were asked for', async () => {
    model = await fakeModel(() => ({ content: JSON.stringify({ subjects: modelLines }) }))
    const { app } = siteWithModel(model.url)
    const response = await generate(app, { ...valid, emoji: true }).expect(200)
    expect(response.body.subjects[1]).toBe('Cool, calm and linen 🌞')
  })

  it('falls back to the offline composer within the time limit when the model is slow', async () => {
    model = await fakeModel(() => ({ delayMs: 5_000, content: JSON.stringify({ subjects: modelLines }) }))
    const { app, warnings } = siteWithModel(model.url, 300)
    const started = Date.now()
    const response = await generate(app, valid).expect(200)
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(response.body.subjects).toHaveLength(8)
    for (const line of response.body.subjects) expect(line.toLowerCase()).toContain('linen summer sale')
    expect(warnings()).toEqual([expect.objectContaining({ reason: 'no answer within 300 ms', msg: 'AI subject lines failed: answered with the offline composer' })])
  })

  it.each([
    ['prose instead of JSON', { content: 'Sure! Here are some subject lines: Linen days, Summer vibes' }, 'the answer holds no JSON'],
    ['too few usable lines', { content: JSON.stringify({ subjects: ['One', '', '   '] }) }, 'the answer has 1 usable subject lines, fewer than 5'],
    ['a body that is not a completion', { raw: '<html>oops</html>' }, 'the model server answered with something other than JSON'],
    ['a completion without content', { raw: JSON.stringify({ choices: [] }) }, 'the answer is empty'],
    ['a server error', { status: 500, raw: JSON.stringify({ error: { message: 'model crashed' } }) }, 'the model server answered 500'],
  ])('falls back to the offline composer on %s, with one warn line and no stack', async (_name, reply, reason) => {
    model = await fakeModel(() => reply)
    const { app, warnings } = siteWithModel(model.url)
    const response = await generate(app, valid).expect(200)
    expect(response.body.subjects).toHaveLength(8)
    for (const line of response.body.subjects) expect(line.toLowerCase()).toContain('linen summer sale')
    expect(warnings()).toHaveLength(1)
    expect(warnings()[0]).toMatchObject({ reason })
    expect(warnings()[0]).not.toHaveProperty('err')
    expect(JSON.stringify(warnings()[0])).not.toContain('    at ')
  })

  it('logs a run of failures once, and counts the rest into the next line', async () => {
    model = await fakeModel(() => ({ content: 'not json' }))
    const { app, warnings } = siteWithModel(model.url)
    for (let i = 0; i < 3; i++) await generate(app, valid).expect(200)
    expect(model.calls).toHaveLength(3)
    expect(warnings()).toHaveLength(1)
  })

  it('falls back when the model server cannot be reached', async () => {
    model = await fakeModel(() => ({}))
    const url = model.url
    await model.close()
    model = undefined
    const { app, warnings } = siteWithModel(url)
    const response = await generate(app, valid).expect(200)
    expect(response.body.subjects).toHaveLength(8)
    expect(String(warnings()[0]?.reason)).toMatch(/^could not reach the model server/)
  })

  /**
   * What OpenAI's API answers a reasoning model (o-series, GPT-5) asked with a chat model's
   * parameters: 400, naming the first parameter it does not take, in its own words.
   */
  const reasoningRefusal = (body: Record<string, unknown>): Reply | null => {
    const refuse = (param: string, code: string, message: string): Reply => ({
      status: 400,
      raw: JSON.stringify({ error: { message, type: 'invalid_request_error', param, code } }),
    })
    if ('max_tokens' in body) return refuse('max_tokens', 'unsupported_parameter', "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
    if ('temperature' in body && body.temperature !== 1) {
      return refuse('temperature', 'unsupported_value', `Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`)
    }
    return null
  }

  it("works with a reasoning model: learns which parameters it refuses, and asks without them from then on", async () => {
    model = await fakeModel((body) => reasoningRefusal(body) ?? { content: JSON.stringify({ subjects: modelLines }) })
    const { app, warnings } = siteWithModel(model.url)
    const first = await generate(app, valid).expect(200)
    expect(first.body.subjects[0]).toBe('Linen days are here')
    expect(model.calls).toHaveLength(3)
    const accepted = model.calls.at(-1)!.body
    expect(accepted).not.toHaveProperty('max_tokens')
    expect(accepted).not.toHaveProperty('temperature')
    expect(accepted.max_completion_tokens).toBeGreaterThan(1_200)
    expect(accepted.reasoning_effort).toBe('low')
    await generate(app, valid).expect(200)
    expect(model.calls).toHaveLength(4)
    expect(warnings()).toEqual([])
  })

  it('asks a chat model once, with its temperature and max_tokens', async () => {
    model = await fakeModel(() => ({ content: JSON.stringify({ subjects: modelLines }) }))
    const { app } = siteWithModel(model.url)
    await generate(app, valid).expect(200)
    expect(model.calls).toHaveLength(1)
    expect(model.calls[0]!.body).toMatchObject({ temperature: 0.9, max_tokens: 1_200 })
    expect(model.calls[0]!.body).not.toHaveProperty('reasoning_effort')
  })

  it('falls back to the offline composer, with the reason, on a refusal that no parameter explains', async () => {
    model = await fakeModel(() => ({ status: 400, raw: JSON.stringify({ error: { message: 'Invalid model', type: 'invalid_request_error', param: 'model', code: 'model_not_found' } }) }))
    const { app, warnings } = siteWithModel(model.url)
    const response = await generate(app, valid).expect(200)
    expect(response.body.subjects).toHaveLength(8)
    expect(model.calls).toHaveLength(1)
    expect(String(warnings()[0]?.reason)).toBe('the model server answered 400')
  })
})
