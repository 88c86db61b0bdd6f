/**
 * How a long measuring run (`npm run bench:load`, `npm run lighthouse`) stops on Ctrl-C, a stop
 * from outside or a closed terminal: the first signal aborts `signal` (what the run waits on, an
 * earlier commit's build included, ends) and calls `onStop` (closing the browser, so the load under
 * way fails); the run then stops at its next `goOn()` and its `finally` cleans up, exiting with
 * 128 + the signal's number. Ctrl-C reaches every process of the terminal's group, and npm passes
 * it on as well, so one press may bring more than one signal: only one a second or more after the
 * first ends the run at once, clean-up or not (a hang-up never does: no one is there to ask).
 */
import os from 'node:os'

/** Signals closer together than this are one press. */
const SAME_PRESS_MS = 1000

export interface Interruption {
  /** Aborted by the first signal (or the output's loss), its reason an Error that names it. */
  signal: AbortSignal
  /** Ends the run here, by throwing, if it was interrupted. */
  goOn(): void
}

export function stopOnSignals(onStop: () => void): Interruption {
  const controller = new AbortController()
  // When the first signal came (0: none yet; a run stopped by its output closing has had none).
  let firstSignalAt = 0
  const stop = (why: string, code: number) => {
    process.exitCode = code
    controller.abort(new Error(`stopped by ${why}`))
    try {
      onStop()
    } catch {
      // The run's own clean-up tries again, and reports.
    }
  }
  // Where the output goes may go first (a closed terminal, a `| tee` the same Ctrl-C ended, even
  // before the signal reaches this process, a `| head` that has read enough): writing to it must
  // not end the run before its clean-up, and a run no one can read stops as on a hang-up.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => controller.signal.aborted || stop('its output closing', 1))
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(name, () => {
      const code = 128 + os.constants.signals[name]
      if (!firstSignalAt) {
        firstSignalAt = Date.now()
        if (!controller.signal.aborted) stop(name, code)
        console.error(`\n${name}: stopping and cleaning up (again a second later to end at once)`)
      } else if (name !== 'SIGHUP' && Date.now() - firstSignalAt > SAME_PRESS_MS) process.exit(code)
    })
  }
  return {
    signal: controller.signal,
    goOn() {
      if (controller.signal.aborted) throw new Error((controller.signal.reason as Error).message)
    },
  }
}
