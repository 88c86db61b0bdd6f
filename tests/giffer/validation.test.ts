import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startGiffer, type TestGiffer } from './setup.js'

let g: TestGiffer
beforeAll(async () => {
  g = await startGiffer()
})
afterAll(async () => {
  await g.close()
})

type Case = [description: string, body: Record<string, unknown>, field: string]

async function expectBadField(path: string, body: Record<string, unknown>, field: string, status = 400) {
  const res = await request(g.app).post(path).send(body)
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  expect(res.headers['content-type']).toMatch(/application\/json/)
  expect(res.body.error.field).toBe(field)
  expect(res.body.error.code).toBe('invalid_parameter')
  expect(res.body.error.message).toContain(field)
}

describe('POST scrollingtext/create validation', () => {
  const ok = { text: 'Sale', font: 'roboto' }
  const cases: Case[] = [
    ['text missing', { font: 'roboto' }, 'text'],
    ['text empty after trimming', { text: '   ' }, 'text'],
    ['text not a string', { text: 42 }, 'text'],
    ['text over 200 characters', { text: 'x'.repeat(201) }, 'text'],
    ['divider over 8 characters once decoded', { ...ok, divider: '&#9733;'.repeat(9) }, 'divider'],
    ['divider not a string', { ...ok, divider: ['*'] }, 'divider'],
    ['unknown font', { ...ok, font: 'Comic Sans MS' }, 'font'],
    ['font given as a path', { ...ok, font: '../../etc/passwd' }, 'font'],
    ['font_weight out of range', { ...ok, font_weight: 1000 }, 'font_weight'],
    ['font_weight not a multiple of 100', { ...ok, font_weight: 450 }, 'font_weight'],
    ['font_weight unknown name', { ...ok, font_weight: 'heavy-ish' }, 'font_weight'],
    ['color not a colour', { ...ok, color: 'red-ish' }, 'color'],
    ['color with alpha', { ...ok, color: '#ff000080' }, 'color'],
    ['divider_color not a colour', { ...ok, divider_color: 12 }, 'divider_color'],
    ['background not a colour', { ...ok, background: '#12345' }, 'background'],
    ['reverse not a boolean', { ...ok, reverse: 'sideways' }, 'reverse'],
    ['font_size below 16', { ...ok, font_size: 15 }, 'font_size'],
    ['font_size above 72', { ...ok, font_size: 73 }, 'font_size'],
    ['font_size a boolean', { ...ok, font_size: true }, 'font_size'],
    ['font_size not numeric', { ...ok, font_size: 'big' }, 'font_size'],
    ['flicker_pattern with letters', { ...ok, flicker_pattern: '10a1' }, 'flicker_pattern'],
    ['flicker_pattern too long', { ...ok, flicker_pattern: '1'.repeat(21) }, 'flicker_pattern'],
    ['width above 600', { ...ok, width: 601 }, 'width'],
    ['width fractional', { ...ok, width: 300.5 }, 'width'],
    ['scale 3', { ...ok, scale: 3 }, 'scale'],
    ['scale 0', { ...ok, scale: 0 }, 'scale'],
    ['frames_max above 200', { ...ok, frames_max: 201 }, 'frames_max'],
    ['frames_max 0', { ...ok, frames_max: 0 }, 'frames_max'],
    ['icon_style unknown', { ...ok, icon_style: 'sharp' }, 'icon_style'],
  ]
  it.each(cases)('refuses %s with a 400 naming the field', async (_d, body, field) => {
    await expectBadField('/giffer/scrollingtext/create', body, field)
  })
})

describe('POST countdown/create validation', () => {
  const ok = { delay: 3600 }
  const cases: Case[] = [
    ['delay missing', {}, 'delay'],
    ['delay negative', { delay: -1 }, 'delay'],
    ['delay over 99 days', { delay: 99 * 86400 + 1 }, 'delay'],
    ['delay fractional', { delay: 1.5 }, 'delay'],
    ['delay a string of letters', { delay: 'soon' }, 'delay'],
    ['delay null', { delay: null }, 'delay'],
    ['font unknown', { ...ok, font: 'nope' }, 'font'],
    ['font_weight wrong type', { ...ok, font_weight: {} }, 'font_weight'],
    ['color wrong', { ...ok, color: 'rgb(1,2,3)' }, 'color'],
    ['background wrong', { ...ok, background: '' }, 'background'],
    ['days caption too long', { ...ok, days: 'd'.repeat(17) }, 'days'],
    ['hours caption not text', { ...ok, hours: 5 }, 'hours'],
    ['minutes caption not text', { ...ok, minutes: false }, 'minutes'],
    ['seconds caption too long', { ...ok, seconds: 's'.repeat(17) }, 'seconds'],
    ['duration above 120', { ...ok, duration: 121 }, 'duration'],
    ['duration 0', { ...ok, duration: 0 }, 'duration'],
    ['style other than solid', { ...ok, style: 'flip' }, 'style'],
    ['scale 5', { ...ok, scale: 5 }, 'scale'],
  ]
  it.each(cases)('refuses %s with a 400 naming the field', async (_d, body, field) => {
    await expectBadField('/giffer/countdown/create', body, field)
  })
})

