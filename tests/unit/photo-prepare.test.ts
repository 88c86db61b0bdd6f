/**
 * The page's line of photos being prepared (photo-prepare.ts), with a stand-in for the photo
 * worker that answers when a test says so and a clock the test moves: one photo at a time, a
 * photo no longer wanted ends its worker, every time limit is cleared once its photo is over, and
 * each way a photo can fail has its message. Nothing the page could not prepare is handed back to send.
 */
import sharp from 'sharp'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { heicPhoto } from '../../scripts/lib/camera-photos.js'
import { PhotoPreparer, PhotoProblem, PREPARE_TIMEOUT_MS } from '../../shared/generators/slideshow/photo-prepare.js'
import type { PrepareReply, PrepareRequest } from '../../shared/generators/slideshow/photo-render.js'

/** The photo worker as the page sees it: it keeps what it is asked, and answers when told. */
class StandInWorker {
  onmessage: ((event: { data: PrepareReply }) => void) | null = null
  onerror: ((event: Event) => void) | null = null
  requests: PrepareRequest[] = []
  ended = false
  postMessage(request: PrepareRequest) {
    this.requests.push(request)
  }
  terminate() {
    this.ended = true
  }
  /** Answers the latest request with a prepared photo, or with what went wrong. */
  answer(error?: 'unreadable' | 'unsupported') {
    const { id } = this.requests.at(-1)!
    const photo = new Blob([new Uint8Array(1000)], { type: 'image/jpeg' })
    this.onmessage?.({ data: error ? { id, error, message: error } : { id, photo, thumbnail: photo, width: 40, height: 30 } })
  }
}

let workers: StandInWorker[] = []
const preparer = () => new PhotoPreparer(() => (workers.push(new StandInWorker()), workers.at(-1)!) as unknown as Worker)

const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c80a0a' } }).jpeg().toBuffer()
const photo = (name: string, bytes: Uint8Array = jpeg) => new File([new Uint8Array(bytes)], name, { type: 'image/jpeg' })

/** Lets the line move on: file reads are real, and end between turns of the event loop. */
const settle = () => new Promise((resolve) => setImmediate(resolve))
async function until(check: () => boolean) {
  for (let turn = 0; !check(); turn++) {
    if (turn > 200) throw new Error('never came')
    await settle()
  }
}

/** The outcome of a promise once settled, without letting its rejection go unhandled meanwhile. */
function outcome<T>(promise: Promise<T>) {
  const result: { value?: T; error?: unknown; settled: boolean } = { settled: false }
  promise.then(
    (value) => Object.assign(result, { value, settled: true }),
    (error: unknown) => Object.assign(result, { error, settled: true }),
  )
  return result
}

beforeEach(() => {
  workers = []
  // Only the timers: file reads and setImmediate stay real.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
})
afterEach(() => {
  vi.useRealTimers()
  delete (globalThis as { __photoDecodeProbe?: unknown }).__photoDecodeProbe
})

