/**
 * A scrolling strip must fit an email: at the generator's settings (1200 px, 200 frames, the
 * default 24 px) no text of up to 60 characters may give a GIF over 800 KB.
 */
import { describe, expect, it } from 'vitest'
import { renderScrollingText } from '../../server/giffer/render/scrolling-text.js'

const TEXTS = ['Sale today', 'Free shipping on all orders this week!!', 'Free shipping on every order over fifty dollars, this week only']

describe('scrolling text size', () => {
  it.each(TEXTS)('%j stays under 800 KB', (text) => {
    const result = renderScrollingText({
      kind: 'scrolling-text',
      text,
      divider: '★',
      iconStyle: 'filled',
      font: 'roboto',
      weight: 700,
      color: [17, 24, 39],
      dividerColor: [225, 29, 72],
      background: [253, 230, 138],
      reverse: false,
      fontSize: 24,
      flicker: [],
      width: 600,
      scale: 2,
      framesMax: 200,
    })
    if (!('body' in result)) throw new Error('no image')
    expect(result.body.length).toBeLessThanOrEqual(800 * 1024)
    expect(result.frames).toBeLessThanOrEqual(200)
  })
})
