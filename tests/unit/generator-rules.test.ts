import { describe, expect, it } from 'vitest'
import {
  FLICKER_PATTERNS,
  SCROLLING_TEXT_DEFAULTS,
  SCROLL_GIF_MAX_BYTES,
  scrollingTextEstimate,
  scrollingTextQuery,
  scrollingTextRequest,
  separatorLength,
  snapFontSize,
} from '../../shared/generators/scrolling-text/scrolling-text.js'
import { limitText, snapLineHeight, snapStroke, TEXT_IMAGE_DEFAULTS, textImageFileName, textImagePadding, textImageQuery, textLines, textPreviewUrl } from '../../shared/generators/text-image/text-image.js'
import { scrollingTextSettingsFromQuery } from '../../server/generators/scrolling-text/query.js'
import { textImageSettingsFromQuery } from '../../server/generators/text-image/query.js'
import { loadGeneratorContent } from '../../server/generators/content.js'
import { contentDir } from '../../server/project-root.js'
import { countdownSettingsFromQuery } from '../../server/generators/countdown/query.js'

const gifFonts = loadGeneratorContent(contentDir).fonts.gif

describe('scrolling text rules', () => {
  it('offers font sizes 16 to 72 in steps of 2', () => {
    expect(snapFontSize(15)).toBe(16)
    expect(snapFontSize(17)).toBe(18)
    expect(snapFontSize(33)).toBe(34)
    expect(snapFontSize(80)).toBe(72)
    expect(snapFontSize(Number.NaN)).toBe(24)
  })

  it('sends the image service its fields: divider, reverse for right, the flicker digits, 600 px at scale 2 and 200 frames', () => {
    const request = scrollingTextRequest({ ...SCROLLING_TEXT_DEFAULTS, text: '  Sale  ', direction: 'right', flicker: 'blink' })
    expect(request).toMatchObject({ text: 'Sale', divider: '★', reverse: true, flicker_pattern: FLICKER_PATTERNS.blink.pattern, width: 600, scale: 2, frames_max: 200 })
    expect(scrollingTextRequest(SCROLLING_TEXT_DEFAULTS)).toMatchObject({ reverse: false, flicker_pattern: '' })
  })

  it('counts a character reference as one separator character', () => {
    expect(separatorLength('&#9733;')).toBe(1)
    expect(separatorLength('&#xe8f6; *')).toBe(3)
  })

  it('estimates more frames for longer texts, at most 200, in whole flicker patterns', () => {
    const short = scrollingTextEstimate({ ...SCROLLING_TEXT_DEFAULTS, text: 'Sale' })
    const long = scrollingTextEstimate({ ...SCROLLING_TEXT_DEFAULTS, text: 'Free shipping on every order over fifty dollars this week' })
    expect(short.frames).toBeLessThan(long.frames)
    expect(long.frames).toBe(200)
    expect(short.frames).toBeGreaterThan(30)
    expect(short.frames).toBeLessThan(70)
    const blinking = scrollingTextEstimate({ ...SCROLLING_TEXT_DEFAULTS, text: 'Sale', flicker: 'blink' })
    expect(blinking.frames % FLICKER_PATTERNS.blink.pattern.length).toBe(0)
    expect(long.bytes).toBeGreaterThan(400 * 1024)
    expect(short.bytes).toBeLessThan(400 * 1024)
  })

  it('estimates fewer frames for a tall strip, as the service draws it, within its byte limit', () => {
    const text = 'Free shipping on every order over fifty dollars this week'
    const tall = scrollingTextEstimate({ ...SCROLLING_TEXT_DEFAULTS, text, size: 72 })
    expect(tall.frames).toBeLessThan(200)
    expect(tall.frames).toBeGreaterThan(100)
    expect(tall.bytes).toBeLessThanOrEqual(SCROLL_GIF_MAX_BYTES)
    expect(scrollingTextEstimate({ ...SCROLLING_TEXT_DEFAULTS, text, size: 72, flicker: 'blink' }).frames % FLICKER_PATTERNS.blink.pattern.length).toBe(0)
  })

  it('keeps only what differs from the defaults in the address, and reads it back', () => {
    expect(scrollingTextQuery(SCROLLING_TEXT_DEFAULTS)).toBe('')
    const settings = { ...SCROLLING_TEXT_DEFAULTS, text: 'Привет, мир', size: 36, background: '#000000', direction: 'right' as const, flicker: 'pulse' as const }
    const query = scrollingTextQuery(settings)
    expect(query).toContain('background=000000')
    expect(scrollingTextSettingsFromQuery(new URLSearchParams(query), gifFonts)).toEqual(settings)
  })

  it('falls back to a default for each bad setting of a shared link', () => {
    const settings = scrollingTextSettingsFromQuery(new URLSearchParams('text=&size=abc&font=nope&color=red&direction=up&flicker=x&weight=5'), gifFonts)
    expect(settings).toEqual(SCROLLING_TEXT_DEFAULTS)
  })
})

