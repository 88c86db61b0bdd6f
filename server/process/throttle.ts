/**
 * Says whether something may be done now, at most once per interval for each name: a warning
 * that would otherwise be written at every request (a full store, a failing one) is written once
 * a minute. Only the names seen within the interval are remembered, at most `maxNames` of them,
 * so a stream of new names cannot grow it.
 */
export class Throttle {
  private readonly lastAt = new Map<string, number>()

  constructor(
    private readonly intervalMs: number,
    private readonly maxNames = 1_000,
  ) {}

  /** True when `name` was not let through within the interval before `nowMs` (then it is, now). */
  allow(nowMs: number, name = ''): boolean {
    const last = this.lastAt.get(name)
    if (last !== undefined && nowMs - last < this.intervalMs) return false
    if (last === undefined && this.lastAt.size >= this.maxNames) {
      for (const [seen, at] of this.lastAt) if (nowMs - at >= this.intervalMs) this.lastAt.delete(seen)
      if (this.lastAt.size >= this.maxNames) return false
    }
    this.lastAt.set(name, nowMs)
    return true
  }
}
