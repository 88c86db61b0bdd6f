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
  /** Aborted by the first signal, its reason the signal's name. */
  signal: AbortSignal
  /** Ends the run here, by throwing, if it was interrupted. */
  goOn(): void
}

export function stopOnSignals(onStop: () => void): Interruption {
  const controller = new AbortController()
  let firstSignalAt = 0
  // Where the output goes may go first (a closed terminal, a `| tee` the same Ctrl-C ended, even
  // before the signal reaches this process): writing to it must not end the run before its
  // clean-up. What it would have printed is lost; the run goes on to its end.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined)
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(name, () => {
      const code = 128 + os.constants.signals[name]
      if (!controller.signal.aborted) {
        firstSignalAt = Date.now()
        process.exitCode = code
        console.error(`\n${name}: stopping and cleaning up (again a second later to end at once)`)
        controller.abort(name)
        try {
          onStop()
        } catch {
          // The run's own clean-up tries again, and reports.
        }
      } else if (name !== 'SIGHUP' && Date.now() - firstSignalAt > SAME_PRESS_MS) process.exit(code)
    })
  }
  return {
    signal: controller.signal,
    goOn() {
      if (controller.signal.aborted) throw new Error(`stopped by ${String(controller.signal.reason)}`)
    },
  }
}