describe('one photo at a time', () => {
  it('removing a photo while it is decoded ends its worker; the next photo goes to a fresh worker, alone', async () => {
    const probe = { most: 0 }
    ;(globalThis as { __photoDecodeProbe?: unknown }).__photoDecodeProbe = probe
    const line = preparer()
    const first = new AbortController()
    const removed = outcome(line.prepare(photo('a.jpg'), first.signal))
    const next = outcome(line.prepare(photo('b.jpg'), new AbortController().signal))
    await until(() => workers[0]?.requests.length === 1)

    first.abort()
    await until(() => workers[1]?.requests.length === 1)
    expect(removed.error).toBe(first.signal.reason)
    expect(workers[0]!.ended).toBe(true)
    // The ended worker was never asked for the next photo.
    expect(workers[0]!.requests).toHaveLength(1)
    expect(probe.most).toBe(1)

    workers[1]!.answer()
    await until(() => next.settled)
    expect(next.value).toMatchObject({ width: 40, height: 30 })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('a photo removed as its turn comes leaves no time limit behind: a minute later, the photo then prepared is not ended', async () => {
    const line = preparer()
    const running = outcome(line.prepare(photo('running.jpg'), new AbortController().signal))
    // Removed the moment its turn comes, while its header is read and before its worker is asked.
    const removing = new AbortController()
    const removed = outcome(line.prepare(photo('removed.jpg'), removing.signal, () => removing.abort()))
    const slow = outcome(line.prepare(photo('slow.jpg'), new AbortController().signal))
    const last = outcome(line.prepare(photo('last.jpg'), new AbortController().signal))
    await until(() => workers[0]?.requests.length === 1)

    // The running photo is done: the removed one's turn comes and goes, the slow one takes 40 s.
    workers[0]!.answer()
    await until(() => workers[0]!.requests.length === 2)
    expect(running.value).toBeDefined()
    expect(removed.error).toBe(removing.signal.reason)
    await vi.advanceTimersByTimeAsync(40_000)
    workers[0]!.answer()
    await until(() => workers[0]!.requests.length === 3)
    expect(slow.value).toBeDefined()

    // The last photo takes 50 s: past the minute since the removed photo's turn, within its own.
    await vi.advanceTimersByTimeAsync(50_000)
    expect(workers[0]!.ended).toBe(false)
    expect(last.settled).toBe(false)
    workers[0]!.answer()
    await until(() => last.settled)
    expect(last.value).toMatchObject({ width: 40 })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('a photo that takes over a minute ends its worker and fails; the next photo starts a fresh worker', async () => {
    const line = preparer()
    const stuck = outcome(line.prepare(photo('stuck.jpg'), new AbortController().signal))
    const next = outcome(line.prepare(photo('next.jpg'), new AbortController().signal))
    await until(() => workers[0]?.requests.length === 1)
    await vi.advanceTimersByTimeAsync(PREPARE_TIMEOUT_MS - 1)
    expect(stuck.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await until(() => stuck.settled)
    expect((stuck.error as DOMException).name).toBe('TimeoutError')
    expect(workers[0]!.ended).toBe(true)
    await until(() => workers[1]?.requests.length === 1)
    workers[1]!.answer()
    await until(() => next.settled)
    expect(next.value).toBeDefined()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('says how far a photo is: decoding when its turn comes, encoding once the worker has decoded it', async () => {
    const steps: string[] = []
    const line = preparer()
    const done = outcome(line.prepare(photo('a.jpg'), new AbortController().signal, (step) => steps.push(step)))
    await until(() => workers[0]?.requests.length === 1)
    expect(steps).toEqual(['decoding'])
    workers[0]!.onmessage?.({ data: { id: workers[0]!.requests[0]!.id, step: 'encoding' } })
    expect(steps).toEqual(['decoding', 'encoding'])
    workers[0]!.answer()
    await until(() => done.settled)
    expect(done.value).toBeDefined()
  })
})

describe('what a photo that cannot be prepared says', () => {
  const problem = async (file: File, reply?: 'unreadable' | 'unsupported') => {
    const line = preparer()
    const result = outcome(line.prepare(file, new AbortController().signal))
    if (reply) {
      await until(() => workers[0]?.requests.length === 1)
      workers[0]!.answer(reply)
    }
    await until(() => result.settled)
    expect(result.error).toBeInstanceOf(PhotoProblem)
    return (result.error as PhotoProblem).message
  }

  it('bytes that are no image: "Unsupported file type." and the name, whatever the name', async () => {
    expect(await problem(photo('notes.jpg', new TextEncoder().encode('Shopping list: milk, eggs.')))).toBe('Unsupported file type. notes.jpg')
  })

  it('a JPEG the browser cannot decode, or whose header stops short: "Can’t read this photo." and the name', async () => {
    expect(await problem(photo('broken.jpg'), 'unreadable')).toBe('Can’t read this photo. broken.jpg')
    expect(await problem(photo('cut.jpg', jpeg.subarray(0, 30)))).toBe('Can’t read this photo. cut.jpg')
  })

  it('a HEIC photo the browser cannot decode: how to send it as a JPEG instead', async () => {
    const heic = new File([new Uint8Array(await heicPhoto(64, 48, 1))], 'IMG_0001.HEIC', { type: 'image/heic' })
    expect(await problem(heic, 'unreadable')).toBe(
      'This browser can’t open HEIC photos: IMG_0001.HEIC. Send it as a JPEG: share it from Photos (Mail sends a JPEG), or set the iPhone to Settings ▸ Camera ▸ Formats ▸ Most Compatible.',
    )
  })

  it('where the browser cannot prepare photos at all (no worker can, nor the page), nothing is sent, and it says what to do', async () => {
    // The stand-in worker cannot prepare photos; nor can the page here (Node has no createImageBitmap).
    expect(await problem(photo('a.jpg'), 'unsupported')).toBe('This browser can’t prepare photos for sending. Please try an up-to-date Chrome, Safari or Firefox.')
  })
})
