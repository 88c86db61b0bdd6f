/** How many days a countdown draws: two digits up to 99, three from 100 to 999, and no more. */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { CountdownJob } from '../../server/giffer/jobs.js'
import { countdownParts, renderCountdown } from '../../server/giffer/render/countdown.js'
import { COUNTDOWN_MAX_SECONDS } from '../../shared/generators/countdown/countdown.js'
import { decodeGif, differingPixels } from './setup.js'

const DAY = 86_400
const HOUR = 3_600

function job(remainingSeconds: number, patch: Partial<CountdownJob> = {}): CountdownJob {
  return {
    kind: 'countdown',
    remainingSeconds,
    frames: 1,
    font: 'roboto',
    weight: 700,
    color: [17, 24, 39],
    background: [255, 255, 255],
    captions: { days: 'Days', hours: 'Hours', minutes: 'Minutes', seconds: 'Seconds' },
    scale: 2,
    format: 'gif',
    ...patch,
  }
}

interface Frame {
  width: number
  rgba: Uint8Array
}

/** The picture frame `index` of the countdown's GIF shows. */
async function frameOf(countdown: CountdownJob, index = 0): Promise<Frame> {
  const gif = decodeGif((await renderCountdown(countdown)).body)
  return { width: gif.width, rgba: gif.picture(index) }
}

/** The first and last column where two pictures differ; null when they are the same. */
function changedColumns(a: Frame, b: Frame): [number, number] | null {
  let first = Number.POSITIVE_INFINITY
  let last = -1
  for (let i = 0; i < a.rgba.length; i += 4) {
    if (a.rgba[i] === b.rgba[i] && a.rgba[i + 1] === b.rgba[i + 1] && a.rgba[i + 2] === b.rgba[i + 2]) continue
    const x = (i / 4) % a.width
    first = Math.min(first, x)
    last = Math.max(last, x)
  }
  return last < 0 ? null : [first, last]
}

/** The leftmost column holding any ink. */
function firstInkedColumn(frame: Frame): number {
  let first = Number.POSITIVE_INFINITY
  for (let i = 0; i < frame.rgba.length; i += 4) if (frame.rgba[i] !== 255) first = Math.min(first, (i / 4) % frame.width)
  return first
}

describe('a countdown of 99 days or less', () => {
  // SHA-256 of each image as the renderer drew it when days were never more than two digits.
  it.each([
    ['99 days 23:59:59, 120 frames with captions at scale 2', job(99 * DAY + 86_399, { frames: 120 }), '5d225ec0137dde4fc6fbb5227ff1fb8ce1426809987c918a1e9988a38a43be8b'],
    ['3 days 05:07:09, 120 frames without captions at scale 1', job(3 * DAY + 5 * HOUR + 7 * 60 + 9, { frames: 120, scale: 1, captions: { days: '', hours: '', minutes: '', seconds: '' } }), '23268a91116e9b3c9875334c7d51376c4e81515a16164e121578cd06882f1450'],
    ["10 days 00:00:30 as Outlook's PNG", job(10 * DAY + 30, { frames: 60, format: 'png' }), 'ba753c0679ada0ccfbd1f00457a583239861fbfaadf3f6aab543fe6b27f1889d'],
    ['45 seconds in Russo One, ending on its message', job(45, { frames: 60, font: 'russo-one', weight: 400, endMessage: 'Sale over' }), '2a4b246908dbd3c50e87150cc6a8677c6eecbc54c17a63fb4db2f64af1e50cd7'],
  ])('is drawn byte for byte as with two-digit days only: %s', async (_case, countdown, sha256) => {
    const image = await renderCountdown(countdown)
    expect(createHash('sha256').update(image.body).digest('hex')).toBe(sha256)
  })
})

describe('a countdown of 100 days or more', () => {
  /** Frame 0 of a countdown of `days` days and `hours` hours. */
  const shown = (days: number, hours = 3) => frameOf(job(days * DAY + hours * HOUR))

  it('shows 200 days and 3 hours with three digits of days, each drawn where its place is', async () => {
    const d200 = await shown(200)
    const ones = changedColumns(d200, await shown(201))
    const tens = changedColumns(d200, await shown(210))
    const hundreds = changedColumns(d200, await shown(100))
    const days = changedColumns(d200, await shown(199))
    const hours = changedColumns(d200, await shown(200, 4))
    for (const columns of [ones, tens, hundreds, days, hours]) expect(columns).not.toBeNull()
    // Left to right: hundreds, tens, ones, then the hours; 199 → 200 changes all three.
    expect(hundreds![1]).toBeLessThan(tens![0])
    expect(tens![1]).toBeLessThan(ones![0])
    expect(ones![1]).toBeLessThan(hours![0])
    expect(days).toEqual([hundreds![0], ones![1]])
    // The third digit takes room on the left that two digits leave empty.
    expect(firstInkedColumn(d200)).toBeLessThan(firstInkedColumn(await shown(99)))
  })

  it('counts down every second rather than standing still', async () => {
    const image = await renderCountdown(job(200 * DAY + 3 * HOUR, { frames: 5 }))
    expect(image.frames).toBe(5)
    const gif = decodeGif(image.body)
    expect(differingPixels(gif.picture(0), gif.picture(4))).toBeGreaterThan(0)
  })

  it('keeps three digits through the whole GIF once frame 0 has them: 100 days turn into 099', async () => {
    // 100 days 00:00:02, then 00:00:01, 00:00:00, and 99 days 23:59:59 on frame 3.
    const crossing = await frameOf(job(100 * DAY + 2, { frames: 4 }), 3)
    const twoDigits = await frameOf(job(99 * DAY + 86_399))
    const threeDigits = await frameOf(job(199 * DAY + 86_399))
    expect(differingPixels(crossing.rgba, twoDigits.rgba)).toBeGreaterThan(0)
    // 099:23:59:59 and 199:23:59:59 differ in the hundreds only, left of the tens.
    const hundreds = changedColumns(crossing, threeDigits)
    const tens = changedColumns(threeDigits, await frameOf(job(189 * DAY + 86_399)))
    expect(hundreds).not.toBeNull()
    expect(hundreds![1]).toBeLessThan(tens![0])
  })

  it('stops at 999 days 23:59:59', async () => {
    expect(COUNTDOWN_MAX_SECONDS).toBe(999 * DAY + 23 * HOUR + 59 * 60 + 59)
    expect(countdownParts(1000 * DAY)).toEqual({ days: 999, hours: 23, minutes: 59, seconds: 59 })
    expect(countdownParts(COUNTDOWN_MAX_SECONDS)).toEqual({ days: 999, hours: 23, minutes: 59, seconds: 59 })
    expect(countdownParts(COUNTDOWN_MAX_SECONDS - 1).seconds).toBe(58)
    const beyond = await renderCountdown(job(5000 * DAY, { frames: 3 }))
    // Every frame shows the most it draws: one frame, the same picture as 999 days 23:59:59.
    expect(beyond.frames).toBe(1)
    const most = await frameOf(job(COUNTDOWN_MAX_SECONDS))
    expect(differingPixels(decodeGif(beyond.body).picture(0), most.rgba)).toBe(0)
  })
})
