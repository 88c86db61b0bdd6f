/**
 * The photo worker: decodes, reduces and encodes one photo at a time for the page
 * (`photo-prepare.ts`), away from the page's thread. A worker without `OffscreenCanvas` answers
 * `unsupported`, and the page prepares photos itself from then on.
 */
import { renderPrepared, type PrepareReply, type PrepareRequest } from './photo-prepare.js'

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
      const unreadable = error instanceof Error && error.name === 'PhotoProblem'
      scope.postMessage({ id, error: unreadable ? 'unreadable' : 'unsupported', message: error instanceof Error ? error.message : String(error) })
    },
  )
}
