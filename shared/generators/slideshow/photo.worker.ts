/**
 * The photo worker: decodes, reduces and encodes one photo at a time for the page
 * (`photo-render.ts`, asked by `photo-prepare.ts`), away from the page's thread, saying when the
 * photo is decoded. A worker without `OffscreenCanvas` answers `unsupported`, and the page
 * prepares photos itself from then on. A photo no longer wanted is not cancelled here: the page
 * ends the whole worker, the one way to stop a decode under way.
 */
import { renderPrepared, UnreadablePhoto, type PrepareReply, type PrepareRequest } from './photo-render.js'

const scope = globalThis as unknown as { onmessage: ((event: MessageEvent<PrepareRequest>) => void) | null; postMessage(reply: PrepareReply): void }

scope.onmessage = (event) => {
  const { id, file, size, quality } = event.data
  if (typeof OffscreenCanvas === 'undefined' || typeof createImageBitmap === 'undefined') {
    scope.postMessage({ id, error: 'unsupported', message: 'no OffscreenCanvas in workers' })
    return
  }
  renderPrepared(file, size, quality, (step) => scope.postMessage({ id, step })).then(
    (prepared) => scope.postMessage({ id, ...prepared }),
    (error: unknown) => {
      scope.postMessage({ id, error: error instanceof UnreadablePhoto ? 'unreadable' : 'unsupported', message: error instanceof Error ? error.message : String(error) })
    },
  )
}
