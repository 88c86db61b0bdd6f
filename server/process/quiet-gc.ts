import type http from 'node:http'

/** How long the server must have had no request in flight before it collects. */
export const QUIET_GC_AFTER_MS = 10_000

type GcFunction = (options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async' }) => unknown

/**
 * One full garbage collection each time the server falls quiet, when Node runs with
 * `--expose-gc` (as `npm start` and the Procfile run it).
 *
 * Node's Buffers (rendered images, response bodies) live outside V8's heap and are freed only
 * when a collection finds them dead; with no requests there is no allocation, so no collection
 * comes, and after a burst of traffic the process could hold hundreds of megabytes of dead
 * buffers and an over-grown heap until the next busy moment. One collection after
 * `quietMs` without a request gives that memory back; it runs at most once per quiet spell.
 */
export function collectWhenQuiet(server: http.Server, quietMs = QUIET_GC_AFTER_MS, gc = (globalThis as { gc?: GcFunction }).gc): void {
  if (!gc) return
  let inFlight = 0
  let timer: NodeJS.Timeout | undefined
  let collected = true
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    inFlight++
    collected = false
    clearTimeout(timer)
    res.once('close', () => {
      if (--inFlight > 0 || collected) return
      clearTimeout(timer)
      timer = setTimeout(() => {
        collected = true
        void gc({ type: 'major', execution: 'async' })
      }, quietMs).unref()
    })
  })
}
