import { HttpError } from './errors.js'

const MB = 2 ** 20

/** Refused at once: more than the whole budget, which could never be granted without passing it. */
export class LargerThanBudget extends HttpError {
  constructor(
    readonly bytes: number,
    readonly totalBytes: number,
  ) {
    super(503, 'larger_than_budget', `This needs about ${Math.ceil(bytes / MB)} MB of memory and this server has ${Math.floor(totalBytes / MB)} MB for it.`)
  }
}

/**
 * A reservation is a finite, positive number of bytes. Anything else (NaN from a size a store did
 * not send, a negative difference) is a bug: thrown where it happens, before it can make the
 * count NaN and so refuse everything after it.
 */
export function assertReservable(bytes: number): void {
  if (!Number.isFinite(bytes) || bytes <= 0) throw new RangeError(`a memory reservation must be a finite, positive number of bytes, not ${bytes}`)
}

/**
 * Memory that V8 does not see, shared by the work that needs much of it at once: render jobs
 * (the canvas library's and sharp's pixels) and password hashes (scrypt's memory). Each asks for
 * its estimated peak before it starts and gives it back when done; what does not fit waits, first
 * come first served, so a large job is not passed over forever by small ones. Nothing is granted
 * past the total: a request for more than the whole budget is refused at once (callers say
 * beforehand what the visitor or the operator can do about it, with `canEverHold`).
 */
export class MemoryBudget {
  private held = 0
  private readonly waiting: { bytes: number; grant: () => void }[] = []

  constructor(readonly totalBytes: number) {
    if (!Number.isFinite(totalBytes) || totalBytes < 0) throw new RangeError(`a memory budget must be a finite number of bytes, at least 0, not ${totalBytes}`)
  }

  /** Bytes held by the work running now. */
  get inUse(): number {
    return this.held
  }

  get queued(): number {
    return this.waiting.length
  }

  /** Whether a reservation of this size can ever be granted. */
  canEverHold(bytes: number): boolean {
    return bytes <= this.totalBytes
  }

  private fits(bytes: number): boolean {
    return this.held + bytes <= this.totalBytes
  }

  /**
   * Resolves with the function that gives the bytes back, once they fit and everything that asked
   * before has had its turn. An aborted signal takes the request out of the line (rejecting with
   * the signal's reason): every caller that may wait passes one with a deadline. Throws at once
   * for a size that is not a finite, positive number; rejects at once with `LargerThanBudget`
   * for one that could never fit.
   */
  reserve(bytes: number, signal?: AbortSignal): Promise<() => void> {
    assertReservable(bytes)
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason)
      if (!this.canEverHold(bytes)) return reject(new LargerThanBudget(bytes, this.totalBytes))
      let released = false
      const release = () => {
        if (released) return
        released = true
        this.held -= bytes
        this.grantWaiting()
      }
      const entry = {
        bytes,
        grant: () => {
          signal?.removeEventListener('abort', onAbort)
          this.held += bytes
          resolve(release)
        },
      }
      const onAbort = () => {
        const at = this.waiting.indexOf(entry)
        if (at === -1) return
        this.waiting.splice(at, 1)
        reject(signal!.reason)
        // The head may have been what held the others back.
        this.grantWaiting()
      }
      if (this.waiting.length === 0 && this.fits(bytes)) return entry.grant()
      signal?.addEventListener('abort', onAbort, { once: true })
      this.waiting.push(entry)
    })
  }

  private grantWaiting(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.bytes)) this.waiting.shift()!.grant()
  }
}
