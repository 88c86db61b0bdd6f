/**
 * How a render thread gets a slideshow's photos: it asks on the job's port, the main thread reads
 * the photo from the store and moves its bytes over, or says why it could not. Both ends run in
 * this one thread here; the port pair behaves as between threads.
 */
import type { MessagePort } from 'node:worker_threads'
import sharp from 'sharp'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RenderRefused } from '../../server/giffer/jobs.js'
import { memoryPhotoReader, photoChannel, portPhotoReader, type PhotoReader } from '../../server/giffer/photo-source.js'
import { StoreUnavailable, UploadChanged } from '../../server/giffer/uploads/store.js'
import { HttpError, badRequest } from '../../server/process/errors.js'

const opened: { port: MessagePort; close(): void }[] = []

afterEach(() => {
  for (const channel of opened.splice(0)) {
    channel.close()
    channel.port.close()
  }
})

/** A job's channel over `read`, and the render thread's reader on its port. */
function channelOver(read: (index: number) => Promise<Uint8Array>): { readPhoto: PhotoReader; close(): void } {
  const channel = photoChannel(read)
  opened.push(channel)
  return { readPhoto: portPhotoReader(channel.port), close: channel.close }
}

/** `promise`, or a rejection saying it was still waiting after `ms`. */
function within<T>(promise: Promise<T>, ms = 1_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** Bytes of a recognisable pattern, in a buffer of their own. */
function photoBytes(length: number, seed: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff)
}

/** A buffer moved to another thread already: detached, nothing left in it. */
function alreadyMoved(): Uint8Array {
  const bytes = photoBytes(64, 9)
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] })
  return bytes
}

/** The refusal a read ends in, or the error if it is not one. */
async function refusalOf(read: Promise<unknown>) {
  const error = await within(read).then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(RenderRefused)
  return (error as RenderRefused).refusal
}

describe('photos over the job’s port', () => {
  it('hands the bytes over intact, and moves the store’s own buffer to the reader rather than copying it', async () => {
    const stored = photoBytes(100_000, 1)
    const expected = stored.slice()
    const { readPhoto } = channelOver(async () => stored)
    const received = await within(readPhoto(0))
    expect(received).toEqual(expected)
    // Moved: the store's buffer is empty (detached) now, the bytes live only in the reader's.
    expect(stored.byteLength).toBe(0)
    expect(stored.buffer.byteLength).toBe(0)
    expect(received.buffer.byteLength).toBe(100_000)
  })

  it('reads one photo after another, each the one asked for', async () => {
    const photos = [photoBytes(10, 1), photoBytes(20, 2), photoBytes(30, 3)]
    const copies = photos.map((bytes) => bytes.slice())
    const read = vi.fn(async (index: number) => photos[index]!)
    const { readPhoto } = channelOver(read)
    for (const index of [2, 0, 1]) expect(await within(readPhoto(index))).toEqual(copies[index])
    expect(read.mock.calls.map(([index]) => index)).toEqual([2, 0, 1])
  })

  it('through memoryPhotoReader, hands over a copy: the caller’s photos stay whole, read after read', async () => {
    const photos = [photoBytes(5_000, 4), photoBytes(6_000, 5)]
    const copies = photos.map((bytes) => bytes.slice())
    const { readPhoto } = channelOver(memoryPhotoReader(photos))
    for (const index of [0, 1, 0]) expect(await within(readPhoto(index))).toEqual(copies[index])
    expect(photos).toEqual(copies)
    expect(photos.map((bytes) => bytes.buffer.byteLength)).toEqual([5_000, 6_000])
  })

  it('copies bytes that are a view into a larger buffer (Node’s shared Buffer pool among them), leaving that buffer whole', async () => {
    const pooled = Buffer.from('a small file, in the pool')
    const larger = photoBytes(1_000, 6)
    const view = larger.subarray(100, 200)
    const sources = [pooled, view]
    const expected = sources.map((bytes) => Uint8Array.from(bytes))
    const { readPhoto } = channelOver(async (index) => sources[index]!)
    expect(await within(readPhoto(0))).toEqual(expected[0])
    expect(await within(readPhoto(1))).toEqual(expected[1])
    expect(pooled.toString()).toBe('a small file, in the pool')
    expect(pooled.buffer.byteLength).toBeGreaterThan(0)
    expect(larger.byteLength).toBe(1_000)
    expect(Uint8Array.from(view)).toEqual(expected[1])
  })

  it('moves bytes in a buffer Node will not transfer (sharp’s own output; refused since Node 22) by copying them once', async () => {
    const made = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 10, b: 10 } } })
      .jpeg()
      .toBuffer()
    const expected = Uint8Array.from(made)
    const { readPhoto } = channelOver(async () => made)
    expect(await within(readPhoto(0))).toEqual(expected)
    const { readPhoto: again } = channelOver(async () => made)
    expect(await within(again(0))).toEqual(expected)
  })

  it('through memoryPhotoReader, keeps the caller’s Buffers whole too (a Buffer’s slice is a view, not a copy)', async () => {
    const photos = [Buffer.from(photoBytes(9_000, 7)), await sharp({ create: { width: 20, height: 20, channels: 3, background: 'blue' } }).png().toBuffer()]
    const copies = photos.map((bytes) => Uint8Array.from(bytes))
    const { readPhoto } = channelOver(memoryPhotoReader(photos))
    for (const index of [0, 1, 0, 1]) expect(await within(readPhoto(index))).toEqual(copies[index])
    expect(photos.map((bytes) => Uint8Array.from(bytes))).toEqual(copies)
  })
})

