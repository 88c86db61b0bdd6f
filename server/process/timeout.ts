/** A wait that ran out of time: the thing waited for may still answer later. */
export class TimedOut extends Error {
  override name = 'TimedOut'
}

/** `promise`, or a rejection (`TimedOut`) saying that `what` did not answer, once `ms` have passed. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`${what} did not answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}
