/**
 * A scrolling strip must fit an email: at the generator's settings (1200 px, at most 200 frames)
 * no text of up to 60 characters may give a GIF over 800 KB, at the default 24 px with all 200
 * frames, and at the largest sizes with fewer, longer frames.
 */
import { describe, expect, it } from 'vitest'
import { renderScrollingText } from '../../server/giffer/render/scrolling-text.js'
import { SCROLLING_TEXT_DEFAULTS, scrollingTextEstimate } from '../../shared/generators/scrolling-text/scrolling-text.js'

const TEXTS = ['Sale today', 'Free shipping on all orders this week!!', 'Free shipping on every order over fifty dollars, this week only']

function render(text: string, fontSize: number, font = 'roboto', flicker: number[] = []) {
  return renderScrollingText({
    kind: 'scrolling-text',
    text,
    divider: '★',
    iconStyle: 'filled',
    font,
    weight: 700,
    color: [17, 24, 39],
    dividerColor: [225, 29, 72],
    background: [253, 230, 138],
    reverse: false,
    fontSize,
    flicker,
    width: 600,
    scale: 2,
    framesMax: 200,
  })
}

describe('scrolling text size', () => {
  it.each(TEXTS)('%j stays under 800 KB at 24 px', async (text) => {
    const result = await render(text, 24)
    if (!('body' in result)) throw new Error('no image')
    expect(result.body.length).toBeLessThanOrEqual(800 * 1024)
    expect(result.frames).toBeLessThanOrEqual(200)
  })

  // The widest and busiest faces of each list, a Cyrillic line, and a flickering strip.
  it.each([
    ['anton', TEXTS[1]!, []],
    ['creepster', TEXTS[1]!, []],
    ['rubik-gemstones', TEXTS[2]!, []],
    ['jetbrains-mono', TEXTS[2]!, [1, 1, 0, 1]],
    ['great-vibes', 'Бесплатная доставка на все заказы этой недели, только сейчас', []],
  ] as const)('in %s, %j stays under 800 KB at 24 px', async (font, text, flicker) => {
    const result = await render(text, 24, font, [...flicker])
    if (!('body' in result)) throw new Error('no image')
    expect(result.body.length).toBeLessThanOrEqual(800 * 1024)
    expect(result.frames).toBeLessThanOrEqual(200)
  })

  // The page shows frames and size before drawing: they must be near what the service draws.
  it.each([
    [TEXTS[0]!, 24],
    [TEXTS[2]!, 24],
    [TEXTS[2]!, 48],
    [TEXTS[2]!, 72],
  ] as const)('the page estimates %j at %i px within 15 %% of the drawn frames and bytes', async (text, size) => {
    const estimate = scrollingTextEstimate({ ...SCROLLING_TEXT_DEFAULTS, text, size })
    const result = await render(text, size)
    if (!('body' in result)) throw new Error('no image')
    expect(Math.abs(estimate.frames - result.frames) / result.frames).toBeLessThan(0.15)
    expect(Math.abs(estimate.bytes - result.body.length) / result.body.length).toBeLessThan(0.15)
  })

  it.each([48, 72])('a long text at %i px keeps under 800 KB with fewer frames, and not far under', async (size) => {
    const result = await render(TEXTS[2]!, size)
    if (!('body' in result)) throw new Error('no image')
    expect(result.body.length).toBeLessThanOrEqual(800 * 1024)
    expect(result.body.length).toBeGreaterThan(600 * 1024)
    expect(result.frames).toBeLessThan(200)
    expect(result.frames).toBeGreaterThan(100)
  })
})
