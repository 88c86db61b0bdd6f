/**
 * The photo worker: decodes, reduces and encodes one photo at a time for the page
 * (`photo-render.ts`, asked by `photo-prepare.ts`), away from the page's thread. A worker without `OffscreenCanvas` answers
 * `unsupported`, and the page prepares photos itself from then on.
 */
import { renderPrepared, UnreadablePhoto, type PrepareReply, type PrepareRequest } from './photo-render.js'

const scope = globalThis as unknown as { onmessage: ((event: MessageEvent<PrepareRequest>) => void) | null; postMessage(reply: PrepareReply): void }

scope.onmessage = (event) => {
  const { id, file, size, quality } = event.data
  if (typeof OffscreenCanvas === 'undefined' || typeof createImageBitmap === 'undefined') {
    scope.postMessage({ id, error: 'unsupported', message: 'no OffscreenCanvas in workers' })
    return
  }
  renderPrepared(file, size, quality).then(
    ({ photo, thumbnail }) => scope.postMessage({ id, photo, thumbnail }),
    (error: unknown) => {
      scope.postMessage({ id, error: error instanceof UnreadablePhoto ? 'unreadable' : 'unsupported', message: error instanceof Error ? error.message : String(error) })
    },
  )
}