describe('POST slideshow/create-* validation', () => {
  const image = '/giffer/uploads/2025-01-01/0123456789abcdef0123456789abcdef/photo-1.jpg'
  const ok = { images: [image] }
  const cases: Case[] = [
    ['images missing', {}, 'images'],
    ['images empty', { images: [] }, 'images'],
    ['images not a list', { images: image }, 'images'],
    ['more than 10 images', { images: Array(11).fill(image) }, 'images'],
    ['an image that is not a string', { images: [42] }, 'images.0'],
    ['delay below 100 ms', { ...ok, delay: 50 }, 'delay'],
    ['delay above 10 s', { ...ok, delay: 10001 }, 'delay'],
    ['radius negative', { ...ok, radius: -1 }, 'radius'],
    ['width above 900', { ...ok, width: 901 }, 'width'],
    ['width below 200', { ...ok, width: 199 }, 'width'],
    ['background not a colour', { ...ok, background: 'see-through' }, 'background'],
    ['border_width too wide', { ...ok, border_width: 51 }, 'border_width'],
    ['border_color wrong', { ...ok, border_color: '#xyz' }, 'border_color'],
    ['spacing too large', { ...ok, spacing: 101 }, 'spacing'],
    ['count 6', { ...ok, count: 6 }, 'count'],
    ['tweak unknown layout', { ...ok, tweak: 'giant' }, 'tweak'],
    ['tweak above 2', { ...ok, tweak: 2.5 }, 'tweak'],
    ['overflow 1', { ...ok, overflow: 1 }, 'overflow'],
    ['height unknown aspect', { ...ok, height: '5:4' }, 'height'],
    ['height too tall', { ...ok, height: 5 }, 'height'],
    ['overlay_color wrong', { ...ok, overlay_color: 'dark' }, 'overlay_color'],
    ['overlay_opacity above 1', { ...ok, overlay_opacity: 1.5 }, 'overlay_opacity'],
  ]
  it.each(cases)('refuses %s with a 400 naming the field', async (_d, body, field) => {
    await expectBadField('/giffer/slideshow/create-row', body, field)
  })

  it('says "Please upload at least one image." for an empty list', async () => {
    const res = await request(g.app).post('/giffer/slideshow/create-trio').send({ images: [] })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toContain('Please upload at least one image.')
  })
})

describe('GET text/preview validation', () => {
  const ok = { text: 'Hello', font: 'great-vibes' }
  const cases: [string, Record<string, string | string[]>, string][] = [
    ['text missing', { font: 'great-vibes' }, 'text'],
    ['text blank', { ...ok, text: ' \n ' }, 'text'],
    ['text given twice', { ...ok, text: ['a', 'b'] }, 'text'],
    ['font missing', { text: 'Hello' }, 'font'],
    ['font unknown', { ...ok, font: 'Arial' }, 'font'],
    ['font_weight unknown', { ...ok, font_weight: 'fat' }, 'font_weight'],
    ['font_size below 16', { ...ok, font_size: '14' }, 'font_size'],
    ['font_size above 72', { ...ok, font_size: '74' }, 'font_size'],
    ['font_size not numeric', { ...ok, font_size: '32px' }, 'font_size'],
    ['text_align unknown', { ...ok, text_align: 'justify' }, 'text_align'],
    ['lineheight too small', { ...ok, lineheight: '0.1' }, 'lineheight'],
    ['lineheight not numeric', { ...ok, lineheight: 'tall' }, 'lineheight'],
    ['color wrong', { ...ok, color: 'blue-ish' }, 'color'],
    ['padding negative', { ...ok, padding: '-3' }, 'padding'],
    ['scale 4', { ...ok, scale: '4' }, 'scale'],
    ['stroke_width above 20', { ...ok, stroke_width: '21' }, 'stroke_width'],
    ['stroke colour wrong', { ...ok, stroke_width: '2', stroke: 'glow' }, 'stroke'],
  ]
  it.each(cases)('refuses %s with a 400 naming the field', async (_d, query, field) => {
    const res = await request(g.app).get('/giffer/text/preview').query(query)
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.error.field).toBe(field)
  })
})

describe('request bodies', () => {
  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await request(g.app).post('/giffer/countdown/create').set('Content-Type', 'application/json').send('{"delay": 10,')
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('invalid_json')
  })

  it('answers a JSON body over the size limit with 413', async () => {
    const res = await request(g.app)
      .post('/giffer/scrollingtext/create')
      .send({ text: 'a', padding: 'x'.repeat(40_000) })
    expect(res.status).toBe(413)
    expect(res.body.error.code).toBe('too_large')
  })

  it('answers a form-encoded body with 415', async () => {
    const res = await request(g.app).post('/giffer/countdown/create').type('form').send('delay=10')
    expect(res.status).toBe(415)
    expect(res.body.error.code).toBe('unsupported_media_type')
  })

  it('answers a JSON array body with a 400 naming the field', async () => {
    const res = await request(g.app).post('/giffer/countdown/create').send([1, 2, 3])
    expect(res.status).toBe(400)
  })

  it('answers an unknown path with a 404 JSON error', async () => {
    const res = await request(g.app).get('/giffer/nothing/here')
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('not_found')
  })
})
