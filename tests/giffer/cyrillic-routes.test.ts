/** Russian through the image service's paths: countdown captions, live timers, text previews, the font list. */
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COUNTDOWN_CAPTION_PRESETS } from '../../shared/generators/countdown/captions.js'
import { binary, decodeGif, differingPixels, startGiffer, type TestGiffer } from './setup.js'

let g: TestGiffer
beforeAll(async () => {
  g = await startGiffer()
})
afterAll(async () => {
  await g.close()
})

const ru = COUNTDOWN_CAPTION_PRESETS.ru
const en = COUNTDOWN_CAPTION_PRESETS.en

async function gif(path: string, body: object) {
  const res = await request(g.app).post(path).send(body).buffer(true).parse(binary)
  expect(res.status, res.status === 200 ? '' : res.body.toString()).toBe(200)
  expect(res.headers['content-type']).toBe('image/gif')
  return decodeGif(res.body as Buffer)
}

describe('countdown with Russian captions', () => {
  it('offers the Russian preset Дни, Часы, Минуты, Секунды', () => {
    expect(Object.values(ru)).toEqual(['Дни', 'Часы', 'Минуты', 'Секунды'])
  })

  it('draws the Russian captions: same digits, other captions than the English ones', async () => {
    const delay = 5 * 86400 + 3 * 3600 + 2 * 60 + 1
    const russian = await gif('/giffer/countdown/create', { delay, duration: 3, font: 'montserrat', ...ru })
    const english = await gif('/giffer/countdown/create', { delay, duration: 3, font: 'montserrat', ...en })
    const plain = await gif('/giffer/countdown/create', { delay, duration: 3, font: 'montserrat' })
    expect([russian.width, russian.height]).toEqual([1200, 300])
    expect(plain.height).toBe(220)
    expect(differingPixels(russian.picture(0), english.picture(0))).toBeGreaterThan(500)
    // Above the captions the two pictures are the same.
    const top = (picture: Uint8Array) => picture.subarray(0, 1200 * 4 * 180)
    expect(differingPixels(top(russian.picture(0)), top(english.picture(0)))).toBe(0)
  })

  it('draws Russian captions in a font without Cyrillic too (the fallback face), since the caption is the visitor’s choice', async () => {
    const russian = await gif('/giffer/countdown/create', { delay: 60, duration: 1, font: 'lato', ...ru })
    const english = await gif('/giffer/countdown/create', { delay: 60, duration: 1, font: 'lato', ...en })
    expect(russian.height).toBe(300)
    // The caption row holds other letters, not blanks where the font has none.
    const captionRow = (picture: Uint8Array) => picture.subarray(1200 * 4 * 180)
    expect(differingPixels(captionRow(russian.picture(0)), captionRow(english.picture(0)))).toBeGreaterThan(500)
  })

  it('counts a caption’s length in letters: 16 Cyrillic letters pass, 17 are refused naming the field', async () => {
    await gif('/giffer/countdown/create', { delay: 60, duration: 1, days: 'Д'.repeat(16) })
    const res = await request(g.app).post('/giffer/countdown/create').send({ delay: 60, duration: 1, days: 'Д'.repeat(17) })
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('days')
    expect(res.body.error.message).toContain('at most 16 characters')
  })

  it('signs and serves a live timer with Russian captions', async () => {
    const until = new Date(Date.now() + 2 * 86400_000).toISOString().replace(/\.\d+Z$/, 'Z')
    const minted = await request(g.app).post('/giffer/countdown/live-url').send({ until, font: 'roboto', ...ru })
    expect(minted.status, JSON.stringify(minted.body)).toBe(200)
    const url = new URL(minted.body.url as string)
    expect(url.searchParams.get('seconds')).toBe('Секунды')
    const live = await request(g.app)
      .get(url.pathname + url.search)
      .buffer(true)
      .parse(binary)
    expect(live.status).toBe(200)
    expect(decodeGif(live.body as Buffer).height).toBe(300)
  })
})

describe('text previews and Cyrillic', () => {
  const preview = (query: Record<string, string>) => request(g.app).get('/giffer/text/preview').query(query).buffer(true).parse(binary)

  it('draws a mixed Latin and Cyrillic text in a font that has both', async () => {
    const res = await preview({ text: 'Sale — Скидка\nЁлки', font: 'caveat' })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    expect(res.headers['x-giffer-notice']).toBeUndefined()
  })

  it('says "No Cyrillic letters in this font" instead of drawing the fallback face under a Latin-only font’s name', async () => {
    const res = await preview({ text: 'Привет, мир', font: 'alex-brush' })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    expect(res.headers['x-giffer-notice']).toBe('missing_glyphs')
    const latin = await preview({ text: 'Hello', font: 'alex-brush' })
    expect(latin.headers['x-giffer-notice']).toBeUndefined()
  })
})

describe('GET fonts', () => {
  it('lists the scripts each font draws with its own letters', async () => {
    const res = await request(g.app).get('/giffer/fonts').expect(200)
    const fonts = res.body.fonts as { id: string; scripts: string[]; groups: string[] }[]
    const byId = new Map(fonts.map((font) => [font.id, font]))
    expect(byId.get('roboto')!.scripts).toEqual(['latin', 'cyrillic'])
    expect(byId.get('lato')!.scripts).toEqual(['latin'])
    expect(byId.get('ponomar')!.scripts).toContain('cyrillic')
    expect(fonts.every((font) => Array.isArray(font.scripts) && font.scripts.includes('latin'))).toBe(true)
    const gothic = fonts.filter((font) => font.groups.includes('gothic'))
    expect(gothic.filter((font) => font.scripts.includes('cyrillic')).length).toBeGreaterThanOrEqual(21)
  })
})
