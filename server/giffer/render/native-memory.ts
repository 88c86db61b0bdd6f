/**
 * The canvas library's pixel buffers (canvases, `getImageData` results) live outside V8's heap
 * and are freed by finalizers that run only when the thread's event loop turns, after a
 * collection has found them dead. A renderer that draws frame after frame in one turn keeps every
 * frame's pixels until the job ends: 100 reads of a 1000×1000 canvas held 400 MB. Between frames
 * (or pieces of a strip) a renderer calls `releaseDropped`: a young-generation collection, cheap
 * because the dropped buffers' wrappers are young, then one turn of the loop for the finalizers.
 * The collection needs Node's `--expose-gc`, which `npm start` and the Procfile pass; without it
 * the turn alone frees what V8 happened to collect.
 */
import type { Canvas } from '@napi-rs/canvas'

const collect = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc

export async function releaseDropped(): Promise<void> {
  collect?.({ type: 'minor' })
  await new Promise((resolve) => setImmediate(resolve))
}

/**
 * Gives a canvas's pixels back at once. A canvas that outlives the young-generation collections
 * (a slideshow's card, a strip's mask) waits for a full collection once dropped, and drawing goes
 * on beside it: a canvas made 1×1 frees its pixels there and then.
 */
export function freeCanvas(canvas: Canvas): void {
  canvas.width = 1
  canvas.height = 1
}