describe('what a read that fails becomes on the reader’s side', () => {
  it('an unavailable store (503 StoreUnavailable) is a RenderRefused of status 503, code store_unavailable, naming the photo', async () => {
    const { readPhoto } = channelOver(async () => {
      throw new StoreUnavailable()
    })
    expect(await refusalOf(readPhoto(2))).toEqual({
      status: 503,
      code: 'store_unavailable',
      message: 'The upload store is unavailable. Please try again later.',
      field: 'images.2',
    })
  })

  it('a 400 of the store is a refusal naming its own field', async () => {
    const { readPhoto } = channelOver(async () => {
      throw badRequest('url', 'is not an upload of this service')
    })
    expect(await refusalOf(readPhoto(1))).toEqual({ status: 400, code: 'invalid_parameter', message: 'url: is not an upload of this service', field: 'url' })
  })

  it('a photo the store says was replaced since its header was read (409 UploadChanged) is a refusal of status 409, code image_changed, naming the photo', async () => {
    const { readPhoto } = channelOver(async () => {
      throw new UploadChanged()
    })
    expect(await refusalOf(readPhoto(2))).toEqual({
      status: 409,
      code: 'image_changed',
      message: 'The image changed after it was checked. Please upload it again.',
      field: 'images.2',
    })
  })

  it.each([413, 422])('a %i of the store is a refusal of that status, naming the photo when the error names no field', async (status) => {
    const { readPhoto } = channelOver(async () => {
      throw new HttpError(status, 'too_large', 'File is too big (max 5 MB)')
    })
    expect(await refusalOf(readPhoto(4))).toEqual({ status, code: 'too_large', message: 'File is too big (max 5 MB)', field: 'images.4' })
  })

  it.each([
    ['an Error', new Error('disk on fire'), 'disk on fire'],
    ['an HttpError of another status (404)', new HttpError(404, 'not_found', 'No such upload.'), 'No such upload.'],
    ['an HttpError of ours (500)', new HttpError(500, 'internal_error', 'broken'), 'broken'],
    ['something not an Error', 'just a string', 'just a string'],
  ])('%s is a plain Error saying which photo, not a refusal', async (_kind, thrown, said) => {
    const { readPhoto } = channelOver(async () => {
      throw thrown
    })
    const error = await within(readPhoto(3)).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(Error)
    expect(error).not.toBeInstanceOf(RenderRefused)
    expect((error as Error).message).toBe(`photo 3 could not be read: ${said}`)
  })

  it.each([
    ['no bytes', () => new Uint8Array(0)],
    ['a buffer already moved to another thread', alreadyMoved],
  ])('a read that gives %s is refused within a second instead of leaving the reader waiting', async (_kind, bytes) => {
    const { readPhoto } = channelOver(async () => bytes())
    await expect(within(readPhoto(0))).rejects.toThrow(/^photo 0 could not be read: no bytes/)
  })

  it('a store that gives the same buffer twice answers the first read and refuses the second at once (its bytes were moved)', async () => {
    const stored = photoBytes(2_000, 7)
    const expected = stored.slice()
    const { readPhoto } = channelOver(async () => stored)
    expect(await within(readPhoto(0))).toEqual(expected)
    await expect(within(readPhoto(0))).rejects.toThrow(/^photo 0 could not be read: no bytes/)
  })

  it('once the channel is closed, a read is neither passed to the store nor answered', async () => {
    const read = vi.fn(async () => photoBytes(10, 8))
    const { readPhoto, close } = channelOver(read)
    expect(await within(readPhoto(0))).toHaveLength(10)
    close()
    await expect(within(readPhoto(1), 200)).rejects.toThrow('still waiting after 200 ms')
    expect(read).toHaveBeenCalledTimes(1)
  })
})
