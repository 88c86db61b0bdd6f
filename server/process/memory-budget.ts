/**
 * Memory that V8 does not see, shared by the work that needs much of it at once: render jobs
 * (the canvas library's and sharp's pixels) and password hashes (scrypt's 128 MiB). Each asks
 * for its estimated peak before it starts and gives it back when done; what does not fit waits,
 * first come first served, so a large job is not passed over forever by small ones. Something
 * larger than the whole budget runs once nothing else holds any of it, alone.
 */
export class MemoryBudget {
  private held = 0
  private readonly waiting: { bytes: number; grant: () => void }[] = []

  constructor(readonly totalBytes: number) {}

  /** Bytes held by the work running now. */
  get inUse(): number {
    return this.held
  }

  get queued(): number {
    return this.waiting.length
  }

  private fits(bytes: number): boolean {
    return this.held === 0 || this.held + bytes <= this.totalBytes
  }

  /**
   * Resolves with the function that gives the bytes back, once they fit and everything that asked
   * before has had its turn. An aborted signal takes the request out of the line (rejecting with
   * the signal's reason).
   */
  reserve(bytes: number, signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason)
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