describe('text image rules', () => {
  it('trims the text to 3 lines of 35 characters', () => {
    const long = 'x'.repeat(40)
    expect(textLines(`  \n${long}\nb\nc\nd  `)).toEqual(['x'.repeat(35), 'b', 'c'])
    expect(textLines('  Happy Birthday  ')).toEqual(['Happy Birthday'])
    expect(limitText(`a\nb\nc\nd\n${long}`)).toBe('a\nb\nc')
    expect(limitText(long)).toHaveLength(35)
  })

  it('pads the text by 3 + font size / 10, rounded up, counting a size that is not a number as 32', () => {
    expect(textImagePadding(32)).toBe(7)
    expect(textImagePadding(40)).toBe(7)
    expect(textImagePadding(41)).toBe(8)
    expect(textImagePadding(16)).toBe(5)
    expect(textImagePadding(72)).toBe(11)
    expect(textImagePadding(Number.NaN)).toBe(7)
    expect(TEXT_IMAGE_DEFAULTS.size).toBe(32)
  })

  it('builds the preview URL with regular weight and scale 2, and the stroke only when chosen', () => {
    const plain = new URL(textPreviewUrl(TEXT_IMAGE_DEFAULTS, 'great-vibes'), 'http://x')
    expect(plain.pathname).toBe('/giffer/text/preview')
    expect(Object.fromEntries(plain.searchParams)).toEqual({
      text: 'Happy Birthday',
      font_weight: 'regular',
      font_size: '32',
      text_align: 'center',
      lineheight: '1.2',
      color: '#1f2937',
      padding: '7',
      scale: '2',
      font: 'great-vibes',
    })
    const outlined = new URL(textPreviewUrl({ ...TEXT_IMAGE_DEFAULTS, stroke: 3, strokeColor: '#ff0000' }, 'lobster'), 'http://x')
    expect(outlined.searchParams.get('stroke_width')).toBe('3')
    expect(outlined.searchParams.get('stroke')).toBe('#ff0000')
  })

  it('snaps line height and stroke to their steps and ranges', () => {
    expect(snapLineHeight(1.234)).toBe(1.2)
    expect(snapLineHeight(9)).toBe(2.5)
    expect(snapStroke(-3)).toBe(0)
    expect(snapStroke(40)).toBe(20)
  })

  it('names the download as a calligraphy png', () => {
    expect(textImageFileName('great-vibes')).toBe('calligraphy-great-vibes.png')
  })

  it('round-trips its settings through the address and ignores bad values', () => {
    const settings = { ...TEXT_IMAGE_DEFAULTS, text: 'Save\nthe date', group: 'gothic' as const, stroke: 4, strokeColor: '#123456', lineHeight: 1.5 }
    expect(textImageSettingsFromQuery(new URLSearchParams(textImageQuery(settings)))).toEqual(settings)
    expect(textImageSettingsFromQuery(new URLSearchParams('text=%20%20&group=x&align=up&size=999&stroke=q'))).toEqual({ ...TEXT_IMAGE_DEFAULTS, size: 72 })
  })
})

describe('subject line page rules', async () => {
  const { mobileInboxCut, parseSavedPrompts, rememberPrompt, SAVED_PROMPTS_MAX, SUBJECT_DEFAULTS, subjectQuery, subjectRequest, subjectSettingsFromQuery } = await import('../../shared/generators/subject-lines/subject-lines.js')

  it('sends the topic trimmed, and keeps only what differs from the defaults in the address', () => {
    const settings = { topic: '  Spring sale  ', industry: 'fashion' as const, tone: 'playful' as const, emoji: true }
    expect(subjectRequest(settings)).toEqual({ industry: 'fashion', tone: 'playful', topic: 'Spring sale', emoji: true })
    expect(subjectQuery(SUBJECT_DEFAULTS)).toBe('')
    expect(subjectSettingsFromQuery(new URLSearchParams(subjectQuery(settings)))).toEqual({ ...settings, topic: 'Spring sale' })
    expect(subjectSettingsFromQuery(new URLSearchParams('industry=nope&tone=angry&emoji=yes'))).toEqual(SUBJECT_DEFAULTS)
  })

  it('keeps the newest saved prompt first, once, and at most ten', () => {
    let saved = [] as ReturnType<typeof rememberPrompt>
    for (let index = 0; index < 12; index++) saved = rememberPrompt(saved, { ...SUBJECT_DEFAULTS, topic: `Topic ${index}` })
    expect(saved).toHaveLength(SAVED_PROMPTS_MAX)
    expect(saved[0]!.topic).toBe('Topic 11')
    saved = rememberPrompt(saved, { ...SUBJECT_DEFAULTS, topic: ' Topic 5 ' })
    expect(saved.map((prompt) => prompt.topic).filter((topic) => topic === 'Topic 5')).toHaveLength(1)
    expect(saved[0]!.topic).toBe('Topic 5')
  })

  it('reads back only well-formed saved prompts', () => {
    expect(parseSavedPrompts('not json')).toEqual([])
    expect(parseSavedPrompts(JSON.stringify([{ topic: 'x', industry: 'fashion', tone: 'witty', emoji: false }, { topic: 1 }, null]))).toEqual([{ topic: 'x', industry: 'fashion', tone: 'witty', emoji: false }])
  })

  it('shows where a phone cuts a subject line', () => {
    expect(mobileInboxCut('Short and sweet')).toEqual({ shown: 'Short and sweet', cut: false })
    const long = mobileInboxCut('Our biggest spring sale starts tomorrow morning at nine')
    expect(long.cut).toBe(true)
    expect([...long.shown].length).toBeLessThanOrEqual(40)
    expect(long.shown.endsWith('…')).toBe(true)
  })
})

describe('countdown settings read from a link', () => {
  const now = new Date('2026-11-25T12:00:00Z')
  it('takes a field given twice by its last value, as the form sends the captions checkbox', () => {
    expect(countdownSettingsFromQuery(new URLSearchParams('captions=0&captions=1'), gifFonts, now).captions).toBe(true)
    expect(countdownSettingsFromQuery(new URLSearchParams('captions=0'), gifFonts, now).captions).toBe(false)
    expect(countdownSettingsFromQuery(new URLSearchParams('amount=5&amount=9&unit=days'), gifFonts, now).amount).toBe(9)
  })
})
