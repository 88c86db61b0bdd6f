/**
 * How a render thread gets a slideshow's photos: it asks for each one when a frame first needs
 * it, on a message port of the job's own, and the main thread reads it from the upload store
 * then and hands the bytes over without copying them. So neither thread holds ten photos' worth
 * of files while a job waits its turn or draws: at most the one being decoded.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads'
import { HttpError } from '../process/errors.js'
import { RenderRefused, type RenderRefusal } from './jobs.js'

/** A slideshow's photos by position, each read when asked for. */
export type PhotoReader = (index: number) => Promise<Uint8Array>

type Answer = { index: number; bytes: Uint8Array } | { index: number; refusal: Omit<RenderRefusal, 'ok'> } | { index: number; failure: string }

/** The bytes in a buffer of their own, which can then be moved to another thread. */
function movable(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? bytes : new Uint8Array(bytes)
}

/**
 * Moves the bytes to the port's other end. A buffer Node will not hand to another thread (one
 * that native code owns, as sharp's output is, or Node's shared pool: refused since Node 22) is
 * copied once into a buffer of its own and that is moved instead.
 */
function moveTo(port: MessagePort, index: number, bytes: Uint8Array): void {
  try {
    port.postMessage({ index, bytes } satisfies Answer, [bytes.buffer as ArrayBuffer])
  } catch (error) {
    if (!(error instanceof Error && error.name === 'DataCloneError')) throw error
    const copy = new Uint8Array(bytes)
    port.postMessage({ index, bytes: copy } satisfies Answer, [copy.buffer])
  }
}

/**
 * Main thread: a port for one job, answering each ask with `read(index)`, whose bytes are moved to
 * the render thread (so each read must give bytes of its own, as the stores' reads do). A refusal
 * of the store's (a photo gone or replaced, the store away) travels back as such, so the request
 * gets that 4xx or 503. `close` when the job is over.
 */
export function photoChannel(read: PhotoReader): { port: MessagePort; close(): void } {
  const { port1: mine, port2: theirs } = new MessageChannel()
  mine.on('message', async ({ index }: { index: number }) => {
    let answer: Answer
    try {
      const bytes = movable(await read(index))
      // Node drops a message whose transfer list holds a buffer already moved elsewhere, and the
      // thread would wait for it until the job's time ran out.
      if (bytes.byteLength === 0) throw new Error('no bytes (empty, or already handed to another thread)')
      moveTo(mine, index, bytes)
      return
    } catch (error) {
      answer =
        error instanceof HttpError && [400, 409, 413, 422, 503].includes(error.status)
          ? { index, refusal: { status: error.status as RenderRefusal['status'], code: error.code, message: error.message, field: error.field ?? `images.${index}` } }
          : { index, failure: error instanceof Error ? error.message : String(error) }
    }
    mine.postMessage(answer)
  })
  return {
    port: theirs,
    close: () => mine.close(),
  }
}

/** Render thread: reads photos through the job's port, one at a time. */
export function portPhotoReader(port: MessagePort): PhotoReader {
  return (index) =>
    new Promise((resolve, reject) => {
      port.once('message', (answer: Answer) => {
        if ('bytes' in answer) resolve(answer.bytes)
        else if ('refusal' in answer) reject(new RenderRefused(answer.refusal))
        else reject(new Error(`photo ${index} could not be read: ${answer.failure}`))
      })
      port.postMessage({ index })
    })
}

/**
 * Photos already in memory (tests, benchmarks): each read a copy in a buffer of its own, so the
 * caller's bytes stay theirs (a Buffer's `slice` would be a view of them).
 */
export const memoryPhotoReader =
  (photos: Uint8Array[]): PhotoReader =>
  async (index) =>
    new Uint8Array(photos[index]!)
