/** The end message a countdown shows once time is up, drawn in the timer's own style. */
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import type { CountdownJob, Rgb } from '../../server/giffer/jobs.js'
import { renderCountdown } from '../../server/giffer/render/countdown.js'
import { decodeGif, differingPixels } from './setup.js'

const COLOUR: Rgb = [200, 30, 60]
const BACKGROUND: Rgb = [255, 245, 220]
const NO_CAPTIONS = { days: '', hours: '', minutes: '', seconds: '' }

function expiredJob(job: Partial<CountdownJob> = {}): CountdownJob {
  return {
    kind: 'countdown',
    remainingSeconds: 0,
    frames: 1,
    font: 'roboto',
    weight: 700,
    color: COLOUR,
    background: BACKGROUND,
    captions: { days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' },
    scale: 2,
    format: 'gif',
    endMessage: 'This offer has ended',
    ...job,
  }
}

interface Picture {
  width: number
  height: number
  rgba: Uint8Array
}

/** The last picture a GIF shows, or a PNG's pixels, as RGBA. */
async function lastPicture(body: Uint8Array, contentType: string): Promise<Picture> {
  if (contentType === 'image/png') {
    const { data, info } = await sharp(body).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    return { width: info.width, height: info.height, rgba: new Uint8Array(data) }
  }
  const gif = decodeGif(body)
  return { width: gif.width, height: gif.height, rgba: gif.picture(gif.frames.length - 1) }
}

function pixelsOf(picture: Picture, [r, g, b]: Rgb): number {
  let n = 0
  for (let i = 0; i < picture.rgba.length; i += 4) if (picture.rgba[i] === r && picture.rgba[i + 1] === g && picture.rgba[i + 2] === b) n++
  return n
}

/** Columns, counted from the left, that hold any pixel other than the background. */
function inkedColumns(picture: Picture): number[] {
  const columns: number[] = []
  for (let x = 0; x < picture.width; x++) {
    for (let y = 0; y < picture.height; y++) {
      const i = (y * picture.width + x) * 4
      if (picture.rgba[i] !== BACKGROUND[0] || picture.rgba[i + 1] !== BACKGROUND[1] || picture.rgba[i + 2] !== BACKGROUND[2]) {
        columns.push(x)
        break
      }
    }
  }
  return columns
}

/** How many separate bands of rows hold ink: one a line of text. */
function inkedBands(picture: Picture): number {
  let bands = 0
  let inBand = false
  for (let y = 0; y < picture.height; y++) {
    const row = picture.rgba.subarray(y * picture.width * 4, (y + 1) * picture.width * 4)
    let inked = false
    for (let i = 0; i < row.length && !inked; i += 4) inked = row[i] !== BACKGROUND[0] || row[i + 1] !== BACKGROUND[1] || row[i + 2] !== BACKGROUND[2]
    if (inked && !inBand) bands++
    inBand = inked
  }
  return bands
}

describe('a countdown whose time is up, with an end message', () => {
  it.each(['gif', 'png'] as const)('draws the message alone as one %s frame, the size of the timer, instead of the zeros', async (format) => {
    const message = await renderCountdown(expiredJob({ format }))
    const zeros = await renderCountdown(expiredJob({ format, endMessage: undefined }))
    expect(message.frames).toBe(1)
    expect([message.width, message.height]).toEqual([zeros.width, zeros.height])
    const drawn = await lastPicture(message.body, message.contentType)
    const zeroPicture = await lastPicture(zeros.body, zeros.contentType)
    expect([drawn.width, drawn.height]).toEqual([1200, 300])
    expect(pixelsOf(drawn, COLOUR)).toBeGreaterThan(1000)
    expect(differingPixels(drawn.rgba, zeroPicture.rgba)).toBeGreaterThan(1000)
  })

  it('keeps the smaller size of a timer without captions', async () => {
    const message = await renderCountdown(expiredJob({ captions: NO_CAPTIONS }))
    const zeros = await renderCountdown(expiredJob({ captions: NO_CAPTIONS, endMessage: undefined }))
    expect([message.width, message.height]).toEqual([zeros.width, zeros.height])
    expect(message.height).toBe(220)
  })

  it('draws a Russian message in a Cyrillic font', async () => {
    const image = await renderCountdown(expiredJob({ font: 'russo-one', weight: 400, endMessage: 'Предложение закончилось' }))
    const picture = await lastPicture(image.body, image.contentType)
    expect(pixelsOf(picture, COLOUR)).toBeGreaterThan(1000)
    const columns = inkedColumns(picture)
    // Centred: as much room on the left as on the right.
    expect(Math.abs(columns[0]! - (picture.width - 1 - columns.at(-1)!))).toBeLessThanOrEqual(4)
  })

  it.each([
    ['Roboto at scale 2', expiredJob({ endMessage: 'Спасибо, что были с нами! Увы, наше предложение закончилось.' })],
    ['a wide face at scale 1 without captions', expiredJob({ font: 'stalinist-one', weight: 400, scale: 1, captions: NO_CAPTIONS, endMessage: `${'Ш'.repeat(20)} ${'Ж'.repeat(19)} ${'Ш'.repeat(19)}` })],
  ])('keeps a message of 60 characters inside the image: %s', async (_case, job) => {
    expect([...job.endMessage!]).toHaveLength(60)
    const picture = await lastPicture((await renderCountdown(job)).body, 'image/gif')
    const columns = inkedColumns(picture)
    expect(columns.length).toBeGreaterThan(0)
    const margin = 10 * job.scale
    expect(columns[0]!).toBeGreaterThanOrEqual(margin)
    expect(columns.at(-1)!).toBeLessThan(picture.width - margin)
  })

  it('wraps a message onto two lines when one line would be smaller than 10 px', async () => {
    const wide = expiredJob({ font: 'stalinist-one', weight: 400, scale: 1, captions: NO_CAPTIONS, endMessage: `${'Ш'.repeat(20)} ${'Ж'.repeat(19)} ${'Ш'.repeat(19)}` })
    expect(inkedBands(await lastPicture((await renderCountdown(wide)).body, 'image/gif'))).toBe(2)
    const short = expiredJob({ font: 'stalinist-one', weight: 400, scale: 1, captions: NO_CAPTIONS, endMessage: 'Sale over' })
    expect(inkedBands(await lastPicture((await renderCountdown(short)).body, 'image/gif'))).toBe(1)
  })
})

describe('a countdown that reaches zero within its GIF', () => {
  const running = expiredJob({ remainingSeconds: 3, frames: 10 })

  it('shows the message in place of the zeros frame and ends there', async () => {
    const gif = decodeGif((await renderCountdown(running)).body)
    const zeros = decodeGif((await renderCountdown({ ...running, endMessage: undefined })).body)
    expect(gif.frames).toHaveLength(4)
    for (let i = 0; i < 3; i++) expect(differingPixels(gif.picture(i), zeros.picture(i)), `frame ${i}`).toBe(0)
    const last = gif.picture(3)
    expect(differingPixels(last, zeros.picture(3))).toBeGreaterThan(1000)
    // The same picture as the message alone once time is up.
    const alone = decodeGif((await renderCountdown(expiredJob())).body)
    expect(differingPixels(last, alone.picture(0))).toBe(0)
    // It stays for the rest of the GIF, as the zeros do.
    expect(gif.frames.map((frame) => frame.delayMs)).toEqual([1000, 1000, 1000, 7000])
  })

  it('without a message counts down to zeros and holds them, as before', async () => {
    const gif = decodeGif((await renderCountdown({ ...running, endMessage: undefined })).body)
    expect(gif.frames).toHaveLength(4)
    expect(gif.frames.map((frame) => frame.delayMs)).toEqual([1000, 1000, 1000, 7000])
  })

  it('draws the digits only when zero is beyond the last frame', async () => {
    const message = decodeGif((await renderCountdown({ ...running, remainingSeconds: 30 })).body)
    const zeros = decodeGif((await renderCountdown({ ...running, remainingSeconds: 30, endMessage: undefined })).body)
    expect(message.frames).toHaveLength(10)
    expect(differingPixels(message.picture(9), zeros.picture(9))).toBe(0)
  })
})
